"""The help pages: the game's own page (its registry entry names it), then the keys."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll

from ...registry import REGISTRY
from ..ascii import BULLETS, plain
from ..closing import Dialog

HELP = Path(__file__).parent.parent / "help"  # the game's page (its registry entry), then keys.md


class HelpScreen(Dialog[None]):
    """The rules in the project's own words, with the sheet's examples, and the keys."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def __init__(self, game_key: str, ascii_glyphs: Mapping[str, str] | None = None) -> None:
        """`ascii_glyphs`: under --ascii, the board's ASCII glyph for each Unicode one."""
        super().__init__()
        self.game_key = game_key
        self.ascii_glyphs = ascii_glyphs

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # imported when first needed: it is slow to load

        with VerticalScroll(id="help"):
            pages = (HELP / REGISTRY[self.game_key].help_page, HELP / "keys.md")
            text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
            if self.ascii_glyphs is not None:
                text = plain(text, self.ascii_glyphs)
            markdown = Markdown(text)
            if self.ascii_glyphs is not None:
                markdown.BULLETS = BULLETS
            yield markdown

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss(None)
