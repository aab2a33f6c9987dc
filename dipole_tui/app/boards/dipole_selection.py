"""The Dipole board's selection, without a widget: the stack picked, its destinations on the
board and its removals, and the removal chip under the cursor when the strip has it. It lives as
long as the position it was made for; the board draws what it says.
"""

from __future__ import annotations

from ...games.dipole import OFF, Move
from .dipole_strip import chip_entered, chip_stepped


class DipoleSelection:
    """A position's legal moves seen from one stack: `selected` (None: no stack), where it can
    go (`targets`, each with its move) and what it can bear off (`removals`)."""

    def __init__(self, legal: list[Move]) -> None:
        self._legal = legal
        self.selected: int | None = None
        # Worked out once per selection, not once per drawn cell.
        self.targets: dict[int, Move] = {}
        self.removals: list[Move] = []
        self.removal_cursor: int | None = None  # a count in the removal strip, when it has focus

    def moves_from(self, origin: int) -> list[Move]:
        return [move for move in self._legal if move.origin == origin]

    def select(self, square: int | None) -> set[int]:
        """Select a stack (None: none), which works out its destinations; the squares drawn
        differently before or after (but the cursor's)."""
        changed = {*self.targets, *([] if self.selected is None else [self.selected])}
        self.selected = square
        self.removal_cursor = None
        moves = self.moves_from(square) if square is not None else []
        self.targets = {m.target: m for m in moves if m.target != OFF}
        self.removals = [m for m in moves if m.target == OFF]
        return changed | {*self.targets, *([] if square is None else [square])}

    def pick(self, square: int) -> tuple[Move | None, set[int]]:
        """Enter or a click on `square`: the selected stack's move there; else the square's
        stack is selected (picked again, or one that cannot move: none is), and the squares
        that selection redraws."""
        move = self.targets.get(square)
        if move is not None:
            return move, set()
        return None, self.select(
            square if square != self.selected and self.moves_from(square) else None
        )

    def removal(self, count: int) -> Move | None:
        """The removal of `count` pieces, if the selected stack can bear them off."""
        return next((move for move in self.removals if move.count == count), None)

    def step_cursor(self, dx: int, dy: int, on_top: bool, off_board: bool) -> bool:
        """An arrow key, for the removal strip: along it or back onto the board while it has
        the cursor, onto it when the board's cursor steps `off_board` towards it (True: the
        key was the strip's)."""
        counts = [move.count for move in self.removals]
        if self.removal_cursor is not None:
            self.removal_cursor = chip_stepped(counts, self.removal_cursor, dx, dy, on_top)
            return True
        if off_board:
            self.removal_cursor = chip_entered(counts, dy, on_top)
            return True
        return False
