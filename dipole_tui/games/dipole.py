"""Dipole (Mark Steere, 2007): the complete rules engine for the 8x8 and 10x10 boards.

Squares are numbered `rank * 10 + file` on both boards, so a move means the same thing whatever
the board size and `format_move` needs no board. A cell holds a signed height: positive for
White's stack, negative for Black's, 0 for empty. Every move of a stack square is looked up in a
table built once per board size and side, which is what makes the generator fast enough to search.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from functools import cache
from typing import Final, NamedTuple

from mypy_extensions import i64

from .base import (
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

# Final: compiled code reads a Final constant as a C constant, not from the module's dict.
WHITE: Final = 0
BLACK: Final = 1
SIDE_NAMES = ("White", "Black")
SIZES = {"8x8": 8, "10x10": 10}
# The start: (White's square, Black's square, checkers per side), as docs/rules.md settles.
SETUPS = {8: ("e1", "d8", 12), 10: ("e1", "f10", 20)}
STRIDE: Final = 10  # square = rank * STRIDE + file, for both board sizes
OFF: Final = -1  # the target of a removal off the board
FILES = "abcdefghij"


class Move(NamedTuple):
    """A move: `count` checkers from `origin` to `target` (OFF for a removal); or a pass."""

    origin: int
    target: int
    count: int  # type: ignore[assignment]  # the field shadows tuple.count, which moves never use
    capture: bool = False

    @property
    def is_pass(self) -> bool:
        return self.count == 0

    @property
    def is_removal(self) -> bool:
        return self.target == OFF and self.count > 0


PASS: Final = Move(-1, -1, 0)

# Zobrist keys: one random number per (square, signed height), and one for Black to move, so that
# a position's key changes by a few XORs per move. Fixed seed: keys are the same in every run.
# 62 bits: compiled, an int below 2**62 is a machine word, and XORs of them allocate nothing.
MAX_HEIGHT: Final = 20
KEY_BITS: Final = (1 << 62) - 1
_RANDOM = random.Random(2007)
ZOBRIST: Final = [
    [
        0 if h == 0 else _RANDOM.getrandbits(64) & KEY_BITS
        for h in range(-MAX_HEIGHT, MAX_HEIGHT + 1)
    ]
    for _ in range(STRIDE * STRIDE)
]
BLACK_TO_MOVE_KEY: Final = _RANDOM.getrandbits(64) & KEY_BITS


def square_name(square: int) -> str:
    return f"{FILES[square % STRIDE]}{square // STRIDE + 1}"


def is_dark(square: int) -> bool:
    return (square % STRIDE + square // STRIDE) % 2 == 0


def dark_squares(size: int) -> list[int]:
    return [r * STRIDE + f for r in range(size) for f in range(size) if (r + f) % 2 == 0]


_DIRECTIONS = [(df, dr) for dr in (1, 0, -1) for df in (-1, 0, 1) if (df, dr) != (0, 0)]


HEIGHTS: Final = MAX_HEIGHT + 1  # a table's row per square holds one entry per height, 0 to 20
SQUARES: Final = STRIDE * STRIDE


class _Tables:
    """Per board size and side, every move from each square built once, in flat lists indexed
    by `square * HEIGHTS + height` (or `origin * SQUARES + target`), which compiled code reads
    without hashing: what a stack of that height can do from that square."""

    def __init__(self, size: int, side: int) -> None:
        ahead = 1 if side == WHITE else -1
        # Per dark square: (count, target, whether it goes forward, the move, the capture),
        # along every line, shortest first.
        self.reach: dict[int, tuple[tuple[int, int, bool, Move, Move], ...]] = {}
        # By `origin * SQUARES + target`: the count of a capture there along a line (0: none
        # reaches), and the capture. Apart, as compiled code reads an int or a move from a
        # list without unpacking a tuple.
        self.capture_counts: list[int] = [0] * (SQUARES * SQUARES)
        self.captures: list[Move] = [PASS] * (SQUARES * SQUARES)
        # The lines' moves within a height's reach, and its removals (every count that leaves).
        self.lines: list[tuple[tuple[int, int, bool, Move, Move], ...]] = [()] * (SQUARES * HEIGHTS)
        self.removals: list[tuple[Move, ...]] = [()] * (SQUARES * HEIGHTS)
        # What count_moves reads: how many removals, and the (count, target) of the lines'
        # moves forward (a step, a merge or a capture) and of the others (a capture or nothing).
        self.leaving: list[int] = [0] * (SQUARES * HEIGHTS)
        self.ahead: list[tuple[tuple[int, int], ...]] = [()] * (SQUARES * HEIGHTS)
        self.aside: list[tuple[tuple[int, int], ...]] = [()] * (SQUARES * HEIGHTS)
        for square in dark_squares(size):
            file, rank = square % STRIDE, square // STRIDE
            moves = []
            for df, dr in _DIRECTIONS:
                for k in range(1, 2 * size):
                    f, r = file + df * k, rank + dr * k
                    if not (0 <= f < size and 0 <= r < size):
                        break
                    if (f + r) % 2 == 0:  # a straight move of odd length ends on a light square
                        target = r * STRIDE + f
                        moves.append(
                            (
                                k,
                                target,
                                dr == ahead,
                                Move(square, target, k),
                                Move(square, target, k, True),
                            )
                        )
            line = self.reach[square] = tuple(sorted(moves))
            for k, target, _, _, capture in line:
                self.capture_counts[square * SQUARES + target] = k
                self.captures[square * SQUARES + target] = capture
            # A diagonal always leaves the board no later than straight ahead does, so the
            # smallest count that leaves the board is the smaller of the two forward diagonals'.
            rows_left = size - rank if side == WHITE else rank + 1
            first = min(rows_left, file + 1, size - file)
            for height in range(HEIGHTS):
                within = tuple(move for move in line if move[0] <= height)
                leaving = tuple(Move(square, OFF, k) for k in range(first, height + 1))
                self.lines[square * HEIGHTS + height] = within
                self.removals[square * HEIGHTS + height] = leaving
                self.leaving[square * HEIGHTS + height] = len(leaving)
                self.ahead[square * HEIGHTS + height] = tuple(
                    (k, target) for k, target, forward, _, _ in within if forward
                )
                self.aside[square * HEIGHTS + height] = tuple(
                    (k, target) for k, target, forward, _, _ in within if not forward
                )


@cache
def _tables(size: int, side: int) -> _Tables:
    return _Tables(size, side)


def move_lines(size: int, side: int) -> dict[int, tuple[tuple[int, int, bool, Move, Move], ...]]:
    """Per dark square, every move along a line from it, shortest first, as (count, target,
    whether it goes forward, the move, the capture): for a bot's knowledge of what reaches what."""
    return _tables(size, side).reach


