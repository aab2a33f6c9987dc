"""A game-neutral alpha-beta search: iterative deepening negamax with principal variation search,
a transposition table, killer and history move ordering, and a quiescence search of noisy moves.

What a game must supply is a `Knowledge`: an evaluation from the side to move's point of view,
and where it knows better than the defaults, which moves are noisy (searched first and past the
horizon: captures in Dipole, whose reach is long), a static ordering score, and the candidate
moves worth searching (every legal move, unless the game has too many to expand, like Bi-Pod's
multi variant). Everything else comes from the rules core's protocol.

Scores are plain ints inside, for speed: evaluation units, or WIN - n for a win n plies away
(-(WIN - n) for a loss). The bots' own weighing (`score`, `weigh`, `reaches`) keeps them so; a
run's result (`SearchResult`) gives them as `score.Score`s (`as_score`), for whoever reads it.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Generic, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from ..games.base import M, S, State
from .score import Score

# A knowledge only reads the states it is given: one of a game's state type reads its subtypes.
S_contra = TypeVar("S_contra", bound=State[Any], contravariant=True)

# Final: compiled code reads a Final constant as a C constant, not from the module's dict.
WIN: Final = 1_000_000  # a won position's score, less the plies needed to reach it
INFINITY: Final = 10 * WIN
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
MAX_QUIESCENCE: Final = 8  # noisy plies searched past the horizon at most


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' toy games' knowledge subclass it
class Knowledge(ABC, Generic[S_contra, M]):
    """What the search needs to know about one game. A game writes its evaluation; the rest
    has defaults that suit a game with no noisy moves and no shortcuts, and a game overrides
    what it knows better: its move order (`is_noisy` and `order` for the moves searched first,
    or `candidates`), bounds on a move's gain, or positions decided without a search."""

    @abstractmethod
    def evaluate(self, state: S_contra) -> int:
        """The position's value for the side to move (positive: better for it)."""

    def key(self, state: S_contra) -> int:
        """The position's hash key for the search's tables: the state's Zobrist key."""
        key: int = state.key
        return key

    def decided(self, state: S_contra) -> int | None:
        """How many plies from here the game ends with best play, if the game's knowledge can
        tell without a search (positive: the side to move wins; negative: it loses); else None,
        as by default: only a search tells."""
        return None

    def provable(self, state: S_contra) -> bool:
        """Whether the exact solver may prove the position in a share of a move's time (for a
        level whose `Style.prove` gives it one): by default, always worth a try."""
        return True

    def quiet_gain(self, state: S_contra) -> int | None:
        """At most how much a quiet (not noisy) move can raise the evaluation of the side that
        plays it, where `gain` bounds every move (no move can end or decide the game but as
        `gain` says); else None, as by default: no bound is known. The last ply before the
        horizon, and the quiescence search, then skip the moves that cannot lift the evaluation
        above what is already assured: exactly, as searching them would have found, only
        sooner."""
        return None

    def gain(self, state: S_contra, move: M) -> int:
        """At most how much `move` raises the evaluation of the side that plays it (asked only
        where `quiet_gain` is not None); unbounded by default."""
        return INFINITY

    def is_noisy(self, state: S_contra, move: M) -> bool:
        """Whether `move` is searched first and past the horizon (Dipole's captures); by
        default no move is."""
        return False

    def noisy_moves(self, state: S_contra) -> list[M]:
        """The legal noisy moves, likeliest to gain first: what the search plays out past its
        horizon. By default picked from the candidates; a game's knowledge may find them
        faster."""
        return noisy_among(self, state)

    def order(self, state: S_contra, move: M) -> int:
        """Static ordering of the noisy moves (and of every move in the solver): higher first
        (big captures before quiet moves). By default none goes before another."""
        return 0

    def split(self, state: S_contra, moves: list[M]) -> tuple[list[M], list[M]]:
        """`moves` parted into the noisy ones, highest `order` first, and the quiet ones in
        their order: how the search orders a node's moves. By default `is_noisy` and `order`
        are asked of each move; a game's knowledge may tell with fewer calls."""
        noisy: list[M] = []
        quiet: list[M] = []
        for move in moves:
            (noisy if self.is_noisy(state, move) else quiet).append(move)
        noisy.sort(key=lambda move: self.order(state, move), reverse=True)
        return noisy, quiet

    def first_win(self, state: S_contra, moves: list[M]) -> int:
        """The index of the first of `moves` (the legal moves) that ends the game won for the
        side that plays it, -1 if none: what the solver asks where only a win this ply reaches
        its window. By default each move is played; a game's knowledge may tell without."""
        me = state.to_move
        for index, move in enumerate(moves):
            state.play(move)
            over = state.outcome()
            state.undo()
            if over is not None and over.winner == me:
                return index
        return -1

    def first_hold(self, state: S_contra, moves: list[M]) -> int:
        """The index of the first of `moves` that does not lose the game at once (a draw
        holds), -1 if every one does: where only a loss this ply stays below the solver's
        window. By default each move is played."""
        me = state.to_move
        for index, move in enumerate(moves):
            state.play(move)
            over = state.outcome()
            state.undo()
            if over is None or over.winner != 1 - me:
                return index
        return -1

    def candidates(self, state: S_contra) -> list[M]:
        """The legal moves the search expands, likeliest first; by default every legal move.
        Never empty while the game goes on."""
        moves: list[M] = state.legal_moves()
        return moves


