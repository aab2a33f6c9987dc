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


def rungs(game_key: str) -> list[str]:
    """The levels the adaptive bot walks in a game, weakest first."""
    return levels(game_key)[1:]


class AdaptiveLevels:
    """Each game's level for the adaptive bot, kept in `adaptive.json` (written whole or not at
    all). A file that cannot be read, or is not of this shape, is set aside under a new name
    (`problem` says so, to be told once): every game starts again at its lowest rung."""

    FILE = "adaptive.json"

    def __init__(self, folder: Path) -> None:
        self.path = folder / self.FILE
        levels, self.problem = storage.read_settings(
            self.path, "the adaptive levels' file", _levels
        )
        self._levels: dict[str, str] = levels or {}

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
        text = json.dumps(self._levels, indent=1, sort_keys=True) + "\n"
        storage.write_settings(self.path, text)
        return ladder[at]


def _levels(data: object) -> dict[str, str]:
    """The levels an `adaptive.json` gives; ValueError when it is not `{"game": "level"}`. A
    game or a level this version does not know is passed over (a newer version's file)."""
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError('expected {"game": "level", ...}')
    return {key: level for key, level in data.items() if key in REGISTRY and level in rungs(key)}
