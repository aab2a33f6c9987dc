"""The analysis of a position, depth by depth, in a process of its own: what the app's analysis
mode shows while the game goes on, and what a review can ask of each position in turn.

The position is searched as the `hard` level searches it, deepening until `seconds` run out (its
tables grow with every depth, so the analysis of one position is capped), and one `Analysis` is
told for each depth completed: the score, and the line the search expects. In a game the exact
solver can solve (`Game.solvable`), the solver is tried first with a small budget, and again
between depths with a budget four times larger each time while the search has spent as much, so a
proved result ("White wins in 7 plies") replaces the evaluation as soon as it is in reach; the
analysis then ends with the proved line.

`Analyst` is the app's handle on the process: `analyse(game_key, record)` cancels the analysis
under way (within milliseconds) and starts the new one; `on_update(number, analysis)` gets each
depth on the process's reading thread, and `(number, None)` once that request's analysis is over
(finished, proved, stopped or failed: a failure's traceback goes to the error log).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from ..games.base import AnyGame, State
from ..records import parse_record
from ..registry import REGISTRY, game_named
from ..solver import solve
from .levels import create_search_bot
from .orphans import end_with_parent
from .process import CancelledFrom, Worker, log_failure
from .search import WIN, OutOfTime, Search, SearchResult, Stop, plies_to_end

ANALYSIS_LEVEL = "hard"  # the level whose search the analysis deepens
ANALYSIS_SECONDS = 30.0  # a position is analysed this long at most
MAX_DEPTH = 64
FIRST_SOLVE = 10_000  # the solver's first budget, in nodes: a small ending is proved at once
SOLVE_GROWTH = 4
LAST_SOLVE = 1_000_000  # no budget above this is tried: the search goes on alone
PROVED_LINE = 12  # moves at most in a proved line


@dataclass(frozen=True)
class Analysis:
    """One step of a position's analysis. `score` is the side to move's, in the game's
    evaluation units (`registry.Entry.unit`), or a proved result as the search scores one
    (`search.plies_to_end`); `line` is what best play looks like from here, in notation."""

    depth: int  # plies searched; 0 for a result the solver proved
    score: int
    line: tuple[str, ...]
    nodes: int

    @property
    def proved(self) -> bool:
        return plies_to_end(self.score) is not None


Report = Callable[[Analysis], None]


class _Settled(Exception):
    """The solver proved the result between two depths: the search has nothing to add."""


def analysis_search(game_key: str) -> Search[Any, Any]:
    """A search as `ANALYSIS_LEVEL` plays the game; keep it across positions to keep its tables."""
    entry = REGISTRY[game_key]
    bot = create_search_bot(ANALYSIS_LEVEL, entry.ladder, entry.game, None)
    return bot.search


def _one_ply_back(score: int) -> int:
    """The score of a position whose only move leads to a position scored `score`."""
    if plies_to_end(score) is not None:  # a win in n is a loss in n + 1 one ply before
        return -score + (1 if score > 0 else -1)
    return -score


def analyse_position(
    game: AnyGame,
    state: State[Any],
    search: Search[Any, Any],
    report: Report,
    stop: Stop,
    seconds: float = ANALYSIS_SECONDS,
) -> None:
    """Analyse `state` (not changed), telling `report` each step, until `seconds` pass, the
    result is proved, or `stop` is set. A position whose game is over is not reported on."""
    if state.outcome() is not None:
        return
    moves = search.knowledge.candidates(state)
    if len(moves) == 1:  # nothing to choose (a pass): the analysis is of the position after it
        move = moves[0]
        after = state.copy()
        after.play(move)
        text = game.format_move(move)
        outcome = after.outcome()
        if outcome is not None:
            won = 0 if outcome.winner is None else WIN - 1
            report(Analysis(1, won if outcome.winner == state.to_move else -won, (text,), 1))
            return

        def back(analysis: Analysis) -> None:
            score = _one_ply_back(analysis.score)
            depth = analysis.depth and analysis.depth + 1
            report(Analysis(depth, score, (text, *analysis.line), analysis.nodes))

        analyse_position(game, after, search, back, stop, seconds)
        return

    budget = FIRST_SOLVE if game.solvable else 0

    def settled() -> bool:
        """Try the solver with the budget reached; report a proved result with its line."""
        nonlocal budget
        solution = solve(game, state, max_nodes=budget, stop=stop)
        budget *= SOLVE_GROWTH
        if solution.result is None or solution.move is None:
            return False
        won = WIN - solution.plies
        score = won if solution.result == "win" else -won
        line = [solution.move]
        report(Analysis(0, score, (game.format_move(solution.move),), solution.nodes))
        work = state.copy()
        work.play(solution.move)
        while len(line) < PROVED_LINE and work.outcome() is None:
            step = solve(game, work, max_nodes=budget, stop=stop)
            if step.move is None:
                break
            line.append(step.move)
            work.play(step.move)
        if len(line) > 1:
            report(Analysis(0, score, tuple(map(game.format_move, line)), solution.nodes))
        return True

    if budget and settled():
        return

    def completed(result: SearchResult[Any]) -> None:
        line = search.principal_variation(state, result.move, result.depth)
        report(
            Analysis(result.depth, result.score, tuple(map(game.format_move, line)), result.nodes)
        )
        if budget and budget <= min(LAST_SOLVE, result.nodes) and settled():
            raise _Settled

    # OutOfTime: stopped while the solver was proving the line, outside the search's own watch
    with contextlib.suppress(_Settled, OutOfTime):
        search.run(state, depth=MAX_DEPTH, movetime=seconds, stop=stop, on_depth=completed)


@dataclass(frozen=True)
class AnalysisRequest:
    number: int
    game_key: str
    record: str  # the game so far, as a record: the worker replays it
    seconds: float


def serve(
    requests: Any, answers: Any, cancelled: Synchronized[int], error_log: Path | None = None
) -> None:
    """The analyst's loop: each request's steps as `(number, Analysis)`, then `(number, None)`."""
    end_with_parent()  # the app may be killed, with no chance to end the worker itself
    searches: dict[tuple[str, str], Search[Any, Any]] = {}
    while True:
        request: AnalysisRequest | None = requests.get()
        if request is None:
            answers.put(None)  # lets the app's reading thread end too
            return
        number = request.number

        def report(analysis: Analysis, number: int = number) -> None:
            answers.put((number, analysis))

        if cancelled.value < number:
            try:
                state = parse_record(request.record).state
                key = (request.game_key, state.variant)
                if key not in searches:
                    searches[key] = analysis_search(request.game_key)
                stop = CancelledFrom(cancelled, number)
                game = game_named(request.game_key)
                analyse_position(game, state, searches[key], report, stop, request.seconds)
            except Exception:  # a failure must not end the worker: the analysis just ends
                if error_log is not None:
                    log_failure(
                        error_log, f"the analysis failed in {request.game_key}", request.record
                    )
        answers.put((number, None))


class Analyst(Worker):
    """The analysis process (see the module's docstring)."""

    def __init__(
        self, on_update: Callable[[int, Analysis | None], None], error_log: Path | None = None
    ) -> None:
        super().__init__(serve, on_update, error_log, "analyst")

    def analyse(self, game_key: str, record: str, seconds: float = ANALYSIS_SECONDS) -> int:
        """Stop the analysis under way and analyse the game's last position; returns the
        request's number, which its updates carry."""
        self.cancel()
        return self._send(lambda number: AnalysisRequest(number, game_key, record, seconds))


__all__ = ["ANALYSIS_SECONDS", "Analysis", "Analyst", "analyse_position", "analysis_search"]
