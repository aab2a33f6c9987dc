"""The ladder: easy, medium and hard, and the fixed `ab4` baseline, all on one search.

`easy` and `medium` make human mistakes rather than random ones: they look at every move a
little way ahead and pick among the ones that look nearly best, `easy` with a wider eye for
"nearly" and a shorter look ahead than `medium`. `hard` thinks for its whole budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..games.base import Move, State
from . import Budget
from .death_stacks_eval import DeathStacksKnowledge
from .dipole_eval import DipoleKnowledge, RaceKnowledge
from .search import Knowledge, OutOfTime, Search, Stop


@dataclass(frozen=True)
class Style:
    """How a level plays: how deep it looks, and how far from the best it may stray."""

    depth: int | None  # None: as deep as the time allows
    slack: int  # evaluation units a chosen move may trail the best by
    blunder: float  # chance of ignoring the slack and playing a merely plausible move
    quiescence: bool = True
    knowledge: Callable[[], Knowledge] = DipoleKnowledge


# Each game's ladder. Death Stacks has no quiescence search: nearly every move there can
# capture, so its evaluation counts threats statically instead.
STYLES: dict[str, dict[str, Style]] = {
    "dipole": {
        "easy": Style(depth=1, slack=25, blunder=0.15),
        "medium": Style(depth=2, slack=6, blunder=0.04),
        "hard": Style(depth=None, slack=0, blunder=0.0),
        "ab4": Style(depth=4, slack=0, blunder=0.0, quiescence=False, knowledge=RaceKnowledge),
    },
    "death-stacks": {
        "easy": Style(1, slack=30, blunder=0.15, quiescence=False, knowledge=DeathStacksKnowledge),
        "medium": Style(2, slack=8, blunder=0.04, quiescence=False, knowledge=DeathStacksKnowledge),
        "hard": Style(None, slack=0, blunder=0.0, quiescence=False, knowledge=DeathStacksKnowledge),
    },
}


class SearchBot:
    """A bot of the ladder: a search with a playing style."""

    def __init__(self, name: str, style: Style, knowledge: Knowledge, seed: int | None) -> None:
        self.name = name
        self.style = style
        self.rng = random.Random(seed)
        self.search = Search(knowledge, quiescence=style.quiescence)
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
        """Score every move exactly at a shallow depth, then pick among the nearly best."""
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        work = state.copy()
        scores: list[tuple[int, Move]] = []
        for move in moves:
            work.play(move)
            try:
                result = self.search.score(work, depth - 1, stop)
            except OutOfTime:  # stopped: choose among what was weighed so far
                break
            finally:
                work.undo()
            scores.append((-result, move))
        if not scores:
            return moves[0]
        scores.sort(key=lambda pair: pair[0], reverse=True)
        best = scores[0][0]
        slack = self.style.slack
        if self.rng.random() < self.style.blunder:
            slack *= 4
        near = [move for score, move in scores if score >= best - slack]
        return self.rng.choice(near)


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
