"""What a worker does for each kind of request: a bot's move, a position's analysis depth by
depth, a whole game's review, a bot's answer to a draw offer. Each handler keeps what it learns
from one request to the next (the bots per seat, the analysis's search and its tables) and tells
its answers to `say` as they come.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ..analysis import accepts_draw, analyse_position, analysis_search, evaluations
from ..bots import Bot, Budget
from ..bots.levels import SearchBot
from ..bots.search import Search, Stop
from ..records import parse_record
from ..registry import create_bot, game_named
from .protocol import (
    AnalysisRequest,
    Answer,
    DrawRequest,
    DrawWeighed,
    Evaluated,
    MoveFound,
    MoveRequest,
    Request,
    ReviewRequest,
)

R = TypeVar("R", contravariant=True)
Say = Callable[[Answer], None]


class Handler(Protocol[R]):
    def __call__(self, request: R, stop: Stop, say: Say, /) -> None: ...


class Moves:
    """A bot's move, and the line it expects after it."""

    def __init__(self) -> None:
        self.bots: dict[tuple[str, int, str, str], Bot] = {}

    def __call__(self, request: MoveRequest, stop: Stop, say: Say) -> None:
        game = game_named(request.game_key)
        state = parse_record(request.record).state
        key = (request.game_key, request.seat, request.bot, state.variant)
        if key not in self.bots:
            self.bots[key] = create_bot(request.bot, request.game_key)
        bot = self.bots[key]
        move = bot.choose(state, Budget(request.movetime, request.depth), stop=stop)
        if stop.is_set():  # cut short: not the move the bot would choose
            return
        expected = bot.line(state, move) if isinstance(bot, SearchBot) else [move]
        say(MoveFound(game.format_move(move), tuple(map(game.format_move, expected))))


class Analyses:
    """A position's analysis, each depth as it completes (`analysis.analyse_position`)."""

    def __init__(self) -> None:
        self.searches: dict[tuple[str, str], Search[Any, Any]] = {}

    def __call__(self, request: AnalysisRequest, stop: Stop, say: Say) -> None:
        state = parse_record(request.record).state
        key = (request.game_key, state.variant)
        if key not in self.searches:
            self.searches[key] = analysis_search(request.game_key)
        game = game_named(request.game_key)
        search = self.searches[key]
        analyse_position(game, state, search, say, stop, request.seconds, request.lines)


def review(request: ReviewRequest, stop: Stop, say: Say) -> None:
    """Every position of the game evaluated in turn (`analysis.evaluations`)."""
    state = parse_record(request.record).state
    for ply, evaluation in enumerate(evaluations(request.game_key, state, request.movetime, stop)):
        if stop.is_set():  # cut short by the stop: not what the search would say
            return
        say(Evaluated(ply, evaluation))


def weigh_draw(request: DrawRequest, stop: Stop, say: Say) -> None:
    """Whether the bot accepts the draw offered (`analysis.accepts_draw`)."""
    state = parse_record(request.record).state
    accepts = accepts_draw(
        request.game_key, state, request.side, request.seconds, request.level, stop
    )
    if not stop.is_set():  # cut short: not what the bot would answer
        say(DrawWeighed(accepts))


Handlers = dict[type[Request], Handler[Any]]


def handlers() -> Handlers:
    """A handler for each kind of request, fresh: one set a worker process."""
    return {
        MoveRequest: Moves(),
        AnalysisRequest: Analyses(),
        ReviewRequest: review,
        DrawRequest: weigh_draw,
    }
