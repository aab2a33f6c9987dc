"""What the Bi-Pod board would place, without a widget: the Runner's colour Enter places, the
blocking stones marked for one turn (the multi variant), the chains and dead cells drawn, and
the move a key or a click makes of them. What is legal is asked of the rules core.
"""

from __future__ import annotations

from ...games.bipod import (
    BLOCK,
    EMPTY,
    GRAY,
    MULTI_MOST,
    NEIGHBOURS,
    WHITE,
    BipodState,
    Move,
    why_illegal,
)
from .bipod_text import HexGlyphs, said_before_a_move


class HexMarks:
    """The position's `chains` and `dead` cells, the `colour` Enter places for the Runner (kept
    from one position to the next) and the stones `marked` for the next move."""

    def __init__(self, state: BipodState) -> None:
        self.colour = WHITE  # the runner colour Enter places
        self.take(state)

    def take(self, state: BipodState) -> None:
        """A new position: nothing marked."""
        self.state = state
        self.marked: list[int] = []  # multi: the blocking stones gathered for one turn
        self.chains = state.chains()
        self.dead = state.dead_cells()

    def free_near(self, cell: int) -> int:
        """The free cell nearest to `cell` (itself if free), one a chain can still use first;
        the cell itself when the board is full."""
        seen, ring, free = {cell}, [cell], list[int]()
        while ring and not free:
            free = [c for c in ring if self.state.stone(c) == EMPTY]
            ring = [n for c in ring for n in NEIGHBOURS[c] if n not in seen]
            seen.update(ring)
        live = [c for c in free if c not in self.dead]
        return (live or free or [cell])[0]

    def runner_to_move(self) -> bool:
        return self.state.runner is not None and self.state.to_move == self.state.runner

    def placing(self) -> str:
        """What Enter places now: a blocking stone, or the Runner's chosen colour."""
        return self.colour if self.runner_to_move() else BLOCK

    def move_at(self, cell: int, colour: str | None = None) -> Move:
        """The move that places on `cell` now (the marked stones too, in the multi variant)."""
        if self.runner_to_move():
            return Move(colour or self.colour, (cell,))
        cells = set(self.marked)
        if cell not in cells and len(cells) < MULTI_MOST:
            cells.add(cell)
        return Move(BLOCK, tuple(sorted(cells)))

    def switch(self) -> None:
        """c: the Runner's other colour."""
        self.colour = GRAY if self.colour == WHITE else WHITE

    def mark(self, cell: int) -> str:
        """Space in the multi variant: mark `cell`, or unmark it; why not ("" if done)."""
        if cell in self.marked:
            self.marked.remove(cell)
        elif not self.state.is_legal(Move(BLOCK, (cell,))):
            return why_illegal(self.state, Move(BLOCK, (cell,)))
        elif len(self.marked) == MULTI_MOST:
            return f"at most {MULTI_MOST} stones a turn: Enter places them"
        else:
            self.marked.append(cell)
        return ""

    def said(self, hint: Move | None, glyphs: HexGlyphs) -> list[str]:
        """What Enter places now and the keys for the rest (`said_before_a_move`)."""
        runner = self.runner_to_move()
        return said_before_a_move(self.state, hint, self.marked, self.colour, runner, glyphs)
