"""Nothing lost on a full disk: a game that could not be kept stays pending, in the autosave where
that can be written, is said in the panel until it is filed, is filed at the next change or at
quit, and quitting while it cannot be kept asks first."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from app_steps import AppFactory, type_move
from textual.widgets import Static

from dipole_tui import storage
from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.games.dipole import DIPOLE, Move
from dipole_tui.records import RecordError
from dipole_tui.saves import Autosave
from dipole_tui.session import Session

SIZE = (100, 30)
NEAR_THE_END = "8:W:Wc3=2:Be5=2"  # c3xe5 wins


def unkept(app: GameApp) -> str:
    """The panel's line about a game not kept on disk, its wrapped lines joined again."""
    return " ".join(str(app.query_one("#unkept", Static).render()).split())


class Disk:
    """storage's writes, failing with ENOSPC while `full`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        real = storage.write_text

        def write_text(path: Path | str, text: str) -> None:
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            real(path, text)

        monkeypatch.setattr(storage, "write_text", write_text)


def game_of(position: str, *moves: str) -> Session[Move]:
    state = DIPOLE.parse_position(position)
    session = Session(DIPOLE, state)
    for move in moves:
        session.play(DIPOLE.parse_move(move, state))
    return session


def test_a_finished_game_that_cannot_be_filed_is_filed_at_the_next_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)
    autosave = Autosave(tmp_path)
    autosave.claim()
    autosave.write(game_of("8:W:We1=12:Bd8=12", "e1-g3", "d8-c7"))
    disk.full = True
    finished = game_of(NEAR_THE_END, "c3xe5")
    with pytest.raises(OSError):
        autosave.finish(finished)
    assert autosave.pending is finished
    assert autosave.problem == "the finished game is not filed yet (No space left on device)"
    assert not (tmp_path / "finished").exists()
    with pytest.raises(OSError):  # the next game cannot replace the pending one either
        autosave.write(game_of("8:W:We1=12:Bd8=12"))
    disk.full = False
    autosave.write(game_of("8:W:We1=12:Bd8=12", "e1-g3"))
    (filed,) = (tmp_path / "finished").iterdir()
    assert Session.from_text(filed.read_text()).state.moves_played == finished.state.moves_played
    assert autosave.pending is None and autosave.problem == ""
    assert "1. e1-g3" in (tmp_path / "autosave.txt").read_text()
    autosave.release()


def test_the_autosave_is_never_replaced_by_a_record_that_does_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    autosave = Autosave(tmp_path)
    autosave.claim()
    state = DIPOLE.parse_position("8:W:We1=12:Bd8=12")
    session = Session(DIPOLE, state)
    session.play(DIPOLE.parse_move("e1-g3", state))
    autosave.write(session)
    before = (tmp_path / "autosave.txt").read_text()
    session.play(DIPOLE.parse_move("d8-c7", state))
    monkeypatch.setattr(Session, "_record", lambda self, turn_clock: "1. e1-g3 e1-g3\n")
    with pytest.raises(RecordError, match="could not be written so that it reads back"):
        autosave.write(session)
    assert (tmp_path / "autosave.txt").read_text() == before
    assert "reads back" in autosave.problem
    autosave.release()


async def test_the_panel_says_the_game_is_not_kept_until_it_is(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)
    app = make_app(position=NEAR_THE_END)
    async with app.run_test(size=SIZE) as pilot:
        disk.full = True
        await type_move(pilot, "c3xe5", leave=False)
        await pilot.press("escape")  # the game-over dialog
        await pilot.pause()
        assert "Not kept on disk: the finished game is not filed yet" in unkept(app)
        assert not (tmp_path / "finished").exists()
        disk.full = False
        await pilot.press("u")  # the next change files it
        await pilot.pause()
        assert unkept(app) == ""
        assert len(list((tmp_path / "finished").glob("*.txt"))) == 1


async def test_quitting_with_a_game_not_kept_asks_first(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        disk.full = True
        await type_move(pilot, "e1-g3")
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)  # asked, not quit
        await pilot.press("escape")  # stay
        await pilot.pause()
        disk.full = False
        await pilot.press("q")  # kept now: quits at once
        await pilot.pause()
    assert app.return_code == 0
    assert "1. e1-g3" in (tmp_path / "autosave.txt").read_text()
