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
