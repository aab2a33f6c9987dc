"""Moves typed in the side panel's entry (`MoveEntry`, which posts `MoveTyped`): `:` opens it,
Enter plays, Escape leaves. A part the game screen owns (`game.py`).

A move played from the entry gives the board its keys back (`u` undoes it at once), unless
more was typed ahead in the same breath: then the entry stays open for it. A refused move stays
in the entry, selected, to be corrected.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from textual.screen import Screen

from ...games.base import shown
from ..widgets.side_panel import MoveTyped

if TYPE_CHECKING:
    from .game import GameScreen

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


class TypedMoves:
    """The entry's side of the game screen."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def open(self) -> None:
        """The entry is always on screen, so keys typed right after ':' all reach it."""
        screen = self.screen
        screen.area.open_entry()
        if not screen.panel.transient:  # a refusal being corrected stays up
            examples = screen.session.game.move_examples
            screen.panel.say(f"Type a move: {examples}.", "dim", transient=True)

    def typed(self, event: MoveTyped) -> None:
        """Played unless the walk, the keeper or the game's rules refuse it."""
        screen, text = self.screen, event.text
        refusal = screen.walk.refusal() or (
            "" if screen.board.interactive else screen.keeper.waiting_for()
        )
        typed = screen.area.read(text, screen.session.state) if not refusal else None
        if typed is None or typed.move is None:
            said = typed.refusal if typed is not None else f"{shown(text)}: {refusal}"
            event.entry.give_back(text)
            screen.panel.say(said, "bold red", transient=True)
            screen.app.bell()
            return
        if not event.typed_ahead:  # nothing typed ahead: the board's keys are back
            screen.area.close_entry()
        screen.play(typed.move)


__all__ = ["TypedMoves", "while_running"]
