"""The board's turn, without a widget: the position shown and its last move, the hint, whether a
person may choose now, and a move reported that the app has not answered yet. A terminal
delivers a double press or a double click at once, before the app has played the first, so a
move is reported once and no other choice is taken until the app shows the next position.
"""

from __future__ import annotations

from typing import Generic

from ...games.base import M, S


class BoardTurn(Generic[S, M]):
    """`state` shown (after `last_move`), the `hint` marked until the next change, whether a
    person is to move (`interactive`) and whether a reported move awaits the app's answer."""

    def __init__(self, state: S) -> None:
        self.state = state
        self.interactive = True  # False while a bot or nobody (the game is over) is to move
        self.awaiting = False
        self.last_move: M | None = None
        self.hint: M | None = None  # the move a hint suggests, marked until the next change
        self.plies = -1  # the plies played in the position shown (-1: none shown yet)

    def take(self, state: S, last_move: M | None) -> bool:
        """Show a new position: no hint, choices taken again. True when the game moved (not
        the same position shown again)."""
        moved = state is not self.state or state.plies != self.plies
        self.state, self.plies, self.last_move = state, state.plies, last_move
        self.awaiting, self.hint = False, None
        return moved

    @property
    def takes_choices(self) -> bool:
        """A key or click may select, mark or choose now: a person's turn, and no move reported
        that the app has not answered."""
        return self.interactive and not self.awaiting

    def report(self) -> bool:
        """A move is to be reported: True (and the turn awaits the app) if one may be now."""
        if not self.takes_choices:
            return False
        self.awaiting = True
        return True
