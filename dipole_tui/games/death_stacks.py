"""Death Stacks (Stephen Cobb, 2004; Too-Tall rule 2005): the complete rules engine.

The zone is 6x6 (a1..f6); the sheet's wall ring is never used, so squares are numbered
`rank * 6 + file` from 0 (a1) to 35 (f6). A cell holds its stack as a tuple of pieces, bottom to
top, each RED (0) or BLACK (1); the top piece's colour owns the stack. A move takes the top `k`
pieces of an own stack exactly `k` squares in one of eight directions, reflected by the walls.

Reflection folds each axis with period 10 (0 1 2 3 4 5 4 3 2 1 0 ...), so where `k` pieces can
end from a square never depends on the position: it is looked up in a table built once, in which
the eight directions' landing squares are merged and the starting square itself is left out.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

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

RED, BLACK = 0, 1
SIDE_NAMES = ("Red", "Black")
SIZE = 6
SQUARES = SIZE * SIZE
FILES = "abcdef"
PIECES_PER_SIDE = 12
MAX_HEIGHT = 2 * PIECES_PER_SIDE  # every piece in one stack
TOO_TALL = 4  # a stack taller than this must be cut down at the start of its owner's turn
LETTERS = "rb"  # piece letters of the position string, by colour

Stack = tuple[int, ...]  # pieces bottom to top, RED or BLACK
EMPTY: Stack = ()

# The eight directions as (file step, rank step), named for `path` callers and messages.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, 1),
    "ne": (1, 1),
    "e": (1, 0),
    "se": (1, -1),
    "s": (0, -1),
    "sw": (-1, -1),
    "w": (-1, 0),
    "nw": (-1, 1),
}


class Move(NamedTuple):
    """A move: the top `count` pieces of the stack on `origin` land on `target`."""

    origin: int
    count: int  # type: ignore[assignment]  # the field shadows tuple.count, which moves never use
    target: int


def square_name(square: int) -> str:
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


def _fold(coordinate: int) -> int:
    """A coordinate walked past the walls, mirrored back into 0..5 (period 10, walls uncounted)."""
    coordinate %= 2 * (SIZE - 1)
    return coordinate if coordinate < SIZE else 2 * (SIZE - 1) - coordinate


def _end(origin: int, step: tuple[int, int], distance: int) -> int:
    """Where `distance` steps from `origin` end, the walls reflecting each axis."""
    file, rank = origin % SIZE, origin // SIZE
    return _fold(rank + step[1] * distance) * SIZE + _fold(file + step[0] * distance)


def _path(origin: int, step: tuple[int, int], distance: int) -> tuple[int, ...]:
    return tuple(_end(origin, step, i) for i in range(1, distance + 1))


def path(origin: int, direction: str | tuple[int, int], distance: int) -> tuple[int, ...]:
    """The squares a move passes through after `origin`, the last being where it lands.

    `direction` is a key of DIRECTIONS ("ne") or a (file step, rank step) pair. A wall reflects
    the component that hits it; a diagonal that reaches a corner retraces its way. The app draws
    this path; nothing on it blocks the move.
    """
    step = DIRECTIONS[direction] if isinstance(direction, str) else direction
    if step not in DIRECTIONS.values():
        raise ValueError(f"{step} is not one of the eight directions")
    if not 0 <= origin < SQUARES or distance < 0:
        raise ValueError(f"no path of {distance} squares from square {origin}")
    return _path(origin, step, distance)


class Way(NamedTuple):
    """One direction by which a move reaches its target: the squares it passes (the target
    last), and how many times a wall turns it back (a corner, turning both ways, counts once)."""

    direction: str  # a key of DIRECTIONS
    squares: tuple[int, ...]
    bounces: int


def _bounces(origin: int, step: tuple[int, int], distance: int) -> int:
    file, rank = origin % SIZE, origin // SIZE
    heading, count = step, 0
    for i in range(1, distance + 1):
        now = (
            _fold(file + step[0] * i) - _fold(file + step[0] * (i - 1)),
            _fold(rank + step[1] * i) - _fold(rank + step[1] * (i - 1)),
        )
        count += now != heading
        heading = now
    return count


def move_ways(move: Move) -> list[Way]:
    """Every way (one per direction) by which `move` gets from its origin to its target: one
    move can be reached several ways, e.g. a1-1-a2 north, or south and back off the wall."""
    return [
        Way(name, squares, _bounces(move.origin, step, move.count))
        for name, step in DIRECTIONS.items()
        if (squares := _path(move.origin, step, move.count))[-1] == move.target
    ]


def move_paths(move: Move) -> list[tuple[int, ...]]:
    """Every path (one per direction) by which `move` gets from its origin to its target."""
    return [way.squares for way in move_ways(move)]


def _build_targets() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """TARGETS[origin][k]: the distinct squares other than `origin` where k pieces can land."""
    table = []
    for origin in range(SQUARES):
        by_count: list[tuple[int, ...]] = [()]
        for k in range(1, MAX_HEIGHT + 1):
            # Only where a path ends matters here: fold its last step, not every step.
            ends = {_end(origin, step, k) for step in DIRECTIONS.values()}
            ends.discard(origin)  # a move that would end where it started is not a move
            by_count.append(tuple(sorted(ends)))
        table.append(tuple(by_count))
    return tuple(table)


TARGETS = _build_targets()
# MOVES[origin][k]: the moves of k pieces from `origin`, made once (generation only copies them).
MOVES = tuple(
    tuple(tuple(Move(o, k, t) for t in TARGETS[o][k]) for k in range(MAX_HEIGHT + 1))
    for o in range(SQUARES)
)
# REACH[origin][h]: how many (count, target) moves a stack of h pieces on `origin` has in total.
REACH = tuple(
    tuple(sum(len(TARGETS[o][k]) for k in range(1, h + 1)) for h in range(MAX_HEIGHT + 1))
    for o in range(SQUARES)
)
# TALL_REACH[origin][h]: the moves a stack of h pieces on `origin` has if too tall (h > 4: it must
# move 5 pieces or fewer, leaving the rest), 0 for one that is not.
TALL_REACH = tuple(
    tuple(reach[h] - reach[h - TOO_TALL - 1] if h > TOO_TALL else 0 for h in range(len(reach)))
    for reach in REACH
)

# Zobrist keys: one random number per (square, level, colour), and one for Black to move, so a
# move changes the key by two XORs per moving piece. Fixed seed: keys are the same in every run.
_RANDOM = random.Random(2004)
ZOBRIST = [
    [[_RANDOM.getrandbits(64) for _ in (RED, BLACK)] for _ in range(MAX_HEIGHT)]
    for _ in range(SQUARES)
]
BLACK_TO_MOVE_KEY = _RANDOM.getrandbits(64)

START_POSITION = "bb,bb,bb,bb,bb,bb/,,,,,/,,,,,/,,,,,/,,,,,/rr,rr,rr,rr,rr,rr r"


class DeathStacksState(State[Move]):
    """A Death Stacks position with its history; `play` and `undo` restore it exactly.

    The threefold-repetition draw needs no replay: `_boards` keeps every position's stacks
    since the state was created, and `_keys` the positions of each Zobrist key seen, so `_seen`,
    the count of the arrangement on the board, is 1 for a key not seen before and otherwise
    counts the positions of that key with the same stacks and side to move (exactly: no
    collision makes a repetition), without hashing the whole board at every move. `_tally`
    keeps, for each side, the stacks it controls, their moves (by `REACH`), how many are too
    tall and their moves (`TALL_REACH`), so that `outcome` and `count_moves`, asked at every
    node of a search, need not look at the board.
    """

    __slots__ = ("_boards", "_history", "_keys", "_seen", "_tally", "cells", "key", "to_move")

    def __init__(self, cells: list[Stack], to_move: int = RED) -> None:
        self.cells = list(cells)
        self.to_move = to_move
        self.key = self.zobrist_key()
        # Each move with the two stacks it changed (before), the key, `_seen` and `_tally`
        # before it.
        self._history: list[tuple[Move, Stack, Stack, int, int, list[int]]] = []
        self._boards = [tuple(self.cells)]
        self._keys = {self.key: [0]}
        self._seen = 1
        # Per side (RED, BLACK): stacks controlled, then their moves, then those too tall, then
        # their moves; replaced at each move, never changed in place (the history keeps the one
        # before).
        self._tally = [0] * 8
        for square, stack in enumerate(self.cells):
            if stack:
                _count(self._tally, square, stack)

    @property
    def variant(self) -> str:
        return "standard"

    @property
    def repetitions(self) -> Counter[tuple[tuple[Stack, ...], int]]:
        """How often each arrangement (every stack, and the side to move) has been seen since
        the state was created."""
        last = len(self._boards) - 1
        return Counter(
            (board, self.to_move ^ ((last - index) & 1)) for index, board in enumerate(self._boards)
        )

    def zobrist_key(self) -> int:
        """The position's key from scratch; `self.key` keeps it up to date move by move."""
        key = BLACK_TO_MOVE_KEY if self.to_move == BLACK else 0
        for square, stack in enumerate(self.cells):
            for level, piece in enumerate(stack):
                key ^= ZOBRIST[square][level][piece]
        return key

    def owner(self, square: int) -> int | None:
        """Who controls the stack on `square` (its top piece's colour), None when empty."""
        stack = self.cells[square]
        return stack[-1] if stack else None

    def controls(self, side: int) -> int:
        """How many stacks `side` controls."""
        return self._tally[side]

    def stacks_of(self, side: int) -> list[int]:
        """The squares of the stacks `side` controls, a1 first."""
        return [sq for sq, stack in enumerate(self.cells) if stack and stack[-1] == side]

    def pieces(self, side: int) -> int:
        """How many pieces of `side`'s colour are on the board, controlled or buried."""
        return sum(stack.count(side) for stack in self.cells)

    def too_tall(self) -> list[int]:
        """The side to move's stacks taller than 4: this turn must move from one of them."""
        side = self.to_move
        return [sq for sq, s in enumerate(self.cells) if len(s) > TOO_TALL and s[-1] == side]

    def copy(self) -> DeathStacksState:
        twin = DeathStacksState([])  # empty, then filled: mypyc has no bare __new__
        twin.cells = list(self.cells)
        twin.to_move = self.to_move
        twin.key = self.key
        twin._history = list(self._history)
        twin._boards = list(self._boards)
        twin._keys = {key: list(positions) for key, positions in self._keys.items()}
        twin._seen = self._seen
        twin._tally = self._tally
        return twin

    # -- rules ---------------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        tally = self._tally
        for side in (self.to_move, 1 - self.to_move):
            if not tally[side]:
                return Outcome(
                    1 - side, Termination.NO_STACKS, f"{SIDE_NAMES[side]} controls no stack"
                )
        if self._seen >= 3:
            return Outcome(
                None, Termination.REPETITION, "the same position occurred for the third time"
            )
        return None

    def _movable(self) -> list[tuple[int, int, int]] | None:
        """(origin, least count, height) per stack that may move; None when the game is over."""
        side = self.to_move
        if not self._tally[side] or not self._tally[1 - side] or self._seen >= 3:
            return None
        own: list[tuple[int, int, int]] = []
        tall: list[tuple[int, int, int]] = []
        for square, stack in enumerate(self.cells):
            if stack and stack[-1] == side:
                height = len(stack)
                own.append((square, 1, height))
                if height > TOO_TALL:
                    tall.append((square, height - TOO_TALL, height))
        return tall or own

    def legal_moves(self) -> list[Move]:
        """Every legal move, by origin (a1 first), then count, then target; [] when over."""
        movable = self._movable()
        if movable is None:
            return []
        moves: list[Move] = []
        for origin, least, height in movable:
            by_count = MOVES[origin]
            for k in range(least, height + 1):
                moves.extend(by_count[k])
        return moves

    def count_moves(self) -> int:
        """len(legal_moves()) without building them: for perft's last ply and bots' mobility."""
        side, tally = self.to_move, self._tally
        if not tally[side] or not tally[1 - side] or self._seen >= 3:
            return 0
        # A stack too tall must move: only those stacks' moves count then.
        return tally[6 + side] if tally[4 + side] else tally[2 + side]

    def play(self, move: Move) -> None:
        origin, k, target = move
        cells = self.cells
        source, below = cells[origin], cells[target]
        cut = len(source) - k
        part = source[cut:]
        before = key = self.key
        zobrist_from, zobrist_to = ZOBRIST[origin], ZOBRIST[target]
        base = len(below)
        for i, piece in enumerate(part):
            key ^= zobrist_from[cut + i][piece] ^ zobrist_to[base + i][piece]
        rest = source[:cut]
        cells[origin] = rest
        cells[target] = below + part
        key ^= BLACK_TO_MOVE_KEY
        self.key = key
        mover = self.to_move
        self.to_move = mover ^ 1
        # `_tally` (`_count`, inline): the mover's stack leaves the origin for the target, what
        # was left at the origin is its top piece's, what the target held is no one's now.
        previous = self._tally
        tally = self._tally = previous.copy()
        from_reach, to_reach, height = REACH[origin], REACH[target], base + k
        from_tall, to_tall = TALL_REACH[origin], TALL_REACH[target]
        tally[2 + mover] += to_reach[height] - from_reach[cut + k]
        if height > TOO_TALL or cut + k > TOO_TALL:
            tally[4 + mover] += (height > TOO_TALL) - (cut + k > TOO_TALL)
            tally[6 + mover] += to_tall[height] - from_tall[cut + k]
        if cut:
            side = rest[-1]
            tally[side] += 1
            tally[2 + side] += from_reach[cut]
            if cut > TOO_TALL:
                tally[4 + side] += 1
                tally[6 + side] += from_tall[cut]
        if base:
            side = below[-1]
            tally[side] -= 1
            tally[2 + side] -= to_reach[base]
            if base > TOO_TALL:
                tally[4 + side] -= 1
                tally[6 + side] -= to_tall[base]
        self._history.append((move, source, below, before, self._seen, previous))
        boards = self._boards
        board = tuple(cells)
        index = len(boards)
        boards.append(board)
        same = self._keys.get(key)
        if same is None:
            self._keys[key] = [index]
            self._seen = 1
        else:  # the same stacks with the same side to move: an even number of plies apart
            self._seen = 1 + sum(boards[i] == board for i in same if not (index - i) & 1)
            same.append(index)

    def undo(self) -> Move:
        self._boards.pop()
        same = self._keys[self.key]
        if len(same) > 1:
            same.pop()
        else:
            del self._keys[self.key]
        move, source, below, self.key, self._seen, self._tally = self._history.pop()
        self.cells[move.origin] = source
        self.cells[move.target] = below
        self.to_move ^= 1
        return move

    def diagram(self) -> str:
        """The board as plain text, Red at the bottom: each stack's pieces bottom to top."""
        width = max(2, *(len(stack) for stack in self.cells)) + 1
        letters = "   " + "".join(f"{FILES[f]:<{width}}" for f in range(SIZE))
        rows = [letters.rstrip()]
        for rank in reversed(range(SIZE)):
            row = f"{rank + 1}  "
            for file in range(SIZE):
                stack = self.cells[rank * SIZE + file]
                row += f"{_stack_text(stack) or '.':<{width}}"
            rows.append(f"{row}{rank + 1}")
        rows.append(letters.rstrip())
        return "\n".join(rows)

    def position(self) -> str:
        texts = list(map(_stack_text, self.cells))
        ranks = [",".join(texts[start : start + SIZE]) for start in _RANK_STARTS]
        return f"{'/'.join(ranks)} {LETTERS[self.to_move]}"


