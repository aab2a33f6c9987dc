"""The boards' parts that need no widget, tested alone: the Death Stacks selection and cell
text, the Dipole removal strip; and that they (and the parts tests/app/test_board_layout.py
tests) import neither Textual nor Rich."""

from __future__ import annotations

import json
import subprocess
import sys

from dipole_tui.app.boards.death_stacks_text import ASCII, UNICODE, header, piece_levels, text_class
from dipole_tui.app.boards.dipole_strip import chip_entered, chip_stepped, strip_chips
from dipole_tui.app.boards.stack_selection import StackSelection, home_square
from dipole_tui.games.death_stacks import DEATH_STACKS, DeathStacksState, parse_square

MIDDLE = "bb,b,rbb,,,/,rrbr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/r,,,,, r"
TOO_TALL = MIDDLE[:-1] + "b"  # Black to move: c4 (six pieces) must be cut down


def sq(name: str) -> int:
    return parse_square(name)


def selection_of(state: DeathStacksState) -> StackSelection:
    return StackSelection(state, state.legal_moves())


def test_a_stack_is_picked_with_all_it_may_move_then_fewer() -> None:
    selection = selection_of(DEATH_STACKS.start("standard"))
    assert selection.select(sq("a1"), None) == ""
    assert (selection.selected, selection.count) == (sq("a1"), 2)
    assert set(selection.targets) == {sq("c1"), sq("a3"), sq("c3")}
    assert selection.step(1) is False  # two is all there is
    assert selection.step(-1) is True and selection.count == 1
    assert set(selection.targets) == {sq("b1"), sq("a2"), sq("b2")}
    assert selection.step(-1) is False and selection.count == 1
    said = ["a1: moving 1 of 2 (1-2, +/-)", "2 ways to a2: north, or south bouncing off the wall"]
    assert selection.said(sq("a2"), 0, True) == said
    assert selection.paths_to(sq("a2")) == [(sq("a2"),), (sq("a2"),)]
    assert selection.paths_to(sq("d4")) == []  # no way there
    assert selection.marked(sq("a2")) == {sq("a1"), sq("b1"), sq("a2"), sq("b2")}
    assert selection.highlights(sq("a2")) == ["board--target"]
    assert selection.highlights(sq("a1")) == ["board--selected"]
    assert selection.mark(sq("a2"), None, UNICODE) == "→1"
    assert selection.mark(sq("a2"), None, ASCII) == ">1"
    assert selection.mark(sq("d4"), None, UNICODE) == ""


def test_a_pick_that_cannot_be_done_says_why() -> None:
    selection = selection_of(DEATH_STACKS.parse_position(TOO_TALL))
    assert home_square(selection.state, 0) == sq("c4")
    assert selection.said(sq("c4"), 0, True)[0].startswith("Too tall: c4 must move")
    assert selection.said(sq("c4"), 0, False) == []
    assert selection.counts_from(sq("c4")) == [2, 3, 4, 5, 6]
    # A count that cannot move still picks the stack, with all that may.
    assert selection.select(sq("c4"), 1) == "1 of 6 cannot move from c4: 2, 3, 4, 5, 6"
    assert (selection.selected, selection.count) == (sq("c4"), 6)
    refused = selection.select(sq("a3"), None)  # Black's, but c4 must move first
    assert "too tall" in refused and selection.selected is None
    assert selection.select(sq("d1"), None) == "there is no stack on d1"


