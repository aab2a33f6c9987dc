"""What the keeper answers after a change of the game: words, notices and the end's question."""

from __future__ import annotations

from typing import Literal, NamedTuple

Severity = Literal["information", "warning", "error"]


class Notice(NamedTuple):
    """A toast: said once, beside the game (markup off: paths and reasons hold brackets)."""

    text: str
    title: str = ""
    severity: Severity = "information"
    timeout: float | None = None


class GameOver(NamedTuple):
    """The question asked when a game ends."""

    headline: str
    text: str


class Change:
    """What the screen shows after a change of the game."""

    def __init__(self, message: str = "") -> None:
        self.message = message
        self.notices: list[Notice] = []
        self.game_over: GameOver | None = None
