"""Screens that close only themselves, once.

Textual's `Screen.dismiss` pops whatever screen is on top. A dialog's answer can still be on its
way when another key has closed the dialog: Enter presses a button, whose `Pressed` message comes
up after the Escape of the same burst has dismissed the screen. That second dismiss popped the
screen under the dialog, the game's own, and stopped the app (`ScreenStackError`), or closed
another dialog without its answer. Every screen of the app that dismisses itself is a
`ClosingScreen` (or a `Dialog`), whose dismiss is dropped once it is no longer on top.
"""

from __future__ import annotations

from typing import TypeVar

from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen, Screen

R = TypeVar("R")


class ClosingScreen(Screen[R]):
    """A screen (a mode: the review, an exercise) that dismisses itself only while on top."""

    def dismiss(self, result: R | None = None) -> AwaitComplete:
        """Dropped unless this screen is on top: it was dismissed already (the first answer of
        a burst stands), or another screen covers it, which is not this one's to close."""
        if not self.is_active:
            return AwaitComplete()
        return super().dismiss(result)


class Dialog(ModalScreen[R], ClosingScreen[R]):
    """A modal question (a choice, a file name, a new game) that dismisses itself once.
    `ModalScreen` first: Textual takes a class's CSS from its first base only, and the dialogs'
    CSS is `ModalScreen`'s."""