def test_enter_or_a_click_picks_a_stack_lands_it_or_drops_it() -> None:
    selection = selection_of(DEATH_STACKS.start("standard"))  # Red to move, from rank 1
    assert selection.choose(sq("a1")) == (None, "") and selection.selected == sq("a1")
    assert selection.choose(sq("a3")) == (selection.targets[sq("a3")], "")  # it lands there
    assert selection.choose(sq("a1")) == (None, None) and selection.selected is None  # a cancel
    selection.choose(sq("a1"))
    assert selection.choose(sq("a6")) == (None, "") and selection.selected is None  # dropped
    move, refused = selection.choose(sq("a6"))  # none selected: Black's stack says why not
    assert move is None and refused and "Black's" in refused
    # A click on a piece: it and those above it move (level 0 is the bottom of two).
    assert selection.click(sq("b1"), 1) == (None, "") and selection.count == 1
    assert selection.click(sq("b1"), 0) == (None, "") and selection.count == 2
    assert selection.click(sq("b3"), None) == (selection.targets[sq("b3")], "")


def test_a_landing_on_an_enemy_stack_is_a_capture() -> None:
    selection = selection_of(DEATH_STACKS.parse_position(MIDDLE))
    captures = [
        move for move in selection.state.legal_moves() if selection.state.owner(move.target) == 1
    ]
    move = captures[0]
    selection.select(move.origin, move.count)
    assert selection.highlights(move.target) == ["board--capture"]
    assert selection.mark(move.target, None, UNICODE) == f"x{move.count}"


def test_a_cell_says_its_mark_else_its_height_and_buries_what_does_not_fit() -> None:
    red, black = 0, 1
    assert header((red, black), "x2", None, red) == "x2"
    assert header((red,) * 5, "", None, red) == "5!"  # too tall, and to move
    assert header((red,) * 5, "", None, black) == "5"
    assert header((), "", 3, red) == "3" and header((), "", None, red) == ""
    assert text_class((red,) * 5, False, red, True) == "board--tall"
    assert text_class((red,) * 5, False, red, False) == "board--red"
    assert text_class((red, black), True, red, True) == "board--mark"
    assert text_class((), False, red, True) == "board--empty"
    assert piece_levels(3, 5, 2) == [[0, 1, 2]]
    assert piece_levels(8, 5, 2) == [[5, 6, 7], [None, 3, 4]]  # None: the height, for the buried


def test_the_removal_strip_packs_its_chips_and_walks_them() -> None:
    assert strip_chips([1, 2], 40, 3) == ("   off the board: ", " ", [" 1 ", " 2 "])
    assert strip_chips([1, 2], 10, 3) == ("off: ", " ", ["1", "2"])
    assert chip_entered([1, 2], -1, True) == 1 and chip_entered([1, 2], 1, True) is None
    assert chip_entered([], -1, True) is None
    assert chip_stepped([1, 2, 3], 1, 1, 0, True) == 2
    assert chip_stepped([1, 2, 3], 3, 1, 0, True) == 3  # clamped
    assert chip_stepped([1, 2, 3], 2, 0, 1, True) is None  # down from the top: the board
    assert chip_stepped([1, 2, 3], 2, 0, -1, True) == 2
    assert chip_stepped([1, 2], 3, 1, 0, True) is None  # a chip no longer offered


def test_the_parts_import_no_ui_library() -> None:
    probe = """
import json, sys
import dipole_tui.app.boards.stack_selection, dipole_tui.app.boards.dipole_strip
import dipole_tui.app.boards.dipole_stacks, dipole_tui.app.boards.dipole_selection
import dipole_tui.app.boards.square_layout, dipole_tui.app.boards.cursor_walk
import dipole_tui.app.boards.board_status, dipole_tui.app.boards.parts
import dipole_tui.app.boards.board_turn, dipole_tui.app.boards.hex_layout
import dipole_tui.app.boards.hex_marks
ui = sorted(name for name in sys.modules if name.split(".")[0] in ("textual", "rich"))
print(json.dumps({"ui": ui, "loaded": sorted(sys.modules)}))
"""
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    report = json.loads(result.stdout)
    assert "dipole_tui.app.boards.stack_selection" in report["loaded"]
    assert "dipole_tui.app.boards.square_layout" in report["loaded"]
    assert "dipole_tui.app.boards.board_turn" in report["loaded"]
    assert "dipole_tui.app.boards.hex_marks" in report["loaded"]
    assert report["ui"] == []
