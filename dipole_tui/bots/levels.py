"""The ladder: each game's levels, weakest first, and the fixed `ab4` baseline, all on one search.

The lower levels make human mistakes rather than random ones: they look at every move a little
way ahead and pick among the ones that look nearly best, the lower the level the wider its eye
for "nearly". The top levels play their search's best move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..games.base import AnyGame, M, State
from . import Budget, proof
from .search import INFINITY, Knowledge, OutOfTime, Search, SearchResult, Stop


@dataclass(frozen=True)
class Style:
    """How a level plays: what it knows of the game, how deep it looks, and how far from the
    best it may stray. Each game's ladder of styles is written beside its knowledge."""

    knowledge: Callable[[], Knowledge[Any, Any]]
    depth: int | None  # None: as deep as the time allows
    slack: int  # evaluation units a chosen move may trail the best by
    blunder: float  # chance of ignoring the slack and playing a merely plausible move
    stray: float = 0.0  # chance of any legal move at all, as a player who has no plan yet
    quiescence: bool = True
    contempt: int = 0  # what a draw costs it: above 0, it avoids repeating to play for a win
    tick_mask: int = 511  # the clock is read every tick_mask + 1 nodes (fewer: costly nodes)
    # The share of a move's time the exact solver gets first, where the knowledge thinks it may
    # prove the position (`Knowledge.provable`); 0: never. A level that thinks by the clock only.
    prove: float = 0.0
    rating: int | None = (
        None  # Elo over `random`, as bench/ladder.py measured it (None: a baseline)
    )


Ladder = Mapping[str, Style]  # a game's levels (and baselines) by name


class SearchBot:
    """A bot of the ladder: a search with a playing style."""

    def __init__(self, name: str, style: Style, seed: int | None, game: AnyGame) -> None:
        self.name = name
        self.style = style
        self.game = game  # asked which moves throw material away for nothing
        self.rng = random.Random(seed)
        self.search: Search[Any, Any] = Search(
            style.knowledge(),
            quiescence=style.quiescence,
            contempt=style.contempt,
            tick_mask=style.tick_mask,
        )
        self.last_depth = 0
        # The exact solver, an attribute so a test can stand in for it (a compiled module's
        # call to another's function is bound when compiled, past any monkeypatch).
        self.solve: Callable[..., proof.Solution[Any]] = proof.solve

    def choose(self, state: State[M], budget: Budget, stop: Stop | None = None) -> M:
        style = self.style
        depth = style.depth if style.depth is not None else budget.depth
        if style.depth is not None and budget.depth is not None:
            depth = min(style.depth, budget.depth)
        movetime = budget.movetime if style.depth is None else None
        if movetime and style.prove and self.game.solvable:
            started = time.perf_counter()
            proved = self._proved_move(state, style.prove * movetime, stop)
            if proved is not None:
                return proved
            movetime = max(movetime - (time.perf_counter() - started), 0.001)
        if style.slack == 0:
            result = self.search.run(state, depth=depth, movetime=movetime, stop=stop)
            self.last_depth = result.depth
            chosen: M = result.move
            return chosen
        return self._human_choice(state, depth or 1, stop)

    def _proved_move(self, state: State[M], seconds: float, stop: Stop | None) -> M | None:
        """A move that keeps what the solver proves within `seconds` (the fastest win, the
        longest defence of a loss, a draw held), or None: not proved in time, or not worth
        trying. Where the solver reaches, it sees to the end, as no search by the clock can.
        Told to whoever watches the search (`best`) as a search's result: the move, its score."""
        knowledge = self.search.knowledge
        if not knowledge.provable(state):
            return None
        started = time.perf_counter()
        until = _Until(started + seconds, stop)
        solution = self.solve(self.game, state, knowledge, stop=until)
        score = solution.score
        if score is None or solution.move is None:
            return None
        move: M = solution.move
        self.last_depth = 1  # its line is the move alone: the search's table knows nothing of it
        if self.search.on_depth is not None:
            spent = time.perf_counter() - started
            found = SearchResult(move, score, 1, solution.nodes, spent)
            self.search.on_depth(found)
        return move

    def line(self, state: State[M], move: M) -> list[M]:
        """The line it expects after choosing `move` in `state`, the move first: as long as its
        last search looked (one move for a level that does not deepen)."""
        found: list[M] = self.search.principal_variation(state, move, max(self.last_depth, 1))
        return found

    def _human_choice(self, state: State[M], depth: int, stop: Stop | None) -> M:
        """Find the best move's score at a shallow depth, then pick among the nearly best.

        Whether another move comes within the slack of the best is a yes-or-no question, far
        cheaper to search than its exact score. Likely moves are weighed first, so that the
        best is found early, and the pick is made from the moves in their canonical order, so
        the order of weighing never shows."""
        if self.style.stray and self.rng.random() < self.style.stray:
            anything: M = self.rng.choice(state.legal_moves())
            return anything
        moves: list[M] = self.search.knowledge.candidates(state)
        if len(moves) == 1:
            return moves[0]
        slack = self.style.slack
        blunder = self.rng.random() < self.style.blunder
        if blunder:
            slack *= 4
        search = self.search
        try:
            best_move, best = search.weigh(
                state, self._likely_first(state.copy(), moves, depth), depth, stop
            )
            near = [
                move
                for move in moves
                if move == best_move or search.reaches(state, move, depth, best - slack, stop)
            ]
            # Only in a blunder does it throw material away for less than the best: a person
            # learning the game still keeps their checkers, most of the time.
            if not blunder:
                near = [
                    move
                    for move in near
                    if move == best_move
                    or not self.game.gives_away(move)
                    or search.reaches(state, move, depth, best, stop)
                ]
        except OutOfTime:  # stopped: there is no time left to choose
            return moves[0]
        return self.rng.choice(near)

    def _likely_first(self, state: State[M], moves: list[M], depth: int) -> list[M]:
        """The moves by how good they look at once (the reply's evaluation, lowest first)."""
        if depth <= 1:
            return moves
        evaluate = self.search.knowledge.evaluate
        looks: dict[M, int] = {}
        for move in moves:
            state.play(move)
            looks[move] = evaluate(state) if state.outcome() is None else -INFINITY
            state.undo()
        return sorted(moves, key=looks.__getitem__)


@dataclass(frozen=True)
class _Until:
    """A stop at a moment, or sooner if the caller's own stop says so."""

    deadline: float
    stop: Stop | None

    def is_set(self) -> bool:
        return time.perf_counter() > self.deadline or (self.stop is not None and self.stop.is_set())


def create_search_bot(name: str, ladder: Ladder, game: AnyGame, seed: int | None) -> SearchBot:
    """A level of a game's ladder; ValueError for a level the game lacks."""
    if name not in ladder:
        known = ", ".join(["random", *ladder])
        raise ValueError(f"no bot called {name!r} plays {game.name}; expected one of {known}")
    return SearchBot(name, ladder[name], seed, game)
