"""SVG snapshots of the key screens: a change in what the board draws shows up here first.

Regenerate after an intended change with `pytest -n 0 tests/app/test_snapshots.py --snapshot-update`
(in one process: under xdist syrupy leaves unused snapshots behind), and look at the new SVGs
(tests/app/__snapshots__/) before committing them.
"""

from __future__ import annotations

from typing import Any

from app_steps import AppFactory, board_of
from paths import DATA

from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.games.bipod import BIPOD
from dipole_tui.records import parse_record
from dipole_tui.session import HUMAN, Session

MIDDLE = "8:B:Wc1=2,b2=1,h4=1,e5=4,g3=3:Bd8=5,g7=1,b6=3,f6=2,e3=1"


def test_opening_in_80x24(snap_compare: Any, make_app: AppFactory) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_10x10_selected_stack_in_80x24(snap_compare: Any, make_app: AppFactory) -> None:
    assert snap_compare(make_app(variant="10x10"), terminal_size=(80, 24), press=["enter"])


def test_middle_game_with_coins_captures_and_merges(
    snap_compare: Any, make_app: AppFactory
) -> None:
    app = make_app(position=MIDDLE)

    async def select_d8(pilot: Any) -> None:
        board_of(app, DipoleBoard).cursor = 73
        await pilot.press("enter")

    assert snap_compare(app, terminal_size=(100, 30), run_before=select_d8)


def test_ascii_glyphs(snap_compare: Any, make_app: AppFactory) -> None:
    assert snap_compare(make_app(ascii_glyphs=True), terminal_size=(80, 24))


def test_help(snap_compare: Any, make_app: AppFactory) -> None:
    assert snap_compare(make_app(), terminal_size=(100, 30), press=["question_mark"])


STACKS_MIDDLE = "bb,b,rbb,,,/,rrbr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/r,,,,, r"


def test_death_stacks_part_selected_with_its_path(snap_compare: Any, make_app: AppFactory) -> None:
    # b5's top three pieces, with the cursor on a square they reach by a reflection.
    keys = ["3", "right", "right", "right", "down"]  # e4: north-east off the top wall
    app = make_app("death-stacks", position=STACKS_MIDDLE)
    assert snap_compare(app, terminal_size=(100, 32), press=keys)


def test_death_stacks_too_tall_in_80x24(snap_compare: Any, make_app: AppFactory) -> None:
    app = make_app("death-stacks", position=STACKS_MIDDLE[:-1] + "b")
    assert snap_compare(app, terminal_size=(80, 24))


def test_bipod_sample_game_before_the_resignation(snap_compare: Any, make_app: AppFactory) -> None:
    record = parse_record((DATA / "sample-bipod.txt").read_text())
    # The board of the sheet's last diagram, First to move: `12. resigns` is an ending, so the
    # record's moves stop before it.
    app = make_app(session=Session(BIPOD, record.state, (HUMAN, HUMAN)))
    assert snap_compare(app, terminal_size=(100, 32))


def test_bipod_multi_marking_in_80x24(snap_compare: Any, make_app: AppFactory) -> None:
    app = make_app("bipod", "multi")
    keys = ["left", "left", "space", "down", "space", "right"]
    assert snap_compare(app, terminal_size=(80, 24), press=keys)
