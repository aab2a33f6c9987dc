"""An exact solver: who wins a position with best play, and in how many plies.

Best play: the winner ends the game as fast as it can, the loser holds out as long as it can, and
passes count as plies. A win in n plies scores WIN - n, a loss in n scores -(WIN - n). In a game
whose positions never repeat (Dipole, Bi-Pod) the result is proved first by a proof-number
search (`pns`, df-pn), which proves who wins without caring how fast and spends its nodes where
the proof is cheapest to finish. Its proof bounds the distance (the winner keeps to its fastest
proved move, the loser takes its longest defence within the proof: a win within L plies, L
usually a ply or a few from the true length), and every position of the proof goes into the
table as such a bound with its move. The distance is then narrowed down from L one ply at a
time ("a win within L - 1 plies?", each window cut off that many plies down by mate-distance
pruning) until a window fails, the one that shows no faster win exists (or no longer defence).
Each window is asked of two searches in turn, each resuming where the table left it with twice
its last share of nodes (`_window`): alpha-beta's null window first (WINDOW_LEAST nodes), then a
depth-limited df-pn with a WINDOW_RATIO-th of that, as a df-pn node costs about four of
alpha-beta's in time (`_Solver.reach`: "this position's score >= beta", its settled positions
kept in the same table as the bounds they prove, its own numbers keyed by position and
threshold). A window that holds is df-pn's: it need not refute a line that wins a ply too slowly
before trying another, and the bound it proves is the best of its proof (a window asked for 18
plies may prove 17), where alpha-beta, with the moves of the last proof first, spent millions of
nodes refuting them (the ending 8:B:Wg1=2,g3=1,c5=7,d6=1:Bf4=1,b6=1,h6=3, a loss in 14 whose
proof bounded it at 25: its ten windows that held took 14 million nodes of alpha-beta, 72,000 of
df-pn). The last window, which fails, is alpha-beta's: refuting every move to a depth is what a
null window does well, and df-pn took three to eight times its nodes there. So taking turns
costs the faster of the two about twice over at worst. The table keeps bounds on the scores
keyed by the Zobrist key, and every bound found on the way stays in it. A position whose end the
game's knowledge tells at once (`Knowledge.decided`: Dipole's race past every capture) is scored
so without searching it, by every search.

Why: alpha-beta's null window at 0 proved the result in a few thousand nodes mostly, but commits
to the first winning line its ordering finds and must refute every defence against it however
long it runs: the tall-stack Dipole endings (8:B:Wc5=5:Bg7=4, 8:B:Wh2=4:Bc7=3,f8=1) took 1.5 and
5.5 million nodes for the result alone, where df-pn takes 0.43 and 0.45 million. And its first
win was often far longer than the shortest (24 plies for a win in 9), so the bisection of the
distance that followed ran 4 to 6 windows, those that held as costly as the first proof or more
(a win within 12 plies took 118,586 nodes where the win in 9 took 108): 26 to 242 times the
result's nodes went to the length. From the proof's bound, that ending's length takes 16,390
nodes in one window, not 142,967 in four.

What makes the alpha-beta fast (measured on random endings, `bench/solver.py`): the moves are
ordered as a proof-number search would choose them, the game's noisy moves (captures) first and
then the moves that leave the opponent the fewest replies, so that a refutation needs few
branches; a move whose position the table already refutes cuts at once, before anything is
searched (enhanced transposition cutoff, found while counting those replies); and a node that
can only reach its window by ending the game this ply tries its moves for that without searching
them (`Knowledge.first_win`, `first_hold`: every game tells them from the board). A node costs a
move generation and, per move, a play, a table lookup and a count of the replies
(`State.count_moves`, which Dipole reads from tables built once per board); about two nodes in
three end at once, on the table or on `decided`. What limits it now (the endings of 8 and 9
checkers that `bench/solver.py` does not solve within a second): the last window, no faster win
than the true length, which must refute every move of the winner's to that depth (148,000 nodes
for a win in 18); a window that holds only after long work by either search (a win within 23
plies, where the proof gave 30); and the two tall-stack endings, whose result alone takes over
400,000 nodes of df-pn, 4 to 6 s. Tried and left out: killer moves in the windows (the fewest
replies order better: 40% more nodes, 86% more for the win in 23); one window over the whole
range from the proof's bound (16% and 37% more than the windows one ply at a time); and a wider
1+e for the result's df-pn (1.5 or 2 rather than 1.25: more nodes for the win in 28 and the win
in 23, fewer only for the win in 34).

If the proof-number search would keep more than the memory bound allows (`PROOF_BYTES` a
position), the result is proved by alpha-beta's null window at 0 instead, and the distance
bisected between 1 and the first win's length, as before.

The table is bounded (`memory`, 256 MB unless said; `Table`): buckets of two entries of 16 bytes,
as chess engines keep theirs, which grow with what is stored up to the bound and then replace.
A bucket keeps in its first entry the position whose proof took the most nodes, and in its second
the latest to come; a new proof as expensive as the first's takes its place and moves it down.
An entry is only ever a true bound on a position's value, whatever path led there (the bounds
count plies from the position, not the root), so losing one costs time, never a wrong answer. The
root's move is kept apart, not read back from the table (which keeps a move's index in 15 bits).

Draws score 0. A game whose every game ends (`Game.solvable`) can be solved so: where no position
repeats (Bi-Pod's runner variants draw), df-pn proves a draw as neither a win nor a loss, and a
move to a position its side to move does not win keeps it. In a game where a position can come
again (`Game.repeats`: Death Stacks, drawn by a third occurrence), "draw" means
that with best play neither side can force a win, and the search needs no repetition rule to
find wins: a side that can force a win can force it as fast without ever repeating a position (a
strategy that wins from a position's second occurrence wins from its first, where every count is
lower, so any cycle can be cut out of it). So a null window "a win within d plies?", which
mate-distance pruning cuts off d plies down, is answered the same with repetitions or without,
whatever the path: the search ignores them, and every bound it stores is the position's own,
path or no path (no graph history interaction). Such games are deepened (d = 1, 2, 4, ...: a win
or a loss within d, then bisected as above); a draw, which no depth proves, is proved by
retrograde analysis (`_retrograde`) of every position reachable from the root once d has passed
`RETROGRADE_AFTER`, if there are few enough of them for the memory bound. Positions of the game
before the root count as drawn wherever the search meets them (their next occurrence may be
their third): a win or a loss found is then real, and a draw means that neither side can force a
win without going back to a position already seen. A position given alone (the command line's,
the puzzles') has no such past.

Nothing here is particular to one game: it uses the protocol, and the move ordering of the game's
`hard` bot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, NamedTuple

from mypy_extensions import mypyc_attr

from ..games.base import Game, M, State
from .pns import EPSILON_DENOMINATOR, EPSILON_NUMERATOR, INFINITE, Full, ProofNumbers, least_two
from .score import Score
from .search import Knowledge, Stop
from .table import ENTRY_BYTES, LOWER, MOVE, MOVES, SCORE, WORK
from .table import Table as Table  # the command line's, from here as before

WIN = 1 << 20  # a win in n plies scores WIN - n; a loss in n, -(WIN - n)
TICK = 1023  # `stop` and `progress` are looked at every TICK + 1 nodes

MEMORY_MB = 256  # the table's default size, here and in the app's analysis
# In a game that repeats, a draw is looked for by retrograde analysis once neither side wins
# within this many plies, over as many positions as the memory the table does not use allows
# at RETROGRADE_BYTES each: a position takes 850 to 920 bytes at the analysis's peak (its key's
# dict entry, its moves' and its parents' lists; tracemalloc on Death Stacks endings of 2,592
# and 49,248 positions), so the table and the analysis stay within the bound together.
RETROGRADE_AFTER = 16
RETROGRADE_BYTES = 1024
# The proof-number search keeps the positions it settles in sets and the numbers of the others in
# a dict: 159 bytes a position (tracemalloc, a Dipole ending of 39,462 positions), 256 allowing
# for a set or dict's growth. It has half the memory bound: its proof's bounds go to the table
# (64 bytes an entry) before it is let go, and the table has the whole bound after.
PROOF_BYTES = 256
# df-pn's windows key a position's numbers by its key and threshold together.
_SLOT_SHIFT = 0x9E3779B1
# The distance's windows (`_window`): alpha-beta's first share of nodes, and df-pn's as a part of
# alpha-beta's (a df-pn node weighs every child at once: about four of alpha-beta's in time).
WINDOW_LEAST = 2000 * 8
WINDOW_RATIO = 8
_SLOT_MASK = (1 << 62) - 1


@mypyc_attr(native_class=False)  # mypyc cannot compile a generic dataclass (mypyc/mypyc#827)
@dataclass(frozen=True)
class Solution(Generic[M]):
    """A solved position, for the side to move: a "win" or a "loss" in `plies` plies, or a
    "draw" (neither side can force a win; `plies` 0), and a `move` that keeps it so (None when
    the game is already over). `result` None: the search stopped (or ran out of nodes) before
    it knew."""

    result: Literal["win", "loss", "draw"] | None
    plies: int
    move: M | None
    nodes: int

    @property
    def score(self) -> Score | None:
        """The result as a `Score` for the side to move (a draw: even); None while unknown."""
        if self.result is None:
            return None
        if self.result == "draw":
            return Score()
        return Score.win(self.plies) if self.result == "win" else Score.loss(self.plies)


class _Unknown(Exception):
    """Raised inside the search when the nodes run out or a stop is requested."""


class _Spent(Exception):
    """Raised inside a df-pn window when its share of the nodes is spent."""


class _Solver(Generic[M]):
    def __init__(
        self,
        knowledge: Knowledge[Any, M],
        max_nodes: int | None,
        stop: Stop | None,
        progress: Callable[[int], None] | None,
        memory: int,
        game: Game[Any, M],
        root: State[M],
    ) -> None:
        self.knowledge = knowledge
        self.max_nodes = max_nodes
        self.stop = stop
        self.progress = progress
        self.nodes = 0
        self.table = Table(memory)
        self.root_move = -1  # the root's best move, as its last store gave it
        self.numbers: dict[int, tuple[int, int]] = {}  # df-pn's windows: unsettled numbers
        self.most_numbers = memory // (2 * PROOF_BYTES)
        self.window_end = 0  # df-pn's window gives up past this many nodes
        # The keys of the positions of the game before the root (the root's own excepted): a
        # draw wherever the search meets one, whatever the path.
        self.before: set[int] = set()
        if game.repeats:
            earlier = root.copy()
            while earlier.plies:
                earlier.undo()
                self.before.add(earlier.key)
            self.before.discard(root.key)

    def store(self, key: int, ply: int, low: int, high: int, move: int, nodes: int) -> None:
        """Keep bounds found `ply` plies from the root, the move that gave the lower one and
        the `nodes` the proof took."""
        if not ply:
            self.root_move = move
        self.keep(key, _to_table(low, ply), _to_table(high, ply), move, nodes)

    def seed(self, key: int, win: int, plies: int, move: int) -> None:
        """Keep what a proof-number search proved of a position (its side to move wins, or
        loses, within `plies` plies, with `move`) as bounds in the table, where the bisection's
        windows find them: a win within d plies cuts a window that asks for no faster one at
        once, and the move is tried first."""
        if win:
            self.keep(key, WIN - plies, WIN - 1, move, 1)
        else:
            self.keep(key, -(WIN - 1), -(WIN - plies), move, 1)

    def keep(self, key: int, low: int, high: int, move: int, work: int) -> None:
        """Keep bounds on a position's own score (plies counted from it), its best move and the
        nodes its proof took (`work`): what every store of the solver comes to."""
        self.table.put(
            key,
            min(work.bit_length(), 31) << WORK
            | (move + 1 if move < MOVES else 0) << MOVE
            | (low + WIN) << LOWER
            | (high + WIN),
        )

    def bounds(self, state: State[M]) -> tuple[int, int]:
        """What is known of `state`'s own score without searching it: exact if the game is over
        or decided, else the table's bounds within a win or a loss one ply away at the soonest."""
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0, 0
            value = WIN if outcome.winner == state.to_move else -WIN
            return value, value
        decided = self.knowledge.decided(state)
        if decided is not None:
            value = WIN - decided if decided > 0 else -(WIN + decided)
            return value, value
        low, high, _ = _unpacked(self.table.get(state.key))
        return low, high

    def reach(self, state: State[M], beta: int) -> int:
        """`state`'s own score against `beta` by depth-limited df-pn: a lower bound at least
        `beta` (a win within WIN - beta plies, or a defence past -beta), or an upper bound below
        it, with the root's move that keeps to it; what it settles goes into the table."""
        _, _, bound = self._reach(state, beta, INFINITE - 1, INFINITE - 1)
        self.root_move = _unpacked(self.table.get(state.key))[2]
        return bound

    def _reach(
        self, state: State[M], beta: int, most_proof: int, most_disproof: int
    ) -> tuple[int, int, int]:
        """df-pn for "`state`'s score >= beta" (an OR over its moves of the child's "not >=
        its threshold"): the proof and disproof numbers, and when settled, the bound that
        settles it (the score's lower bound if proved, upper if disproved)."""
        self._tick()
        if self.nodes >= self.window_end:
            raise _Spent
        start = self.nodes
        key = state.key
        low, high, best = _unpacked(self.table.get(key))
        moves = state.legal_moves()
        if beta >= WIN - 1:  # only a win this ply
            index = self.knowledge.first_win(state, moves)
            if index >= 0:
                self.keep(key, WIN - 1, high, index, 1)
                return 0, INFINITE, WIN - 1
            self.keep(key, low, min(high, WIN - 2), best, 1)
            return INFINITE, 0, min(high, WIN - 2)
        if beta <= -(WIN - 2):  # only a loss this ply stays below
            index = self.knowledge.first_hold(state, moves)
            if index >= 0:
                self.keep(key, max(low, -(WIN - 2)), high, index, 1)
                return 0, INFINITE, max(low, -(WIN - 2))
            self.keep(key, -(WIN - 1), -(WIN - 1), 0, 1)
            return INFINITE, 0, -(WIN - 1)
        child_beta = -beta if beta > 0 else 2 - beta
        numbers = self.numbers
        shift = child_beta * _SLOT_SHIFT & _SLOT_MASK
        proofs: list[int] = []
        disproofs: list[int] = []
        values: list[int] = []
        for move in moves:
            state.play(move)
            c_low, c_high = self.bounds(state)
            if c_low >= child_beta:
                proofs.append(0)
                disproofs.append(INFINITE)
                values.append(c_low)
            elif c_high < child_beta:
                proofs.append(INFINITE)
                disproofs.append(0)
                values.append(c_high)
            else:
                known = numbers.get(state.key ^ shift)
                if known is None:
                    proofs.append(1)
                    disproofs.append(state.count_moves())
                else:
                    proofs.append(known[0])
                    disproofs.append(known[1])
                values.append(0)
            state.undo()
        if 0 <= best < len(moves) and 0 < disproofs[best] < INFINITE:
            disproofs[best] = max(1, disproofs[best] // 2)  # the table's move first, as a tie
        slot = key ^ (beta * _SLOT_SHIFT & _SLOT_MASK)
        while True:
            proof = min(disproofs)
            disproof = min(INFINITE, sum(proofs))
            if proof >= most_proof or disproof >= most_disproof or not proof or not disproof:
                break
            chosen, second = least_two(disproofs)
            child_disproof = min(most_proof, second * EPSILON_NUMERATOR // EPSILON_DENOMINATOR + 1)
            child_proof = most_disproof - disproof + proofs[chosen]
            state.play(moves[chosen])
            try:
                proofs[chosen], disproofs[chosen], values[chosen] = self._reach(
                    state, child_beta, child_proof, child_disproof
                )
            finally:
                state.undo()
        if proof and disproof:
            if slot not in numbers and len(numbers) >= self.most_numbers:
                raise Full
            numbers[slot] = (proof, disproof)
            return proof, disproof, 0
        numbers.pop(slot, None)
        work = self.nodes - start + 1
        if not proof:  # a move whose position stays below its threshold: the best such
            found, chosen = -WIN - 1, -1
            for index, value in enumerate(values):
                if not disproofs[index]:
                    lifted = _lifted(value)
                    if lifted > found:
                        found, chosen = lifted, index
            self.keep(key, max(low, found), high, chosen, work)
            return 0, INFINITE, max(low, found)
        found = -WIN - 1
        for value in values:  # every move's position reaches its threshold
            lifted = _lifted(value)
            if lifted > found:
                found = lifted
        self.keep(key, low, min(high, found), best, work)
        return INFINITE, 0, min(high, found)

    def _tick(self) -> None:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Unknown  # the budget is spent: this node is not searched
        self.nodes += 1
        if self.nodes & TICK == 0:
            if self.stop is not None and self.stop.is_set():
                raise _Unknown
            if self.progress is not None:
                self.progress(self.nodes)

    def search(self, state: State[M], alpha: int, beta: int, ply: int) -> int:
        """The score of `state` for its side to move, counted in plies from the root (`ply`
        plies above): exact inside (alpha, beta), a bound on the side it fell otherwise."""
        self._tick()
        start = self.nodes
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0
            return WIN - ply if outcome.winner == state.to_move else -(WIN - ply)
        decided = self.knowledge.decided(state) if ply else None  # the root needs its move
        if decided is not None:
            return WIN - (ply + decided) if decided > 0 else -(WIN - (ply - decided))
        best_possible = WIN - ply - 1  # the game ends one ply from here at the soonest
        worst_possible = -best_possible
        if beta > best_possible:
            beta = best_possible
            if alpha >= beta:
                return beta
        if alpha < worst_possible:
            alpha = worst_possible
            if alpha >= beta:
                return alpha
        key, store, table = state.key, self.store, self.table
        lower, upper, best = worst_possible, best_possible, -1
        # table.get(key), inline: a lookup is a good part of a node's time
        slots, high, low, count = table.slots, table.high, table.low, table.count
        index = key & high
        base = (index & low if index >= count else index) << 2
        entry = (
            slots[base + 1]
            if slots[base] == key
            else slots[base + 3]
            if slots[base + 2] == key
            else 0
        )
        if entry:
            lower = _from_table(((entry >> LOWER) & SCORE) - WIN, ply)
            upper = _from_table((entry & SCORE) - WIN, ply)
            best = ((entry >> MOVE) & MOVES) - 1
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
        moves = state.legal_moves()
        if alpha >= best_possible - 1:  # only a win this ply reaches beta
            index = self.knowledge.first_win(state, moves)
            if index >= 0:
                store(key, ply, best_possible, upper, index, 1)
                return best_possible
            store(key, ply, lower, best_possible - 1, best, 1)
            return best_possible - 1
        if beta <= worst_possible + 1:  # only a loss this ply stays at or below alpha
            index = self.knowledge.first_hold(state, moves)
            if index >= 0:  # not lost at once: a draw holds too
                store(key, ply, worst_possible + 1, upper, index, 1)
                return worst_possible + 1
            store(key, ply, worst_possible, worst_possible, 0, 1)
            return worst_possible
        is_noisy, order = self.knowledge.is_noisy, self.knowledge.order
        ranks: list[int] = []
        for index, move in enumerate(moves):
            noisy = is_noisy(state, move)
            state.play(move)
            child = state.key  # table.get(child), inline, the table unchanged since the above
            where = child & high
            base = (where & low if where >= count else where) << 2
            known = (
                slots[base + 1]
                if slots[base] == child
                else slots[base + 3]
                if slots[base + 2] == child
                else 0
            )
            if known:  # the child's upper bound is a lower bound here
                refuted = -_from_table((known & SCORE) - WIN, ply + 1)
                if refuted >= beta:
                    state.undo()
                    store(key, ply, max(lower, refuted), upper, index, 1)
                    return refuted
            replies = state.count_moves()
            state.undo()
            ranks.append(((1 << 40) + (order(state, move) << 20) if noisy else 0) - replies)
        indices = sorted(range(len(moves)), key=ranks.__getitem__, reverse=True)
        if best >= 0:
            indices.remove(best)
            indices.insert(0, best)
        original_alpha = alpha
        best_score = -WIN - 1
        for index in indices:
            state.play(moves[index])
            try:
                score = -self.search(state, -beta, -alpha, ply + 1)
            finally:
                state.undo()
            if score > best_score:
                best_score = score
                if score > alpha:
                    best = index
                    alpha = score
                    if alpha >= beta:
                        break
        work = self.nodes - start + 1
        if best_score >= beta:
            store(key, ply, best_score, upper, best, work)
        elif best_score <= original_alpha:
            store(key, ply, lower, best_score, best, work)
        else:
            store(key, ply, best_score, best_score, best, work)
        return best_score


class _RepeatingSolver(_Solver[M]):
    """The solver of a game whose positions repeat: a position of the game before the root is
    a draw wherever it is met (kept out of `_Solver.search`, which Dipole's speed hangs on)."""

    def search(self, state: State[M], alpha: int, beta: int, ply: int) -> int:
        if state.key in self.before:
            return 0
        return super().search(state, alpha, beta, ply)


def _solver(
    game: Game[Any, M],
    state: State[M],
    knowledge: Knowledge[Any, M],
    max_nodes: int | None,
    stop: Stop | None,
    progress: Callable[[int], None] | None,
    memory: int,
) -> _Solver[M]:
    """The solver for `game`, with `knowledge`'s move ordering, from the root `state`."""
    kind = _RepeatingSolver if game.repeats else _Solver
    return kind(knowledge, max_nodes, stop, progress, memory, game, state)


def _unpacked(entry: int) -> tuple[int, int, int]:
    """A table entry (`_Solver.keep`'s) as bounds on its position's own score and its move
    (-1: none); no entry (0) knows nothing. `_Solver.search` reads its own inline, for speed."""
    if not entry:
        return -(WIN - 1), WIN - 1, -1
    return ((entry >> LOWER) & SCORE) - WIN, (entry & SCORE) - WIN, ((entry >> MOVE) & MOVES) - 1


def _lifted(value: int) -> int:
    """A move's worth to its mover from the score of the position it leads to (plies counted
    from there): one ply more to the end either way."""
    return -value - 1 if value < 0 else -value + 1 if value else 0


def _to_table(score: int, ply: int) -> int:
    """Scores count plies from the root; the table keeps them from the position itself (a
    draw's 0 counts none)."""
    return score + ply if score > 0 else score - ply if score else 0


def _from_table(score: int, ply: int) -> int:
    return score - ply if score > 0 else score + ply if score else 0


def solve(
    game: Game[Any, M],
    state: State[M],
    knowledge: Knowledge[Any, M],
    max_nodes: int | None = None,
    stop: Stop | None = None,
    progress: Callable[[int], None] | None = None,
    memory: int = MEMORY_MB << 20,
    proof_numbers: bool = True,
) -> Solution[M]:
    """Solve `state` exactly, searching a copy of it: its result first by proof-number
    search where the game has no repetitions and `proof_numbers` says so, else by alpha-beta
    alone (whose node is cheaper: a df-pn node weighs every child at once, so a budget of
    nodes buys alpha-beta a third of df-pn's time in pure Python).

    `max_nodes` bounds the positions searched and `stop.is_set()` ends the search early: either
    way the result is None. `progress(nodes)` is called every so often. The table takes at most
    `memory` bytes, and no more than what the search stores needs (a small search takes
    little): a smaller bound gives the same answer, in more nodes."""
    work = state.copy()
    outcome = work.outcome()
    if outcome is not None:
        over: Literal["win", "loss", "draw"] = (
            "draw"
            if outcome.winner is None
            else "win"
            if outcome.winner == work.to_move
            else "loss"
        )
        return Solution(over, 0, None, 0)
    solver = _solver(game, work, knowledge, max_nodes, stop, progress, memory)
    try:
        exact, found = False, None
        if game.repeats:
            score, exact = _deepened(solver, work, memory)
        elif proof_numbers:
            found = _proved(solver, work, memory)
        if found is not None:  # the result, a bound on its length and a move that keeps to it
            sign, longest, chosen = found
            score = sign * (WIN - longest)
        else:
            if not game.repeats:
                score = solver.search(work, -1, 1, 0)
            chosen = solver.root_move
        if exact or not score:
            plies = WIN - abs(score) if score else 0
        elif score > 0:  # a win in at most `longest`: narrow down to the shortest
            shortest, longest = 1, WIN - score
            while shortest < longest:
                middle = longest - 1 if found else (shortest + longest) // 2
                test = _window(solver, work, WIN - middle, found is not None)
                if test >= WIN - middle:  # a faster win, with its move
                    longest, chosen = WIN - test, solver.root_move
                else:
                    shortest = max(middle + 1, WIN - test)
            plies = longest
        else:  # a loss in at most `longest`: narrow down to the longest that holds
            shortest, longest = 1, WIN + score
            while shortest < longest:
                middle = longest - 1 if found else (shortest + longest) // 2
                test = _window(solver, work, -(WIN - middle) + 1, found is not None)
                if test <= -(WIN - middle):
                    longest = WIN + test
                else:  # a longer defence, with its move
                    shortest, chosen = max(middle + 1, WIN + test), solver.root_move
            plies = longest
    except _Unknown:
        return Solution(None, 0, None, solver.nodes)
    finally:
        solver.table.close()
    move = work.legal_moves()[chosen]
    result: Literal["win", "loss", "draw"] = "draw" if not score else "win" if score > 0 else "loss"
    return Solution(result, plies, move, solver.nodes)


def _window(solver: _Solver[M], state: State[M], beta: int, proof_numbers: bool) -> int:
    """The root's score against `beta`: at least `beta` (a lower bound) or below it (an upper
    bound). Where `proof_numbers` says so, by alpha-beta's null window and a depth-limited df-pn
    in turn, each resuming where the table left it with twice its last share of nodes (df-pn's
    a WINDOW_RATIO-th of alpha-beta's), until one settles it: alpha-beta is the faster where the
    window fails, df-pn where it holds."""
    if not proof_numbers:
        return solver.search(state, beta - 1, beta, 0)
    share = WINDOW_LEAST
    while True:
        most = solver.max_nodes
        solver.max_nodes = solver.nodes + share if most is None else min(solver.nodes + share, most)
        try:
            return solver.search(state, beta - 1, beta, 0)
        except _Unknown:
            if solver.max_nodes == most or (solver.stop is not None and solver.stop.is_set()):
                raise  # the caller's budget or stop, not the window's share
        finally:
            solver.max_nodes = most
        solver.window_end = solver.nodes + max(1, share // WINDOW_RATIO)
        try:
            return solver.reach(state, beta)
        except Full:  # its numbers would pass the memory bound: alpha-beta's alone
            solver.numbers.clear()
            return solver.search(state, beta - 1, beta, 0)
        except _Spent:
            pass
        share *= 2


def _proved(solver: _Solver[M], state: State[M], memory: int) -> tuple[int, int, int] | None:
    """The root's result by proof-number search (`pns`): 1 for a win, -1 for a loss, 0 for a
    draw; within how many plies its proof wins or loses (0 for a draw), and the index of a move
    that keeps to it, the proof's positions seeded in the table with their own lengths
    (`seed`). None when the search would keep more than `memory` allows. Its memory is free
    again either way."""
    numbers = ProofNumbers(solver.knowledge, solver._tick, memory // (2 * PROOF_BYTES))
    try:
        for win, sign in ((1, 1), (0, -1)):
            if numbers.prove(state, win):
                plies, chosen = numbers.length(state, win, solver.seed)
                return sign, plies, chosen
    except Full:
        return None
    # Neither: a draw, kept by a move to a position its side to move does not win (one there
    # is, as the root does not lose).
    for chosen, move in enumerate(state.legal_moves()):
        state.play(move)
        _, disproof = numbers.known(state, 1)
        state.undo()
        if not disproof:
            return 0, 0, chosen
    raise AssertionError("a draw without a drawing move")


def _deepened(solver: _Solver[M], state: State[M], memory: int) -> tuple[int, bool]:
    """The root's score in a game whose positions repeat: a bound from a win or a loss within d
    plies, d = 1, 2, 4, ...; or, once d passes RETROGRADE_AFTER, the exact score by retrograde
    analysis (True with it) if the positions reachable fit in the `memory` the table leaves."""
    depth, tried = 1, False
    while depth < WIN >> 2:
        bound = WIN - depth
        score = solver.search(state, bound - 1, bound, 0)
        if score >= bound:
            return score, False
        score = solver.search(state, -bound, -bound + 1, 0)
        if score <= -bound:
            return score, False
        if depth >= RETROGRADE_AFTER and not tried:
            tried = True
            room = memory - solver.table.count * 2 * ENTRY_BYTES
            found = _retrograde(solver, state, room // RETROGRADE_BYTES)
            if found is not None:
                return found, True
        depth *= 2
    raise _Unknown


def _retrograde(solver: _Solver[M], root: State[M], most: int) -> int | None:
    """The root's exact score by retrograde analysis of every position reachable from it (each
    a node searched), and its move in `solver.root_move`; None, with nothing kept, when there
    are more than `most`. A position lost for its side to move is lost in 0; one with a move to
    a position lost in n is won in n + 1 (the least such n); one whose every move leads to a
    position won, in n at most, is lost in n + 1; what is left is a draw: neither side can force
    a win, as play may go on for ever and a repetition ends it drawn."""
    before, played = solver.before, root.plies
    number = {root.key: 0}
    moves_to: list[list[int]] = [[]]  # each position's moves' positions, in `legal_moves` order
    lost: list[bool | None] = [None]  # lost for its side to move; None: not known (yet)
    plies: list[int] = [0]
    frames = [(root.legal_moves(), 0, 0)]  # a move list, how far through it, whose it is
    try:
        while frames:
            moves, at, here = frames[-1]
            if at == len(moves):
                frames.pop()
                if frames:
                    root.undo()
                continue
            frames[-1] = (moves, at + 1, here)
            root.play(moves[at])
            key = root.key
            there = number.get(key)
            if there is None:
                there = number[key] = len(moves_to)
                if there >= most:
                    return None
                solver._tick()
                moves_to.append([])
                lost.append(None)
                plies.append(0)
                outcome = root.outcome()
                if outcome is None and key not in before:
                    moves_to[here].append(there)
                    frames.append((root.legal_moves(), 0, there))
                    continue
                if outcome is not None and outcome.winner is not None:
                    lost[there] = outcome.winner != root.to_move
            moves_to[here].append(there)
            root.undo()
    finally:
        while root.plies > played:
            root.undo()
    parents: list[list[int]] = [[] for _ in moves_to]
    for here, theres in enumerate(moves_to):
        for there in theres:
            parents[there].append(here)
    unknown = [len(theres) for theres in moves_to]
    settled = deque(here for here, end in enumerate(lost) if end is not None)
    while settled:  # in order of plies: a loss's longest defence is the last move settled
        there = settled.popleft()
        for here in parents[there]:
            if lost[here] is not None:
                continue
            if lost[there]:
                lost[here] = False
            else:
                unknown[here] -= 1
                if unknown[here]:
                    continue
                lost[here] = True
            plies[here] = plies[there] + 1
            settled.append(here)
    result, length = lost[0], plies[0]
    index = 0
    for index, there in enumerate(moves_to[0]):  # noqa: B007 (the move found)
        if result is None and lost[there] is None:
            break
        if result is not None and lost[there] is not result and plies[there] == length - 1:
            break
    solver.root_move = index
    return 0 if result is None else -(WIN - length) if result else WIN - length


class Verdict(NamedTuple):
    """What `within` found: whether it holds (None: unknown), and the nodes it took."""

    holds: bool | None
    nodes: int


def within(
    game: Game[Any, M],
    state: State[M],
    knowledge: Knowledge[Any, M],
    result: Literal["win", "loss"],
    plies: int,
    max_nodes: int | None = None,
    stop: Stop | None = None,
    memory: int = MEMORY_MB << 20,
) -> Verdict:
    """Whether the side to move wins within `plies` plies (`result` "win"), or loses within
    them however it plays ("loss"): one null window, which mate-distance pruning cuts off
    `plies` plies down, so much cheaper than `solve` when the answer is no (a puzzle's other
    moves). A draw is neither. Unknown when the nodes run out or a stop comes first. `memory` as
    for `solve`."""
    work = state.copy()
    outcome = work.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return Verdict(False, 0)
        return Verdict((outcome.winner == work.to_move) == (result == "win"), 0)
    solver = _solver(game, work, knowledge, max_nodes, stop, None, memory)
    bound = WIN - plies
    try:
        if result == "win":
            holds = solver.search(work, bound - 1, bound, 0) >= bound
        else:
            holds = solver.search(work, -bound, -bound + 1, 0) <= -bound
    except _Unknown:
        return Verdict(None, solver.nodes)
    finally:
        solver.table.close()
    return Verdict(holds, solver.nodes)
