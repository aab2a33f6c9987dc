"""The ladder: easy, medium and hard, and the fixed `ab4` baseline, all on one search.

`easy` and `medium` make human mistakes rather than random ones: they look at every move a
little way ahead and pick among the ones that look nearly best, `easy` with a wider eye for
"nearly" and a shorter look ahead than `medium`. `hard` thinks for its whole budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..games.base import Move, State
from . import Budget
from .bipod_eval import BipodKnowledge
from .death_stacks_eval import DeathStacksKnowledge
from .dipole_eval import DipoleKnowledge, RaceKnowledge
from .search import INFINITY, Knowledge, OutOfTime, Search, Stop


@dataclass(frozen=True)
class Style:
    """How a level plays: how deep it looks, and how far from the best it may stray."""

    depth: int | None  # None: as deep as the time allows
    slack: int  # evaluation units a chosen move may trail the best by
    blunder: float  # chance of ignoring the slack and playing a merely plausible move
    quiescence: bool = True
    knowledge: Callable[[], Knowledge] = DipoleKnowledge
    contempt: int = 0  # what a draw costs it: above 0, it avoids repeating to play for a win
    tick_mask: int = 511  # the clock is read every tick_mask + 1 nodes (fewer: costly nodes)


# Death Stacks has no quiescence search: nearly every move there can capture, so its evaluation
# counts threats statically instead.
_DEATH_STACKS = Style(None, 0, 0.0, quiescence=False, knowledge=DeathStacksKnowledge)

# Bi-Pod has no captures to play out: its evaluation measures the chains directly. Its units are
# 100 per stone the Runner's harder chain needs (and 50 per stone of both).
_BIPOD = Style(None, 0, 0.0, quiescence=False, knowledge=BipodKnowledge, tick_mask=15)

# Each game's ladder.
STYLES: dict[str, dict[str, Style]] = {
    "dipole": {
        "easy": Style(depth=1, slack=25, blunder=0.15),
        "medium": Style(depth=2, slack=6, blunder=0.04),
        "hard": Style(depth=None, slack=0, blunder=0.0),
        "ab4": Style(depth=4, slack=0, blunder=0.0, quiescence=False, knowledge=RaceKnowledge),
    },
    "death-stacks": {
        "easy": replace(_DEATH_STACKS, depth=1, slack=30, blunder=0.15),
        "medium": replace(_DEATH_STACKS, depth=2, slack=8, blunder=0.04),
        "hard": replace(_DEATH_STACKS, contempt=15),
    },
    "bipod": {
        "easy": replace(_BIPOD, depth=1, slack=120, blunder=0.2),
        "medium": replace(_BIPOD, depth=2, slack=40, blunder=0.05),
        "hard": _BIPOD,
    },
}


class SearchBot:
    """A bot of the ladder: a search with a playing style."""

    def __init__(self, name: str, style: Style, knowledge: Knowledge, seed: int | None) -> None:
        self.name = name
        self.style = style
        self.rng = random.Random(seed)
        self.search = Search(
            knowledge,
            quiescence=style.quiescence,
            contempt=style.contempt,
            tick_mask=style.tick_mask,
        )
        self.last_depth = 0

    def choose(self, state: State, budget: Budget, stop: Stop | None = None) -> Move:
        style = self.style
        depth = style.depth if style.depth is not None else budget.depth
        if style.depth is not None and budget.depth is not None:
            depth = min(style.depth, budget.depth)
        movetime = budget.movetime if style.depth is None else None
        if style.slack == 0:
            result = self.search.run(state, depth=depth, movetime=movetime, stop=stop)
            self.last_depth = result.depth
            return result.move
        return self._human_choice(state, depth or 1, stop)

    def _human_choice(self, state: State, depth: int, stop: Stop | None) -> Move:
        """Score every move at a shallow depth, then pick among the nearly best.

        A move is scored exactly only while it might be within the slack of the best so far;
        one that falls short is cut off early. Likely moves are weighed first, so that most
        are cut, and the pick is made from the moves in their canonical order, so the order of
        weighing never shows."""
        moves = self.search.knowledge.candidates(state)
        if len(moves) == 1:
            return moves[0]
        slack = self.style.slack
        if self.rng.random() < self.style.blunder:
            slack *= 4
        work = state.copy()
        scores: dict[Move, int] = {}
        best: int | None = None
        for move in self._likely_first(work, moves, depth):
            work.play(move)
            try:
                if best is None:
                    result = -self.search.score(work, depth - 1, stop)
                else:  # only whether it reaches best - slack matters, and its score if so
                    floor = best - slack - 1
                    result = -self.search.score(work, depth - 1, stop, beta=-floor)
            except OutOfTime:  # stopped: choose among what was weighed so far
                break
            finally:
                work.undo()
            scores[move] = result
            if best is None or result > best:
                best = result
        if best is None:
            return moves[0]
        near = [move for move in moves if scores.get(move, best - slack - 1) >= best - slack]
        return self.rng.choice(near)

    def _likely_first(self, state: State, moves: list[Move], depth: int) -> list[Move]:
        """The moves by how good they look at once (the reply's evaluation, lowest first)."""
        if depth <= 1:
            return moves
        evaluate = self.search.knowledge.evaluate
        looks: dict[Move, int] = {}
        for move in moves:
            state.play(move)
            looks[move] = evaluate(state) if state.outcome() is None else -INFINITY
            state.undo()
        return sorted(moves, key=looks.__getitem__)


def create_search_bot(name: str, game_key: str, seed: int | None) -> SearchBot:
    """A level of the ladder for a game; ValueError for an unknown name or a game it lacks."""
    known = {level for styles in STYLES.values() for level in styles}
    if name not in known:
        raise ValueError(f"no bot called {name!r}; expected random, {', '.join(sorted(known))}")
    styles = STYLES.get(game_key, {})
    if name not in styles:
        raise ValueError(f"the {name} bot does not play {game_key}")
    style = styles[name]
    return SearchBot(name, style, style.knowledge(), seed)
