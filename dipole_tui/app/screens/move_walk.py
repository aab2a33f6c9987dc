"""Going back through the game: looking without changing it (`[` and `]` step through the
positions, `Home` goes to the start, `End` (or a change of the game) back to the game itself, a
click on a move in the list shows the position after it), and taking moves back (`u`, `U`). A
part the game screen owns (`game.py`); which ply is shown is a `PlyWalker`'s, as in the review.

Undo changes the game (and a bot may move again); the walk only shows: the board is shown, not
played on, while an earlier position is on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...control.changes import Change
from ...control.ply_walker import PlyWalker
from ...games.base import State
from ...session import Session

if TYPE_CHECKING:
    from .game import GameScreen


def position_at(session: Session[Any], ply: int) -> State[Any]:
    """The whole game's position after its first `ply` moves (undone moves included)."""
    state = session.whole_game().state.copy()
    for _ in range(state.plies - ply):
        state.undo()
    return state


class MoveWalk:
    """The ply shown (`viewing`), when it is not the game's own position."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.walker: PlyWalker | None = None  # None: the game itself is on the board

    @property
    def viewing(self) -> int | None:
        """Plies from the start; None: the game itself is on the board."""
        return None if self.walker is None else self.walker.ply

    def go(self, step: Callable[[PlyWalker], bool]) -> None:
        """Show the position a step of the walker leads to (through the whole game, undone
        moves too); the game's own position ends the walk, and an end reached rings."""
        session = self.screen.session
        here = session.state.plies
        walker = self.walker or PlyWalker(session.whole_game().state.plies, here)
        moved = step(walker)
        if walker.ply == here:
            self.end()
        elif not moved:
            self.screen.app.bell()  # at the start, or at the end of the undone moves
        else:
            self.walker = walker
            self._show(walker)

    def to(self, ply: int) -> None:
        self.go(lambda walker: walker.to(ply))

    def _show(self, walker: PlyWalker) -> None:
        screen, session = self.screen, self.screen.session
        state = position_at(session, walker.ply)
        screen.board.interactive = False
        screen.board.show_state(state, state.moves_played[-1] if walker.ply else None)
        screen.board.show_threats(session.game.threats(state) if screen.threats_on else None)
        screen.panel.show_walk(walker.ply, walker.plies, state)

    def end(self) -> None:
        """Back to the game as it stands."""
        if self.walker is not None:
            self.walker = None
            self.screen.show()

    def stop(self) -> None:
        """The game changed: its own position is shown again."""
        self.walker = None

    def undo(self) -> None:
        """Take back a move; against a bot, back to the human's previous turn. Not while an
        earlier position is shown: the move taken back would be one the player does not see."""
        screen, keeper = self.screen, self.screen.keeper
        if why := self._looking_back("u takes a move back") or keeper.why_no_undo():
            screen.refuse(why)
            return
        screen.bots.cancel()
        if not screen.session.human_sides():
            screen.bots.paused = True  # stepping back through a bots' game: watch on with p or .
        screen.after_change(keeper.undo() or Change())

    def redo(self) -> None:
        screen = self.screen
        if why := self._looking_back("U replays a move"):
            screen.refuse(why)
            return
        if not screen.session.redo_moves:
            screen.refuse("Nothing to redo.")
            return
        screen.bots.cancel()
        screen.after_change(screen.keeper.redo() or Change())

    def _looking_back(self, there: str) -> str:
        """Why a key that changes the game waits ("" when the game's position is shown)."""
        if self.viewing is None:
            return ""
        return f"The board shows ply {self.viewing}: End goes back to the game, where {there}."

    def refusal(self) -> str:
        """Why nothing can be played on the board now ("" when the game's position is shown)."""
        if self.viewing is None:
            return ""
        return f"the board shows ply {self.viewing}, not the game: End goes back to it"


__all__ = ["MoveWalk", "position_at"]
