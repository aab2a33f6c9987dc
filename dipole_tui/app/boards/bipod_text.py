"""The Bi-Pod board's text, without a widget: the glyphs its stones are drawn with and the
words under it for what Enter and the other keys do.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...games.bipod import ADOPT, GRAY, MULTI_MOST, WHITE, BipodState, Move, format_cells


@dataclass(frozen=True)
class HexGlyphs:
    """Stones differ by shape as well as colour: hollow o, filled O, a cross for a block."""

    empty: str
    block: str
    stones: dict[str, str]  # runner colour -> stone
    starts: dict[str, str]  # runner colour -> start stone


UNICODE = HexGlyphs("·", "✕", {WHITE: "○", GRAY: "●"}, {WHITE: "◎", GRAY: "◉"})
ASCII = HexGlyphs(".", "x", {WHITE: "o", GRAY: "O"}, {WHITE: "@", GRAY: "Q"})
CUT = "!"  # the threat overlay's mark: a Blocker's stone here cuts a chain
# The stone Enter would place, on the cursor's empty cell: bracketed, as no placed stone ever is,
# so that it reads as a preview in colour, without colour and in ASCII alike.
PREVIEW = "[{}]"


def said_before_a_move(
    state: BipodState,
    hint: Move | None,
    marked: list[int],
    colour: str,
    runner_to_move: bool,
    glyphs: HexGlyphs,
) -> list[str]:
    """What Enter places now and the keys for the rest (a hint that places no stone first); a
    stone named as the board draws it (○ ●), not as it is typed (o O)."""
    said = []
    if hint is not None and not hint.cells:
        key = " (a)" if hint == ADOPT else ""
        said = [f"Hint: {hint.kind}{key}"]
    if state.runner is None:
        if state.multi:
            names = format_cells(sorted(marked)) if marked else "none"
            return [
                *said,
                f"Marked {names} ({len(marked)}/{MULTI_MOST}): Space marks, Enter places",
                "a adopts",
                "R resigns",
            ]
        return [*said, "Enter places a blocking stone", "a adopts", "R resigns"]
    if runner_to_move:
        other = GRAY if colour == WHITE else WHITE
        place, switch = glyphs.stones[colour], glyphs.stones[other]
        return [*said, f"Enter places {place}", f"c switches to {switch}", "R resigns"]
    return [*said, "Enter places a blocking stone", "R resigns"]
