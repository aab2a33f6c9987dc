"""What the app asks its workers and what they answer: plain frozen values, which cross between
processes as they are. Every request is answered by zero or more answers of its own kind, then
by its end (a `Reply` whose answer is None), whether it finished, was stopped or failed."""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis import ANALYSIS_SECONDS, Analysis


@dataclass(frozen=True)
class MoveRequest:
    """A bot's move in the game so far (a record: the worker replays it)."""

    game_key: str
    record: str
    bot: str
    seat: int  # bots are kept per seat, so each learns from its own game
    movetime: float | None
    depth: int | None = None

    def failure(self) -> str:
        return f"the {self.bot} bot failed in {self.game_key}, seat {self.seat}"


@dataclass(frozen=True)
class MoveFound:
    """The bot's move in notation, and the line it expects after it, the move first. A bot
    that found none (it failed, or was stopped) says nothing before the request's end."""

    move: str
    line: tuple[str, ...]


@dataclass(frozen=True)
class AnalysisRequest:
    """The analysis of the game's last position, depth by depth: answered by `Analysis`es, with
    up to `lines` best lines each (`analysis.best_lines`) when more than one is asked."""

    game_key: str
    record: str
    seconds: float = ANALYSIS_SECONDS
    lines: int = 1

    def failure(self) -> str:
        return f"the analysis failed in {self.game_key}"


@dataclass(frozen=True)
class ReviewRequest:
    """The evaluation of every position of the whole game, in order: answered by `Evaluated`s."""

    game_key: str
    record: str
    movetime: float

    def failure(self) -> str:
        return f"the review failed in {self.game_key}"


@dataclass(frozen=True)
class Evaluated:
    """The evaluation of the position after `ply` moves of the game reviewed (its analysis's
    last step)."""

    ply: int
    evaluation: Analysis


@dataclass(frozen=True)
class DrawRequest:
    """A bot's answer to a draw offer in the game so far: answered by a `DrawWeighed`."""

    game_key: str
    record: str
    side: int  # the bot's, the side offered the draw
    seconds: float
    level: str  # the level the bot plays at, whose judgement it is

    def failure(self) -> str:
        return f"weighing a draw offer failed in {self.game_key}"


@dataclass(frozen=True)
class DrawWeighed:
    """The bot accepts the draw offered (`analysis.accepts_draw`), or declines it."""

    accepts: bool


Request = MoveRequest | AnalysisRequest | ReviewRequest | DrawRequest
Answer = MoveFound | Analysis | Evaluated | DrawWeighed


@dataclass(frozen=True)
class Reply:
    """An answer to request `number`; None: that request is over, nothing more will come."""

    number: int
    answer: Answer | None


__all__ = [
    "AnalysisRequest",
    "Answer",
    "DrawRequest",
    "DrawWeighed",
    "Evaluated",
    "MoveFound",
    "MoveRequest",
    "Reply",
    "Request",
    "ReviewRequest",
]
