"""The adaptive bot: a seat whose level follows the player, one step up the game's ladder after
the player wins, one step down after the player loses, the same after a draw. The level reached
is remembered per game in the data folder, so the next game starts where the last one left off.

Only the ladder's levels are walked (`random` is a reference, not a rung), weakest first.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import storage
from .registry import REGISTRY, levels

ADAPTIVE = "adaptive"


def rungs(game_key: str) -> list[str]:
    """The levels the adaptive bot walks in a game, weakest first."""
    return levels(game_key)[1:]


class AdaptiveLevels:
    """Each game's level for the adaptive bot, kept in `adaptive.json` (written whole or not at
    all). A file that cannot be read counts as no file: every game starts at its lowest rung."""

    FILE = "adaptive.json"

    def __init__(self, folder: Path) -> None:
        self.path = folder / self.FILE
        self._levels: dict[str, str] = {}
        try:
            data = storage.read_json(self.path, storage.MB, "the adaptive levels' file")
        except storage.UnreadableFile:  # missing, or not ours: every game from its first rung
            data = {}
        if isinstance(data, dict):
            self._levels = {
                str(key): level
                for key, level in data.items()
                if key in REGISTRY and level in rungs(key)
            }

    def level(self, game_key: str) -> str:
        """The level the adaptive bot plays at now in this game."""
        return self._levels.get(game_key) or rungs(game_key)[0]

    def after(self, game_key: str, player_won: bool | None) -> str:
        """The level after a game the player won (True), lost (False) or drew (None); kept.
        OSError when it cannot be kept."""
        ladder = rungs(game_key)
        at = ladder.index(self.level(game_key))
        if player_won is not None:
            at = max(0, min(len(ladder) - 1, at + (1 if player_won else -1)))
        self._levels[game_key] = ladder[at]
        storage.write_text(self.path, json.dumps(self._levels, indent=1, sort_keys=True) + "\n")
        return ladder[at]
