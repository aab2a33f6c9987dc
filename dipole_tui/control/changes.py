"""What the keeper answers after a change of the game: words, notices, the end's question and
the other player's."""

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


class Question(NamedTuple):
    """What the other player asks of the one here (a take-back, a rematch): accepted or
    declined through the referee's `answer`."""

    headline: str
    text: str
    what: str  # takeback, rematch


class Change:
    """What the screen shows after a change of the game."""

    def __init__(self, message: str = "") -> None:
        self.message = message
        self.notices: list[Notice] = []
        self.game_over: GameOver | None = None
        self.question: Question | None = None
