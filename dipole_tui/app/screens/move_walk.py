"""Going back through the game: looking without changing it (`[` and `]` step through the
positions, `Home` goes to the start, `End` (or a change of the game) back to the game itself, a
click on a move in the list shows the position after it), and taking moves back (`u`, `U`). A
part of `GameScreen` (`game_screen.py`).

Undo changes the game (and a bot may move again); the walk only shows: the board is shown, not
played on, while an earlier position is on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on
from textual.screen import Screen

from ...control.bot_controller import BotController
from ...control.changes import Change
from ...control.keeper import Keeper
from ...games.base import State
from ...session import Session
from ..boards.game_board import GameBoard
from ..widgets.move_list import MoveList
from ..widgets.side_panel import MoveEntry, SidePanel


def position_at(session: Session[Any], ply: int) -> State[Any]:
    """The whole game's position after its first `ply` moves (undone moves included)."""
    state = session.whole_game().state.copy()
    for _ in range(state.plies - ply):
        state.undo()
    return state


class MoveWalk(Screen[None]):
    """The ply shown (`viewing`), when it is not the game's own position."""

    viewing: int | None = None  # plies from the start; None: the game itself is on the board
    board: GameBoard[Any, Any]
    panel: SidePanel
    keeper: Keeper
    bots: BotController
    threats_on: bool

    if TYPE_CHECKING:  # the game screen's own

        @property
        def session(self) -> Session[Any]: ...

        def _show(self, message: str = "") -> None: ...

        def _after_change(self, change: Change) -> None: ...

    def action_walk(self, step: int) -> None:
        here = self.session.state.plies if self.viewing is None else self.viewing
        self.action_walk_to(here + step)

    def action_walk_to(self, ply: int) -> None:
        """Show the position after `ply` moves; the game's own position ends the walk."""
        total = self.session.whole_game().state.plies
        ply = max(0, min(ply, total))
        if ply == self.session.state.plies:
            self.action_walk_end()
            return
        if ply == self.viewing:
            self.app.bell()  # at the start, or at the end of the undone moves
            return
        self.viewing = ply
        state = position_at(self.session, ply)
        self.board.interactive = False
        self.board.show_state(state, state.moves_played[-1] if ply else None)
        self.board.show_threats(self.session.game.threats(state) if self.threats_on else None)
        self.panel.show_walk(ply, total, state)

    def action_walk_end(self) -> None:
        """Back to the game as it stands."""
        if self.viewing is not None:
            self.viewing = None
            self._show()

    def stop_walking(self) -> None:
        """The game changed: its own position is shown again."""
        self.viewing = None

    @on(MoveEntry.End)
    def entry_end(self) -> None:
        self.action_walk_end()

    @on(MoveList.Picked)
    def move_picked(self, event: MoveList.Picked) -> None:
        self.action_walk_to(event.ply)

    def action_undo(self) -> None:
        """Take back a move; against a bot, back to the human's previous turn. Not while an
        earlier position is shown: the move taken back would be one the player does not see."""
        if why := self._looking_back("u takes a move back") or self.keeper.why_no_undo():
            self.app.bell()
            self.panel.say(why, transient=True)
            return
        self.bots.cancel()
        if not self.session.human_sides():
            self.bots.paused = True  # stepping back through a bots' game: watch on with p or .
        self._after_change(self.keeper.undo() or Change())

    def action_redo(self) -> None:
        if why := self._looking_back("U replays a move"):
            self.app.bell()
            self.panel.say(why, transient=True)
            return
        if not self.session.redo_moves:
            self.app.bell()
            self.panel.say("Nothing to redo.", transient=True)
            return
        self.bots.cancel()
        self._after_change(self.keeper.redo() or Change())

    def _looking_back(self, there: str) -> str:
        """Why a key that changes the game waits ("" when the game's position is shown)."""
        if self.viewing is None:
            return ""
        return f"The board shows ply {self.viewing}: End goes back to the game, where {there}."

    def walking_refusal(self) -> str:
        """Why nothing can be played on the board now ("" when the game's position is shown)."""
        if self.viewing is None:
            return ""
        return f"the board shows ply {self.viewing}, not the game: End goes back to it"


__all__ = ["MoveWalk", "position_at"]
