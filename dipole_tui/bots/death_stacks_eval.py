"""What the search knows about Death Stacks: an evaluation, noisy moves and move ordering.

A side loses when it controls no stack, so stacks controlled are the material, and the fewer the
opponent has left, the more each one matters. A stack's worth grows with the enemy pieces held
under it (out of the enemy's play) and with the own pieces in it (moves to come). Stacks over
four pieces must be cut down, so their excess is a burden. Threats are counted statically: enemy
stacks a side can land on next turn, worth more when they hold that side's own buried pieces,
which a capture frees. Almost every move can capture, so a quiescence search of captures
explodes; instead, the side to move is credited with its best threat (it moves first), and with
a near-win when it can take the opponent's last stack.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from ..games.death_stacks import (
    MAX_HEIGHT,
    SQUARES,
    TARGETS,
    TOO_TALL,
    DeathStacksState,
    Move,
    Stack,
)
from .levels import Ladder, Style
from .score import ScoreUnit
from .search import Knowledge


def _masks() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """LANDING[o][k]: squares k pieces from o can land on, as bits; UP_TO[o][h]: for 1..h."""
    landing, up_to = [], []
    for origin in range(SQUARES):
        exact = [0] + [sum(1 << t for t in TARGETS[origin][k]) for k in range(1, MAX_HEIGHT + 1)]
        cumulative = [0]
        for k in range(1, MAX_HEIGHT + 1):
            cumulative.append(cumulative[-1] | exact[k])
        landing.append(tuple(exact))
        up_to.append(tuple(cumulative))
    return tuple(landing), tuple(up_to)


LANDING, UP_TO = _masks()

StackFacts = tuple[int, int, int, int, bool]

WON_SOON = 50_000  # the side to move can take the opponent's last stack: far above any balance


@lru_cache(maxsize=1 << 16)
def reach(origin: int, stack: Stack) -> int:
    """Squares the stack on `origin` can land on next turn without uncovering an enemy piece
    (which would hand the enemy a stack), Too-Tall respected: as bits."""
    height = len(stack)
    top = stack[-1]
    if height <= TOO_TALL and top not in stack[:-1]:
        return UP_TO[origin][height]
    squares = 0
    for k in range(max(1, height - TOO_TALL), height + 1):
        if k == height or stack[height - 1 - k] == top:
            squares |= LANDING[origin][k]
    return squares


class DeathStacksKnowledge(Knowledge[DeathStacksState, Move]):
    """The evaluation every Death Stacks level plays with; levels differ in how far they look.
    Every legal move is searched, captures first; no bound on a move's gain is known."""

    control = 20  # per stack controlled
    captive = 4  # per enemy piece held under an own stack
    reserve = 2  # per own piece below the top of an own stack
    too_tall = 3  # per piece above four in an own stack
    threat = 3  # per enemy stack in reach, plus one per own piece it would free
    tempo = 2  # the side to move's best threat counts this many times more
    # The opponent's last stacks: a bonus for each count it is down to (index = stacks left).
    finishing = (0, 60, 25, 8)

    def __init__(self) -> None:
        # Per square, what a stack there is worth to its owner: computed once per stack seen.
        self._facts: list[dict[Stack, StackFacts]] = [{} for _ in range(SQUARES)]

    def facts(self, square: int, stack: Stack) -> StackFacts:
        """(owner, worth to it, squares it reaches, prize to the enemy for taking it, too tall)."""
        known = self._facts[square].get(stack)
        if known is not None:
            return known
        top = stack[-1]
        height = len(stack)
        own = stack.count(top)
        worth = self.captive * (height - own) + self.reserve * (own - 1)
        too_tall = height > TOO_TALL
        if too_tall:
            worth -= self.too_tall * (height - TOO_TALL)
        # Taking it frees the taker's own buried pieces: one point for the stack, one for each.
        known = (top, worth, reach(square, stack), 1 + height - own, too_tall)
        self._facts[square][stack] = known
        return known

    def evaluate(self, state: DeathStacksState) -> int:
        facts = self.facts
        stacks = [0, 0]
        worth = [0, 0]
        reached = [0, 0]
        # A side with a too-tall stack must move one of those next turn: only they reach.
        reached_tall = [0, 0]
        tall = [False, False]
        held: list[list[tuple[int, int]]] = [[], []]  # per owner: (square bit, prize for taking)
        for square, stack in enumerate(state.cells):
            if stack:
                top, value, squares, prize, too_tall = facts(square, stack)
                stacks[top] += 1
                worth[top] += value
                reached[top] |= squares
                if too_tall:
                    tall[top] = True
                    reached_tall[top] |= squares
                held[top].append((1 << square, prize))
        if not stacks[0] or not stacks[1]:  # over: the search scores it before asking
            return 0
        threats = [0, 0]
        best = [0, 0]
        for attacker in (0, 1):
            reach = reached_tall[attacker] if tall[attacker] else reached[attacker]
            for bit, prize in held[1 - attacker]:
                if reach & bit:
                    threats[attacker] += prize
                    if prize > best[attacker]:
                        best[attacker] = prize
        me = state.to_move
        you = 1 - me
        if stacks[you] == 1 and best[me]:
            return WON_SOON  # its last stack is in reach: the next move wins
        finishing = self.finishing
        left_me, left_you = stacks[me], stacks[you]
        bonus = (finishing[left_you] if left_you < len(finishing) else 0) - (
            finishing[left_me] if left_me < len(finishing) else 0
        )
        return (
            self.control * (left_me - left_you)
            + worth[me]
            - worth[you]
            + self.threat * (threats[me] - threats[you] + self.tempo * best[me])
            + bonus
        )

    def is_noisy(self, state: DeathStacksState, move: Move) -> bool:
        """A capture: landing on an enemy stack (ordered first; quiescence is not used)."""
        stack = state.cells[move.target]
        return bool(stack) and stack[-1] != state.to_move

    def first_win(self, state: DeathStacksState, moves: list[Move]) -> int:
        """A move wins at once when it takes the opponent's last stack and leaves none of its
        pieces on top where it started: told from the board, nothing played."""
        you = 1 - state.to_move
        if state.controls(you) != 1:
            return -1
        cells = state.cells
        for index, (origin, count, target) in enumerate(moves):
            below = cells[target]
            if below and below[-1] == you:
                source = cells[origin]
                if count == len(source) or source[-count - 1] != you:
                    return index
        return -1

    def first_hold(self, state: DeathStacksState, moves: list[Move]) -> int:
        """No move loses at once: the stack it lands on is the mover's."""
        return 0 if moves else -1

    def order(self, state: DeathStacksState, move: Move) -> int:
        """Captures by what they hold: own pieces freed count most, then the stack's height."""
        stack = state.cells[move.target]
        freed: int = stack.count(state.to_move)
        count: int = move.count
        return 4 * freed + len(stack) - count


