"""The Bi-Pod board's parts that need no widget, tested alone (issue 42: the board owns them):
where its cells go and how the cursor walks them (`HexLayout`), and what it would place
(`HexMarks`)."""

from __future__ import annotations

from dataclasses import dataclass

from dipole_tui.app.boards.bipod_text import ASCII
from dipole_tui.app.boards.hex_layout import SCALES, HexLayout, board_size
from dipole_tui.app.boards.hex_marks import HexMarks
from dipole_tui.games.bipod import ADOPT, BIPOD, BLOCK, GRAY, WHITE, Move


@dataclass
class Area:
    """A stand-in for the board: its area and whether it is turned round."""

    size: tuple[int, int]
    flipped: bool = False


def test_the_layout_takes_the_largest_scale_that_fits() -> None:
    assert board_size(SCALES[0]) == (98, 22) and board_size(SCALES[-1]) == (35, 10)
    area = Area((98, 22))
    grid = HexLayout(area)
    assert grid.scale() == (3, 3)
    area.size = (60, 24)  # the room beside the side panel at 80x24
    assert grid.scale() == (1, 1)
    area.size = (34, 10)
    assert grid.scale() is None


def test_the_layout_turns_round_when_flipped() -> None:
    area = Area((60, 24))
    grid = HexLayout(area)
    assert grid.screen_cell(17) == (3, 1) and grid.cell_at(3, 1) == 17
    assert [grid.cell_at(column, 0) for column in range(4)] == [0, None, 1, None]
    area.flipped = True
    column, row = grid.screen_cell(17)
    assert (column, row) == (27, 4) and grid.cell_at(column, row) == 17


def test_the_cursor_walks_sideways_and_keeps_its_column_up_and_down() -> None:
    grid = HexLayout(Area((60, 24)))
    assert grid.stepped(0, 1, 0) == 1 and grid.stepped(1, -1, 0) == 0
    assert grid.stepped(0, -1, 0) is None  # off the board: the cursor stays
    assert grid.stepped(0, 0, -1) is None  # no row above
    # Down from 1 (column 2): 16 (column 1) or 17 (column 3), the left one first; up again,
    # back to the walk's column.
    assert grid.stepped(1, 0, 1) == 16 and grid.walk.at == 16
    assert grid.stepped(16, 0, -1) == 1
    # Cell 0 is never reached up or down, as the board has always walked: up from 16 is 1.
    grid.walk.at = -1
    assert grid.stepped(16, 0, -1) == 1


def test_the_marks_gather_up_to_three_blocking_stones() -> None:
    marks = HexMarks(BIPOD.new("multi"))
    assert marks.placing() == BLOCK and marks.move_at(20) == Move(BLOCK, (20,))
    assert marks.mark(5) == "the cell i1 is taken"  # a start stone's cell
    assert [marks.mark(cell) for cell in (22, 20, 21)] == ["", "", ""]
    assert marks.mark(23) == "at most 3 stones a turn: Enter places them"
    assert marks.move_at(24) == Move(BLOCK, (20, 21, 22))  # no fourth stone
    assert marks.mark(21) == "" and marks.marked == [22, 20]  # marked again: unmarked
    marks.take(BIPOD.new("multi"))
    assert marks.marked == []


def test_the_runner_places_its_colour_and_switches_it() -> None:
    state = BIPOD.new()
    state.play(ADOPT)
    marks = HexMarks(state)
    assert marks.placing() == WHITE and marks.move_at(20, GRAY) == Move(GRAY, (20,))
    marks.switch()
    assert marks.placing() == GRAY and marks.move_at(20) == Move(GRAY, (20,))
    assert marks.said(None, ASCII) == ["Enter places O", "c switches to o", "R resigns"]


def test_the_cursor_goes_to_the_nearest_free_cell() -> None:
    marks = HexMarks(BIPOD.new())
    assert marks.free_near(20) == 20  # free: itself
    assert marks.free_near(5) == 4  # the white start stone's: its first free neighbour
