"""Bi-Pod (Bill Taylor, 2004): the complete rules engine of the hex connection game.

The board is the sheet's trapezium: row r (1..6) has 17 - r cells at text columns r-1, r+1, ...,
and a cell is named by the character of the label line ``=`abcdefghijklmnopqrstuvwxyz-';`` above
its column plus its row (`i1`, `` `2 ``, `;1`). Cells are numbered 0..80 row by row, left to
right; that is also the canonical order of moves. Both players place blocking stones until one
adopts; then the Runner places `o` or `O` stones and needs an `o` chain from i1 and an `O` chain
from s1, each reaching a short side (the first or last cell of a row, or any cell of row 6).

Reachability is a flood fill on bitsets: cell (row, column) is bit `(row - 1) * 34 + column`, so
the six neighbours are shifts by 2, 33 and 35 either way, and the gaps of the layout keep a shift
from wrapping onto a real cell.
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Mapping
from functools import cache, partial
from itertools import combinations, compress
from math import comb
from operator import not_
from typing import NamedTuple

from .base import (
    STANDARD_VARIANT,
    EditSquare,
    Figures,
    Game,
    GameError,
    IllegalMoveError,
    NotationError,
    Outcome,
    State,
    Termination,
    Threat,
    shown,
)

FIRST, SECOND = 0, 1
SIDE_NAMES = ("First", "Second")
LABELS = "=`abcdefghijklmnopqrstuvwxyz-';"
ROWS = 6
BLOCK, WHITE, GRAY = "x", "o", "O"  # a blocking stone and the two runner colours
EMPTY = "."
START_GLYPHS = {WHITE: "@", GRAY: "Q"}  # how the start stones are written and drawn
MULTI, ADOPTER_RUNS = "multi", "adopter-runs"
OPTIONS = (MULTI, ADOPTER_RUNS)  # in canonical order
MULTI_MOST = 3  # stones a turn before adoption in the multi variant

# Cells in canonical order: row 1 left to right, then row 2, ...
CELLS: tuple[tuple[int, int], ...] = tuple(
    (row, column) for row in range(1, ROWS + 1) for column in range(row - 1, 32 - row, 2)
)
CELL_COUNT = len(CELLS)  # 81
INDEX: dict[tuple[int, int], int] = {rc: i for i, rc in enumerate(CELLS)}
CELL_NAMES: tuple[str, ...] = tuple(f"{LABELS[col]}{row}" for row, col in CELLS)
NAME_INDEX: dict[str, int] = {name: i for i, name in enumerate(CELL_NAMES)}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        INDEX[rc]
        for rc in (
            (row - 1, col - 1),
            (row - 1, col + 1),
            (row, col - 2),
            (row, col + 2),
            (row + 1, col - 1),
            (row + 1, col + 1),
        )
        if rc in INDEX
    )
    for row, col in CELLS
)
# The short sides: the first and last cell of every row, and all of row 6.
GOALS: frozenset[int] = frozenset(
    i for i, (row, col) in enumerate(CELLS) if row == ROWS or col == row - 1 or col == 31 - row
)
START_CELLS: dict[str, int] = {WHITE: NAME_INDEX["i1"], GRAY: NAME_INDEX["s1"]}

_WIDTH = 34
BITS: tuple[int, ...] = tuple(1 << ((row - 1) * _WIDTH + col) for row, col in CELLS)
_ALL = sum(BITS)
_GOAL_BITS = sum(BITS[i] for i in GOALS)
_START_BITS = {colour: BITS[cell] for colour, cell in START_CELLS.items()}

# Zobrist keys: one per (cell, stone), Second to move, each runner, and a resignation. Fixed
# seed, so keys are the same in every run.
_RANDOM = random.Random(2004)
ZOBRIST: tuple[dict[str, int], ...] = tuple(
    {stone: _RANDOM.getrandbits(64) for stone in (BLOCK, WHITE, GRAY)} for _ in CELLS
)
SECOND_TO_MOVE_KEY = _RANDOM.getrandbits(64)
RUNNER_KEYS = (_RANDOM.getrandbits(64), _RANDOM.getrandbits(64))
RESIGNED_KEY = _RANDOM.getrandbits(64)


class Move(NamedTuple):
    """A turn: `kind` is "x" (blocking stones), "o" or "O" (one runner stone), "adopt" or
    "resign"; `cells` are the stones' cells in canonical order (empty for adopt and resign)."""

    kind: str
    cells: tuple[int, ...] = ()


ADOPT = Move("adopt")
RESIGN = Move("resign")
# The one-stone moves of each cell, made once: `legal_moves` hands out these, not new tuples.
BLOCKS = tuple(Move(BLOCK, (cell,)) for cell in range(CELL_COUNT))
RUNS = tuple((Move(WHITE, (cell,)), Move(GRAY, (cell,))) for cell in range(CELL_COUNT))
MADE_FROM = 48  # empty cells from which the multi variant's placements are filtered, not made


