"""Ask for a file name: refused in one line when it cannot be a path."""

from __future__ import annotations

import os
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from ...games.base import shown
from ..closing import Dialog
from .choice import ChoiceScreen


class FileScreen(Dialog[Path | None]):
    """Ask for a file name, to save a record. A file that is there already is replaced only
    when the player says so; otherwise the dialog is back, the name as typed."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str) -> None:
        super().__init__()
        self.title_text = title
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(value=self.default, id="path")
            yield Label("Enter to confirm, Escape to cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        if self.app.screen is not self:  # a double Enter: the question is open already
            return
        path = path_from(event.value)
        if path is None or not os.path.isfile(path):
            self.dismiss(path)
            return
        answers = [("Keep that file", "keep"), ("Replace it", "replace")]

        def answered(answer: str | None) -> None:
            if answer == "replace":
                self.dismiss(path)
            else:
                self.query_one(Input).focus()

        text = f"{shown(str(path), 200)} is there already: saving would write over it."
        self.app.push_screen(ChoiceScreen("Replace the file?", text, answers, "keep"), answered)

    def action_cancel(self) -> None:
        self.dismiss(None)


def path_from(text: str) -> Path | None:
    """A typed file name, with `~` expanded; None when nothing was typed."""
    text = text.strip()
    if not text:
        return None
    try:
        return Path(text).expanduser()
    except RuntimeError:  # ~someone who does not exist: take the name as written
        return Path(text)
