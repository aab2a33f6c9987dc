"""A board's styles, without a widget: each component class's Rich style worked out once, until
the app's styles change (a board draws hundreds of cells a frame, and Textual works a style out
slowly)."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style


class StyleCache:
    """A board's Rich styles, by component class, kept until the app's styles change: working
    them out for every drawn cell is slow."""

    def __init__(self, of: Callable[..., Style], base: Callable[[], Style]) -> None:
        self._of, self._base = of, base
        self._kept: dict[str, Style] = {}

    def of(self, name: str, partial: bool = False) -> Style:
        key = f"{name}/{partial}"
        style = self._kept.get(key)
        if style is None:
            style = self._kept[key] = self._of(name, partial=partial)
        return style

    def base(self) -> Style:
        """The widget's own style (`rich_style`, which is slow to work out)."""
        style = self._kept.get("")
        if style is None:
            style = self._kept[""] = self._base()
        return style

    def clear(self) -> None:
        self._kept.clear()