@cache
def _placements(size: int) -> tuple[tuple[Move, ...], tuple[int, ...]]:
    """Every placement of `size` blocking stones on an empty board in canonical order, and the
    bits of its cells. A multi turn has up to 82,240 moves: filtering these for the cells still
    empty is faster than making as many tuples anew, and leaves the garbage collector nothing to
    scan (it took more time than the making)."""
    groups = list(combinations(range(CELL_COUNT), size))
    bits = tuple(sum(BITS[cell] for cell in group) for group in groups)
    return tuple(Move(BLOCK, group) for group in groups), bits


def cell_name(cell: int) -> str:
    return CELL_NAMES[cell]


def _cells_of(bits: int) -> frozenset[int]:
    return frozenset(i for i, bit in enumerate(BITS) if bits & bit)


def _flood(seed: int, passable: int, until: int = 0) -> int:
    """Every cell of `passable` connected to `seed` (which must lie in `passable`); with
    `until`, those found by the time one of `until` is: whether a chain can reach a short side
    is known a few steps out, long before all it could reach (most of the board)."""
    reach = seed
    while not reach & until:
        # The six shifts in four: 35 is 33 + 2, so the 33s of these give the 35s too.
        left, right = reach | reach << 2, reach | reach >> 2
        grown = (left | right | left << 33 | right >> 33) & passable
        if grown == reach:
            return reach
        reach = grown
    return reach


def _reaches_a_side(seed: int, passable: int) -> bool:
    """Whether the cells of `passable` connected to `seed` include a short side."""
    return bool(_flood(seed, passable, _GOAL_BITS) & _GOAL_BITS)


def _combination(n: int, size: int, index: int) -> list[int]:
    """The `index`-th tuple of `combinations(range(n), size)`, in its (lexicographic) order:
    skip whole blocks of tuples that begin with a smaller number than the one sought."""
    picked: list[int] = []
    first = 0
    for left in range(size, 0, -1):
        while (block := comb(n - first - 1, left - 1)) <= index:
            index -= block
            first += 1
        picked.append(first)
        first += 1
    return picked


def normalise_variant(text: str | None) -> str:
    """The canonical name of a variant: its options in canonical order, comma-separated."""
    # The default is also named as a record's Variant tag names it (STANDARD_VARIANT).
    given = {part.strip() for part in (text or "").split(",")} - {"", STANDARD_VARIANT}
    for option in sorted(given):
        if option not in OPTIONS:
            raise GameError(
                f"Bi-Pod has no variant option '{shown(option)}'; expected nothing (the default), "
                f"or a comma-separated list of {' and '.join(OPTIONS)}"
            )
    return ",".join(option for option in OPTIONS if option in given)


VARIANTS = ("", MULTI, ADOPTER_RUNS, f"{MULTI},{ADOPTER_RUNS}")


