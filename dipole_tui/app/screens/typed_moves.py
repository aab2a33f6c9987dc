"""Moves typed in the side panel's entry: `:` opens it, Enter plays, Escape leaves. A part of
`GameScreen` (`game_screen.py`).

A move played from the entry gives the board its keys back (`u` undoes it at once), unless
more was typed ahead in the same breath: then the entry stays open for it. A refused move stays
in the entry, selected, to be corrected.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from textual import events, on
from textual.screen import Screen
from textual.widgets import Input

from ...control.keeper import Keeper
from ...games.base import shown
from ...session import Session
from ..boards.game_board import GameBoard
from ..widgets.play_area import PlayArea
from ..widgets.side_panel import MoveEntry, SidePanel

P = ParamSpec("P")
On = TypeVar("On", bound=Screen[Any])


def while_running(
    handler: Callable[Concatenate[On, P], None],
) -> Callable[Concatenate[On, P], None]:
    """For what reaches the screen from the board or the workers: dropped once the app is
    closing, when the screen it would change is being taken down (what was still queued then)."""

    @functools.wraps(handler)
    def run(screen: On, /, *args: P.args, **kwargs: P.kwargs) -> None:
        if screen.app.is_running:
            handler(screen, *args, **kwargs)

    return run


class TypedMoves(Screen[None]):
    """The entry's side of the game screen."""

    keeper: Keeper
    board: GameBoard[Any, Any]
    panel: SidePanel
    area: PlayArea[Any]

    if TYPE_CHECKING:  # the game screen's own

        @property
        def session(self) -> Session[Any]: ...

        def _play(self, move: Any) -> None: ...

        def walking_refusal(self) -> str: ...

    def action_type_move(self) -> None:
        """The entry is always on screen, so keys typed right after ':' all reach it."""
        self.area.open_entry()
        if not self.panel.transient:  # a refusal being corrected stays up
            self.panel.say(
                f"Type a move: {self.session.game.move_examples}.", "dim", transient=True
            )

    @on(Input.Submitted, "#move-input")
    @while_running
    def typed_move(self, event: Input.Submitted) -> None:
        text = self.area.text_of(event.value)
        if not text:
            self.area.close_entry()
            return
        refusal = self.walking_refusal() or (
            "" if self.board.interactive else self.keeper.waiting_for()
        )
        typed = self.area.read(text, self.session.state) if not refusal else None
        if typed is None or typed.move is None:
            said = typed.refusal if typed is not None else f"{shown(text)}: {refusal}"
            self.area.entry.give_back(text)
            self.panel.say(said, "bold red", transient=True)
            self.app.bell()
            return
        if not self.area.entry.value:  # nothing typed ahead: the board's keys are back
            self.area.close_entry()
        self._play(typed.move)

    @on(MoveEntry.Left, "#move-input")
    @while_running
    def entry_left(self) -> None:
        self.area.close_entry()

    # -- the player moving on --------------------------------------------------------------

    @on(events.Key)
    @on(events.MouseDown)
    def _moving_on(self, event: events.Key | events.MouseDown) -> None:
        """A key or click on the board is the player moving on: a transient message is done
        (this comes before any binding of the key runs). Keys and clicks still queued when the
        app closes go no further: the screen they were for is being taken down."""
        if not self.app.is_running:
            event.stop()
            event.prevent_default()
        elif self.panel.transient and self.focused is self.board:
            self.panel.say_lasting()


__all__ = ["TypedMoves", "while_running"]
