"""The Death Stacks board's text, without a widget: the glyphs its pieces are drawn with and
the words under it for the part that moves and the ways it goes (said shorter, `brevity` 0 to
3, where there is no room).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games.death_stacks import Way, square_name


@dataclass(frozen=True)
class StackGlyphs:
    """Pieces differ by shape as well as colour, so the sides stay apart without colour."""

    pieces: tuple[str, str]  # Red's, Black's
    empty: str
    wall: str
    more: str  # stands for the buried pieces there is no room to draw


UNICODE = StackGlyphs(("◆", "●"), "·", "▒", "…")
ASCII = StackGlyphs(("r", "b"), ".", "#", "~")

# Directions in words: the ways a move can go are said in full where there is room.
DIRECTION_WORDS = {
    "n": "north",
    "ne": "north-east",
    "e": "east",
    "se": "south-east",
    "s": "south",
    "sw": "south-west",
    "w": "west",
    "nw": "north-west",
}


def moving_words(square: int, height: int, count: int, counts: list[int], brevity: int) -> str:
    """The selected stack and how many of its pieces move, of the `counts` that may."""
    choices = f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])
    if brevity < 2:
        return f"{square_name(square)}: moving {count} of {height} ({choices}, +/-)"
    return f"{square_name(square)}: {count} of {height} (+/-)"


def ways_words(ways: list[Way], square: int, brevity: int) -> list[str]:
    """The way, or the ways, the part that moves reaches `square` (nothing if it can't)."""
    if len(ways) == 1:
        return ["path " + " ".join(square_name(sq) for sq in ways[0].squares)]
    return [ways_text(ways, square, brevity)] if ways else []


def ways_text(ways: list[Way], square: int, brevity: int) -> str:
    """Several directions landing on the cursor's square (one move all the same), said
    with the walls that turn them back: "2 ways to c2: north, or south bouncing off the
    wall"; when the ways pass different squares, each group says its first."""
    head = f"{len(ways)} ways to {square_name(square)}"
    groups: dict[tuple[int, ...], list[Way]] = {}
    for way in ways:
        groups.setdefault(way.squares, []).append(way)
    firsts = [square_name(squares[0]) for squares in groups]
    if brevity >= 3:
        via = f" via {', '.join(firsts)}" if len(groups) > 1 else ""
        return f"{head}{via} (walls turn moves back)"
    phrases = []
    for first, group in zip(firsts, groups.values(), strict=True):
        names = [
            DIRECTION_WORDS[way.direction] if brevity < 2 else way.direction.upper()
            for way in group
        ]
        straight = [name for name, way in zip(names, group, strict=True) if not way.bounces]
        bounced = [name for name, way in zip(names, group, strict=True) if way.bounces]
        said = ", ".join(straight)
        if bounced:
            once = [way.bounces for way in group if way.bounces] == [1]
            walls = "the wall" if once else "the walls"
            off = "bouncing off" if brevity == 0 else "off"
            said += (", or " if straight else "") + f"{', '.join(bounced)} {off} {walls}"
        phrases.append(said + (f" (via {first})" if len(groups) > 1 else ""))
    return f"{head}: " + "; ".join(phrases)
