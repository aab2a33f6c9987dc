"""What the search knows about Dipole: evaluations, noisy moves and move ordering.

The race: a stack of h checkers with d rows still ahead of it can make at most h * (d + 1) single
steps before its checkers are gone. Once the armies have passed each other, the side with more
steps left wins, because the other must remove its checkers first. Material matters more: a
capture takes a whole stack's steps away at once.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar, Final, NamedTuple

from mypy_extensions import i64, mypyc_attr

from ..games.dipole import (
    BLACK,
    MAX_HEIGHT,
    OFF,
    STRIDE,
    WHITE,
    DipoleState,
    Move,
    move_lines,
)
from .levels import Ladder, Style
from .score import ScoreUnit
from .search import INFINITY, Knowledge

PROVABLE = 14  # checkers on the board at most, for `hard` to try the exact solver first


# worth's tables by (far_row_cost, size, side): an int key, which compiled code looks up
# without building and hashing a tuple of the arguments, as functools.cache would per call.
_WORTH: Final[dict[int, tuple[int, ...]]] = {}


def worth(size: int, side: int, far_row_cost: int) -> tuple[int, ...]:
    """What one checker of `side` counts on each square of the evaluation's race: the steps it
    can still make (rows ahead + 1), less `far_row_cost` on its far row."""
    key = (far_row_cost * 16 + size) * 2 + side
    table = _WORTH.get(key)
    if table is None:
        steps = [
            size - s // STRIDE if side == WHITE else s // STRIDE + 1 for s in range(size * STRIDE)
        ]
        table = _WORTH[key] = tuple(n - far_row_cost if n == 1 else n for n in steps)
    return table


def race(state: DipoleState, side: int, far_row_cost: int = 0) -> int:
    """The steps a side can still make: over its stacks, height x (rows to its far edge + 1),
    less `far_row_cost` a checker on its far row."""
    steps, cells = worth(state.size, side, far_row_cost), state.cells
    # i64s: compiled, a tagged int multiplies a negative one (Black's heights) slowly.
    sign: i64 = 1 if side == WHITE else -1
    total: i64 = 0
    for square in state.stacks[side]:
        total += cells[square] * sign * steps[square]
    return total


def race_decided(state: DipoleState) -> int | None:
    """The end of a pure race, in plies (positive: the side to move wins), or None while a
    capture may still happen.

    Captures are over for good once every White stack is above every Black one and no stack can
    ever grow as tall as the distance back to the nearest enemy row: a capture over d rows moves
    d checkers, and a stack can only be built from its own side's checkers behind it. From then on
    each side can spend exactly one step of its race a move (one checker, one row, diagonally,
    or off the far row) and must move while it has checkers, so the side to move wins if it has
    more steps left, when the other's last checker leaves.
    """
    cells, whites, blacks = state.cells, state.stacks[WHITE], state.stacks[BLACK]
    nearest_white, nearest_black = whites[0], blacks[-1]
    lowest_white = nearest_white // STRIDE
    highest_black = nearest_black // STRIDE
    gap = lowest_white - highest_black
    if gap <= 0:
        return None
    # A side's checkers on a stack's rank and behind it: its tallest stack there, at most. Only
    # the ranks of its stacks need a look: between them the count stays, the distance grows;
    # none, when all its checkers together could not span the gap (the nearest stack first).
    white_checkers, black_checkers = state.checkers
    if white_checkers >= gap:
        if cells[nearest_white] >= gap:
            return None
        behind = 0
        for square in whites:
            behind += cells[square]
            if behind >= square // STRIDE - highest_black:
                return None
    if black_checkers >= gap:
        if -cells[nearest_black] >= gap:
            return None
        behind = 0
        for square in blacks[::-1]:
            behind -= cells[square]
            if behind >= lowest_white - square // STRIDE:
                return None
    me = state.to_move
    mine, theirs = race(state, me), race(state, 1 - me)
    return 2 * theirs if mine > theirs else -(2 * mine - 1)


@cache
def _lines(size: int, side: int) -> tuple[list[list[tuple[tuple[int, int], ...]]], ...]:
    """Per square and height, the (count, target) of every move along a line within reach, and
    of the forward ones alone: what `takeable` and `in_hand` read, built once."""
    reach = move_lines(size, side)
    within: list[list[tuple[tuple[int, int], ...]]] = [[] for _ in range(STRIDE * STRIDE)]
    ahead: list[list[tuple[tuple[int, int], ...]]] = [[] for _ in range(STRIDE * STRIDE)]
    for square, line in reach.items():
        for height in range(MAX_HEIGHT + 1):
            within[square].append(tuple((k, t) for k, t, _, _, _ in line if k <= height))
            ahead[square].append(tuple((k, t) for k, t, fwd, _, _ in line if fwd and k <= height))
    return within, ahead


def takeable(state: DipoleState, side: int) -> list[int]:
    """For each square, the tallest stack `side` could capture there on its next move (0: none):
    a capture over k squares moves k checkers onto a stack of k or fewer, so a stack of h on a
    square is taken by any enemy stack reaching it from k >= h squares away, with k or more."""
    tallest = [0] * (STRIDE * STRIDE)
    cells, sign = state.cells, 1 if side == WHITE else -1
    within = _lines(state.size, side)[0]
    for origin in state.stacks[side]:
        for k, target in within[origin][cells[origin] * sign]:
            if tallest[target] < k:
                tallest[target] = k
    return tallest


def in_hand(state: DipoleState, side: int, takeable_by_them: list[int]) -> int:
    """The moves a side has in hand: over its stacks with at least one forward move that neither
    leaves the board nor lands where the other side could take it next, height x rows ahead (the
    single steps such a stack can still take before its checkers must leave). A stack hemmed in
    has none: its next move gives material or leaves the board."""
    cells, sign, size = state.cells, 1 if side == WHITE else -1, state.size
    ahead = _lines(size, side)[1]
    total = 0
    for origin in state.stacks[side]:
        height = cells[origin] * sign
        for k, target in ahead[origin][height]:
            there = cells[target] * sign
            if there >= 0 and takeable_by_them[target] < there + k:
                rank = origin // STRIDE
                total += height * (size - 1 - rank if side == WHITE else rank)
                break
    return total


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' variants of it
class DipoleKnowledge(Knowledge[DipoleState, Move]):
    """The evaluation every level plays with: material first, then the race. Threats are left
    to the quiescence search, which plays the captures out. The levels below `hard` play every
    race out (nothing is `decided`); every legal move is searched."""

    material_weight = 12
    far_row_cost = 0  # a checker's cost on its far row, on top of its one step of the race

    def evaluate(self, state: DipoleState) -> int:
        me, cost = state.to_move, self.far_row_cost
        material: i64 = state.checkers[me] - state.checkers[1 - me]
        return self.material_weight * material + race(state, me, cost) - race(state, 1 - me, cost)

    def quiet_gain(self, state: DipoleState) -> int | None:
        """0: a move that captures nothing moves checkers forward or off, so it only spends
        the mover's race (or its material, which outweighs any far row's cost)."""
        return 0

    def gain(self, state: DipoleState, move: Move) -> int:
        """Exactly what the move changes in the mover's evaluation (a capture of the last
        enemy checkers wins, so its gain is unbounded)."""
        count: i64  # as `race`'s
        origin, target, count, capture = move
        if not count:  # a pass
            return 0
        me = state.to_move
        mine = worth(state.size, me, self.far_row_cost)
        if target == OFF:
            return -count * (self.material_weight + mine[origin])
        moved = count * (mine[target] - mine[origin])
        if not capture:
            return moved
        there = state.cells[target]
        taken = there if there > 0 else -there  # not abs(): compiled, abs() takes an object
        if taken == state.checkers[1 - me]:
            return INFINITY
        theirs = worth(state.size, 1 - me, self.far_row_cost)[target]
        return taken * (self.material_weight + theirs) + moved

    def is_noisy(self, state: DipoleState, move: Move) -> bool:
        return move[3]  # its capture: by index, which compiled code reads without a lookup

    def split(self, state: DipoleState, moves: list[Move]) -> tuple[list[Move], list[Move]]:
        """The captures (biggest first) and the rest: a capture told by its index, with no call
        per move, and ordered only where there are two."""
        noisy: list[Move] = []
        quiet: list[Move] = []
        for move in moves:
            if move[3]:
                noisy.append(move)
            else:
                quiet.append(move)
        if len(noisy) > 1:
            noisy.sort(key=lambda move: self.order(state, move), reverse=True)
        return noisy, quiet

    def noisy_moves(self, state: DipoleState) -> list[Move]:
        captures = state.captures()
        if len(captures) > 1:
            captures.sort(key=lambda move: self.order(state, move), reverse=True)
        return captures

    def first_win(self, state: DipoleState, moves: list[Move]) -> int:
        """Only a capture of every checker the other side has left wins, so no move is played."""
        left, cells = state.checkers[1 - state.to_move], state.cells
        for index, (_, target, _, capture) in enumerate(moves):
            if capture and cells[target] in (left, -left):
                return index
        return -1

    def first_hold(self, state: DipoleState, moves: list[Move]) -> int:
        """Only a removal of the mover's last checkers loses at once (a pass never does)."""
        mine = state.checkers[state.to_move]
        for index, (_, target, count, _) in enumerate(moves):
            if target != OFF or count < mine:
                return index
        return -1

    def order(self, state: DipoleState, move: Move) -> int:
        """Captures by victim size (cheapest attacker first); then forward moves; removals last."""
        _, target, count, capture = move
        if capture:
            there = state.cells[target]
            return 100 * (there if there > 0 else -there) - count
        if target == OFF:
            return -100
        return 0


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' variants of it
class ExactRaceKnowledge(DipoleKnowledge):
    """`hard`'s: a race past every capture is decided without a search, so the search and the
    solver see a won race as won however far off its end is. And a checker on its far row costs
    more than its one step: it can only leave, a checker lost a move, so a side that hurries its
    checkers there runs out of moves in hand first (fixed-depth matches: 3 beats 0 and 6)."""

    far_row_cost = 3

    def decided(self, state: DipoleState) -> int | None:
        return race_decided(state)

    def provable(self, state: DipoleState) -> bool:
        """Up to 14 checkers: most positions of `hard`'s games with so few have their result
        proved in 20,000 nodes or fewer, a quarter of a second (bench/data/dipole-labelled.txt);
        the exact length, which a move needs, costs more, so not every try comes in time."""
        return sum(state.checkers) <= PROVABLE

    def quiet_gain(self, state: DipoleState) -> int | None:
        """No bound where one move may end the armies' contact, as it can reach a won race: a
        move shifts one stack of the mover's and takes at most one of the other side's, so
        while two White stacks stand no higher than two Black ones, contact goes on."""
        stacks = state.stacks
        if len(stacks[WHITE]) < 2 or len(stacks[BLACK]) < 2:
            return None
        second_lowest_white = stacks[WHITE][1] // STRIDE  # the lists are sorted
        second_highest_black = stacks[BLACK][-2] // STRIDE
        return 0 if second_lowest_white <= second_highest_black else None


