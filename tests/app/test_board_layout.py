"""The boards' shared parts that need no widget, tested alone (issue 42: a board owns them): the
square layout, the up-and-down walk, the Dipole selection, the status's wording, the styles kept,
and how a board lends its names to its parts."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style

from dipole_tui.app.boards.board_status import (
    BoardWords,
    fitted,
    threat_legend,
    too_small,
    too_small_line,
    wrap_status,
)
from dipole_tui.app.boards.board_styles import StyleCache
from dipole_tui.app.boards.board_turn import BoardTurn
from dipole_tui.app.boards.cursor_walk import UpDownWalk
from dipole_tui.app.boards.dipole_selection import DipoleSelection
from dipole_tui.app.boards.parts import Part
from dipole_tui.app.boards.square_layout import SquareLayout, square_clicked, turn_passed
from dipole_tui.games.dipole import DIPOLE, OFF, DipoleState, parse_square


@dataclass
class Area:
    """A stand-in for a board: its area, whether flipped, its squares along a side."""

    size: tuple[int, int]
    flipped: bool = False
    n: int = 8

    def grid_size(self) -> int:
        return self.n


def layout(area: Area) -> SquareLayout:
    return SquareLayout(area, "abcdefgh", 10, ((5, 2), (3, 1)), (4, 3), 3)


def test_the_layout_takes_the_largest_cell_that_fits_and_centres_it() -> None:
    area = Area((60, 20))
    grid = layout(area)
    assert grid.drawing_size((5, 2)) == (44, 19)
    assert grid.cell_size() == (5, 2)
    placement = grid.placement()
    assert placement is not None and placement[:4] == (5, 2, 8, 0)
    area.size = (30, 12)
    assert grid.cell_size() == (3, 1)
    area.size = (10, 5)
    assert grid.cell_size() is None and grid.placement() is None


def test_the_layout_turns_round_when_flipped() -> None:
    area = Area((60, 20))
    grid = layout(area)
    a1, h8 = 0, 77
    assert grid.screen_cell(a1) == (0, 7) and grid.square_at(0, 7) == a1
    assert grid.file_line(3).strip().startswith("a")
    assert grid.rank_label(0, 0, 2) == " 8 "
    placement = grid.placement()
    assert placement is not None and grid.square_box(a1, placement) == (11, 15, 5, 2)
    area.flipped = True
    assert grid.screen_cell(h8) == (0, 7) and grid.square_at(0, 7) == h8
    assert grid.file_line(3).strip().startswith("h")
    assert grid.rank_label(0, 0, 2) == " 1 "


def test_a_step_on_screen_keeps_to_the_board() -> None:
    area = Area((60, 20))
    grid = layout(area)
    a1, b2, h8 = 0, 11, 77
    assert grid.stepped(a1, 1, -1) == b2  # right and up the screen
    assert grid.stepped(a1, -1, 1) == a1  # not off the board
    assert grid.stepped(h8, 5, -5) == h8
    area.flipped = True
    assert grid.stepped(a1, -1, 1) == b2  # turned round: left and down the screen


def test_the_cursor_follows_the_turn_and_a_click_finds_its_square() -> None:
    assert turn_passed(0, {23, 45}, 10) == 23
    assert turn_passed(23, {23, 45}, 10) is None  # already on a stack that can move
    assert turn_passed(0, set(), 10) is None
    assert square_clicked({"square": 42}) == 42 and square_clicked({"removal": 2}) is None


def test_an_up_and_down_walk_keeps_to_its_column() -> None:
    walk = UpDownWalk()
    assert walk.step(10, 3, [2, 4], lambda column: column) == 2  # a tie: the lower column
    walk.at = 20
    walk.column = 3
    assert walk.step(20, 2, [1, 3], lambda column: column) == 3  # back to column 3
    assert walk.step(99, 2, [1, 3], lambda column: -column) == 3  # a new walk, from column 2


def test_a_dark_square_walk_goes_two_columns_sideways_or_a_row_up_or_down() -> None:
    grid, walk = layout(Area((60, 20))), UpDownWalk()
    c3 = parse_square("c3", 8)  # screen (2, 5)
    assert walk.diagonal(c3, (2, 5), (1, 0), 8, grid.square_at) == parse_square("e3", 8)
    assert walk.diagonal(c3, (2, 5), (-1, 0), 8, grid.square_at) == parse_square("a3", 8)
    a3 = parse_square("a3", 8)
    assert walk.diagonal(a3, (0, 5), (-1, 0), 8, grid.square_at) == a3  # not off the board
    # Up from c3: b4 or d4, the nearer the middle; then down again and up, to the same column.
    d4 = walk.diagonal(c3, (2, 5), (0, -1), 8, grid.square_at)
    assert d4 == parse_square("d4", 8) and walk.at == d4
    c5 = walk.diagonal(d4, (3, 4), (0, -1), 8, grid.square_at)
    assert c5 == parse_square("c5", 8)  # back to the column the walk began in, not e5


def test_the_turn_reports_a_move_once_until_the_next_position() -> None:
    start = DIPOLE.start("8x8")
    turn = BoardTurn[DipoleState, str](start)
    assert turn.take(start, None) is True  # the first position shown
    assert turn.take(start, None) is False  # the same shown again
    turn.hint = "a hint"
    assert turn.takes_choices and turn.report() is True
    assert turn.awaiting and not turn.takes_choices and turn.report() is False
    start.play(start.legal_moves()[0])
    assert turn.take(start, "moved") is True  # the same state, a ply on: the game moved
    assert (turn.last_move, turn.hint, turn.awaiting) == ("moved", None, False)
    turn.interactive = False
    assert turn.report() is False and not turn.awaiting


def test_the_dipole_selection_picks_a_stack_then_its_move() -> None:
    state = DIPOLE.start("8x8")
    selection = DipoleSelection(state.legal_moves())
    origin = state.legal_moves()[0].origin
    move, changed = selection.pick(origin)
    assert move is None and selection.selected == origin and origin in changed
    assert selection.targets and all(m.origin == origin for m in selection.targets.values())
    assert set(selection.targets) <= changed
    target, chosen = next(iter(selection.targets.items()))
    assert selection.pick(target) == (chosen, set())
    assert selection.pick(origin)[0] is None and selection.selected is None  # picked again
    empty = parse_square("d4", 8)
    selection.pick(empty)
    assert selection.selected is None  # no stack there


def test_the_dipole_removal_strip_takes_the_cursor_off_the_board() -> None:
    state = DIPOLE.parse_position("8:W:Wa7=3:Bh2=1")
    selection = DipoleSelection(state.legal_moves())
    selection.select(parse_square("a7", 8))
    assert selection.removals and all(move.target == OFF for move in selection.removals)
    counts = [move.count for move in selection.removals]
    assert selection.step_cursor(0, 1, True, False) is False  # on the board
    assert selection.step_cursor(0, -1, True, True) is True
    assert selection.removal_cursor == counts[0]
    assert selection.removal(counts[0]) == selection.removals[0]
    assert selection.removal(99) is None
    assert selection.step_cursor(0, 1, True, False) and selection.removal_cursor is None


def test_the_status_is_said_shorter_where_full_words_do_not_fit() -> None:
    assert wrap_status(["one two", "three"], 20) == ["one two · three"]
    assert wrap_status(["one two", "three"], 8) == ["one two", "three"]
    said = {0: ["a long way of saying it"], 1: ["short"]}
    assert fitted(lambda brevity: said[brevity], 2, 10, 1) == ["short"]
    assert fitted(lambda brevity: said[brevity], 1, 10, 1) == ["a long way"]
    assert threat_legend(None, lambda: "x") == ""
    assert threat_legend({}, lambda: "x") == "Threats: none now"
    assert threat_legend({"a1": 0}, lambda: "! takes") == "Threats: ! takes"
    assert too_small((40, 20), (30, 10))[1:] == [
        "Enlarge this area to at least 40x20",
        "(it is 30x10).",
    ]


def test_the_words_say_a_notice_first_and_the_legend_last() -> None:
    said = {0: ["Selected a1", "Enter moves"], 1: ["a1", "Enter"]}
    legend = ["Threats: none now"]
    words = BoardWords(lambda brevity: said[brevity], lambda: legend[0], 2)
    assert words.status() == "Selected a1 · Enter moves · Threats: none now"
    assert words.status_lines(20, 3) == ["Selected a1", "Enter moves", "Threats: none now"]
    assert words.status_lines(20, 2) == ["a1 · Enter", "Threats: none now"]  # said shorter
    assert words.status_lines(40, 1) == ["a1 · Enter · Threats: none now"]
    words.notice, legend[0] = "a1 cannot move", ""
    assert words.status_parts(1) == ["a1 cannot move"]  # the notice in place of the rest


def test_the_too_small_notice_is_centred_in_the_area() -> None:
    rows = [too_small_line((40, 20), (30, 5), y) for y in range(5)]
    assert rows[0] is None and rows[4] is None
    assert rows[1] == "   The board does not fit.    "
    assert rows[2] == "Enlarge this area to at least "  # cut to the width
    assert rows[3] == "        (it is 30x5).         "


def test_styles_are_worked_out_once_until_cleared() -> None:
    asked: list[str] = []

    def of(name: str, partial: bool = False) -> Style:
        asked.append(f"{name}/{partial}")
        return Style(bold=partial)

    cache = StyleCache(of, lambda: Style(italic=True))
    assert cache.of("board--x") == cache.of("board--x") == Style(bold=False)
    assert cache.of("board--x", partial=True) == Style(bold=True)
    assert cache.base() == Style(italic=True)
    assert asked == ["board--x/False", "board--x/True"]
    cache.clear()
    cache.of("board--x")
    assert asked[-1] == "board--x/False" and len(asked) == 3


def test_a_board_lends_its_name_to_a_parts_attribute() -> None:
    class Owned:
        def __init__(self) -> None:
            self.picked: int | None = None

    class Owner:
        picked = Part[int | None]("owned")

        def __init__(self) -> None:
            self.owned = Owned()

    owner = Owner()
    owner.picked = 3
    assert owner.owned.picked == 3 and owner.picked == 3
    owner.owned = Owned()
    assert owner.picked is None  # read from the part the board holds now
    assert isinstance(Owner.picked, Part)
