"""Nothing is overwritten or dropped unasked, through the app: the Save dialog offers a name of
its own to every save and asks before writing over a file; a position set up in the editor is
offered again after a restart; a clock game's running turn is kept at quit and as it runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_steps import AppFactory, burst, noticed, press, settle, type_move, until
from frozen_time import FrozenClock
from test_editor import walk
from textual.pilot import Pilot
from textual.widgets import Input

import dipole_tui.saves as saves_module
from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.file import FileScreen
from dipole_tui.clock import Clock, TimeControl
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.session import TURN_CLOCK, Session

SIZE = (100, 30)


async def save_dialog(pilot: Pilot[None], app: GameApp, name: str | None = None) -> str:
    """`s`, and the name offered, or `name` typed in its place: what the box holds."""
    await press(pilot, "s")
    assert isinstance(app.screen, FileScreen)
    entry = app.screen.query_one(Input)
    if name is not None:
        entry.value = name
    return entry.value


async def test_two_saves_in_the_same_minute_are_two_files(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saves_module, "datetime", FrozenClock)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        first = await save_dialog(pilot, app)
        await press(pilot, "enter")
        await type_move(pilot, "d8-c7")
        second = await save_dialog(pilot, app)
        await press(pilot, "enter")
        assert noticed(app, f"Saved to {second}")
    assert Path(first).name == "dipole-20261123-1234.txt"
    assert Path(second).name == "dipole-20261123-1234-2.txt"
    plies = [Session.from_text(Path(name).read_text()).state.plies for name in (first, second)]
    assert plies == [1, 2]


async def test_saving_over_a_file_asks_first_and_no_goes_back_to_the_name(
    make_app: AppFactory, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("my notes\n")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await save_dialog(pilot, app, str(mine))
        await press(pilot, "enter")
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.title_text == "Replace the file?" and str(mine) in app.screen.text
        await press(pilot, "enter")  # the first answer keeps the file
        assert isinstance(app.screen, FileScreen)
        assert app.screen.query_one(Input).value == str(mine)  # the name as typed
        assert mine.read_text() == "my notes\n"
        burst(app, "enter", "enter")  # a double Enter: asked once
        await settle(pilot)
        assert [type(screen) for screen in app.screen_stack[-2:]] == [FileScreen, ChoiceScreen]
        await press(pilot, "escape")  # Escape keeps it too
        assert isinstance(app.screen, FileScreen) and mine.read_text() == "my notes\n"
        await press(pilot, "enter")
        await pilot.click("#replace")
        await settle(pilot)
        assert not isinstance(app.screen, (FileScreen, ChoiceScreen))
        assert noticed(app, f"Saved to {mine}")
    assert Session.from_text(mine.read_text()).state.plies == 1


async def test_a_file_name_with_markup_is_asked_about_as_written(
    make_app: AppFactory, tmp_path: Path
) -> None:
    (tmp_path / "a[").mkdir()
    odd = tmp_path / "a[" / "]b[bold].txt"  # the name reads a[/]b[bold].txt
    odd.write_text("kept\n")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await save_dialog(pilot, app, str(odd))
        await press(pilot, "enter")
        assert isinstance(app.screen, ChoiceScreen)
        shown = " ".join(str(app.screen.query_one(".dialog-text").render()).split())
        assert "a[/]b[bold].txt" in shown.replace(" ", "")
        await press(pilot, "escape", "escape")
    assert odd.read_text() == "kept\n"


async def test_a_position_set_up_in_the_editor_is_resumed_after_a_restart(
    make_app: AppFactory,
) -> None:
    first = make_app()
    async with first.run_test(size=(80, 24)) as pilot:
        await press(pilot, "e")
        await walk(pilot, first, "e1")
        await press(pilot, "w", "3", "enter", "ctrl+s")
        set_up = first.session.state.position()
        assert first.session.state.plies == 0 and set_up.startswith("8:W:We1=3")
        await press(pilot, "q")
    second = make_app(new=False)
    async with second.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(second.screen, ChoiceScreen)
        assert second.screen.text == "Dipole 8x8, a set-up position, no move played."
        await press(pilot, "enter")  # Resume
        assert second.session.state.position() == set_up


async def test_a_clock_games_running_turn_is_kept_as_it_runs_and_at_quit(
    make_app: AppFactory, tmp_path: Path
) -> None:
    now = [100.0]
    session = Session.new(DIPOLE, time_control=TimeControl.parse("5+0"))
    assert session.clock is not None
    session.clock = Clock(session.clock.control, session.clock.marks, lambda: now[0])
    for text in ("e1-e3", "d8-d6"):  # each side's first move, untimed
        session.play(session.game.parse_move(text, session.state))
    autosave = tmp_path / "autosave.txt"
    app = make_app(session=session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert session.clock.running and TURN_CLOCK not in autosave.read_text()
        now[0] += 6  # White thinks: the clock's ticks write the game again
        await until(lambda: f'[{TURN_CLOCK} "0:04:54"]' in autosave.read_text())
        now[0] += 2
        await press(pilot, "q")
    assert f'[{TURN_CLOCK} "0:04:52"]' in autosave.read_text()
