"""The room's chat: the lines heard so far, and a line to say.

Every line shown is a stranger's text: it passes the one sanitizer (`displayable`) and goes into a
plain-text `Log` (no markup to break, no escape to reach the terminal). Slash words are the
player's own and never leave the app: `/mute` hides the other side's lines, `/unmute` shows
them again.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Log

from ...games.base import displayable
from ...online.protocol import CHAT_LENGTH
from ..closing import Dialog


class ChatScreen(Dialog[None]):
    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, title: str, lines: list[str], say: Callable[[str], str]) -> None:
        super().__init__(classes="chat")
        self.title_text = title
        self.lines = lines
        self.say = say  # sends a line; what to show instead ("" when sent)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(displayable(self.title_text), classes="dialog-title", markup=False)
            yield Log(id="chat-lines", max_lines=200)
            yield Input(
                placeholder=f"Say something ({CHAT_LENGTH} characters); /mute, /unmute",
                max_length=CHAT_LENGTH,
                id="chat-input",
            )
            yield Label("Enter says it, Escape closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.add(self.lines)
        self.query_one(Input).focus()

    def add(self, lines: list[str]) -> None:
        log = self.query_one(Log)
        if lines and log.border_subtitle:
            log.border_subtitle = ""
        elif not lines and not log.line_count:
            log.border_subtitle = "nobody has said anything yet"
        log.write_lines(displayable(line) for line in lines)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        if text and (said := self.say(text)):
            self.add([said])

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["ChatScreen"]
