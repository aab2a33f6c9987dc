"""A question with a few answers (resume, game over, abort): the answers are words of outside text
sometimes, so they pass the one sanitizer."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from ...games.base import displayable
from ..closing import Dialog
from ..widgets.wrapping import wrap


class ChoiceScreen(Dialog[str]):
    """A question with a few answers, one button each; Escape gives the harmless answer."""

    BINDINGS = [Binding("escape", "escape", "Close")]
    # The first answer has the focus. Textual's own way: an on_mount query for it raised
    # NoMatches when the app closed as the question was being put (a game ending as one quits).
    AUTO_FOCUS = "Button"

    def __init__(self, title: str, text: str, answers: list[tuple[str, str]], escape: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.answers = answers
        self.escape_answer = escape

    def compose(self) -> ComposeResult:
        # The dialog is 56 columns, at most 95% of the screen, less its border and padding: the
        # text is wrapped here so that a file path breaks after a `/`, not mid-word.
        width = min(56, self.app.size.width * 95 // 100) - 6
        with Vertical(id="dialog"):
            # Not markup, and through the one sanitizer: a text may quote a file name (`a[/].txt`
            # would be a MarkupError) or a server's word (an escape would reach the terminal).
            title, text = displayable(self.title_text), displayable(self.text, lines=True)
            yield Label(title, classes="dialog-title", markup=False)
            yield Label("\n".join(wrap(text, width)), classes="dialog-text", markup=False)
            crowded = " four" if len(self.answers) > 3 else ""  # narrower buttons (dialogs.tcss)
            with Horizontal(classes="buttons" + crowded):
                for index, (label, key) in enumerate(self.answers):
                    yield Button(label, id=key, variant="primary" if index == 0 else "default")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "")

    def action_escape(self) -> None:
        self.dismiss(self.escape_answer)
