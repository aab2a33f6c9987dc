"""A slow, independent Bi-Pod rules reference for the tests: plain sets and coordinates.

It shares nothing with the engine but the position string, and names cells by text, so a bug in
the engine's cell numbering, bitsets or flood fill cannot hide in both. Moves are
(kind, frozenset of cell names): kind "x", "o", "O", "adopt" or "resign".
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import combinations

LABEL_LINE = "=`abcdefghijklmnopqrstuvwxyz-';"
RefMove = tuple[str, frozenset[str]]


@dataclass
class RefPosition:
    stones: dict[tuple[int, int], str]  # (row, text column) -> . x o O (start stones o and O)
    to_move: int  # 0 or 1
    runner: int | None
    variant: set[str]
    resigned: bool


def columns(row: int) -> list[int]:
    """Row r's cells sit at text columns r-1, r+1, ... and there are 17 - r of them."""
    return [row - 1 + 2 * k for k in range(17 - row)]


def name(cell: tuple[int, int]) -> str:
    return f"{LABEL_LINE[cell[1]]}{cell[0]}"


def read_position(text: str) -> RefPosition:
    board, side, runner, *rest = text.split()
    resigned = bool(rest) and rest[-1] == "resigned"
    if resigned:
        rest = rest[:-1]
    stones = {}
    for row, row_text in enumerate(board.split("/"), 1):
        for column, glyph in zip(columns(row), row_text, strict=True):
            stones[(row, column)] = {"@": "o", "Q": "O"}.get(glyph, glyph)
    variant = set(rest[0].split(",")) if rest else set()
    return RefPosition(
        stones, int(side) - 1, None if runner == "-" else int(runner) - 1, variant, resigned
    )


def neighbours(cell: tuple[int, int], stones: dict[tuple[int, int], str]) -> list[tuple[int, int]]:
    row, column = cell
    steps = [(0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1)]
    return [(row + dr, column + dc) for dr, dc in steps if (row + dr, column + dc) in stones]


def is_short_side(cell: tuple[int, int]) -> bool:
    row, column = cell
    return row == 6 or column == columns(row)[0] or column == columns(row)[-1]


START = {"o": (1, 10), "O": (1, 20)}  # i1 and s1


def reachable(pos: RefPosition, colour: str, through: str) -> set[tuple[int, int]]:
    """Cells connected to `colour`'s start stone through cells whose stone is in `through`."""
    start = START[colour]
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in neighbours(cell, pos.stones):
            if other not in seen and pos.stones[other] in through:
                seen.add(other)
                queue.append(other)
    return seen


def ref_winner(pos: RefPosition) -> tuple[bool, int | None]:
    """(is the game over, winner): resignation, both chains home, a chain cut, a full board."""
    if pos.resigned:
        return True, pos.to_move  # the side that resigned moved last
    full = all(stone != "." for stone in pos.stones.values())
    if pos.runner is None:
        return (True, None) if full else (False, None)
    home = [any(map(is_short_side, reachable(pos, c, c))) for c in "oO"]
    if all(home):
        return True, pos.runner
    open_ = [any(map(is_short_side, reachable(pos, c, c + "."))) for c in "oO"]
    if not all(open_) or full:
        return True, 1 - pos.runner
    return False, None


def dead_cells(pos: RefPosition) -> set[str]:
    live = reachable(pos, "o", "o.") | reachable(pos, "O", "O.")
    return {name(cell) for cell, stone in pos.stones.items() if stone == "." and cell not in live}


def ref_moves(pos: RefPosition) -> set[RefMove]:
    """Every legal move but resign (the engine lists no resign either)."""
    if ref_winner(pos)[0]:
        return set()
    empty = [name(cell) for cell, stone in pos.stones.items() if stone == "."]
    if pos.runner is None:
        most = 3 if "multi" in pos.variant else 1
        moves: set[RefMove] = {("adopt", frozenset())}
        for size in range(1, most + 1):
            moves |= {("x", frozenset(group)) for group in combinations(empty, size)}
        return moves
    if pos.to_move == pos.runner:
        return {(colour, frozenset([cell])) for cell in empty for colour in "oO"}
    return {("x", frozenset([cell])) for cell in empty}


def ref_play(pos: RefPosition, move: RefMove) -> RefPosition:
    kind, cells = move
    stones = dict(pos.stones)
    runner, resigned = pos.runner, pos.resigned
    if kind == "adopt":
        runner = pos.to_move if "adopter-runs" in pos.variant else 1 - pos.to_move
    elif kind == "resign":
        resigned = True
    else:
        by_name = {name(cell): cell for cell in stones}
        for cell_name in cells:
            stones[by_name[cell_name]] = kind
    return RefPosition(stones, 1 - pos.to_move, runner, set(pos.variant), resigned)


def ref_perft(pos: RefPosition, depth: int) -> int:
    if depth == 0:
        return 1
    moves = ref_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(ref_perft(ref_play(pos, move), depth - 1) for move in moves)
