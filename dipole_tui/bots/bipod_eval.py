"""What the search knows about Bi-Pod: a connection-game evaluation and the moves worth a look.

The Runner needs two chains, an `o` chain from i1 and an `O` chain from s1, each to a short side,
so the Runner's prospects are those of the harder chain, and the easier one counts a little too.
A chain's distance is the Hex programs' two-distance: a cell's distance is the second best of its
neighbours' distances plus one (an own group counts as two neighbours, a goal cell as two), so a
single block cannot cut what it measures. Where only one route is left the two-distance is
infinite; the chain then counts its plain shortest path (the stones it needs) plus a penalty.

Everything is computed on the engine's bitsets, level by level: each level is one set of cells,
its neighbours are six shifts, and "at least two neighbours" is a two-bit counter over them.

Before adoption there are no roles: the side to move is worth what adopting now would give it
when that is good for it; otherwise it blocks on, and whatever adopting would cost it counts
only a quarter (the opponent might not adopt either). Blocks that matter to no chain are passes,
which is how a player waits for the other to tip the balance.

The default candidate moves would be every legal move, which before adoption in the multi
variant is about 82,000; instead the search looks only at the cells on or next to the chains'
shortest paths, a few harmless cells (passes) before adoption, a few pairs and triples of those
in multi, and adopting.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from ..games.bipod import (
    ADOPT,
    BITS,
    BLOCK,
    GOALS,
    GRAY,
    MULTI_MOST,
    START_CELLS,
    WHITE,
    BipodState,
    Move,
)
from .levels import Ladder, Style
from .score import ScoreUnit
from .search import Knowledge

ALL = sum(BITS)
GOAL_BITS = sum(BITS[cell] for cell in GOALS)
START_BITS = {colour: BITS[cell] for colour, cell in START_CELLS.items()}
CELL_OF_BIT = {bit.bit_length() - 1: cell for cell, bit in enumerate(BITS)}
INFINITE = 99  # a distance that cannot be reached

LOST = 50_000  # a cut chain before adoption: far above any balance, below a searched win
WON_SOON = 40_000  # the Runner to move finishes with one stone


def _near(cells: int) -> int:
    """The neighbours of a set of cells (the layout's gaps keep shifts from wrapping)."""
    return (cells << 2 | cells >> 2 | cells << 33 | cells >> 33 | cells << 35 | cells >> 35) & ALL


def _flood(seed: int, passable: int) -> int:
    """The cells of `passable` (cells of the board) connected to `seed`'s. The six shifts in
    four, as the engine floods: 35 is 33 + 2, so the 33s of the 2s give the 35s too."""
    reach = seed & passable
    while True:
        left, right = reach | reach << 2, reach | reach >> 2
        grown = (left | right | left << 33 | right >> 33) & passable
        if grown == reach:
            return reach
        reach = grown


def _twice_near(cells: int) -> int:
    """The cells with at least two neighbours in `cells`."""
    ones = twos = 0
    for shifted in (
        cells << 2,
        cells >> 2,
        cells << 33,
        cells >> 33,
        cells << 35,
        cells >> 35,
    ):
        twos |= ones & shifted
        ones |= shifted
    return twos & ALL


def layers(own: int, empty: int, seed: int, edge: int, two: bool, stop: int = 0) -> list[int]:
    """Cumulative distance levels: `result[k]` is every cell (own or empty) at distance <= k.

    `seed` is the own group at distance 0; `edge` empty cells are at distance 1 whatever their
    neighbours (the goal cells, when measuring from the short sides). With `two`, a cell needs
    two neighbours at the level below (own stones counting double), the two-distance; without,
    one, the plain count of stones needed. Stops early once a level holds `stop`."""
    reached = seed
    levels = [reached]
    while not reached & stop:
        step = _twice_near(reached) | _near(reached & own) if two else _near(reached)
        if len(levels) == 1:
            step |= edge
        fresh = step & empty & ~reached
        grown = reached | fresh
        joined = (_twice_near(grown) if two else _near(grown)) & own & ~grown
        if joined:
            grown |= _flood(joined, own)
        if grown == reached:
            break
        reached = grown
        levels.append(reached)
    return levels


def _distance(levels: list[int], target: int) -> int:
    for k, level in enumerate(levels):
        if level & target:
            return k
    return INFINITE


def _within(from_goal: list[int], from_start: list[int], total: int) -> int:
    """Cells x with d_goal(x) + d_start(x) - 1 <= total: on a path that costs at most `total`."""
    cells = 0
    last_goal, last_start = len(from_goal) - 1, len(from_start) - 1
    for k in range(total + 2):
        j = total + 1 - k
        if j < 0:
            break
        cells |= from_goal[min(k, last_goal)] & from_start[min(j, last_start)]
    return cells


def _cells(bits: int) -> list[int]:
    """The cells of a bitset in canonical order."""
    found = []
    while bits:
        low = bits & -bits
        found.append(CELL_OF_BIT[low.bit_length() - 1])
        bits ^= low
    found.sort()
    return found


def _by_level(cells: int, levels: list[int]) -> list[int]:
    """The cells of a bitset, those in earlier levels first, canonical order within a level."""
    found: list[int] = []
    for level in levels:
        if cells & level:
            found.extend(_cells(cells & level))
            cells &= ~level
    return found + _cells(cells)


class BipodKnowledge(Knowledge[BipodState, Move]):
    """The evaluation and candidate moves every Bi-Pod level plays with (no move is noisy: the
    candidates' order is the move order)."""

    harder = 100  # per stone the harder chain still needs
    total = 50  # per stone both chains still need
    tempo = 50  # the Runner to move is a stone nearer
    # Where the Runner's chances are even. Self-play of hard against itself, the Runner moving
    # first after a few random blocks, went the Blocker's way 3 games in 4, so the empty board
    # is a shade worse than even for the Runner (-50): the first to move adopts and blocks.
    bias = 900
    one_route = 4  # stones added to a chain with a single route left (two-distance infinite)
    passive = 4  # before adoption, what not adopting might cost counts 1/passive
    runner_cells = 8  # candidate cells per chain for the Runner
    blocker_cells = 12  # candidate cells for the Blocker (both chains)
    pass_cells = 3  # harmless blocks offered before adoption

    def __init__(self) -> None:
        self._chains: dict[tuple[int, int, int], tuple[int, int]] = {}

    # -- distances -------------------------------------------------------------------------

    def chain_distance(self, state: BipodState, colour: str) -> int:
        """The stones the chain needs: its two-distance, or its plain shortest path plus a
        penalty when that is less (a single route is one block from lost); INFINITE when cut."""
        own = state.white if colour == WHITE else state.gray
        empty = state.empty
        start = START_BITS[colour]
        home = _flood(own & GOAL_BITS, own)
        goal_edge = GOAL_BITS & empty
        one = _distance(layers(own, empty, home, goal_edge, False, start), start)
        if one >= INFINITE or one == 0:
            return one
        two = _distance(layers(own, empty, home, goal_edge, True, start), start)
        return min(two, one + self.one_route)

    def stones_needed(self, state: BipodState, colour: str) -> int:
        """The plain fewest stones to finish the chain (the engine's 0-1 search, on bitsets)."""
        own = state.white if colour == WHITE else state.gray
        start = START_BITS[colour]
        home = _flood(own & GOAL_BITS, own)
        levels = layers(own, state.empty, home, GOAL_BITS & state.empty, False, start)
        return _distance(levels, start)

    def distances(self, state: BipodState) -> tuple[int, int]:
        """(o chain, O chain) distances, remembered per board."""
        board = (state.empty, state.white, state.gray)
        known = self._chains.get(board)
        if known is None:
            if len(self._chains) > 200_000:
                self._chains.clear()
            known = (self.chain_distance(state, WHITE), self.chain_distance(state, GRAY))
            self._chains[board] = known
        return known

    def runner_value(self, state: BipodState, runner_to_move: bool) -> int:
        """The position's worth to the Runner (whoever that is or would be)."""
        white, gray = self.distances(state)
        if white >= INFINITE or gray >= INFINITE:
            return -LOST
        # One chain home, the other perhaps a stone away by a single route: is it?
        if (
            runner_to_move
            and min(white, gray) == 0
            and max(white, gray) <= 1 + self.one_route
            and self.stones_needed(state, WHITE) + self.stones_needed(state, GRAY) <= 1
        ):
            return WON_SOON
        value = self.bias - self.harder * max(white, gray) - self.total * (white + gray)
        return value + (self.tempo if runner_to_move else 0)

    def adopting_now(self, state: BipodState) -> int:
        """Before adoption: what adopting now is worth to the side to move."""
        if state.adopter_runs:  # the mover runs, the other blocks and moves next
            return self.runner_value(state, False)
        return -self.runner_value(state, True)  # the other runs and moves next

    # -- the knowledge -------------------------------------------------------------------

    def evaluate(self, state: BipodState) -> int:
        if state.runner is None:
            now = self.adopting_now(state)
            return now if now > 0 else now // self.passive
        runs = state.runner == state.to_move
        value = self.runner_value(state, runs)
        return value if runs else -value

    def first_win(self, state: BipodState, moves: list[Move]) -> int:
        """Told from the chains, no stone played (the solver asks at every node next to its
        horizon): before adoption only adopting can win; the Runner's stone wins where the other
        chain is home already and the stone, next to its own chain, brings that one home; the
        Blocker's wins where it cuts a chain, on a cell the chain could still use."""
        runner = state.runner
        if runner is None:  # a block then ends the game drawn at most
            if not moves or moves[-1] != ADOPT:
                return -1
            me = state.to_move
            state.play(ADOPT)
            over = state.outcome()
            state.undo()
            return len(moves) - 1 if over is not None and over.winner == me else -1
        own = {WHITE: state.white, GRAY: state.gray}
        if state.to_move == runner:
            home = {c: _flood(START_BITS[c], own[c]) & GOAL_BITS for c in own}
            near = {WHITE: 0, GRAY: 0}
            for colour, other in ((WHITE, GRAY), (GRAY, WHITE)):
                if home[other]:
                    near[colour] = _near(_flood(START_BITS[colour], own[colour]))
            for index, (colour, cells) in enumerate(moves):
                bit = BITS[cells[0]]
                if bit & near[colour] and _flood(START_BITS[colour], own[colour] | bit) & GOAL_BITS:
                    return index
            return -1
        empty = state.empty
        open_to = {c: own[c] | empty for c in own}
        room = {c: _flood(START_BITS[c], open_to[c]) for c in own}
        for index, (_, cells) in enumerate(moves):
            bit = BITS[cells[0]]
            for colour in (WHITE, GRAY):  # a flood only where the stone can cut
                passable = open_to[colour] & ~bit
                if bit & room[colour] and not _flood(START_BITS[colour], passable) & GOAL_BITS:
                    return index
        return -1

    def candidates(self, state: BipodState) -> list[Move]:
        """The moves worth searching, likeliest first: never the whole list before adoption in
        multi. Every one is legal; never empty while the game goes on."""
        if state.outcome() is not None:
            return []
        paths = {colour: self.path_cells(state, colour) for colour in (WHITE, GRAY)}
        moves: list[Move]
        if state.runner is None:
            moves = self._before_adoption(state, paths)
        elif state.to_move == state.runner:
            moves = self._runner_moves(state, paths)
        else:
            cells = self._blocking_cells(state, paths, self.blocker_cells)
            moves = [Move(BLOCK, (cell,)) for cell in cells]
        if not moves:  # nothing near a path: any empty cell will do
            empties = _cells(state.empty)
            kind = WHITE if state.runner == state.to_move else BLOCK
            moves = [Move(kind, (empties[0],))]
        return list(moves)

    # -- candidate cells -------------------------------------------------------------------

    def path_cells(self, state: BipodState, colour: str) -> tuple[int, list[int], list[int]]:
        """(distance, the empty cells on a best path, those on a path one stone longer), each
        list nearest the chain first: by the two-distance where it is finite, together with the
        plain shortest paths (which hold every cell that finishes a chain at once)."""
        own = state.white if colour == WHITE else state.gray
        empty = state.empty
        start = START_BITS[colour]
        home = _flood(own & GOAL_BITS, own)
        group = _flood(start, own)
        goal_edge = GOAL_BITS & empty
        best = near = 0
        distance = INFINITE
        by_start: list[int] = []
        for two in (True, False):
            from_goal = layers(own, empty, home, goal_edge, two)
            found = _distance(from_goal, start)
            if found >= INFINITE:
                continue
            from_start = layers(own, empty, group, 0, two)
            best |= _within(from_goal, from_start, found) & empty
            near |= _within(from_goal, from_start, found + 1) & empty
            distance = min(distance, found if two else found + self.one_route)
            if not by_start:
                by_start = from_start
        near &= ~best
        return distance, _by_level(best, by_start), _by_level(near, by_start)

    def _blocking_cells(
        self, state: BipodState, paths: dict[str, tuple[int, list[int], list[int]]], most: int
    ) -> list[int]:
        """Cells to block, the harder chain's best paths first (cutting it is what wins), then
        the easier chain's, then the near ones; nearest each chain first."""
        (dw, best_w, near_w), (dg, best_g, near_g) = paths[WHITE], paths[GRAY]
        if dw < dg:
            best_w, best_g, near_w, near_g = best_g, best_w, near_g, near_w
        chosen = dict.fromkeys(best_w[:most] + best_g[:most] + near_w + near_g)
        return list(chosen)[:most]

    def _runner_moves(
        self, state: BipodState, paths: dict[str, tuple[int, list[int], list[int]]]
    ) -> list[Move]:
        """Each colour on its own chain's path cells, the harder chain first."""
        per_colour: list[tuple[int, str, list[int]]] = []
        for colour in (WHITE, GRAY):
            distance, best, near = paths[colour]
            if distance == 0:
                continue  # home already
            per_colour.append((-distance, colour, (best + near)[: self.runner_cells]))
        per_colour.sort()
        moves: list[Move] = []
        for _, colour, cells in per_colour:
            moves.extend(Move(colour, (cell,)) for cell in cells)
        return moves

    def _before_adoption(
        self, state: BipodState, paths: dict[str, tuple[int, list[int], list[int]]]
    ) -> list[Move]:
        """Adopting, blocks on the paths, and a few harmless blocks (passes): in multi also a
        few pairs and triples of each kind."""
        critical = self._blocking_cells(state, paths, 6)
        relevant = 0
        for _, best, near in paths.values():
            for cell in best + near:
                relevant |= BITS[cell]
        idle = _cells(state.empty & ~relevant)
        passes = idle[-self.pass_cells :] if idle else []
        adopt_first = self.adopting_now(state) > 0
        moves: list[Move] = [ADOPT] if adopt_first else []
        singles = passes[:1] + critical + passes[1:]
        moves.extend(Move(BLOCK, (cell,)) for cell in dict.fromkeys(singles))
        if state.multi:
            for cells in (critical[:3], passes):
                for size in range(2, MULTI_MOST + 1):
                    for group in list(combinations(cells, size))[:2]:
                        moves.append(Move(BLOCK, tuple(sorted(group))))
        if not adopt_first:
            moves.append(ADOPT)
        return moves


# No captures to play out: the evaluation measures the chains directly, in units of 100 per
# stone the Runner's harder chain needs (and 50 per stone of both). A node costs much more than
# in the other games, so the clock is read every 16 of them.
_STYLE = Style(BipodKnowledge, None, 0, 0.0, quiescence=False, tick_mask=15)
_EASY = replace(_STYLE, depth=1, slack=120, blunder=0.2)
# The ladder, weakest first. Any plan beats random stones in a connection game, so the levels
# below `easy` play as `easy` does but put a share of their stones anywhere at all (`stray`),
# the way a player does who has not yet seen what the chains need (before adoption in multi such a
# stone costs the whole list of 82,000 moves, 60 ms, as for `random`). Above `easy` the levels look
# two plies ahead; `hard` searches for its whole budget.
# Ratings: Elo over random, from `python bench/ladder.py --game bipod --games 200 --jobs 2`.
LADDER: Ladder = {
    "beginner": replace(_EASY, stray=0.93, rating=269),
    "novice": replace(_EASY, stray=0.77, rating=504),
    "learner": replace(_EASY, stray=0.58, rating=660),
    "casual": replace(_EASY, stray=0.38, rating=895),
    "improver": replace(_EASY, stray=0.18, rating=1130),
    "easy": replace(_EASY, rating=1350),
    "club": replace(_STYLE, depth=2, slack=100, blunder=0.15, rating=1518),
    "medium": replace(_STYLE, depth=2, slack=40, blunder=0.05, rating=1743),
    "hard": replace(_STYLE, rating=1978),
}
# Scores are told in stones: the Runner's harder chain a stone nearer to done is 1.0.
UNIT = ScoreUnit("stones", BipodKnowledge().harder)