def _count(tally: list[int], square: int, stack: Stack) -> None:
    """Count a stack in `tally` (`DeathStacksState._tally`), as `play` does move by move."""
    side, height = stack[-1], len(stack)
    tally[side] += 1
    tally[2 + side] += REACH[square][height]
    if height > TOO_TALL:
        tally[4 + side] += 1
        tally[6 + side] += TALL_REACH[square][height]


@lru_cache(maxsize=4096)  # a game holds a few dozen stacks; repetition tables read millions
def _stack_text(stack: Stack) -> str:
    return "".join(LETTERS[piece] for piece in stack)


_RANK_STARTS = range((SIZE - 1) * SIZE, -1, -SIZE)  # rank 6 first, as positions are written


# -- notation and position strings --------------------------------------------------------

# ASCII only: `\d` and int() would read other scripts' digits (Arabic-Indic, full-width), and
# IGNORECASE would match the Kelvin sign as a k.
_MOVE = re.compile(
    r"([a-z])([0-9]{1,2})\s*-\s*([0-9]{1,3})\s*-\s*([a-z])([0-9]{1,2})", re.IGNORECASE | re.ASCII
)
MOVE_FORM = "<from>-<pieces>-<to>, like d2-3-e3"
POSITION_FORM = "6 ranks (6 down to 1) of 6 comma-separated stacks, separated by /, then r or b"


