"""Depth-first proof-number search (df-pn): who wins a position, without caring how fast, and a
bound on how fast its proof wins.

`proof.solve` asks it first in a game whose positions never repeat (a game's graph without
cycles, where a proof is a tree of positions and every proof number is sound whatever the path).
Where alpha-beta's null window at 0 commits to the first winning line its ordering finds and must
refute every defence against it however long it runs, proof numbers spend the search where the
proof is cheapest to finish: the tall-stack Dipole endings whose result alpha-beta proved in 1.5
and 5.5 million nodes take 0.43 and 0.45 million here. A proof also bounds the win's length (the
longest line of the proof tree, the winner taking its fastest proved move at each of its turns),
usually far tighter than the first win alpha-beta finds (9 plies where alpha-beta's first win
took 24), which is where `proof.solve`'s bisection of the exact length starts.

A position is asked whether its side to move wins (`win` True) or loses (False) with best play; a
draw is neither. Proof and disproof numbers follow the usual AND/OR rules: a position that wins
needs one move to a position that loses, one that loses needs every move to lead to one that
wins. A position not searched yet starts as 1 for the side it favours and its count of replies
for the other (the fewest replies: the same measure as the alpha-beta's ordering), one decided by
the game's knowledge (`Knowledge.decided`) or over is proved or disproved at once. Thresholds are
passed down as df-pn does (Nagai), the second-best child's number raised by a quarter (the 1+e
trick, Pawlewicz and Lew) so that the search does not hop between two close siblings.

What it keeps is bounded: a proof or disproof for each position settled (what the proof's length
and move are read back from) and the numbers of each searched position not settled yet; past
`most` positions it gives up (None) and the caller proves the result with alpha-beta instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic

from ..games.base import M, State
from .search import Knowledge

INFINITE = 1 << 40  # a proof or disproof number that no search reaches: settled
EPSILON_NUMERATOR, EPSILON_DENOMINATOR = 5, 4  # the 1+e trick's factor: 1.25
WORST = 1 << 30  # below any move's `Knowledge.order`


# What `ProofNumbers.length` tells of each position of a proof: its key, whether its side to
# move wins (1) or loses (0), within how many plies, and the index of the move that keeps to it.
Keep = Callable[[int, int, int, int], None]


def keep_nothing(key: int, win: int, plies: int, index: int) -> None:
    """A `Keep` that keeps nothing."""


def least_two(numbers: list[int]) -> tuple[int, int]:
    """The index of the least of `numbers` and the next least (INFINITE when there is none):
    the child df-pn searches, and how far it may go before a sibling is cheaper (1+epsilon)."""
    best, first, second = 0, INFINITE, INFINITE
    for index, number in enumerate(numbers):
        if number < first:
            best, first, second = index, number, first
        elif number < second:
            second = number
    return best, second


class Full(Exception):
    """Raised when the positions kept would pass the bound."""


class ProofNumbers(Generic[M]):
    """One df-pn search's tables over one game, counting its nodes with `tick` (the solver's
    budget, stop and progress: it raises to end the search)."""

    def __init__(self, knowledge: Knowledge[Any, M], tick: Callable[[], None], most: int) -> None:
        self.knowledge = knowledge
        self.tick = tick
        self.most = most
        # Keyed by key * 2 + win: a position's side to move wins (win 1) or loses (win 0).
        self.proved: set[int] = set()
        self.disproved: set[int] = set()
        self.numbers: dict[int, tuple[int, int]] = {}
        self.keep: Keep = keep_nothing

    def kept(self) -> int:
        return len(self.proved) + len(self.disproved) + len(self.numbers)

    def known(self, state: State[M], win: int) -> tuple[int, int]:
        """The proof and disproof numbers of "`state`'s side to move wins" (or "loses", win
        0): settled if the game is over, decided or searched to a proof; else as last searched,
        or as first guessed."""
        slot = state.key * 2 + win
        if slot in self.proved:
            return 0, INFINITE
        if slot in self.disproved:
            return INFINITE, 0
        numbers = self.numbers.get(slot)
        if numbers is not None:
            return numbers
        outcome = state.outcome()
        if outcome is not None:
            holds = outcome.winner is not None and (outcome.winner == state.to_move) == bool(win)
            return (0, INFINITE) if holds else (INFINITE, 0)
        decided = self.knowledge.decided(state)
        if decided is not None:
            return (0, INFINITE) if (decided > 0) == bool(win) else (INFINITE, 0)
        replies = state.count_moves()
        return (1, replies) if win else (replies, 1)

    def prove(self, state: State[M], win: int) -> bool:
        """Whether `state`'s side to move wins (win 1) or loses (0) with best play: searched
        from `state` whatever the knowledge says of it (the root needs its move)."""
        proof, _ = self._search(state, INFINITE - 1, INFINITE - 1, win)
        return proof == 0

    def _search(
        self, state: State[M], most_proof: int, most_disproof: int, win: int
    ) -> tuple[int, int]:
        """Search `state` until its proof number reaches `most_proof` or its disproof number
        `most_disproof`, or it is settled; the numbers found."""
        self.tick()
        moves = state.legal_moves()
        other = 1 - win
        proofs: list[int] = []
        disproofs: list[int] = []
        for move in moves:
            state.play(move)
            proof, disproof = self.known(state, other)
            state.undo()
            proofs.append(proof)
            disproofs.append(disproof)
        # Winning is an OR over the moves of the children's losing; losing, an AND of their
        # winning. `chosen` holds the numbers the choice goes by: the proofs where one child
        # suffices, the disproofs where one child refutes.
        chosen = proofs if win else disproofs
        while True:
            if win:
                proof, disproof = min(proofs), min(INFINITE, sum(disproofs))
                total, least_bound, total_bound = disproof, most_proof, most_disproof
            else:
                proof, disproof = min(INFINITE, sum(proofs)), min(disproofs)
                total, least_bound, total_bound = proof, most_disproof, most_proof
            if proof >= most_proof or disproof >= most_disproof or not proof or not disproof:
                break
            best, second = least_two(chosen)
            child_least = min(least_bound, second * EPSILON_NUMERATOR // EPSILON_DENOMINATOR + 1)
            others = (disproofs if win else proofs)[best]
            child_total = total_bound - total + others
            state.play(moves[best])
            try:
                if win:  # the child must lose: its proof is our proof
                    proofs[best], disproofs[best] = self._search(
                        state, child_least, child_total, other
                    )
                else:
                    proofs[best], disproofs[best] = self._search(
                        state, child_total, child_least, other
                    )
            finally:
                state.undo()
        slot = state.key * 2 + win
        if not proof:
            self.proved.add(slot)
            self.numbers.pop(slot, None)
        elif not disproof:
            self.disproved.add(slot)
            self.numbers.pop(slot, None)
        else:
            if slot not in self.numbers and self.kept() >= self.most:
                raise Full
            self.numbers[slot] = (proof, disproof)
            return proof, disproof
        if self.kept() > self.most:
            raise Full
        return proof, disproof

    def length(self, state: State[M], win: int, keep: Keep) -> tuple[int, int]:
        """Within how many plies the proof found wins (win 1) or loses (0) `state`, and the
        index of the move that keeps to it: the winner's fastest proved move, the loser's
        longest defence. Only for a position proved so (`prove`). Every position of the proof
        is given to `keep` with its own length and move, each a true bound on its value."""
        self.keep = keep
        lengths: dict[int, int] = {}
        return self._length(state, win, lengths)

    def _length(self, state: State[M], win: int, lengths: dict[int, int]) -> tuple[int, int]:
        self.tick()
        knowledge, other = self.knowledge, 1 - win
        best, chosen, rank = -1, -1, 0
        for index, move in enumerate(state.legal_moves()):
            # Of two moves as fast (or as slow), the one the alpha-beta's ordering puts first:
            # the cheapest capture.
            ranked = knowledge.order(state, move) if knowledge.is_noisy(state, move) else -WORST
            state.play(move)
            try:
                plies = self._child_length(state, other, lengths)
            finally:
                state.undo()
            if plies < 0:  # not a loss for the opponent: no part of the winner's proof
                continue
            better = plies < best if win else plies > best
            if chosen < 0 or better or (plies == best and ranked > rank):
                best, chosen, rank = plies, index, ranked
        self.keep(state.key, win, best + 1, chosen)
        return best + 1, chosen

    def _child_length(self, state: State[M], win: int, lengths: dict[int, int]) -> int:
        """`_length`'s plies for a move's position, -1 when its proof has no part in this one."""
        proof, _ = self.known(state, win)
        if proof:
            return -1
        slot = state.key * 2 + win
        plies = lengths.get(slot)
        if plies is None:
            outcome = state.outcome()
            decided = None if outcome is not None else self.knowledge.decided(state)
            if outcome is not None:
                plies = 0
            elif decided is not None:
                plies = abs(decided)
            else:
                plies, _ = self._length(state, win, lengths)
            lengths[slot] = plies
        return plies
