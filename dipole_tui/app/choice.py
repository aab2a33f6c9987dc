"""What the new-game dialog settles, apart from the dialogs: the command line and the app make
one too, and this module loads no Textual."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GameChoice:
    """Which game, which board, who plays each side."""

    game_key: str
    variant: str
    players: tuple[str, str]


__all__ = ["GameChoice"]
