"""SVG snapshots of the key screens: a change in what the board draws shows up here first.

Regenerate after an intended change with `pytest tests/test_snapshots.py --snapshot-update`, and
look at the new SVGs (tests/__snapshots__/) before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dipole_tui.app.app import GameApp
from dipole_tui.app.choice import GameChoice
from dipole_tui.games.bipod import BIPOD
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import parse_record
from dipole_tui.session import HUMAN, Autosave, Session

MIDDLE = "8:B:Wc1=2,b2=1,h4=1,e5=4,g3=3:Bd8=5,g7=1,b6=3,f6=2,e3=1"


def fresh(tmp_path: Path, variant: str = "8x8", **options: Any) -> GameApp:
    choice = GameChoice("dipole", variant, (HUMAN, HUMAN))
    return GameApp(choice=choice, new=True, autosave=Autosave(tmp_path), **options)


def test_opening_in_80x24(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(fresh(tmp_path), terminal_size=(80, 24))


def test_10x10_selected_stack_in_80x24(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(fresh(tmp_path, "10x10"), terminal_size=(80, 24), press=["enter"])


def test_middle_game_with_coins_captures_and_merges(snap_compare: Any, tmp_path: Path) -> None:
    session = Session(DIPOLE, DIPOLE.parse_position(MIDDLE), (HUMAN, HUMAN))
    app = GameApp(session=session, autosave=Autosave(tmp_path))

    async def select_d8(pilot: Any) -> None:
        app.board.cursor = 73
        await pilot.press("enter")

    assert snap_compare(app, terminal_size=(100, 30), run_before=select_d8)


def test_ascii_glyphs(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(fresh(tmp_path, ascii_glyphs=True), terminal_size=(80, 24))


def test_help(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(fresh(tmp_path), terminal_size=(100, 30), press=["question_mark"])


STACKS_MIDDLE = "bb,b,rbb,,,/,rrbr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/r,,,,, r"


def stacks(tmp_path: Path, position: str) -> GameApp:
    session = Session(DEATH_STACKS, DEATH_STACKS.parse_position(position), (HUMAN, HUMAN))
    return GameApp(session=session, autosave=Autosave(tmp_path))


def test_death_stacks_part_selected_with_its_path(snap_compare: Any, tmp_path: Path) -> None:
    # b5's top three pieces, with the cursor on a square they reach by a reflection.
    keys = ["3", "right", "right", "right", "down"]  # e4: north-east off the top wall
    app = stacks(tmp_path, STACKS_MIDDLE)
    assert snap_compare(app, terminal_size=(100, 32), press=keys)


def test_death_stacks_too_tall_in_80x24(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(stacks(tmp_path, STACKS_MIDDLE[:-1] + "b"), terminal_size=(80, 24))


def test_bipod_sample_game_before_the_resignation(snap_compare: Any, tmp_path: Path) -> None:
    record = parse_record((Path(__file__).parent / "data" / "sample-bipod.txt").read_text())
    record.state.undo()  # the board of the sheet's last diagram, First to move
    session = Session(BIPOD, record.state, (HUMAN, HUMAN))
    app = GameApp(session=session, autosave=Autosave(tmp_path))
    assert snap_compare(app, terminal_size=(100, 32))


def test_bipod_multi_marking_in_80x24(snap_compare: Any, tmp_path: Path) -> None:
    choice = GameChoice("bipod", "multi", (HUMAN, HUMAN))
    app = GameApp(choice=choice, new=True, autosave=Autosave(tmp_path))
    keys = ["left", "left", "space", "down", "space", "right"]
    assert snap_compare(app, terminal_size=(80, 24), press=keys)