def parse_square(text: str) -> int:
    """A square of the zone a1..f6, or NotationError saying why not."""
    name = text.strip()
    match = re.fullmatch(r"([a-zA-Z])([0-9]{1,2})", name)
    if not match:
        raise NotationError(
            f"'{shown(name)}' is not a square; expected a file letter and a rank, like d2"
        )
    file = ord(match[1].lower()) - ord("a")
    rank = int(match[2]) - 1
    if not (0 <= file < SIZE and 0 <= rank < SIZE):
        raise NotationError(f"{name} is off the board; squares run from a1 to f6")
    return rank * SIZE + file


def format_move(move: Move) -> str:
    return f"{square_name(move.origin)}-{move.count}-{square_name(move.target)}"


def parse_move(text: str, state: DeathStacksState) -> Move:
    """The legal move that `text` names in `state`; GameError says what is wrong otherwise."""
    match = _MOVE.fullmatch(text.strip())
    if not match:
        raise NotationError(f"'{shown(text.strip())}' is not a move; expected {MOVE_FORM}")
    origin = parse_square(match[1] + match[2])
    target = parse_square(match[4] + match[5])
    move = Move(origin, int(match[3]), target)
    if move in state.legal_moves():
        return move
    raise IllegalMoveError(_why_illegal(state, move))