def noisy_among(knowledge: Knowledge[S_contra, M], state: S_contra) -> list[M]:
    """The noisy moves among the candidates, likeliest to gain first: for a game whose
    knowledge has no faster way to find them."""
    noisy = [move for move in knowledge.candidates(state) if knowledge.is_noisy(state, move)]
    noisy.sort(key=lambda move: knowledge.order(state, move), reverse=True)
    return noisy


def as_score(value: int) -> Score:
    """A score of the search's scale as everything past the search holds it: a proved result
    where it comes within 1000 of a win (no evaluation does), else an evaluation."""
    if value > WIN - 1000:
        return Score.win(WIN - value)
    if value < -(WIN - 1000):
        return Score.loss(WIN + value)
    return Score(value)


def _to_table(score: int, ply: int) -> int:
    """A win's score counts plies from the root; the table keeps them from this position."""
    if score > WIN - 1000:
        return score + ply
    if score < -(WIN - 1000):
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > WIN - 1000:
        return score - ply
    if score < -(WIN - 1000):
        return score + ply
    return score


class Stop(Protocol):
    """Anything that says when to stop thinking: a `threading.Event`, or a shared counter."""

    def is_set(self) -> bool: ...


class OutOfTime(Exception):
    """Raised inside the search when the budget runs out or a stop is requested."""


@mypyc_attr(native_class=False)  # mypyc cannot compile a generic dataclass (mypyc/mypyc#827)
@dataclass
class SearchResult(Generic[M]):
    """What a run found: where the search's ints become `Score`s (`as_score`), for whoever
    reads it (a bot, the analysis, `best`)."""

    move: M
    score: Score
    depth: int
    nodes: int
    seconds: float
    # The root moves' scores at the last full depth: exact for the best, bounds for the others.
    scores: dict[M, Score] = field(default_factory=dict)


class _Entry(Generic[M]):
    """A table entry: a plain class, which mypyc compiles (a generic dataclass it cannot)."""

    def __init__(self, depth: int, score: int, flag: int, move: M | None) -> None:
        self.depth = depth
        self.score = score
        self.flag = flag
        self.move = move


