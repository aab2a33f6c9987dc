"""A slow, deliberately plain second Death Stacks move generator, written only for the tests.

It shares nothing with the engine's tables or its period-10 folding: it reads a position string
with its own parser, keeps stacks as strings of 'r'/'b' bottom to top, and walks every move one
square at a time, turning round whichever step would cross a wall (both at a corner):

* the side to move owns the stacks whose top piece is its colour;
* a move takes the top k pieces (1 <= k <= height) of an own stack exactly k squares in one of
  the eight directions, reflected by the walls; nothing blocks it;
* it lands on top of whatever stands on the target (empty, own or enemy stack);
* ending on its own starting square is not a move; the same (origin, k, target) reached in
  several directions is one move;
* Too-Tall: if the side to move owns stacks taller than 4, only moves from those stacks that
  take at least height - 4 pieces are legal;
* the game is over (no moves at all) when either side controls no stack, or when the position
  with the same side to move has occurred three times (the caller passes that count in).

Only the engine's `Move` value type and its square numbering (rank * 6 + file) are shared,
because the tests compare move sets.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipole_tui.games.death_stacks import Move

FILE_LETTERS = "abcdef"
STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]

Square = tuple[int, int]  # (file, rank), both from 0


def index(square: Square) -> int:
    file, rank = square
    return rank * 6 + file


def name(square: Square) -> str:
    return f"{FILE_LETTERS[square[0]]}{square[1] + 1}"


@dataclass
class RefPosition:
    """stacks[(file, rank)] = 'rrb' (bottom to top); to_move is 'r' or 'b'."""

    stacks: dict[Square, str]
    to_move: str

    def copy(self) -> RefPosition:
        return RefPosition(dict(self.stacks), self.to_move)

    def controls(self, colour: str) -> bool:
        return any(stack.endswith(colour) for stack in self.stacks.values() if stack)


def read_position(text: str) -> RefPosition:
    """Parse a well-formed position string: ranks 6..1 separated by /, stacks by commas."""
    board, side = text.split(" ")
    stacks: dict[Square, str] = {}
    for row, rank_text in enumerate(board.split("/")):
        for file, stack in enumerate(rank_text.split(",")):
            if stack:
                stacks[(file, 5 - row)] = stack
    return RefPosition(stacks, side)


def write_position(position: RefPosition) -> str:
    ranks = []
    for rank in range(5, -1, -1):
        ranks.append(",".join(position.stacks.get((f, rank), "") for f in range(6)))
    return "/".join(ranks) + " " + position.to_move


def walk(start: Square, step: tuple[int, int], distance: int) -> list[Square]:
    """Step one square at a time; a step that would leave the zone turns that component back."""
    (file, rank), (df, dr) = start, step
    squares = []
    for _ in range(distance):
        if not 0 <= file + df <= 5:
            df = -df
        if not 0 <= rank + dr <= 5:
            dr = -dr
        file, rank = file + df, rank + dr
        squares.append((file, rank))
    return squares


def ref_moves(position: RefPosition, seen_times: int = 1) -> set[Move]:
    """Every legal move as a set; empty when the game is over."""
    me = position.to_move
    other = "b" if me == "r" else "r"
    if not position.controls(me) or not position.controls(other) or seen_times >= 3:
        return set()
    mine = {sq: s for sq, s in position.stacks.items() if s and s[-1] == me}
    tall = {sq: s for sq, s in mine.items() if len(s) > 4}
    moves: set[Move] = set()
    for origin, stack in (tall or mine).items():
        least = len(stack) - 4 if tall else 1
        for k in range(least, len(stack) + 1):
            for step in STEPS:
                target = walk(origin, step, k)[-1]
                if target != origin:
                    moves.add(Move(index(origin), k, index(target)))
    return moves


def ref_play(position: RefPosition, move: Move) -> RefPosition:
    """The position after `move` (assumed legal), as a new RefPosition."""
    after = position.copy()
    origin = (move.origin % 6, move.origin // 6)
    target = (move.target % 6, move.target // 6)
    stack = after.stacks[origin]
    part = stack[len(stack) - move.count :]
    after.stacks[origin] = stack[: len(stack) - move.count]
    if not after.stacks[origin]:
        del after.stacks[origin]
    after.stacks[target] = after.stacks.get(target, "") + part
    after.to_move = "b" if position.to_move == "r" else "r"
    return after


def ref_perft(position: RefPosition, depth: int, seen: dict[str, int] | None = None) -> int:
    """Leaves at `depth`, with the repetition counts of the line played so far in `seen`."""
    if seen is None:
        seen = {write_position(position): 1}
    if depth == 0:
        return 1
    total = 0
    for move in ref_moves(position, seen[write_position(position)]):
        after = ref_play(position, move)
        key = write_position(after)
        seen[key] = seen.get(key, 0) + 1
        total += ref_perft(after, depth - 1, seen)
        seen[key] -= 1
    return total
