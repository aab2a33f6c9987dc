"""The words a board draws, without a widget: its status wrapped to the room under it (said
shorter where full words do not fit), the threat overlay's legend, and the notice that replaces
a board too big for its area. Every board says these the same way; the board draws them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable


def wrap_status(parts: list[str], width: int) -> list[str]:
    """The text under a board in lines of `width`: its parts (what is selected, what the keys
    do) joined by ' · ' while whole parts fit; a part too long for a line of its own goes on
    after the last one, broken between words."""
    width = max(1, width)
    lines: list[str] = []
    for part in filter(None, parts):
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " · " + part
        elif lines and len(part) > width:
            lines[-1:] = textwrap.wrap(f"{lines[-1]} · {part}", width, break_on_hyphens=False)
        else:
            lines += textwrap.wrap(part, width, break_on_hyphens=False)
    return lines


def fitted(parts: Callable[[int], list[str]], brevities: int, width: int, room: int) -> list[str]:
    """The status in at most `room` lines of `width`: `parts(brevity)` in the fullest words
    (brevity 0) that fit, else the shortest cut to the room."""
    lines: list[str] = []
    for brevity in range(brevities):
        lines = wrap_status(parts(brevity), width)
        if len(lines) <= room:
            return lines
    return lines[:room]


def threat_legend(threats: dict[str, int] | None, words: Callable[[], str]) -> str:
    """What the overlay's marks mean, in one line ("" while it is off); `words` says the
    board's own marks."""
    if threats is None:
        return ""
    return "Threats: " + words() if threats else "Threats: none now"


def too_small(need: tuple[int, int], size: tuple[int, int]) -> list[str]:
    """The notice drawn in place of a board that needs `need` (width, height) in `size`."""
    return [
        "The board does not fit.",
        f"Enlarge this area to at least {need[0]}x{need[1]}",
        f"(it is {size[0]}x{size[1]}).",
    ]


def too_small_line(need: tuple[int, int], size: tuple[int, int], y: int) -> str | None:
    """Line `y` of the too-small notice, centred in `size` (None: a blank line around it)."""
    lines = too_small(need, size)
    top = max(0, (size[1] - len(lines)) // 2)
    if top <= y < top + len(lines):
        return lines[y - top][: size[0]].center(size[0])[: size[0]]
    return None


class BoardWords:
    """The words under a board: a `notice` (a key refused, said first and kept until the next
    change), else what the board says (`said`, shorter the higher the brevity, in `brevities`
    ways), and the threat overlay's legend (`legend`) last, the first to go when short of room."""

    def __init__(
        self, said: Callable[[int], list[str]], legend: Callable[[], str], brevities: int
    ) -> None:
        self.said, self.legend, self.brevities = said, legend, brevities
        self.notice = ""

    def status(self) -> str:
        """The text under the board, in full: what is selected and what the keys can do."""
        return " · ".join(self.status_parts())

    def status_parts(self, brevity: int = 0) -> list[str]:
        said = [self.notice] if self.notice else self.said(brevity)
        legend = self.legend()
        return [*said, *([legend] if legend else [])]

    def status_lines(self, width: int, room: int) -> list[str]:
        """The status in at most `room` lines of `width`: in full words where they fit."""
        return fitted(self.status_parts, self.brevities, width, room)