# No quiescence search: nearly every move can capture, so the evaluation counts threats instead.
_STYLE = Style(DeathStacksKnowledge, None, 0, 0.0, quiescence=False)
_HARD = replace(_STYLE, contempt=15)


def _d(depth: int, slack: int, blunder: float, rating: int) -> Style:
    return replace(_HARD, depth=depth, slack=slack, blunder=blunder, rating=rating)


# The ladder, weakest first: a mistake costs more here than in Dipole (a stack left to be taken
# is often the game), so the steps are small changes of slack and the ladder is long. Up to
# `skilled` the levels look one ply ahead, then two, from `advanced` three; `hard` searches for
# its whole budget. At three plies a little less slack is worth far more than at one, so those
# levels' slacks are close together.
# Ratings: Elo over random, from `python bench/ladder.py --game death-stacks --games 200 --jobs 2`.
LADDER: Ladder = {
    "beginner": _d(1, 60, 0.50, 119),
    "novice": _d(1, 52, 0.42, 388),
    "learner": _d(1, 47, 0.37, 660),
    "casual": _d(1, 43, 0.32, 920),
    "improver": _d(1, 37, 0.25, 1205),
    "easy": _d(1, 31, 0.19, 1493),
    "steady": _d(1, 26, 0.15, 1759),
    "club": _d(1, 20, 0.11, 2014),
    "skilled": _d(1, 11, 0.06, 2293),
    "seasoned": _d(2, 16, 0.08, 2534),
    "medium": _d(2, 8, 0.04, 2744),
    "advanced": _d(3, 20, 0.10, 2982),
    "sharp": _d(3, 17, 0.08, 3178),
    "strong": _d(3, 14, 0.07, 3351),
    "expert": _d(3, 8, 0.04, 3558),
    "hard": replace(_HARD, rating=3807),
}
# Scores are told in stacks: one more stack under control than the opponent is about 1.0.
UNIT = ScoreUnit("stacks", DeathStacksKnowledge().control)
