"""Scores as everything past the search holds them: what a position is worth to one side.

The search and the solver count in plain ints for speed (a win n plies away scores `WIN - n`);
where a score leaves them (`search.SearchResult`, `proof.Solution`) it becomes a `Score`: an
evaluation in the game's units, or a result proved n plies away (passes count), won or lost. A
`PovScore` ties a score to the side it is for, as python-chess's `PovScore` ties its `Cp` or
`Mate` to a colour, so that each reader takes it from its own side (`pov`) and none guesses whose
it is. The words scores are said in live here too: `best`'s (`win 3`, `1.5`), the app's ("White
is better, +2.1"), and the winning chances that the evaluation bar and the review draw.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from mypy_extensions import mypyc_attr


@dataclass(frozen=True)
class ScoreUnit:
    """What a score is told in to people: `size` evaluation units make one of `name` (Dipole's
    checkers are worth 12 units each, so a score of 12 is told as 1.0 checkers)."""

    name: str  # plural: "checkers"
    size: int


RAW_UNITS = ScoreUnit("evaluation units", 1)  # for a game that names none

# A score in words, from the first side's view, by its size in the game's units (README):
# below EVEN it is even, below SLIGHTLY a side is slightly better, below BETTER better, else
# winning.
EVEN = 0.5
SLIGHTLY = 1.5
BETTER = 3.0
SCALE = 2.5  # units: winning chances tanh(s / (2 * SCALE)), about a fifth per unit when even


@functools.total_ordering
@dataclass(frozen=True)
class Score:
    """What a position is worth to one side: `units` of its game's evaluation (positive: that
    side stands better), or, where `plies` is set, a result proved: the game ends that many
    plies away, won by that side (`wins`) or lost. Ordered as the side wants them: the fastest
    loss lowest, then the slower ones, every evaluation, the slowest win, the fastest."""

    units: int = 0
    plies: int | None = None
    wins: bool = False

    def __post_init__(self) -> None:
        if (self.wins and self.plies is None) or (
            self.plies is not None and (self.units or self.plies < 0)
        ):
            raise ValueError(f"not a score: {self!r}")

    @classmethod
    def win(cls, plies: int) -> Score:
        return cls(plies=plies, wins=True)

    @classmethod
    def loss(cls, plies: int) -> Score:
        return cls(plies=plies)

    @property
    def proved(self) -> bool:
        return self.plies is not None

    def __neg__(self) -> Score:
        """The same position's worth to the other side."""
        if self.plies is None:
            return Score(-self.units)
        return Score(plies=self.plies, wins=not self.wins)

    def earlier(self) -> Score:
        """What the position one ply before is worth to the side that moved from it, when its
        only move leads to a position worth this: a result proved is one ply further away."""
        if self.plies is None:
            return -self
        return Score(plies=self.plies + 1, wins=not self.wins)

    def _rank(self) -> tuple[int, int]:
        if self.plies is None:
            return 1, self.units
        return (2, -self.plies) if self.wins else (0, self.plies)

    def __lt__(self, other: Score) -> bool:
        return self._rank() < other._rank()

    def format(self, unit: ScoreUnit) -> str:
        """As `best` says it: `1.5` (units of the game, one decimal), or `win 3` / `loss 4`."""
        if self.plies is not None:
            return f"{'win' if self.wins else 'loss'} {self.plies}"
        text = f"{self.units / unit.size:.1f}"
        return "0.0" if text == "-0.0" else text

    def chances(self, unit: ScoreUnit) -> float:
        """The score as winning chances, from -1 (lost) to 1 (won; a proved win), as lichess
        turns an engine's score into them: half a unit matters in an even game, little once it
        is won. The evaluation bar shows them, and `analysis.judge` judges moves by them."""
        if self.plies is not None:
            return 1.0 if self.wins else -1.0
        return math.tanh(self.units / unit.size / (2 * SCALE))


@mypyc_attr(native_class=False)  # pickled to the workers: a compiled frozen one is not
@dataclass(frozen=True)
class PovScore:
    """A score (`relative`) and the side it is for (`side`: the side to move, where the search
    gives it); each reader takes it from its own side with `pov`."""

    relative: Score
    side: int

    def pov(self, side: int) -> Score:
        """The score from `side`'s view."""
        return self.relative if side == self.side else -self.relative

    def in_words(self, side_names: tuple[str, str], unit: ScoreUnit, proved: bool = False) -> str:
        """The score said from the first side's view, as lichess says a chess evaluation:
        "White is better, +2.1", "Black is winning, -5.0", "Even, 0.0", or for a proved result
        "White wins in 7 plies" (plies to the end, passes included, as `solve` counts), or
        "Drawn with best play" (the solver `proved` that neither side can force a win)."""
        first = self.pov(0)
        if first.plies is not None:
            winner = side_names[0 if first.wins else 1]
            return f"{winner} wins in {first.plies} {'ply' if first.plies == 1 else 'plies'}"
        if proved:
            return "Drawn with best play"
        number = f"{first.units / unit.size:+.1f}"
        size = abs(float(number))  # the bands go by the number shown
        if size < EVEN:
            return "Even, 0.0" if size == 0 else f"Even, {number}"
        leader = side_names[0 if first.units > 0 else 1]
        band = "slightly better" if size < SLIGHTLY else "better" if size < BETTER else "winning"
        return f"{leader} is {band}, {number}"

    def first_side_share(self, unit: ScoreUnit) -> float:
        """The first side's share of the evaluation bar, 0 to 1: half when even, all of it for
        a proved win."""
        return 0.5 + 0.5 * self.pov(0).chances(unit)


__all__ = ["RAW_UNITS", "PovScore", "Score", "ScoreUnit"]
