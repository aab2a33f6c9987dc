"""--ascii: the whole screen in ASCII, for terminals without good Unicode.

The boards draw from their ASCII glyph tables, and `App.-ascii` in css/ascii.tcss gives Textual's
widgets ASCII borders. This module is the rest: `plain`, the one place a text (a help page, a
board's key line) loses its Unicode, and scrollbars drawn without eighth blocks.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import astuple, is_dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.renderables.bar import Bar as BarRenderable
from textual.scrollbar import ScrollBarRender
from textual.widgets import ProgressBar

# The typography of the app's texts in ASCII. A board's glyphs come first: on a board `·` is an
# empty square, in a sentence a separator.
TYPOGRAPHY = {"…": "...", "·": "-", "→": ">", "±": "+/-"}

BULLETS = ["* ", "- ", "+ ", "* ", "- "]  # Markdown's lists, for its • ▪ ‣ ⭑ ◦


def plain(text: str, glyphs: Mapping[str, str] | None = None) -> str:
    """`text` in ASCII: a board's glyphs as its ASCII table draws them, typography as ASCII
    punctuation, letters without their accents (Eúin: Euin). Any other character stays as it is,
    to be seen and added here, rather than be replaced by a guess."""
    glyphs = glyphs or {}
    swapped = "".join(glyphs.get(char) or TYPOGRAPHY.get(char, char) for char in text)
    decomposed = unicodedata.normalize("NFKD", swapped)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def glyph_map(unicode_table: object, ascii_table: object) -> dict[str, str]:
    """Each glyph of a board's Unicode table -> the glyph in the same place of its ASCII table."""
    return dict(zip(_glyphs(unicode_table), _glyphs(ascii_table), strict=True))


def typed_as_drawn(tables: tuple[object, object], ascii_glyphs: bool) -> dict[str, str]:
    """Each glyph of a board's ASCII table -> the glyph the board draws in its place now. The
    ASCII tables write pieces with the letters a position is typed in (Death Stacks' r b,
    Bi-Pod's x o O @ Q, every game's . for an empty square), so this is how a typed token looks
    on the board: the editor draws with it rather than keep glyphs of its own."""
    unicode_table, ascii_table = tables
    return glyph_map(ascii_table, ascii_table if ascii_glyphs else unicode_table)


def _glyphs(table: object) -> list[str]:
    if isinstance(table, str):
        return [table]
    if is_dataclass(table) and not isinstance(table, type):
        table = astuple(table)
    if isinstance(table, Mapping):
        table = [table[key] for key in sorted(table)]
    assert isinstance(table, (tuple, list)), table
    return [glyph for part in table for glyph in _glyphs(part)]


class AsciiScrollBarRender(ScrollBarRender):
    """A scrollbar whose thumb is whole cells (reversed blanks): Textual draws the thumb's ends
    with eighth blocks (▁▂▃)."""

    VERTICAL_BARS = [" "] * 8
    HORIZONTAL_BARS = [" "] * 8


class AsciiBarRenderable(BarRenderable):
    """A progress bar's track in ASCII: `=` done, `-` to do (told apart without colour too)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = self.width or options.max_width
        done = max(0, min(width, round(self.highlight_range[1])))
        yield Text.assemble(
            ("=" * done, console.get_style(self.highlight_style)),
            ("-" * (width - done), console.get_style(self.background_style)),
            end="",
        )


class AsciiProgressBar(ProgressBar):
    BAR_RENDERABLE = AsciiBarRenderable
