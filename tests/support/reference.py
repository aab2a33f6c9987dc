"""A slow, deliberately plain second Dipole move generator, written only for the tests.

It shares nothing with the engine's tables: it reads a position string with its own parser,
works on (file, rank) pairs, and follows the rule text clause by clause:

* a move takes the top k checkers (1 <= k <= height) of one own stack and moves them exactly
  k squares in one of the 8 directions; light squares count in the distance, so the landing
  square must be dark (which rules out straight moves of odd length);
* forward and diagonally forward only: onto an empty square (basic), onto an own stack (merge);
* in any direction: onto an enemy stack no taller than k (capture);
* off the board: one removal per (stack, k) when some forward or diagonally forward move of
  length k (straight ahead only for even k) ends outside the board;
* no legal move: a pass; a side with no checkers: the game is over (no moves at all).

Only the `Move` value type and its square numbering (rank * 10 + file, OFF = -1) are taken
from the engine, because the tests compare move sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from dipole_tui.games.dipole import OFF, PASS, Move

FILE_LETTERS = "abcdefghij"
REF_WHITE, REF_BLACK = 0, 1
START_CHECKERS = {8: 12, 10: 20}
DIRECTIONS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]

Square = tuple[int, int]  # (file, rank), both from 0


def index(square: Square) -> int:
    """The engine's square number of a (file, rank) pair: rank * 10 + file."""
    file, rank = square
    return rank * 10 + file


def coords(number: int) -> Square:
    return number % 10, number // 10


def name(square: Square) -> str:
    file, rank = square
    return f"{FILE_LETTERS[file]}{rank + 1}"


def from_name(text: str) -> Square:
    return FILE_LETTERS.index(text[0].lower()), int(text[1:]) - 1


def is_dark(square: Square) -> bool:
    file, rank = square
    return (file + rank) % 2 == 0


def dark_squares(size: int) -> list[Square]:
    """All dark squares in rank-major order (a1, c1, e1, ..., b2, d2, ...)."""
    return [(f, r) for r in range(size) for f in range(size) if is_dark((f, r))]


@dataclass
class RefPosition:
    """A position as plain dictionaries: stacks[side][(file, rank)] = height."""

    size: int
    to_move: int
    stacks: tuple[dict[Square, int], dict[Square, int]] = field(default_factory=lambda: ({}, {}))

    def copy(self) -> RefPosition:
        return RefPosition(self.size, self.to_move, (dict(self.stacks[0]), dict(self.stacks[1])))

    def on_board(self, square: Square) -> bool:
        file, rank = square
        return 0 <= file < self.size and 0 <= rank < self.size

    def owner(self, square: Square) -> int | None:
        for side in (REF_WHITE, REF_BLACK):
            if square in self.stacks[side]:
                return side
        return None

    def total(self, side: int) -> int:
        return sum(self.stacks[side].values())

    def game_over(self) -> bool:
        return self.total(REF_WHITE) == 0 or self.total(REF_BLACK) == 0

    def winner(self) -> int | None:
        if self.total(REF_WHITE) == 0:
            return REF_BLACK
        if self.total(REF_BLACK) == 0:
            return REF_WHITE
        return None


def read_position(text: str) -> RefPosition:
    """Parse `<size>:<side>:W<stacks>:B<stacks>` (well-formed input only)."""
    size_text, side_text, white_text, black_text = text.split(":")
    position = RefPosition(int(size_text), "WB".index(side_text.upper()))
    for side, part in ((REF_WHITE, white_text), (REF_BLACK, black_text)):
        assert part[0].upper() == "WB"[side]
        body = part[1:]
        for item in body.split(",") if body else []:
            square_text, height_text = item.split("=")
            position.stacks[side][from_name(square_text.strip())] = int(height_text)
    return position


def write_position(position: RefPosition) -> str:
    """The position string as the rules text specifies it (stacks sorted rank-major)."""
    parts = []
    for side in (REF_WHITE, REF_BLACK):
        stacks = position.stacks[side]
        ordered = sorted(stacks, key=lambda sq: (sq[1], sq[0]))
        parts.append("WB"[side] + ",".join(f"{name(sq)}={stacks[sq]}" for sq in ordered))
    return f"{position.size}:{'WB'[position.to_move]}:{parts[0]}:{parts[1]}"


class Positioned(Protocol):
    def position(self) -> str: ...


def of_state(state: Positioned) -> RefPosition:
    """Read an engine state through its public position string only."""
    return read_position(state.position())


def forward_of(side: int) -> int:
    return 1 if side == REF_WHITE else -1


def ref_moves(position: RefPosition) -> set[Move]:
    """Every legal move, as a set; {PASS} when there is none; empty when the game is over."""
    if position.game_over():
        return set()
    side = position.to_move
    enemy = 1 - side
    ahead = forward_of(side)
    moves: set[Move] = set()
    for origin, height in position.stacks[side].items():
        for k in range(1, height + 1):
            can_leave = False
            for df, dr in DIRECTIONS:
                straight = df == 0 or dr == 0
                forward = dr == ahead  # straight ahead or diagonally ahead
                target = (origin[0] + df * k, origin[1] + dr * k)
                if not position.on_board(target):
                    if forward and (not straight or k % 2 == 0):
                        can_leave = True
                    continue
                if not is_dark(target):  # light squares count but nothing lands on them
                    assert straight and k % 2 == 1
                    continue
                there = position.owner(target)
                if there is None or there == side:
                    if forward:  # basic move or merge
                        moves.add(Move(index(origin), index(target), k, False))
                elif position.stacks[enemy][target] <= k:  # capture, any direction
                    moves.add(Move(index(origin), index(target), k, True))
            if can_leave:
                moves.add(Move(index(origin), OFF, k, False))
    return moves or {PASS}


def ref_play(position: RefPosition, move: Move) -> RefPosition:
    """The position after `move` (assumed legal), as a new RefPosition."""
    after = position.copy()
    side = position.to_move
    after.to_move = 1 - side
    if move == PASS:
        return after
    own, other = after.stacks[side], after.stacks[1 - side]
    origin = coords(move.origin)
    own[origin] -= move.count
    if own[origin] == 0:
        del own[origin]
    if move.target != OFF:
        target = coords(move.target)
        if target in other:
            del other[target]
        own[target] = own.get(target, 0) + move.count
    return after


def ref_perft(position: RefPosition, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(ref_perft(ref_play(position, m), depth - 1) for m in ref_moves(position))
