"""The Dipole board's removal strip, without a widget: the chips of the counts the selected
stack can bear off, laid out as roomy as the board's width allows, and where the arrow keys take
the cursor among them. The board draws and styles what this says.
"""

from __future__ import annotations


def strip_chips(counts: list[int], room: int, indent: int) -> tuple[str, str, list[str]]:
    """The strip's title, the gap between its chips, and a chip per count: padded, after a
    title `indent` columns in, where `room` allows, else packed after a short title."""
    layouts = ((" " * indent + "off the board: ", " ", " "), ("off: ", "", " "))
    for title, pad, gap in layouts:
        chips = [f"{pad}{count}{pad}" for count in counts]
        if len(title) + len(gap.join(chips)) <= room:
            break
    return title, gap, chips


def chip_entered(counts: list[int], dy: int, on_top: bool) -> int | None:
    """The chip the cursor reaches stepping `dy` off the board's edge (the first, when the
    strip is on that side; None: it stays on the board)."""
    return counts[0] if counts and (dy < 0) == on_top else None


def chip_stepped(counts: list[int], at: int, dx: int, dy: int, on_top: bool) -> int | None:
    """Where an arrow key takes the cursor from chip `at`: along the strip, clamped, or back
    onto the board (None) by stepping towards it."""
    if at not in counts:
        return None
    if dx:
        index = counts.index(at) + dx
        return counts[min(max(index, 0), len(counts) - 1)]
    return None if (dy > 0) == on_top else at
