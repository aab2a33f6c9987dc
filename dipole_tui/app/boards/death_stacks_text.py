"""The Death Stacks board's text, without a widget: the glyphs its pieces are drawn with, what
a cell says over its pieces and where each piece goes, and the words under the board for the
part that moves and the ways it goes (said shorter, `brevity` 0 to 3, where there is no room).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...games.death_stacks import RED, TOO_TALL, Move, Way, square_name


@dataclass(frozen=True)
class StackGlyphs:
    """Pieces differ by shape as well as colour, so the sides stay apart without colour."""

    pieces: tuple[str, str]  # Red's, Black's
    empty: str
    wall: str


UNICODE = StackGlyphs(("◆", "●"), "·", "▒")
ASCII = StackGlyphs(("r", "b"), ".", "#")


def landing_mark(move: Move | None, owner: int | None, to_move: int, glyphs: StackGlyphs) -> str:
    """What a square `move` lands on says: how many pieces land, and whether they capture (x),
    restack on an own stack (+) or land on an empty square (→); "" for no move."""
    if move is None:
        return ""
    sign = "→" if owner is None else ("+" if owner == to_move else "x")
    if sign == "→" and glyphs is ASCII:
        sign = ">"
    return f"{sign}{move.count}"


def header(
    stack: tuple[int, ...], mark: str, step: int | None, to_move: int, counted: bool = False
) -> str:
    """A cell's top line: the landing mark, else the height ("!" when too tall and to move),
    left out when the pieces below already say it (`counted`: a stack cut short); an empty
    square says its `step` along the one way to the cursor."""
    if mark:
        return mark
    if not stack:
        return "" if step is None else str(step)
    tall = "!" if len(stack) > TOO_TALL and stack[-1] == to_move else ""
    return tall if counted else f"{len(stack)}{tall}"


def text_class(stack: tuple[int, ...], marked: bool, to_move: int, interactive: bool) -> str:
    """The component class a cell's text is drawn in: a landing mark's, an empty square's, a
    stack's that must move now, else its top piece's side's."""
    if marked:
        return "board--mark"
    if not stack:
        return "board--empty"
    if len(stack) > TOO_TALL and stack[-1] == to_move and interactive:
        return "board--tall"
    return "board--red" if stack[-1] == RED else "board--black"


def piece_levels(height: int, cell_w: int, rows: int) -> list[list[int | None]]:
    """The levels (0 the bottom) of a stack's pieces on each of `rows` lines of a cell, top line
    first, the bottom piece at the bottom left. When they do not all fit, the most buried give
    way to None, where the stack's height is written (as many columns as its digits): a player
    reads `12●◆` as twelve pieces, ◆ on top, rather than guess how many an ellipsis hides."""
    per_line = max(1, cell_w - 2)
    levels = range(height)
    lines: list[list[int | None]] = []
    if height > per_line * rows:
        beside = max(1, per_line - len(str(height)))  # the pieces beside the height
        levels = range(height - beside - per_line * (rows - 1), height)
        lines.append([None, *levels[:beside]])
        levels = levels[beside:]
    lines += [list(levels[i : i + per_line]) for i in range(0, len(levels), per_line)]
    return lines[::-1]


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