def why_stack_cannot_move(state: DeathStacksState, origin: int) -> str | None:
    """Why no move may start from `origin` this turn, in the sheet's words; None if some may.
    The board says this when a player picks such a stack."""
    outcome = state.outcome()
    if outcome:
        return f"the game is over: {outcome.reason}"
    side = state.to_move
    name = square_name(origin)
    stack = state.cells[origin]
    if not stack:
        return f"there is no stack on {name}"
    if stack[-1] != side:
        return (
            f"the stack on {name} is {SIDE_NAMES[1 - side]}'s (its top piece is "
            f"{SIDE_NAMES[1 - side]}); it is {SIDE_NAMES[side]}'s turn"
        )
    tall = state.too_tall()
    if tall and origin not in tall:
        where = " or ".join(square_name(sq) for sq in tall)
        return (
            f"too tall: {SIDE_NAMES[side]}'s stack on {where} has more than {TOO_TALL} pieces, "
            f"so this turn must move from it"
        )
    return None


def _why_illegal(state: DeathStacksState, move: Move) -> str:
    """Explain, in the sheet's words, why a well-formed move is not in the legal list."""
    origin, k, target = move
    problem = why_stack_cannot_move(state, origin)
    if problem:
        return problem
    name = square_name(origin)
    stack = state.cells[origin]
    if k < 1:
        return "a move takes at least 1 piece"
    if k > len(stack):
        return f"the stack on {name} has only {len(stack)} piece{'s' if len(stack) > 1 else ''}"
    if state.too_tall() and k < len(stack) - TOO_TALL:
        return (
            f"too tall: the stack on {name} has {len(stack)} pieces, so this turn must take at "
            f"least {len(stack) - TOO_TALL} of them"
        )
    if target == origin:
        return "a move must leave its square"
    ends = ", ".join(square_name(sq) for sq in TARGETS[origin][k]) or "nowhere but back"
    return (
        f"{k} piece{'s' if k > 1 else ''} from {name} cannot end on {square_name(target)}: "
        f"they move exactly {k} square{'s' if k > 1 else ''} in a straight line, reflected "
        f"by the walls (they can end on {ends})"
    )