class BipodState(State[Move]):
    """A Bi-Pod position with its history; `play` and `undo` restore it exactly.

    `cells` holds one stone per cell ("." empty, "x", "o", "O"; the start stones are "o" on i1
    and "O" on s1). `runner` is the side that runs, None before adoption; `resigned` the side that
    resigned, if any. The empty, o and O cells are also kept as bitsets for the flood fills.
    """

    __slots__ = (
        "_history",
        "_outcome",
        "_variant",
        "cells",
        "empty",
        "gray",
        "key",
        "resigned",
        "runner",
        "to_move",
        "white",
    )

    def __init__(
        self,
        cells: list[str],
        to_move: int = FIRST,
        runner: int | None = None,
        variant: str = "",
        resigned: int | None = None,
    ) -> None:
        self.cells = list(cells)
        self.to_move = to_move
        self.runner = runner
        self._variant = normalise_variant(variant)
        self.resigned = resigned
        self.empty = sum(BITS[i] for i, s in enumerate(cells) if s == EMPTY)
        self.white = sum(BITS[i] for i, s in enumerate(cells) if s == WHITE)
        self.gray = sum(BITS[i] for i, s in enumerate(cells) if s == GRAY)
        self.key = self.zobrist_key()
        # Each move with what it changed: (move, runner before, key before, outcome before).
        self._history: list[tuple[Move, int | None, int, Outcome | None]] = []
        self._outcome = self._judge()

    @property
    def variant(self) -> str:
        return self._variant

    @property
    def multi(self) -> bool:
        return MULTI in self.variant.split(",")

    @property
    def adopter_runs(self) -> bool:
        return ADOPTER_RUNS in self.variant.split(",")

    @property
    def blocker(self) -> int | None:
        return None if self.runner is None else 1 - self.runner

    def zobrist_key(self) -> int:
        """The position's key from scratch; `self.key` keeps it up to date move by move."""
        key = SECOND_TO_MOVE_KEY if self.to_move == SECOND else 0
        if self.runner is not None:
            key ^= RUNNER_KEYS[self.runner]
        if self.resigned is not None:
            key ^= RESIGNED_KEY
        for cell, stone in enumerate(self.cells):
            if stone != EMPTY and cell not in START_CELLS.values():
                key ^= ZOBRIST[cell][stone]
        return key

    def stone(self, cell: int) -> str:
        """What stands on `cell`: ".", "x", "o" or "O" (the start stones are "o" and "O")."""
        return self.cells[cell]

    def chains(self) -> dict[str, frozenset[int]]:
        """Per runner colour, the cells of its stones connected to its start stone (for the
        app to highlight); each includes the start cell."""
        return {
            WHITE: _cells_of(_flood(_START_BITS[WHITE], self.white)),
            GRAY: _cells_of(_flood(_START_BITS[GRAY], self.gray)),
        }

    def stones_needed(self, colour: str) -> int | None:
        """The fewest stones of `colour` that would connect its start stone to a short side
        (0: connected; None: cut off for good). A 0-1 breadth-first search: own stones are free,
        empty cells cost one stone, anything else blocks."""
        start = START_CELLS[colour]
        best = {start: 0}
        frontier = deque([start])
        while frontier:
            cell = frontier.popleft()
            cost = best[cell]
            if cell in GOALS:
                return cost
            for near in NEIGHBOURS[cell]:
                stone = self.cells[near]
                if stone != colour and stone != EMPTY:
                    continue
                step = cost + (stone == EMPTY)
                if step < best.get(near, step + 1):
                    best[near] = step
                    if stone == EMPTY:
                        frontier.append(near)
                    else:
                        frontier.appendleft(near)
        return None

    def dead_cells(self) -> frozenset[int]:
        """The empty cells no runner chain can ever use: not connected to i1 through empty or o
        cells, and not connected to s1 through empty or O cells (the sheet leaves them blank)."""
        live = _flood(_START_BITS[WHITE], self.white | self.empty) | _flood(
            _START_BITS[GRAY], self.gray | self.empty
        )
        return _cells_of(self.empty & ~live)

    def cut_cells(self) -> frozenset[int]:
        """The empty cells where one more stone that is not the chain's colour would leave a
        runner chain with no way to a short side: the Blocker's winning cells (see
        docs/rules.md, "The threat overlay"). Only cells the chain can still reach matter."""
        cuts = 0
        for colour, own in ((WHITE, self.white), (GRAY, self.gray)):
            start, passable = _START_BITS[colour], own | self.empty
            reach = _flood(start, passable)
            if not reach & _GOAL_BITS:
                continue  # cut already: the game is over once anyone has adopted
            for bit in BITS:
                if bit & reach & self.empty and not _reaches_a_side(start, passable & ~bit):
                    cuts |= bit
        return _cells_of(cuts)

    def copy(self) -> BipodState:
        twin = BipodState([])  # empty, then filled: mypyc has no bare __new__
        twin.cells = list(self.cells)
        twin.to_move = self.to_move
        twin.runner = self.runner
        twin._variant = self._variant
        twin.resigned = self.resigned
        twin.empty, twin.white, twin.gray = self.empty, self.white, self.gray
        twin.key = self.key
        twin._history = list(self._history)
        twin._outcome = self._outcome
        return twin

    # -- rules ---------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        return self._outcome

    def _judge(self, placed: str | None = None) -> Outcome | None:
        """The outcome from scratch; `play` stores it, so `outcome()` costs nothing. `placed`:
        the colour of the stones just placed in a game that went on until them, when only what
        they can change is looked at (the flood fills are most of a solver's time): an x
        completes no chain, and a runner's stone cannot cut a chain of its own colour."""
        if self.resigned is not None:
            loser = self.resigned
            return Outcome(1 - loser, Termination.RESIGNED, f"{SIDE_NAMES[loser]} resigned")
        if self.runner is None:
            if not self.empty:
                return Outcome(
                    None,
                    Termination.BOARD_FULL,
                    "the board is full and nobody adopted, so nobody has a role",
                )
            return None
        if (
            placed != BLOCK
            and _reaches_a_side(_START_BITS[WHITE], self.white)
            and _reaches_a_side(_START_BITS[GRAY], self.gray)
        ):
            return Outcome(
                self.runner,
                Termination.CHAINS_HOME,
                "the o chain from i1 and the O chain from s1 both reach a short side",
            )
        cut = [
            f"the {colour} chain from {cell_name(START_CELLS[colour])}"
            for colour, own in ((WHITE, self.white), (GRAY, self.gray))
            if colour != placed and not _reaches_a_side(_START_BITS[colour], own | self.empty)
        ]
        if not cut:
            return None
        chains = " and ".join(cut)
        if not self.empty:
            verb = "does" if len(cut) == 1 else "do"
            return Outcome(
                1 - self.runner,
                Termination.CHAIN_CUT,
                f"the board is full and {chains} {verb} not reach a short side",
            )
        return Outcome(
            1 - self.runner, Termination.CHAIN_CUT, f"{chains} can no longer reach a short side"
        )

    def _empties(self) -> list[int]:
        return [i for i, stone in enumerate(self.cells) if stone == EMPTY]

    def legal_moves(self) -> list[Move]:
        """Every legal move in canonical order; [] when the game is over. Before adoption: the
        placements (by number of stones, then cells in order), then adopt. The Runner's: by
        cell, o before O. Resigning is always allowed but is not listed (see docs/rules.md)."""
        if self._outcome is not None:
            return []
        empties = self._empties()
        if self.runner is None:
            moves = [BLOCKS[cell] for cell in empties]
            if self.multi:
                taken = _ALL & ~self.empty
                for size in range(2, MULTI_MOST + 1):
                    if len(empties) < MADE_FROM:
                        moves.extend(map(partial(Move, BLOCK), combinations(empties, size)))
                    else:
                        placements, bits = _placements(size)
                        moves.extend(compress(placements, map(not_, map(taken.__and__, bits))))
            moves.append(ADOPT)
            return moves
        if self.to_move == self.runner:
            return [move for cell in empties for move in RUNS[cell]]
        return [BLOCKS[cell] for cell in empties]

    def count_moves(self) -> int:
        """len(legal_moves()) without building them: for perft's last ply and bots' mobility."""
        if self._outcome is not None:
            return 0
        n = self.empty.bit_count()
        if self.runner is None:
            sizes = range(1, MULTI_MOST + 1) if self.multi else range(1, 2)
            return sum(comb(n, size) for size in sizes) + 1
        return 2 * n if self.to_move == self.runner else n

    def nth_move(self, index: int) -> Move:
        """`legal_moves()[index]` without building the list (the multi variant's first turn
        has 82,240 moves); IndexError outside 0 <= index < count_moves()."""
        if not 0 <= index < self.count_moves():
            raise IndexError(f"Bi-Pod has no legal move {index} here")
        empties = self._empties()
        if self.runner is None:
            for size in range(1, (MULTI_MOST if self.multi else 1) + 1):
                count = comb(len(empties), size)
                if index < count:
                    picked = _combination(len(empties), size, index)
                    return Move(BLOCK, tuple(empties[i] for i in picked))
                index -= count
            return ADOPT
        if self.to_move == self.runner:
            return Move((WHITE, GRAY)[index % 2], (empties[index // 2],))
        return Move(BLOCK, (empties[index],))

    def random_move(self, rng: random.Random) -> Move:
        """The move `rng.choice(self.legal_moves())` would draw (uniform; `randrange` draws an
        index as `choice` does), found by `nth_move` without building the moves."""
        count = self.count_moves()
        if not count:
            raise IndexError("no legal move: the game is over")
        return self.nth_move(rng.randrange(count))

    def is_legal(self, move: Move) -> bool:
        """Whether `move` is in legal_moves(), without building them (resign: while the game
        goes on)."""
        if self._outcome is not None or not isinstance(move, Move):
            return False
        kind, cells = move
        if kind == RESIGN.kind or kind == ADOPT.kind:
            return not cells and (kind == RESIGN.kind or self.runner is None)
        if not cells or list(cells) != sorted(set(cells)):
            return False
        if not all(isinstance(c, int) and 0 <= c < CELL_COUNT for c in cells):
            return False
        if any(self.cells[c] != EMPTY for c in cells):
            return False
        if self.runner is None:
            return kind == BLOCK and len(cells) <= (MULTI_MOST if self.multi else 1)
        if len(cells) != 1:
            return False
        if self.to_move == self.runner:
            return kind in (WHITE, GRAY)
        return kind == BLOCK

    def play(self, move: Move) -> None:
        kind, cells = move
        before = self.key
        key = before ^ SECOND_TO_MOVE_KEY
        runner = self.runner
        if kind == ADOPT.kind:
            self.runner = self.to_move if self.adopter_runs else 1 - self.to_move
            key ^= RUNNER_KEYS[self.runner]
        elif kind == RESIGN.kind:
            self.resigned = self.to_move
            key ^= RESIGNED_KEY
        else:
            board = self.cells
            for cell in cells:
                board[cell] = kind
                bit = BITS[cell]
                self.empty ^= bit
                if kind == WHITE:
                    self.white |= bit
                elif kind == GRAY:
                    self.gray |= bit
                key ^= ZOBRIST[cell][kind]
        self.key = key
        self.to_move ^= 1
        going = self._outcome is None and runner is not None and kind in (BLOCK, WHITE, GRAY)
        self._history.append((move, runner, before, self._outcome))
        self._outcome = self._judge(kind if going else None)

    def undo(self) -> Move:
        move, self.runner, self.key, self._outcome = self._history.pop()
        self.to_move ^= 1
        kind = move.kind
        if kind == RESIGN.kind:
            self.resigned = None
        elif kind != ADOPT.kind:
            for cell in move.cells:
                self.cells[cell] = EMPTY
                bit = BITS[cell]
                self.empty |= bit
                self.white &= ~bit
                self.gray &= ~bit
        return move

    # -- text ----------------------------------------------------------------------------

    def _glyph(self, cell: int) -> str:
        stone = self.cells[cell]
        if cell == START_CELLS.get(stone):
            return START_GLYPHS[stone]
        return stone

    def diagram(self) -> str:
        """The board as the sheet draws it, dead cells blank, then who has which role."""
        dead = self.dead_cells()
        lines = ["_" * len(LABELS)]
        for row in range(1, ROWS + 1):
            line = [" "] * (len(LABELS) + 1)
            for cell in range(CELL_COUNT):
                r, col = CELLS[cell]
                if r == row and cell not in dead:
                    line[col] = self._glyph(cell)
            lines.append("".join(line) + str(row))
        lines.append(LABELS)
        if self.runner is None:
            lines.append("nobody has adopted yet")
        else:
            lines.append(
                f"{SIDE_NAMES[self.runner]} runs (o and O), "
                f"{SIDE_NAMES[1 - self.runner]} blocks (x)"
            )
        return "\n".join(lines)

    def position(self) -> str:
        fields = [
            "/".join("".join(map(self._glyph, cells)) for cells in ROW_CELLS),
            str(self.to_move + 1),
            "-" if self.runner is None else str(self.runner + 1),
        ]
        if self.variant:
            fields.append(self.variant)
        if self.resigned is not None:
            fields.append("resigned")
        return " ".join(fields)


ROW_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, (r, _) in enumerate(CELLS) if r == row) for row in range(1, ROWS + 1)
)


def _row_letters(row: int) -> str:
    return " ".join(CELL_NAMES[i][:-1] for i in ROW_CELLS[row - 1])


# -- notation and position strings --------------------------------------------------------

MOVE_FORM = (
    "blocking stones as cells like e13f2 (e1, e3, f2), a runner stone as a cell and its colour "
    "like v2 O, adopt or resign"
)
_NUMBER_ONLY = re.compile(r"[0-9]+\.(?:\.\.)?")
# Rows are 0-9 only: str.isdigit() would also take other scripts' digits and superscripts, which
# int() reads or refuses with a ValueError.
ROW_DIGITS = "0123456789"


def parse_cell(text: str) -> int:
    """One cell such as e1 or `2, or NotationError saying why not."""
    cells = parse_cells(text)
    if len(cells) != 1:
        raise NotationError(
            f"'{shown(text.strip())}' is not one cell; expected a letter and a row, like e1"
        )
    return cells[0]


def parse_cells(text: str) -> list[int]:
    """Cells written as the sheet writes them, in the order given: letters followed by row
    digits, each letter taking every digit after it (`e13f2` = e1, e3, f2; `su3` = s3, u3)."""
    text = text.strip()
    if not text:
        raise NotationError(f"expected a move: {MOVE_FORM}")
    cells: list[int] = []
    position = 0
    while position < len(text):
        start = position
        while position < len(text) and text[position] in LABELS:
            position += 1
        letters = text[start:position]
        digits_start = position
        while position < len(text) and text[position] in ROW_DIGITS:
            position += 1
        digits = text[digits_start:position]
        if not letters:
            bad = shown(digits or text[position], 10)
            raise NotationError(
                f"'{shown(text)}' is not a move: '{bad}' is not a cell letter; expected {MOVE_FORM}"
            )
        if not digits:
            if position < len(text):
                raise NotationError(
                    f"'{shown(text)}' is not a move: '{shown(text[position])}' is not a cell "
                    f"letter or a row; expected {MOVE_FORM}"
                )
            raise NotationError(
                f"'{shown(text)}' is not a move: {shown(letters, 10)} needs a row number after "
                f"it, like {letters[0]}1"
            )
        for letter in letters:
            column = LABELS.index(letter)
            for digit in digits:
                row = int(digit)
                name = f"{letter}{digit}"
                if not 1 <= row <= ROWS:
                    raise NotationError(f"{name} is off the board; rows run 1 to {ROWS}")
                cell = INDEX.get((row, column))
                if cell is None:
                    raise NotationError(
                        f"{name} is not a cell; row {row}'s cells are {_row_letters(row)}"
                    )
                cells.append(cell)
                if len(cells) > CELL_COUNT:  # `a` * n + `1` * n would name n * n cells
                    raise NotationError(
                        f"'{shown(text)}' names more cells than the board has; a move places "
                        f"one to three stones"
                    )
    return cells


def format_cells(cells: tuple[int, ...] | list[int]) -> str:
    """Cells the way the sheet compresses them: by column, each letter followed by its rows,
    and neighbouring letters with the same rows sharing them (e1, e3, f2 -> e13f2)."""
    rows_of: dict[int, list[int]] = {}
    for cell in cells:
        row, column = CELLS[cell]
        rows_of.setdefault(column, []).append(row)
    groups: list[tuple[str, str]] = []
    for column in sorted(rows_of):
        digits = "".join(str(row) for row in sorted(rows_of[column]))
        if groups and groups[-1][1] == digits:
            groups[-1] = (groups[-1][0] + LABELS[column], digits)
        else:
            groups.append((LABELS[column], digits))
    return "".join(letters + digits for letters, digits in groups)


def format_move(move: Move) -> str:
    if move.kind in (ADOPT.kind, RESIGN.kind):
        return move.kind
    if move.kind == BLOCK:
        return format_cells(move.cells)
    return f"{format_cells(move.cells)} {move.kind}"


def read_move(text: str) -> Move:
    """The move `text` names, well formed but not yet checked against a position."""
    words = text.split()
    lowered = " ".join(words).lower()
    if lowered in ("adopt", "adopts"):
        return ADOPT
    if lowered in ("resign", "resigns"):
        return RESIGN
    if not words:
        raise NotationError(f"expected a move: {MOVE_FORM}")
    colour: str | None = None
    if len(words) == 2:
        if words[1] not in (WHITE, GRAY):
            raise NotationError(
                f"'{shown(words[1])}' is not a runner colour; a runner stone is its cell and o or "
                f"O, like v2 O"
            )
        colour = words[1]
    elif len(words) > 2:
        raise NotationError(f"'{shown(' '.join(words))}' is not a move; expected {MOVE_FORM}")
    cells_text = words[0]
    bare = len(cells_text) > 2 and cells_text[-2] in ROW_DIGITS and cells_text[-1] in (WHITE, GRAY)
    if colour is None and bare:  # v2O or v2o: the colour without its space
        colour, cells_text = cells_text[-1], cells_text[:-1]
    cells = parse_cells(cells_text)
    seen: set[int] = set()
    for cell in cells:
        if cell in seen:
            raise IllegalMoveError(
                f"the same cell twice: {cell_name(cell)}; each stone goes on its own empty cell"
            )
        seen.add(cell)
    if colour is not None and len(cells) != 1:
        raise IllegalMoveError(
            f"the Runner places one stone a turn, with its colour, like {cell_name(cells[0])} o "
            f"or {cell_name(cells[0])} O"
        )
    return Move(colour or BLOCK, tuple(sorted(cells)))


def parse_move(text: str, state: BipodState) -> Move:
    """The legal move that `text` names in `state`; GameError says what is wrong otherwise."""
    move = read_move(text)
    if state.is_legal(move):
        return move
    raise IllegalMoveError(why_illegal(state, move))


def why_illegal(state: BipodState, move: Move) -> str:
    """Explain, in the sheet's words, why a well-formed move is not legal here."""
    outcome = state.outcome()
    if outcome:
        return f"the game is over: {outcome.reason}"
    side = SIDE_NAMES[state.to_move]
    if move.kind == ADOPT.kind:
        return (
            f"adopt only before anyone has adopted; {SIDE_NAMES[state.runner or 0]} is already "
            f"the Runner"
        )
    for cell in move.cells:
        if state.cells[cell] != EMPTY:
            return f"the cell {cell_name(cell)} is taken"
    first = cell_name(move.cells[0])
    if move.kind in (WHITE, GRAY):
        if state.runner is None:
            return (
                "only the Runner places o/O stones, and nobody has adopted yet; place a "
                f"blocking stone (like {first}) or adopt"
            )
        return (
            f"only the Runner places o/O stones; {side} is the Blocker and places a blocking "
            f"stone, like {first}"
        )
    if state.runner == state.to_move:
        if len(move.cells) == 1:
            return f"a runner stone needs its colour: {first} o or {first} O"
        return f"the Runner places one stone a turn, with its colour: {first} o or {first} O"
    if state.runner is not None:
        return f"the Blocker places one blocking stone a turn, like {first}"
    if state.multi:
        return f"one to three stones a turn in the multi variant, like {first}"
    return (
        f"one blocking stone a turn, like {first} (one to three stones a turn only in the "
        f"multi variant)"
    )


POSITION_FORM = (
    "six rows (row 1 first) of . x o O separated by /, with @ on i1 and Q on s1; then the side to "
    "move (1 or 2), the Runner (- before adoption, 1 or 2), and the variant unless it is the "
    "default"
)
START_POSITION = (
    ".....@....Q...../.............../............../............./............/........... 1 -"
)


def _listed(numbers: list[int]) -> str:
    """2 and 4; 1, 2 and 4."""
    words = [str(n) for n in numbers]
    return ", ".join(words[:-1]) + f" and {words[-1]}"


def parse_position(text: str) -> BipodState:
    """Read `<row 1>/.../<row 6> <to move> <runner> [<variant>] [resigned]`; NotationError says
    what is malformed."""
    parts = text.split()
    if len(parts) < 3:
        raise NotationError(
            f"'{shown(text.strip())}' is not a Bi-Pod position; expected {POSITION_FORM}, "
            f"e.g. '{START_POSITION}'"
        )
    board, side_text, runner_text, *rest = parts
    resigned = bool(rest) and rest[-1] == "resigned"
    if resigned:
        rest.pop()
    if len(rest) > 1:
        raise NotationError(
            f"'{shown(' '.join(rest))}' is not a variant; after the Runner comes at most the "
            f"variant (like multi) and 'resigned'"
        )
    try:
        variant = normalise_variant(rest[0] if rest else "")
    except GameError as error:
        raise NotationError(str(error)) from None
    if side_text not in ("1", "2"):
        raise NotationError(
            f"the side to move must be 1 (First) or 2 (Second), not '{shown(side_text)}'"
        )
    if runner_text not in ("-", "1", "2"):
        raise NotationError(
            f"the Runner must be - (nobody has adopted), 1 (First) or 2 (Second), "
            f"not '{shown(runner_text)}'"
        )
    rows = board.split("/")
    if len(rows) != ROWS:
        raise NotationError(f"a position has {ROWS} rows separated by /, not {len(rows)}")
    cells = [EMPTY] * CELL_COUNT
    for row, row_text in enumerate(rows, 1):
        row_cells = ROW_CELLS[row - 1]
        if len(row_text) != len(row_cells):
            raise NotationError(
                f"row {row} has {len(row_text)} cells; it has {len(row_cells)}, each written "
                f"as one of . x o O (@ and Q for the start stones)"
            )
        for cell, glyph in zip(row_cells, row_text, strict=True):
            name = cell_name(cell)
            if glyph in START_GLYPHS.values():
                colour = WHITE if glyph == START_GLYPHS[WHITE] else GRAY
                if START_CELLS[colour] != cell:
                    raise NotationError(
                        f"{glyph} on {name}: the start stones are @ on i1 and Q on s1 only"
                    )
                cells[cell] = colour
            elif cell in START_CELLS.values():
                start = "@" if cell == START_CELLS[WHITE] else "Q"
                raise NotationError(f"{name} holds the start stone {start}, not '{shown(glyph)}'")
            elif glyph in (EMPTY, BLOCK, WHITE, GRAY):
                cells[cell] = glyph
            else:
                raise NotationError(
                    f"'{shown(glyph)}' on {name} is not a stone; expected . x o or O"
                )
    runner = None if runner_text == "-" else int(runner_text) - 1
    if runner is None and any(
        stone in (WHITE, GRAY) and cell not in START_CELLS.values()
        for cell, stone in enumerate(cells)
    ):
        raise NotationError(
            "there are o/O stones but nobody has adopted; only the Runner places them"
        )
    to_move = int(side_text) - 1
    return BipodState(cells, to_move, runner, variant, 1 - to_move if resigned else None)


class Bipod(Game[BipodState, Move]):
    """Bi-Pod in the protocol of `base.py`."""

    key = "bipod"
    name = "Bi-Pod"
    variants = VARIANTS
    side_names = SIDE_NAMES
    line_comment = r";(?![0-9])"  # `;1` is a cell
    move_separator = ", "  # `i3 o, p2`: the runner's colour belongs to the cell before it
    move_examples = "e13f2, v2 O, adopt, resign"
    can_draw = True  # a full board before anyone adopted
    solvable = True  # a stone a turn: every game ends by the time the board is full

    def role(self, state: BipodState, side: int) -> str:
        if state.runner is None:
            return ""
        return "the Runner" if side == state.runner else "the Blocker"

    def is_resignation(self, move: Move) -> bool:
        return move.kind == RESIGN.kind

    def new(self, variant: str | None = None) -> BipodState:
        """Any spelling of the options (`adopter-runs, multi`) names its variant."""
        return self.start(normalise_variant(variant))

    def start(self, variant: str) -> BipodState:
        return parse_position(f"{START_POSITION} {variant}")

    def parse_position(self, text: str) -> BipodState:
        return parse_position(text)

    def parse_move(self, text: str, state: BipodState) -> Move:
        return parse_move(text, state)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def move_sentence(self, side: str, move: Move) -> str:
        """Adopting and resigning are said as acts ("Second adopted."), not as moves played."""
        if move.kind in (ADOPT.kind, RESIGN.kind):
            return f"{side} {move.kind}ed."
        return super().move_sentence(side, move)

    def move_words(self, move: Move) -> str:
        """What kind of stone and its row (a stone by its role, never by `o`/`O`, which only
        `--ascii` draws); the cell is left to find. Adopting and resigning are no smaller than
        themselves: ""."""
        if move.kind in (ADOPT.kind, RESIGN.kind):
            return ""
        rows = sorted({CELLS[cell][0] for cell in move.cells})
        where = f"row {rows[0]}" if len(rows) == 1 else f"rows {_listed(rows)}"
        if move.kind == BLOCK:
            stones = "a blocking stone" if len(move.cells) == 1 else "blocking stones"
            return f"{stones} in {where}"
        start = cell_name(START_CELLS[move.kind])
        return f"a stone of the chain from {start}, in {where}"

    def figures(self, state: BipodState) -> Figures:
        """The stones each side placed and, once someone adopted, its role; before that what
        adopting does; how many more stones each runner chain needs at the least. Said in lines
        of the narrow side panel (23 characters), for a first-time player."""
        placed = [0, 0]
        moves = state.moves_played
        first = state.to_move ^ (len(moves) % 2)  # who played the first of them
        for ply, move in enumerate(moves):
            placed[first ^ (ply % 2)] += len(move.cells)
        chains = []
        for colour in (WHITE, GRAY):
            needed = state.stones_needed(colour)
            if needed is None:
                said = "cut off"
            elif needed == 0:
                said = "connected"
            else:
                said = f"{needed} more stone{'' if needed == 1 else 's'}"
            # Named by its start stone, not by its typed letter: the board draws ○ ● (o O in
            # ASCII), and the cell is what both show.
            chains.append(f"{cell_name(START_CELLS[colour])} chain: {said}")
        if state.runner is None:
            you, other = ("Runner", "Blocker") if state.adopter_runs else ("Blocker", "Runner")
            roles = ["No roles yet. Adopting", f"makes you the {you},", f"the other the {other}."]
            counts = ((placed[0],), (placed[1],))
            return Figures(("placed",), counts, "\n".join([*roles, *chains]))
        role = ["", ""]
        role[state.runner], role[1 - state.runner] = "Runner", "Blocker"
        rows = ((role[0], placed[0]), (role[1], placed[1]))
        return Figures(("role", "placed"), rows, "\n".join(chains))

    def threats(self, state: BipodState) -> list[Threat]:
        """The cells where the Blocker's next stone would cut a chain; none before adoption,
        when no side holds a chain to cut (docs/rules.md, "The threat overlay")."""
        if state.outcome() is not None or state.blocker is None:
            return []
        return [Threat(cell_name(cell), state.blocker) for cell in sorted(state.cut_cells())]

    # -- editing a position (docs/rules.md, "Editing a position") ----------------------------

    def edit_squares(self, variant: str) -> tuple[EditSquare, ...]:
        return tuple(EditSquare(CELL_NAMES[i], row - 1, col) for i, (row, col) in enumerate(CELLS))

    def edit_help(self, variant: str) -> str:
        return "x (a blocking stone), o or O (the Runner's stones)"

    def square_contents(self, state: BipodState) -> dict[str, str]:
        return {
            cell_name(cell): state._glyph(cell)
            for cell in range(CELL_COUNT)
            if state.cells[cell] != EMPTY
        }

    def read_token(self, variant: str, square: str, text: str) -> str:
        cell = parse_cell(square)
        token = text.strip()
        token = BLOCK if token == "X" else "" if token == EMPTY else token
        for colour, start in START_CELLS.items():
            glyph = START_GLYPHS[colour]
            if cell == start:
                if token not in (glyph, colour):
                    raise GameError(f"{square} holds the start stone {glyph}, which stays")
                return glyph
            if token == glyph:
                raise GameError(f"{glyph} is a start stone: it stands on {cell_name(start)} only")
        if token not in ("", BLOCK, WHITE, GRAY):
            raise NotationError(
                f"'{shown(text.strip())}' is not a stone; expected {self.edit_help(variant)}, "
                f"or nothing for an empty cell"
            )
        return token

    def edit_choices(self, variant: str) -> dict[str, tuple[str, ...]]:
        """Who runs: nobody before adoption, else the side that runs."""
        return {"Runner": ("nobody yet", *SIDE_NAMES)}

    def choices_of(self, state: BipodState) -> dict[str, str]:
        return {"Runner": "nobody yet" if state.runner is None else SIDE_NAMES[state.runner]}

    def position_from(
        self,
        variant: str,
        contents: Mapping[str, str],
        to_move: int,
        choices: Mapping[str, str] | None = None,
    ) -> BipodState:
        if to_move not in (FIRST, SECOND):
            raise GameError(f"the side to move is 0 (First) or 1 (Second), not {to_move}")
        glyphs = [
            START_GLYPHS[WHITE]
            if i == START_CELLS[WHITE]
            else START_GLYPHS[GRAY]
            if i == START_CELLS[GRAY]
            else EMPTY
            for i in range(CELL_COUNT)
        ]
        for square, text in contents.items():
            glyphs[parse_cell(square)] = self.read_token(variant, square, text) or EMPTY
        rows = "/".join("".join(glyphs[i] for i in cells) for cells in ROW_CELLS)
        runner = (choices or {}).get("Runner", "nobody yet")
        runners = self.edit_choices(variant)["Runner"]
        if runner not in runners:
            raise GameError(f"the Runner is {' or '.join(runners)}, not '{shown(runner)}'")
        runner_text = "-" if runner == runners[0] else str(SIDE_NAMES.index(runner) + 1)
        state = parse_position(f"{rows} {to_move + 1} {runner_text} {variant}")
        outcome = state.outcome()
        if outcome is not None:
            raise GameError(f"{outcome.reason}, so the game would be over")
        return state

    def split_moves(self, text: str) -> list[str]:
        """Tokens separated by whitespace or commas (a line as the program writes it, `i3 o, p2`,
        reads back), with a lone runner colour joined to the cell before it (`v2 O` is one
        move). No cell name has a comma."""
        tokens: list[str] = []
        for word in text.replace(",", " ").split():
            if word in (WHITE, GRAY) and tokens and not _NUMBER_ONLY.fullmatch(tokens[-1]):
                tokens[-1] += f" {word}"
            else:
                tokens.append(word)
        return tokens


BIPOD = Bipod()
