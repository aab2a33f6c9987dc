"""How a Dipole stack is drawn in its cell, in text: the glyph tables, its coins and checkers
as room allows, and the mark of a square a move can reach. No widget here: the board styles
what this says.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...games.dipole import Move


@dataclass(frozen=True)
class Glyphs:
    """The characters a stack is drawn with: shape tells the sides apart without colour."""

    white_checker: str
    white_coin: str
    black_checker: str
    black_coin: str
    empty: str

    def markers(self, height: int) -> str:
        """One coin for every five checkers, one checker for each of the rest (Steere's nickel)."""
        side_white = height > 0
        coins, rest = divmod(abs(height), 5)
        coin = self.white_coin if side_white else self.black_coin
        checker = self.white_checker if side_white else self.black_checker
        return coin * coins + checker * rest

    def badge(self, height: int) -> str:
        """The one glyph that stands for a stack where there is no room for its markers."""
        if height > 0:
            return self.white_coin if height >= 5 else self.white_checker
        return self.black_coin if -height >= 5 else self.black_checker


UNICODE = Glyphs("○", "◎", "●", "◉", "·")
ASCII = Glyphs("o", "O", "x", "X", ".")


def stack_lines(height: int, width: int, rows: int, glyphs: Glyphs) -> list[str]:
    """The text of a stack in a cell: its height, then its coins and checkers, as room allows."""
    number = str(abs(height))
    markers = glyphs.markers(height)
    if rows >= 2 and len(markers) <= width * (rows - 1):
        return [number, *(markers[i : i + width] for i in range(0, len(markers), width))]
    first_room = width - len(number) - 1
    if first_room >= 0 and len(markers) <= first_room + width * (rows - 1):
        head, tail = markers[:first_room], markers[first_room:]
        rest = [tail[i : i + width] for i in range(0, len(tail), width)]
        return [f"{number} {head}".rstrip(), *rest]
    return [(glyphs.badge(height) + number)[:width]]


def square_text(
    height: int, target: Move | None, line: int, cell: tuple[int, int], glyphs: Glyphs
) -> tuple[str, str]:
    """Line `line` of a square holding `height` (negative: Black's) in a cell of `cell`
    (width, height), with the mark of `target`, the move that reaches it, if any: the text and
    the component class it is drawn in ("" for none)."""
    cell_w, cell_h = cell
    mark = ""
    if target is not None:
        sign = "x" if target.capture else ("+" if height else "→")
        if glyphs is ASCII and sign == "→":
            sign = ">"
        mark = f"{sign}{target.count}"
    rows = cell_h - 1 if mark and cell_h > 1 else cell_h
    if mark and cell_h == 1:
        return mark, "board--mark"
    if not height:
        lines = [glyphs.empty] if not mark else []
        kind = "board--empty"
    else:
        lines = stack_lines(height, cell_w, rows, glyphs)
        kind = "board--white" if height > 0 else "board--black"
    if mark:
        mark_line = cell_h - 1 if height else (cell_h - 1) // 2
        if line == mark_line:
            return mark, "board--mark"
        index = line
    else:
        index = line - (cell_h - len(lines)) // 2
    if 0 <= index < len(lines):
        return lines[index], kind
    return "", ""