def threats(state: DeathStacksState) -> list[Threat]:
    """Every stack that the other side could capture (land on, and so control) with one move:
    the side to move's in the position, the other side's in the same arrangement with the turn
    handed over (no history, so no repetition stops it), where its own Too-Tall rule binds it
    as it would at its turn."""
    if state.outcome() is not None:
        return []
    turned = DeathStacksState(state.cells, 1 - state.to_move)
    taken: dict[int, int] = {}
    for side in (RED, BLACK):
        probe = state if side == state.to_move else turned
        for move in probe.legal_moves():
            if state.owner(move.target) == 1 - side:
                taken[move.target] = side
    return [Threat(square_name(square), by) for square, by in sorted(taken.items())]


@lru_cache(maxsize=1024)
def _read_stack(text: str) -> Stack | None:
    """A stack's pieces from its letters, bottom to top; None if a character is not r or b.
    Cached: a search's positions, read back from their strings, hold the same few stacks."""
    letters = text.lower()
    if letters.strip(LETTERS):
        return None
    return tuple(LETTERS.index(letter) for letter in letters)


def parse_position(text: str) -> DeathStacksState:
    """Read `<rank 6>/.../<rank 1> <side>`; NotationError says what is malformed."""
    parts = text.split()
    if len(parts) != 2:
        raise NotationError(
            f"'{shown(text.strip())}' is not a Death Stacks position; expected {POSITION_FORM}, "
            f"e.g. '{START_POSITION}'"
        )
    board, side_text = parts
    if side_text.lower() not in ("r", "b"):
        raise NotationError(f"side to move must be r (Red) or b (Black), not '{shown(side_text)}'")
    ranks = board.split("/")
    if len(ranks) != SIZE:
        raise NotationError(f"a position has 6 ranks separated by /, not {len(ranks)}")
    cells: list[Stack] = [EMPTY] * SQUARES
    for row, rank_text in enumerate(ranks):
        rank = SIZE - 1 - row
        stacks = rank_text.split(",")
        if len(stacks) != SIZE:
            raise NotationError(
                f"rank {rank + 1} has {len(stacks)} stacks; each rank has 6, separated by commas"
            )
        for file, stack_text in enumerate(stacks):
            stack = _read_stack(stack_text)
            if stack is None:
                raise NotationError(
                    f"'{shown(stack_text)}' on {square_name(rank * SIZE + file)} is not a stack; "
                    f"expected its pieces bottom to top as r and b, like rrb"
                )
            cells[rank * SIZE + file] = stack
    # Every letter of the board is a piece's now: the commas and slashes apart, r and b alone.
    pieces = board.lower()
    for side in (RED, BLACK):
        total = pieces.count(LETTERS[side])
        if total > PIECES_PER_SIDE:
            raise NotationError(
                f"{SIDE_NAMES[side]} has {total} pieces; a game has at most "
                f"{PIECES_PER_SIDE} a side"
            )
    if not any(cells):
        raise NotationError("the board is empty; a position needs at least one stack")
    return DeathStacksState(cells, LETTERS.index(side_text.lower()))