class Search(Generic[S, M]):
    """One searcher with its own tables; reuse it across moves of a game to keep what it learnt."""

    def __init__(
        self,
        knowledge: Knowledge[S, M],
        quiescence: bool = True,
        table_size: int = 1 << 20,
        contempt: int = 0,
        tick_mask: int = 511,
    ):
        self.knowledge = knowledge
        self.quiescence = quiescence
        # What a draw costs the side the search plays for: above 0, it plays on for a win.
        self.contempt = contempt
        # The clock is read every tick_mask + 1 nodes: fewer where a node costs more.
        self.tick_mask = tick_mask
        self.table: dict[int, _Entry[M]] = {}
        # Evaluations by key: the leaves of a shallow tree are reached again and again by moves
        # played in another order.
        self.evaluations: dict[int, int] = {}
        self.table_size = table_size
        self.history: defaultdict[M, int] = defaultdict(int)  # a move never seen counts 0
        self.killers: list[list[M | None]] = []
        self.nodes = 0
        # Told of each completed depth of every run, as run's own `on_depth` is: how a caller
        # that drives the search through a bot (the `best` command) watches it think.
        self.on_depth: Callable[[SearchResult[M]], None] | None = None
        self._deadline = float("inf")
        self._stop: Stop | None = None
        self._improved: tuple[M, int] | None = None

    # -- the driver ------------------------------------------------------------------------

    def run(
        self,
        state: S,
        depth: int | None = None,
        movetime: float | None = None,
        stop: Stop | None = None,
        on_depth: Callable[[SearchResult[M]], None] | None = None,
    ) -> SearchResult[M]:
        """Deepen until the depth or the time runs out; the last completed depth's best move."""
        on_depth = on_depth or self.on_depth
        started = time.perf_counter()
        self._deadline = started + movetime if movetime else float("inf")
        self._stop = stop
        self.nodes = 0
        self._keep_tables_small()
        moves = self.knowledge.candidates(state)
        if not moves:
            raise ValueError("the game is over: there is no move to search")
        best = SearchResult(moves[0], Score(), 0, 0, 0.0)
        if len(moves) == 1:
            return best
        work = state.copy()
        limit = depth or 64
        for current in range(1, limit + 1):
            try:
                score, move, scores = self._root(work, current, moves)
            except OutOfTime:
                if self._improved is not None:  # a move proved better, deeper: play it
                    best.move, best.score = self._improved[0], as_score(self._improved[1])
                break
            spent = time.perf_counter() - started
            found = {m: as_score(value) for m, value in scores.items()}
            best = SearchResult(move, as_score(score), current, self.nodes, spent, found)
            if on_depth:
                on_depth(best)
            if abs(score) > WIN - 1000:  # a forced win or loss: deeper will not change it
                break
            moves = sorted(moves, key=lambda m: -scores.get(m, -INFINITY))
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - started
        return best

    def score(
        self,
        state: S,
        depth: int,
        stop: Stop | None = None,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
    ) -> int:
        """The value of a position for the side to move, searched `depth` plies deep (and its
        noisy moves beyond): what the weaker levels weigh their candidate moves by, so the
        position is taken as the reply to their move (ply 1). Exact within (alpha, beta);
        otherwise a bound on the side it fell, which is all a caller needs that only wants the
        moves near the best."""
        self._deadline = float("inf")
        self._stop = stop
        if depth <= 0:
            over = self._terminal(state, 1)
            if over is not None:
                return over
            if self.quiescence:
                return self._quiesce(state, alpha, beta, 1, 0)
            return self._evaluate(state)
        return self._negamax(state, depth, alpha, beta, 1)

    def weigh(
        self, state: S, moves: list[M], depth: int, stop: Stop | None = None
    ) -> tuple[M, int]:
        """The best of `moves` searched `depth` plies deep, and its exact score: the yardstick
        the weaker levels measure their other candidates against (with `reaches`)."""
        self._deadline = float("inf")
        self._stop = stop
        self._keep_tables_small()
        score, move, _ = self._root(state.copy(), depth, moves)
        return move, score

    def reaches(self, state: S, move: M, depth: int, floor: int, stop: Stop | None = None) -> bool:
        """Whether `move` scores at least `floor` searched `depth` plies deep: a null-window
        test, far cheaper than the move's exact score."""
        self._deadline = float("inf")
        self._stop = stop
        work = state.copy()
        work.play(move)
        return -self._negamax(work, depth - 1, -floor, -floor + 1, 1) >= floor

    def principal_variation(self, state: S, first_move: M, max_len: int) -> list[M]:
        """The line the search expects after `first_move` (a legal move of `state`): the table's
        best move of each position in turn, at most `max_len` moves. It ends early where the
        table lost a position to a later entry or holds a move that is not legal there (a key
        shared by two positions), or the game ends."""
        line = [first_move]
        work = state.copy()
        work.play(first_move)
        while len(line) < max_len and work.outcome() is None:
            entry = self.table.get(self.knowledge.key(work))
            if entry is None or entry.move is None or not work.is_legal(entry.move):
                break
            work.play(entry.move)
            line.append(entry.move)
        return line

    def _root(self, state: S, depth: int, moves: list[M]) -> tuple[int, M, dict[M, int]]:
        alpha, beta = -INFINITY, INFINITY
        best_move = moves[0]
        scores: dict[M, int] = {}
        # A move that beat every one before it at this depth, and its score (a lower bound until
        # its exact score is found): worth playing even if the time runs out before the depth
        # ends, as it was found by a deeper search than the last complete one.
        self._improved = None
        for index, move in enumerate(moves):
            state.play(move)
            try:
                if index == 0:
                    score = -self._negamax(state, depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._negamax(state, depth - 1, -alpha - 1, -alpha, 1)
                    if alpha < score < beta:
                        earlier: tuple[M, int] | None = self._improved
                        self._improved = (move, score)
                        score = -self._negamax(state, depth - 1, -beta, -alpha, 1)
                        if score <= alpha:  # it fell back on a full look after all
                            self._improved = earlier
            finally:
                state.undo()
            scores[move] = score
            if score > alpha:
                alpha, best_move = score, move
                if index > 0:
                    self._improved = (move, score)
        return alpha, best_move, scores

    # -- the tree --------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & self.tick_mask == 0 and (
            time.perf_counter() > self._deadline or (self._stop is not None and self._stop.is_set())
        ):
            raise OutOfTime

    def _terminal(self, state: S, ply: int) -> int | None:
        outcome = state.outcome()
        if outcome is None:
            plies = self.knowledge.decided(state)
            if plies is None:
                return None
            return WIN - (ply + plies) if plies > 0 else -(WIN - (ply - plies))
        if outcome.winner is None:  # even plies: the side the search plays for is to move
            return -self.contempt if ply % 2 == 0 else self.contempt
        return WIN - ply if outcome.winner == state.to_move else -(WIN - ply)

    def _keep_tables_small(self) -> None:
        """Between moves, forget all once a table outgrows its size (a game can be long)."""
        if len(self.table) > self.table_size or len(self.evaluations) > self.table_size:
            self.table.clear()
            self.evaluations.clear()

    def _evaluate(self, state: S) -> int:
        key = self.knowledge.key(state)
        value = self.evaluations.get(key)
        if value is None:
            value = self.evaluations[key] = self.knowledge.evaluate(state)
        return value

    def _negamax(self, state: S, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        over = self._terminal(state, ply)
        if over is not None:
            return over
        if depth <= 0:
            if self.quiescence:
                return self._quiesce(state, alpha, beta, ply, 0)
            return self._evaluate(state)
        knowledge = self.knowledge
        key = knowledge.key(state)
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            table_move = entry.move
            if entry.depth >= depth:
                stored = _from_table(entry.score, ply)
                if entry.flag == EXACT:
                    return stored
                if entry.flag == LOWER and stored >= beta:
                    return stored
                if entry.flag == UPPER and stored <= alpha:
                    return stored
        original_alpha = alpha
        quiet_gain = knowledge.quiet_gain(state) if depth == 1 and self.quiescence else None
        stand = self._evaluate(state) if quiet_gain is not None else 0
        if quiet_gain is not None and stand + quiet_gain <= alpha:
            # Every quiet move is known to fail low: only a noisy one can lift the score.
            best_score = stand + quiet_gain
            moves = knowledge.noisy_moves(state)
        else:
            best_score = -INFINITY
            moves = self._ordered(state, knowledge.candidates(state), table_move, ply)
        best_move = moves[0] if moves else None
        # A bare evaluation is exact whatever the window: no move needs weighing twice.
        exact_children = depth == 1 and not self.quiescence
        for index, move in enumerate(moves):
            if quiet_gain is not None:
                hope = stand + knowledge.gain(state, move)
                if hope <= alpha:  # it cannot do better than what is assured
                    if hope > best_score:
                        best_score = hope
                    continue
            state.play(move)
            try:
                if index == 0:
                    score = -self._negamax(state, depth - 1, -beta, -alpha, ply + 1)
                else:
                    score = -self._negamax(state, depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta and not exact_children:
                        score = -self._negamax(state, depth - 1, -beta, -alpha, ply + 1)
            finally:
                state.undo()
            if score > best_score:
                best_score, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not knowledge.is_noisy(state, move):
                            self._remember_cutoff(move, depth, ply)
                        break
        flag = UPPER if best_score <= original_alpha else LOWER if best_score >= beta else EXACT
        self.table[key] = _Entry(depth, _to_table(best_score, ply), flag, best_move)
        return best_score

    def _quiesce(self, state: S, alpha: int, beta: int, ply: int, qdepth: int) -> int:
        self._tick()
        over = self._terminal(state, ply)
        if over is not None:
            return over
        knowledge = self.knowledge
        stand = self._evaluate(state)
        if stand >= beta or qdepth >= MAX_QUIESCENCE:
            return stand
        alpha = max(alpha, stand)
        noisy = knowledge.noisy_moves(state)
        bounded = bool(noisy) and knowledge.quiet_gain(state) is not None
        for move in noisy:
            if bounded and stand + knowledge.gain(state, move) <= alpha:
                continue  # it cannot do better than what is assured
            state.play(move)
            try:
                score = -self._quiesce(state, -beta, -alpha, ply + 1, qdepth + 1)
            finally:
                state.undo()
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    # -- ordering --------------------------------------------------------------------------

    def _ordered(self, state: S, moves: list[M], table_move: M | None, ply: int) -> list[M]:
        """The table's move, then captures (biggest first), killers, and the rest by history."""
        killers = self.killers[ply] if ply < len(self.killers) else []
        noisy, quiet = self.knowledge.split(state, moves)
        quiet.sort(key=self.history.__getitem__, reverse=True)
        first = [move for move in killers if move is not None and move in quiet]
        for move in first:
            quiet.remove(move)
        ordered = noisy + first + quiet
        if table_move is not None and table_move in ordered and table_move != ordered[0]:
            ordered.remove(table_move)
            ordered.insert(0, table_move)
        return ordered

    def _remember_cutoff(self, move: M, depth: int, ply: int) -> None:
        while len(self.killers) <= ply:
            self.killers.append([None, None])
        slot = self.killers[ply]
        if slot[0] != move:
            slot[1], slot[0] = slot[0], move
        self.history[move] += depth * depth
