"""An exact solver: who wins a position with best play, and in how many plies.

Best play: the winner ends the game as fast as it can, the loser holds out as long as it can, and
passes count as plies. A win in n plies scores WIN - n, a loss in n scores -(WIN - n), and the
search is alpha-beta to the end of the game over those scores, with a transposition table of
bounds on them keyed by the Zobrist key. Win or loss is settled first by a null window at 0, which
proves one win without caring how long it takes; then the distance is bisected between 1 and that
win's length with null windows ("a win within d plies?"), each of which mate-distance pruning
cuts off d plies from the root, and every bound found on the way stays in the table. A position
whose end the game's knowledge tells at once (`Knowledge.decided`: Dipole's race past every
capture) is scored so without searching it.

What makes it fast (measured on random endings, `bench/solver.py`): the moves are ordered as a
proof-number search would choose them, the game's noisy moves (captures) first and then the moves
that leave the opponent the fewest replies, so that a refutation needs few branches; a move whose
position the table already refutes cuts at once, before anything is searched (enhanced
transposition cutoff, found while counting those replies); and a node that can only reach its
window by ending the game this ply tries its moves for that without searching them.

Only games whose every game ends and whose positions' values do not depend on the path to them
(no repetition draws) can be solved so. Nothing here is particular to one game: it uses the
protocol, and the move ordering of the game's `hard` bot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Literal, NamedTuple

from .bots.search import Knowledge, Stop
from .games.base import AnyGame, Game, GameError, M, State
from .registry import REGISTRY, games

# The games this solver solves: every game of them ends, and none is drawn.
SOLVES = ("dipole",)

WIN = 1 << 20  # a win in n plies scores WIN - n; a loss in n, -(WIN - n)
TICK = 1023  # `stop` and `progress` are looked at every TICK + 1 nodes
# A table entry packs (lower + WIN) << 48 | (upper + WIN) << 24 | (best move's index + 1).
FIELD = 1 << 24


@dataclass(frozen=True)
class Solution(Generic[M]):
    """A solved position, for the side to move: a "win" or a "loss" in `plies` plies, and a
    `move` that keeps it so (None when the game is already over). `result` None: the search
    stopped (or ran out of nodes) before it knew."""

    result: Literal["win", "loss"] | None
    plies: int
    move: M | None
    nodes: int


class _Unknown(Exception):
    """Raised inside the search when the nodes run out or a stop is requested."""


class _Solver(Generic[M]):
    def __init__(
        self,
        knowledge: Knowledge[Any, M],
        max_nodes: int | None,
        stop: Stop | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.knowledge = knowledge
        self.max_nodes = max_nodes
        self.stop = stop
        self.progress = progress
        self.nodes = 0
        # Zobrist key -> packed bounds on the score counted from that position, and the index
        # in legal_moves() of the move that gave the lower bound (0: none).
        self.table: dict[int, int] = {}

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
        outcome = state.outcome()
        if outcome is not None:
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
        table, key = self.table, state.key
        lower, upper, best = worst_possible, best_possible, -1
        entry = table.get(key)
        if entry is not None:
            lower = _from_table((entry >> 48) - WIN, ply)
            upper = _from_table(((entry >> 24) & (FIELD - 1)) - WIN, ply)
            best = (entry & (FIELD - 1)) - 1
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            alpha = max(alpha, lower)
            beta = min(beta, upper)
        moves = state.legal_moves()
        me = state.to_move

        def store(low: int, high: int, move: int) -> None:
            table[key] = (
                (_to_table(low, ply) + WIN) << 48 | (_to_table(high, ply) + WIN) << 24 | move + 1
            )

        if alpha >= best_possible - 1:  # only a win this ply reaches beta
            for index, move in enumerate(moves):
                state.play(move)
                over = state.outcome()
                state.undo()
                if over is not None and over.winner == me:
                    store(best_possible, upper, index)
                    return best_possible
            store(lower, best_possible - 1, best)
            return best_possible - 1
        if beta <= worst_possible + 1:  # only a loss this ply stays at or below alpha
            for index, move in enumerate(moves):
                state.play(move)
                over = state.outcome()
                state.undo()
                if over is None or over.winner == me:
                    store(worst_possible + 1, upper, index)
                    return worst_possible + 1
            store(worst_possible, worst_possible, 0)
            return worst_possible
        knowledge = self.knowledge
        ranks: list[int] = []
        for index, move in enumerate(moves):
            noisy = knowledge.is_noisy(state, move)
            order = knowledge.order(state, move)
            state.play(move)
            known = table.get(state.key)
            if known is not None:  # the child's upper bound is a lower bound here
                refuted = -_from_table(((known >> 24) & (FIELD - 1)) - WIN, ply + 1)
                if refuted >= beta:
                    state.undo()
                    store(max(lower, refuted), upper, index)
                    return refuted
            replies = state.count_moves()
            state.undo()
            ranks.append(((1 << 40) + (order << 20) if noisy else 0) - replies)
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
        if best_score >= beta:
            store(best_score, upper, best)
        elif best_score <= original_alpha:
            store(lower, best_score, best)
        else:
            store(best_score, best_score, best)
        return best_score


def _to_table(score: int, ply: int) -> int:
    """Scores count plies from the root; the table keeps them from the position itself."""
    return score + ply if score > 0 else score - ply


def _from_table(score: int, ply: int) -> int:
    return score - ply if score > 0 else score + ply


def solvable(game: AnyGame) -> Knowledge[Any, Any]:
    """The `hard` bot's knowledge of a game the solver can solve (`Game.solvable`), for its
    move ordering; GameError in one line for a game it cannot."""
    if not game.solvable:
        names = " and ".join(known.name for known in games() if known.solvable)
        raise GameError(f"the solver solves {names} only: games that always end and have no draws")
    knowledge: Knowledge[Any, Any] = REGISTRY[game.key].ladder["hard"].knowledge()
    return knowledge


def solve(
    game: Game[Any, M],
    state: State[M],
    max_nodes: int | None = None,
    stop: Stop | None = None,
    progress: Callable[[int], None] | None = None,
) -> Solution[M]:
    """Solve `state` exactly, searching a copy of it.

    `max_nodes` bounds the positions searched and `stop.is_set()` ends the search early: either
    way the result is None. `progress(nodes)` is called every so often."""
    solver: _Solver[M] = _Solver(solvable(game), max_nodes, stop, progress)
    work = state.copy()
    outcome = work.outcome()
    if outcome is not None:
        over: Literal["win", "loss"] = "win" if outcome.winner == work.to_move else "loss"
        return Solution(over, 0, None, 0)
    try:
        score = solver.search(work, -1, 1, 0)
        if score > 0:  # a win in at most `longest`: bisect for the shortest
            shortest, longest = 1, WIN - score
            while shortest < longest:
                middle = (shortest + longest) // 2
                test = solver.search(work, WIN - middle - 1, WIN - middle, 0)
                if test >= WIN - middle:
                    longest = WIN - test
                else:
                    shortest = max(middle + 1, WIN - test)
            plies = longest
        else:  # a loss in at most `longest`: bisect for the longest the opponent cannot shorten
            shortest, longest = 1, WIN + score
            while shortest < longest:
                middle = (shortest + longest) // 2
                test = solver.search(work, -(WIN - middle), -(WIN - middle) + 1, 0)
                if test <= -(WIN - middle):
                    longest = WIN + test
                else:
                    shortest = max(middle + 1, WIN + test)
            plies = longest
    except _Unknown:
        return Solution(None, 0, None, solver.nodes)
    # The root's lower bound is now its score, and its move the one that proved it.
    move = work.legal_moves()[(solver.table[work.key] & (FIELD - 1)) - 1]
    return Solution("win" if score > 0 else "loss", plies, move, solver.nodes)


class Verdict(NamedTuple):
    """What `within` found: whether it holds (None: unknown), and the nodes it took."""

    holds: bool | None
    nodes: int


def within(
    game: Game[Any, M],
    state: State[M],
    result: Literal["win", "loss"],
    plies: int,
    max_nodes: int | None = None,
    stop: Stop | None = None,
) -> Verdict:
    """Whether the side to move wins within `plies` plies (`result` "win"), or loses within
    them however it plays ("loss"): one null window, which mate-distance pruning cuts off
    `plies` plies down, so much cheaper than `solve` when the answer is no (a puzzle's other
    moves). Unknown when the nodes run out or a stop comes first."""
    solver: _Solver[M] = _Solver(solvable(game), max_nodes, stop, None)
    work = state.copy()
    outcome = work.outcome()
    if outcome is not None:
        return Verdict((outcome.winner == work.to_move) == (result == "win"), 0)
    bound = WIN - plies
    try:
        if result == "win":
            holds = solver.search(work, bound - 1, bound, 0) >= bound
        else:
            holds = solver.search(work, -bound, -bound + 1, 0) <= -bound
    except _Unknown:
        return Verdict(None, solver.nodes)
    return Verdict(holds, solver.nodes)