class DeathStacks(Game[DeathStacksState, Move]):
    """Death Stacks in the protocol of `base.py`."""

    key = "death-stacks"
    name = "Death Stacks"
    variants = ("standard",)
    side_names = SIDE_NAMES
    can_draw = True  # the same position a third time
    repeats = True
    solvable = True  # a third occurrence ends it, so every game ends
    move_examples = "d2-3-e3 (from, pieces, to)"

    def start(self, variant: str) -> DeathStacksState:
        return parse_position(START_POSITION)

    def parse_position(self, text: str) -> DeathStacksState:
        return parse_position(text)

    def parse_move(self, text: str, state: DeathStacksState) -> Move:
        return parse_move(text, state)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def threats(self, state: DeathStacksState) -> list[Threat]:
        return threats(state)

    def move_words(self, move: Move) -> str:
        """Which stack and how many pieces; where they land is left to find."""
        pieces = "1 piece" if move.count == 1 else f"{move.count} pieces"
        return f"a move of {pieces} from the stack on {square_name(move.origin)}"

    def figures(self, state: DeathStacksState) -> Figures:
        """Per side: the stacks it controls, the pieces in them, and its pieces held under the
        opponent's stacks (its prisoners, which a capture can free)."""
        rows = []
        for side in (RED, BLACK):
            own = [state.cells[square] for square in state.stacks_of(side)]
            held = state.pieces(side) - sum(stack.count(side) for stack in own)
            rows.append((len(own), sum(map(len, own)), held))
        note = "stacks controlled, the\npieces in them, and\nprisoners held"
        return Figures(("stacks", "pcs", "held"), (rows[0], rows[1]), note)

    # -- editing a position (docs/rules.md, "Editing a position") ----------------------------

    def edit_squares(self, variant: str) -> tuple[EditSquare, ...]:
        return tuple(
            EditSquare(square_name(s), SIZE - 1 - s // SIZE, 2 * (s % SIZE))
            for s in sorted(range(SQUARES), key=lambda s: (-(s // SIZE), s))
        )

    def edit_help(self, variant: str) -> str:
        return "the stack's pieces bottom to top, r (Red) and b (Black), like rrb"

    def square_contents(self, state: DeathStacksState) -> dict[str, str]:
        return {square_name(s): _stack_text(stack) for s, stack in enumerate(state.cells) if stack}

    def read_token(self, variant: str, square: str, text: str) -> str:
        parse_square(square)
        token = text.strip().lower()
        if token == ".":
            return ""
        if token.strip(LETTERS):
            raise NotationError(
                f"'{shown(text.strip())}' is not a stack; expected {self.edit_help(variant)}, "
                f"or nothing for an empty square"
            )
        for side in (RED, BLACK):
            if token.count(LETTERS[side]) > PIECES_PER_SIDE:
                raise NotationError(
                    f"a stack of {len(token)} pieces with {token.count(LETTERS[side])} "
                    f"{SIDE_NAMES[side]}; {SIDE_NAMES[side]} has {PIECES_PER_SIDE} pieces in all"
                )
        return token

    def step_token(self, variant: str, token: str, step: int, to_move: int) -> str:
        """One piece more on top, of the top piece's colour (on an empty square, the side to
        move's), or the top piece taken off."""
        if step < 0:
            return token[:-1]
        return token + (token[-1:] or LETTERS[to_move])

    def position_from(
        self,
        variant: str,
        contents: Mapping[str, str],
        to_move: int,
        choices: Mapping[str, str] | None = None,
    ) -> DeathStacksState:
        if to_move not in (RED, BLACK):
            raise GameError(f"the side to move is 0 (Red) or 1 (Black), not {to_move}")
        cells = [""] * SQUARES
        for square, text in contents.items():
            cells[parse_square(square)] = self.read_token(variant, square, text)
        board = "/".join(",".join(cells[r * SIZE : r * SIZE + SIZE]) for r in reversed(range(SIZE)))
        state = parse_position(f"{board} {LETTERS[to_move]}")
        outcome = state.outcome()
        if outcome is not None:
            raise GameError(
                f"{outcome.reason}, so the game would be over; each side needs a stack it controls"
            )
        return state


DEATH_STACKS = DeathStacks()