class Terms(NamedTuple):
    """What `hard-fit` weighs, each the side to move's less the other side's (or the weights)."""

    material: float  # checkers
    race: float  # single steps left (`race`)
    far_row: float  # checkers on the far row, which can only leave
    in_hand: float  # moves in hand (`in_hand`)
    stacks: float  # stacks: each can move on its own, so more of them keep more moves in hand
    to_move: float  # always 1: having to move, a burden where every move gives something


def terms(state: DipoleState) -> Terms:
    """The position's terms for the side to move: what the fit weighs and the evaluation adds."""
    me, them = state.to_move, 1 - state.to_move
    cells, last = state.cells, state.size - 1
    far = [0, 0]
    for square in state.stacks[WHITE]:
        if square // STRIDE == last:
            far[WHITE] += cells[square]
    for square in state.stacks[BLACK]:
        if square < STRIDE:
            far[BLACK] -= cells[square]
    return Terms(
        state.checkers[me] - state.checkers[them],
        race(state, me) - race(state, them),
        far[me] - far[them],
        in_hand(state, me, takeable(state, them)) - in_hand(state, them, takeable(state, me)),
        len(state.stacks[me]) - len(state.stacks[them]),
        1,
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' variants of it
class FittedKnowledge(ExactRaceKnowledge):
    """`hard-fit`'s: the terms weighed as a logistic fit to positions the solver proved found
    them (`bench/fit_eval.py`, on `bench/data/dipole-labelled.txt`), a checker kept at 12. Its
    sign agrees with the proofs more often than `hard`'s, but it has not yet made a stronger
    player (README, "The bots"), so it is a baseline, not `hard`. A quiet move can change both
    sides' moves in hand by much, so no bound on its gain is known: every move is searched."""

    # A class variable: a subclass's own weights are read, compiled or not.
    weights: ClassVar[Terms] = Terms(
        material=12, race=-0.67, far_row=-5.87, in_hand=3.06, stacks=4.54, to_move=-4.67
    )

    def evaluate(self, state: DipoleState) -> int:
        return round(sum(w * t for w, t in zip(self.weights, terms(state), strict=True)))

    def quiet_gain(self, state: DipoleState) -> int | None:
        return None


class RaceKnowledge(DipoleKnowledge):
    """The `ab4` baseline's evaluation, as public Dipole programs play: only the race, and
    lower is better (checkers hurried forward and off)."""

    def evaluate(self, state: DipoleState) -> int:
        me = state.to_move
        return race(state, 1 - me) - race(state, me)

    def quiet_gain(self, state: DipoleState) -> int | None:
        """None: here a step forward is a gain."""
        return None


# The ladder, weakest first. Up to `strong` each level looks one ply ahead (captures played out)
# and picks among the moves within `slack` of the best, now and then (`blunder`) within four
# times that: the lower the level, the wider its eye for "nearly best", so the more stacks it
# leaves en prise and the more captures it misses. `expert` searches 3 plies, `hard` for its
# whole budget, and it alone knows a race is decided before it is played out, and asks the exact
# solver first where it may prove the position. `ab4` is the fixed baseline that public Dipole
# programs resemble; `hard-v1` is `hard`'s knowledge as first released, on today's search (a
# faster search is measured against the old code itself, with `bench/versus.py`); `hard-fit`
# weighs moves in hand as the proved positions say.
# Ratings: Elo over random, from `python bench/ladder.py --game dipole --games 200 --jobs 2`
# (`hard`'s by the compiled build, `--from expert`: README, "The bots").
LADDER: Ladder = {
    "beginner": Style(DipoleKnowledge, depth=1, slack=50, blunder=0.40, rating=182),
    "novice": Style(DipoleKnowledge, depth=1, slack=34, blunder=0.24, rating=387),
    "easy": Style(DipoleKnowledge, depth=1, slack=25, blunder=0.15, rating=628),
    "steady": Style(DipoleKnowledge, depth=1, slack=20, blunder=0.12, rating=819),
    "club": Style(DipoleKnowledge, depth=1, slack=16, blunder=0.08, rating=1101),
    "skilled": Style(DipoleKnowledge, depth=1, slack=12, blunder=0.06, rating=1292),
    "medium": Style(DipoleKnowledge, depth=1, slack=6, blunder=0.03, rating=1483),
    "strong": Style(DipoleKnowledge, depth=1, slack=0, blunder=0.0, rating=1703),
    "expert": Style(DipoleKnowledge, depth=3, slack=0, blunder=0.0, rating=1885),
    "hard": Style(ExactRaceKnowledge, depth=None, slack=0, blunder=0.0, rating=2167, prove=0.25),
    "hard-v1": Style(DipoleKnowledge, depth=None, slack=0, blunder=0.0),
    "hard-fit": Style(FittedKnowledge, depth=None, slack=0, blunder=0.0, prove=0.25),
    "ab4": Style(RaceKnowledge, depth=4, slack=0, blunder=0.0, quiescence=False),
}
# Scores are told in checkers: material comes first, a checker ahead is about 1.0.
UNIT = ScoreUnit("checkers", DipoleKnowledge().material_weight)