def _by_line(move: Move) -> tuple[int, int]:
    """One stack's moves in its lines' order: shortest first, then by target."""
    return move[2], move[1]


def _insert(stacks: list[int], square: int) -> None:
    """Put a square into a side's sorted list of stacks (a dozen at most: a scan is quickest)."""
    at = len(stacks)
    while at and stacks[at - 1] > square:
        at -= 1
    stacks.insert(at, square)


class DipoleState(State[Move]):
    """A Dipole position with its history; `play` and `undo` restore it exactly. Each side's
    stacks are a sorted list of squares, kept so by `play` and `undo`: the move generator walks
    them in order, and the race knows the foremost stacks at a glance."""

    __slots__ = ("_history", "_tables", "cells", "checkers", "key", "size", "stacks", "to_move")

    def __init__(
        self,
        size: int,
        white: dict[int, int],
        black: dict[int, int],
        to_move: int = WHITE,
    ) -> None:
        self.size = size
        self.cells = [0] * SQUARES
        # A list, not a tuple: compiled, a tuple indexed by a variable is boxed on every read.
        self.stacks: list[list[int]] = [sorted(white), sorted(black)]
        for square, height in white.items():
            self.cells[square] = height
        for square, height in black.items():
            self.cells[square] = -height
        self.checkers = [sum(white.values()), sum(black.values())]
        self.to_move = to_move
        self.key = self.zobrist_key()
        # Each move with the height it captured and the key before it.
        self._history: list[tuple[Move, int, int]] = []
        self._tables = [_tables(size, WHITE), _tables(size, BLACK)]

    @property
    def variant(self) -> str:
        return f"{self.size}x{self.size}"

    def zobrist_key(self) -> int:
        """The position's key computed from scratch; `self.key` keeps it up to date move by move."""
        key = BLACK_TO_MOVE_KEY if self.to_move == BLACK else 0
        for square, height in enumerate(self.cells):
            key ^= ZOBRIST[square][height + MAX_HEIGHT]
        return key

    def height(self, square: int) -> int:
        """Signed height on a square: positive White, negative Black, 0 empty."""
        return self.cells[square]

    def stacks_of(self, side: int) -> dict[int, int]:
        sign = 1 if side == WHITE else -1
        return {sq: self.cells[sq] * sign for sq in self.stacks[side]}

    def copy(self) -> DipoleState:
        twin = DipoleState(self.size, {}, {})  # empty, then filled: mypyc has no bare __new__
        twin.size = self.size
        twin.cells = list(self.cells)
        twin.stacks = [list(self.stacks[0]), list(self.stacks[1])]
        twin.checkers = list(self.checkers)
        twin.to_move = self.to_move
        twin.key = self.key
        twin._history = list(self._history)
        twin._tables = self._tables
        return twin

    def tallies(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        """Per side: checkers on the board, lost to the opponent's captures, and removed by
        the side itself, read from the history (which keeps each capture's height)."""
        captured, removed = [0, 0], [0, 0]
        side = self.to_move ^ (len(self._history) % 2)  # who played the first move
        for move, taken, _ in self._history:
            if move.target == OFF:
                removed[side] += move.count
            captured[1 - side] += taken
            side ^= 1
        white, black = ((self.checkers[s], captured[s], removed[s]) for s in (WHITE, BLACK))
        return white, black

    # -- rules ---------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        white, black = self.checkers
        if white == 0:
            return Outcome(BLACK, Termination.NO_CHECKERS, "White has no checkers left")
        if black == 0:
            return Outcome(WHITE, Termination.NO_CHECKERS, "Black has no checkers left")
        return None

    def legal_moves(self) -> list[Move]:
        if self.checkers[0] == 0 or self.checkers[1] == 0:
            return []
        side = self.to_move
        # An i64: compiled, a tagged int multiplies a negative one slowly (through a PyLong).
        sign: i64 = 1 if side == WHITE else -1
        cells = self.cells
        tables = self._tables[side]
        lines, removals = tables.lines, tables.removals
        moves: list[Move] = []
        for origin in self.stacks[side]:
            row = origin * HEIGHTS + cells[origin] * sign
            for k, target, forward, step, capture in lines[row]:
                there = cells[target] * sign
                if there >= 0:
                    if forward:
                        moves.append(step)
                elif -there <= k:
                    moves.append(capture)
            moves.extend(removals[row])
        return moves or [PASS]

    def captures(self) -> list[Move]:
        """The legal captures alone, in `legal_moves`' order: what a search looks at past its
        horizon, found from the pairs of stacks rather than from every move."""
        if self.checkers[0] == 0 or self.checkers[1] == 0:
            return []
        side = self.to_move
        sign: i64 = 1 if side == WHITE else -1
        cells, tables = self.cells, self._tables[side]
        counts, captures = tables.capture_counts, tables.captures
        theirs = self.stacks[1 - side]
        found: list[Move] = []
        for origin in self.stacks[side]:
            height = cells[origin] * sign
            row = origin * SQUARES
            first = len(found)
            for target in theirs:
                taken = -cells[target] * sign
                if taken <= height:
                    k = counts[row + target]
                    if taken <= k <= height:
                        found.append(captures[row + target])
            if len(found) > first + 1:  # a stack's captures, as its lines give them
                found[first:] = sorted(found[first:], key=_by_line)
        return found

    def count_moves(self) -> int:
        """len(legal_moves()) without building them: for perft's last ply and bots' mobility."""
        if self.checkers[0] == 0 or self.checkers[1] == 0:
            return 0
        side = self.to_move
        sign: i64 = 1 if side == WHITE else -1
        cells = self.cells
        tables = self._tables[side]
        leaving, ahead, aside = tables.leaving, tables.ahead, tables.aside
        count = 0
        for origin in self.stacks[side]:
            row = origin * HEIGHTS + cells[origin] * sign
            count += leaving[row]
            for k, target in ahead[row]:
                there = cells[target] * sign
                if there >= 0 or -there <= k:
                    count += 1
            for k, target in aside[row]:
                there = cells[target] * sign
                if there < 0 and -there <= k:
                    count += 1
        return count or 1

    def play(self, move: Move) -> None:
        origin, target, k, _ = move
        side = self.to_move
        captured = 0
        before = key = self.key
        if k:
            # Items set, not `+=`'d: compiled, an augmented item is added as an object.
            cells, checkers = self.cells, self.checkers
            mine = self.stacks[side]
            sign: i64 = 1 if side == WHITE else -1
            there = cells[origin]
            left = there - k * sign
            cells[origin] = left
            zobrist = ZOBRIST[origin]
            key ^= zobrist[there + MAX_HEIGHT] ^ zobrist[left + MAX_HEIGHT]
            if not left:
                mine.remove(origin)
            if target == OFF:
                checkers[side] = checkers[side] - k
            else:
                there = cells[target]
                if there * sign < 0:
                    captured = -there * sign
                    checkers[1 - side] = checkers[1 - side] - captured
                    self.stacks[1 - side].remove(target)
                    landed = k * sign
                    _insert(mine, target)
                else:
                    landed = there + k * sign
                    if not there:
                        _insert(mine, target)
                cells[target] = landed
                zobrist = ZOBRIST[target]
                key ^= zobrist[there + MAX_HEIGHT] ^ zobrist[landed + MAX_HEIGHT]
        self.key = key ^ BLACK_TO_MOVE_KEY
        self._history.append((move, captured, before))
        self.to_move = 1 - side

    def undo(self) -> Move:
        move, captured, self.key = self._history.pop()
        side = self.to_move = 1 - self.to_move
        origin, target, k, _ = move
        if k:
            cells, checkers = self.cells, self.checkers
            mine = self.stacks[side]
            sign: i64 = 1 if side == WHITE else -1
            if target == OFF:
                checkers[side] = checkers[side] + k
            elif captured:
                cells[target] = -captured * sign
                mine.remove(target)
                _insert(self.stacks[1 - side], target)
                checkers[1 - side] = checkers[1 - side] + captured
            else:
                left = cells[target] - k * sign
                cells[target] = left
                if not left:
                    mine.remove(target)
            there = cells[origin]
            if not there:
                _insert(mine, origin)
            cells[origin] = there + k * sign
        return move

    def diagram(self) -> str:
        """The board as plain text, White at the bottom: W12 is a White 12-stack, . a dark
        square."""
        letters = "   " + "".join(f" {FILES[f]} " for f in range(self.size))
        rows = [letters]
        for rank in reversed(range(self.size)):
            row = f"{rank + 1:>2} "
            for file in range(self.size):
                height = self.cells[rank * STRIDE + file]
                if (rank + file) % 2:
                    row += "   "
                elif height:
                    row += f"{'W' if height > 0 else 'B'}{abs(height):<2}"
                else:
                    row += " . "
            rows.append(f"{row} {rank + 1}".rstrip())
        rows.append(letters)
        return "\n".join(rows)

    def position(self) -> str:
        parts = []
        for side, letter in ((WHITE, "W"), (BLACK, "B")):
            stacks = self.stacks_of(side)
            parts.append(letter + ",".join(f"{square_name(s)}={h}" for s, h in stacks.items()))
        return f"{self.size}:{'WB'[self.to_move]}:{parts[0]}:{parts[1]}"


# -- notation and position strings --------------------------------------------------------

# ASCII only: `\d` and int() would read other scripts' digits (Arabic-Indic, full-width), and
# IGNORECASE would match the Kelvin sign as a k.
_MOVE = re.compile(
    r"([a-z])([0-9]{1,2})\s*([-x+])\s*(?:([a-z])([0-9]{1,2})|(off)(?::([0-9]{1,2}))?)",
    re.IGNORECASE | re.ASCII,
)
MOVE_FORMS = "e1-g3 (move or merge), e1xg3 (capture), g7-off:2 (removal) or pass"
POSITION_FORM = "<size>:<side>:W<stacks>:B<stacks>, e.g. 8:W:We1=12:Bd8=12"
HEIGHT_DIGITS = 3  # more than any side's checkers; a longer count is refused before int()
_HEIGHT = re.compile(f"[0-9]{{1,{HEIGHT_DIGITS}}}")


def parse_square(text: str, size: int) -> int:
    """A dark square of a size x size board, or NotationError saying why not."""
    name = text.strip()
    match = re.fullmatch(r"([a-zA-Z])([0-9]{1,2})", name)
    if not match:
        raise NotationError(
            f"'{shown(name)}' is not a square; expected a file letter and a rank, like e1"
        )
    file = ord(match[1].lower()) - ord("a")
    rank = int(match[2]) - 1
    if not (0 <= file < size and 0 <= rank < size):
        last = f"{FILES[size - 1]}{size}"
        raise NotationError(f"{name} is off the {size}x{size} board (a1 to {last})")
    square = rank * STRIDE + file
    if not is_dark(square):
        raise NotationError(f"{name} is a light square; stacks stand only on dark squares")
    return square


def format_move(move: Move) -> str:
    if move.is_pass:
        return "pass"
    if move.target == OFF:
        return f"{square_name(move.origin)}-off:{move.count}"
    return f"{square_name(move.origin)}{'x' if move.capture else '-'}{square_name(move.target)}"


def parse_move(text: str, state: DipoleState) -> Move:
    """The legal move that `text` names in `state`; GameError says what is wrong otherwise."""
    cleaned = text.strip()
    if cleaned.lower() == "pass":
        move = PASS
        legal = state.legal_moves()
        if move in legal:
            return move
        raise IllegalMoveError(_why_not_pass(state, legal))
    match = _MOVE.fullmatch(cleaned)
    if not match:
        raise NotationError(f"'{shown(cleaned)}' is not a move; expected {MOVE_FORMS}")
    origin = parse_square(match[1] + match[2], state.size)
    sign = 1 if state.to_move == WHITE else -1
    height = state.cells[origin] * sign
    if match[6]:  # a removal: off the board
        count = int(match[7]) if match[7] else _only_removal_count(state, origin, cleaned)
        move = Move(origin, OFF, max(height, 1) if count is None else count)
    else:
        target = parse_square(match[4] + match[5], state.size)
        count = max(
            abs(target % STRIDE - origin % STRIDE), abs(target // STRIDE - origin // STRIDE)
        )
        move = Move(origin, target, count, state.cells[target] * sign < 0)
    if move in state.legal_moves():
        if match[3] == "x" and not move.capture:
            raise IllegalMoveError(f"{_name(move.target)} holds no enemy stack to capture")
        if match[3] == "+" and (move.target == OFF or state.cells[move.target] * sign <= 0):
            raise IllegalMoveError("a merge needs a stack of your own on the target square")
        return move
    raise IllegalMoveError(_why_illegal(state, move))


def _only_removal_count(state: DipoleState, origin: int, text: str) -> int | None:
    """The count of a removal written without one, when exactly one count can leave; a count is
    never guessed (`e1-off` at the start would throw all twelve off and lose), so several legal
    counts are an error that lists them, and none leaves the reason to `_why_illegal`."""
    counts = [m.count for m in state.legal_moves() if m.origin == origin and m.target == OFF]
    if len(counts) > 1:
        text = shown(text)
        raise NotationError(f"{text} needs a count: {count_range(counts)}, e.g. {text}:{counts[0]}")
    return counts[0] if counts else None


def count_range(counts: list[int]) -> str:
    """Sorted counts in words: `4 to 12`, `2, 4 or 6`, `3 or 4`, `1, 3 to 6 or 9`."""
    runs: list[list[int]] = []
    for count in counts:
        if runs and count == runs[-1][-1] + 1:
            runs[-1].append(count)
        else:
            runs.append([count])
    parts: list[str] = []
    for run in runs:
        parts.extend([f"{run[0]} to {run[-1]}"] if len(run) > 2 else map(str, run))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _name(square: int) -> str:
    return "off the board" if square == OFF else square_name(square)


def _why_not_pass(state: DipoleState, legal: list[Move]) -> str:
    outcome = state.outcome()
    if outcome:
        return f"the game is over: {outcome.reason}"
    count = f"{len(legal)} legal move{'s' if len(legal) > 1 else ''}"
    return f"{SIDE_NAMES[state.to_move]} has {count}, so cannot pass"


def _why_illegal(state: DipoleState, move: Move) -> str:
    """Explain, in the sheet's words, why a well-formed move is not in the legal list."""
    outcome = state.outcome()
    if outcome:
        return f"the game is over: {outcome.reason}"
    side = state.to_move
    sign = 1 if side == WHITE else -1
    origin, target, k, capture = move
    name = square_name(origin)
    height = state.cells[origin] * sign
    if height == 0:
        return f"there is no stack on {name}"
    if height < 0:
        return f"the stack on {name} is {SIDE_NAMES[1 - side]}'s; it is {SIDE_NAMES[side]}'s turn"
    if target not in (OFF, origin):
        df = target % STRIDE - origin % STRIDE
        dr = target // STRIDE - origin // STRIDE
        if df and dr and abs(df) != abs(dr):
            return f"{name} to {square_name(target)} is not a straight line"
        if (df == 0 or dr == 0) and k % 2:  # parse_square refuses light squares first
            return "straight moves need an even number of checkers"
    if target == origin:
        return "a move must leave its square"
    if k < 1:
        return "a move takes at least 1 checker"
    if k > height:
        if target == OFF:
            return f"cannot remove {k} checkers: the stack on {name} has only {height}"
        return (
            f"{_a(k)} {k}-checker move travels exactly {k} squares, "
            f"but the stack on {name} has only {height}"
        )
    if target == OFF:
        return (
            f"{k} checkers from {name} cannot leave the board: they land on the board "
            f"in every forward direction (straight moves need an even number of checkers)"
        )
    if capture:
        enemy = -state.cells[target] * sign
        return f"{_a(k)} {k}-checker part cannot capture a stack of {enemy}"
    kind = "merges" if state.cells[target] * sign > 0 else "basic moves"
    return f"{kind} go forward or diagonally forward only; only captures go backward or sideways"


def _a(number: int) -> str:
    """The article before a number said aloud: an 8x8, an 11-checker move, a 10x10."""
    said = str(number)
    return "an" if said.startswith("8") or said in ("11", "18") else "a"


def threats(state: DipoleState) -> list[Threat]:
    """Every stack that the other side could capture with one move: the side to move's
    captures in the position, the other side's in the same stacks with the turn handed over."""
    if state.outcome() is not None:
        return []
    turned = DipoleState(
        state.size, state.stacks_of(WHITE), state.stacks_of(BLACK), 1 - state.to_move
    )
    taken: dict[int, int] = {}
    for side in (WHITE, BLACK):
        probe = state if side == state.to_move else turned
        taken.update((move.target, side) for move in probe.legal_moves() if move.capture)
    return [Threat(square_name(square), by) for square, by in sorted(taken.items())]


def parse_position(text: str) -> DipoleState:
    """Read `<size>:<side>:W<stacks>:B<stacks>`; NotationError says what is malformed."""
    parts = text.strip().split(":")
    if len(parts) != 4:
        raise NotationError(
            f"'{shown(text.strip())}' is not a Dipole position; expected {POSITION_FORM}"
        )
    size_text, side_text, white_text, black_text = (p.strip() for p in parts)
    if size_text not in ("8", "10"):
        raise NotationError(f"board size must be 8 or 10, not '{shown(size_text)}'")
    size = int(size_text)
    if side_text.upper() not in ("W", "B"):
        raise NotationError(f"side to move must be W or B, not '{shown(side_text)}'")
    limit = SETUPS[size][2]
    seen: set[int] = set()
    sides = []
    for letter, part in (("W", white_text), ("B", black_text)):
        if part[:1].upper() != letter:
            raise NotationError(
                f"expected {letter} and {SIDE_NAMES['WB'.index(letter)]}'s stacks, "
                f"not '{shown(part)}'; {POSITION_FORM}"
            )
        stacks: dict[int, int] = {}
        body = part[1:].strip()
        for item in body.split(",") if body else []:
            square_text, equals, height_text = item.partition("=")
            square = parse_square(square_text, size)
            height_text = height_text.strip()
            if not equals or not _HEIGHT.fullmatch(height_text) or int(height_text) < 1:
                raise NotationError(
                    f"'{shown(item.strip())}' is not a stack; expected <square>=<height>, "
                    f"like e1=12 (a height is at most {HEIGHT_DIGITS} digits 0-9)"
                )
            if square in seen:
                raise NotationError(f"{square_name(square)} is listed twice")
            seen.add(square)
            stacks[square] = int(height_text)
        if sum(stacks.values()) > limit:
            raise NotationError(
                f"{SIDE_NAMES['WB'.index(letter)]} has {sum(stacks.values())} checkers; "
                f"{_a(size)} {size}x{size} game has at most {limit} a side"
            )
        sides.append(stacks)
    if not sides[0] and not sides[1]:
        raise NotationError("both sides have no checkers; at least one side needs a stack")
    return DipoleState(size, sides[0], sides[1], "WB".index(side_text.upper()))


class Dipole(Game[DipoleState, Move]):
    """Dipole in the protocol of `base.py`."""

    key = "dipole"
    name = "Dipole"
    variants = tuple(SIZES)
    side_names = SIDE_NAMES
    move_examples = "e1-g3, e1xg3, g7-off:2"
    solvable = True  # no draws, and every game ends

    def start(self, variant: str) -> DipoleState:
        size = SIZES[variant]
        white, black, checkers = SETUPS[size]
        return DipoleState(
            size, {parse_square(white, size): checkers}, {parse_square(black, size): checkers}
        )

    def parse_position(self, text: str) -> DipoleState:
        return parse_position(text)

    def parse_move(self, text: str, state: DipoleState) -> Move:
        return parse_move(text, state)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def figures(self, state: DipoleState) -> Figures:
        """Each side's checkers on the board, lost to captures, and taken off: said under them,
        as a heading alone ("capt") read as captures made."""
        note = "on the board, lost to\ncaptures, taken off"
        return Figures(("on", "lost", "off"), state.tallies(), note)

    def threats(self, state: DipoleState) -> list[Threat]:
        return threats(state)

    def is_pass(self, move: Move) -> bool:
        return move == PASS

    def gives_away(self, move: Move) -> bool:
        return move.is_removal

    # -- editing a position (docs/rules.md, "Editing a position") ----------------------------

    def edit_squares(self, variant: str) -> tuple[EditSquare, ...]:
        size = SIZES[variant]
        return tuple(
            EditSquare(square_name(s), size - 1 - s // STRIDE, 2 * (s % STRIDE))
            for s in sorted(dark_squares(size), key=lambda s: (-(s // STRIDE), s))
        )

    def edit_help(self, variant: str) -> str:
        limit = SETUPS[SIZES[variant]][2]
        return f"W1 to W{limit} (White's checkers) or B1 to B{limit}"

    def square_contents(self, state: DipoleState) -> dict[str, str]:
        return {
            square_name(square): f"{'WB'[side]}{height}"
            for side in (WHITE, BLACK)
            for square, height in state.stacks_of(side).items()
        }

    def read_token(self, variant: str, square: str, text: str) -> str:
        size = SIZES[variant]
        parse_square(square, size)
        token = text.strip().upper()
        if token in ("", "."):
            return ""
        limit = SETUPS[size][2]
        match = re.fullmatch(r"([WB])\s*([0-9]{0,3})", token, re.ASCII)
        if not match or not 1 <= int(match[2] or 1) <= limit:
            raise NotationError(
                f"'{shown(text.strip())}' is not a stack of this board; expected "
                f"{self.edit_help(variant)}, or nothing for an empty square"
            )
        return f"{match[1]}{int(match[2] or 1)}"

    def step_token(self, variant: str, token: str, step: int, to_move: int) -> str:
        """A checker more or less; on an empty square, one of the side to move's."""
        if not token:
            return f"{'WB'[to_move]}1" if step > 0 else ""
        height = int(token[1:]) + step
        return f"{token[0]}{height}" if height else ""

    def position_from(
        self,
        variant: str,
        contents: Mapping[str, str],
        to_move: int,
        choices: Mapping[str, str] | None = None,
    ) -> DipoleState:
        size = SIZES[variant]
        if to_move not in (WHITE, BLACK):
            raise GameError(f"the side to move is 0 (White) or 1 (Black), not {to_move}")
        stacks: dict[str, list[str]] = {"W": [], "B": []}
        for square, text in contents.items():
            token = self.read_token(variant, square, text)
            if token:
                stacks[token[0]].append(f"{square}={token[1:]}")
        for letter, side in (("W", WHITE), ("B", BLACK)):
            if not stacks[letter]:
                raise GameError(
                    f"{SIDE_NAMES[side]} has no stack, so the game would be over; "
                    f"put at least one stack of each side"
                )
        return parse_position(
            f"{size}:{'WB'[to_move]}:W{','.join(stacks['W'])}:B{','.join(stacks['B'])}"
        )

    def move_words(self, move: Move) -> str:
        if move.is_pass:
            return "a pass"
        stack = f"the stack on {square_name(move.origin)}"
        if move.is_removal:
            return f"a removal: checkers of {stack} go off the board"
        return f"a capture by {stack}" if move.capture else f"{stack} moves, capturing nothing"


DIPOLE = Dipole()
