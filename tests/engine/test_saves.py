"""The game's files: the autosave written and read back, finished games filed, damaged ones set
aside and said, and where the data folder is."""

from __future__ import annotations

from pathlib import Path

import pytest
from frozen_time import FrozenClock
from platformdirs import user_data_dir
from test_session import WHITE_MUST_PASS, at, play

import dipole_tui.saves as saves_module
from dipole_tui.games.dipole import DIPOLE, PASS
from dipole_tui.records import RecordError, parse_record
from dipole_tui.saves import DATA_DIR_VARIABLE, Autosave, data_dir
from dipole_tui.session import Session


def test_autosave_write_then_load_gives_the_game_back(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path)
    assert autosave.path == tmp_path / "autosave.txt"
    session = Session.new(DIPOLE)
    play(session, "e1-e5", "d8-c7")
    autosave.write(session)
    assert autosave.path.read_text(encoding="utf-8") == session.record_text()
    loaded = autosave.load()
    assert loaded is not None
    assert loaded.state.position() == session.state.position()
    assert loaded.state.moves_played == session.state.moves_played
    assert loaded.players == session.players
    assert autosave.path.exists()  # an unfinished game stays for next time
    assert sorted(p.name for p in tmp_path.iterdir()) == ["autosave.txt"]


def test_autosave_load_without_a_file_is_none(tmp_path: Path) -> None:
    assert Autosave(tmp_path).load() is None
    assert Autosave(tmp_path / "never-made").load() is None
    assert list(tmp_path.iterdir()) == []


def test_autosave_finish_files_the_game_and_clears_the_autosave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saves_module, "datetime", FrozenClock)
    autosave = Autosave(tmp_path)
    session = at(WHITE_MUST_PASS)
    autosave.write(session)
    play(session, "b4xc3")
    filed = autosave.finish(session)
    assert filed == tmp_path / "finished" / "dipole-20261123-123456.txt"
    assert filed.read_text(encoding="utf-8") == session.record_text()
    assert not autosave.path.exists()
    assert autosave.load() is None


def test_autosave_load_of_a_finished_game_files_it_and_returns_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saves_module, "datetime", FrozenClock)
    autosave = Autosave(tmp_path)
    session = at(WHITE_MUST_PASS)
    play(session, "b4xc3")
    autosave.write(session)
    assert autosave.load() is None
    assert not autosave.path.exists()
    filed = tmp_path / "finished" / "dipole-20261123-123456.txt"
    assert [p.name for p in filed.parent.iterdir()] == [filed.name]
    record = parse_record(filed.read_text(encoding="utf-8"))
    assert record.result == "0-1"
    assert record.state.position() == session.state.position()


CORRUPT = {
    "garbage": (b"this is not a game record\n", "no Game tag"),
    "a bad tag": (b'[Game "Dipole"\n\n1. e1-g3\n', "expected a tag"),
    "an illegal move": (b'[Game "Dipole"]\n\n1. e1-g3 d8-c7\n2. e1-a8 *\n', "line 4, move 2"),
    "an unknown game": (b'[Game "Chess"]\n\n1. e4 *\n', "Chess"),
    "bytes that are not UTF-8": (b'[Game "Dipole"]\n\n1. e1-g3 \xff\xfe\x80\n', "not a text file"),
}


@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_a_corrupt_autosave_is_kept_aside_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setattr(saves_module, "datetime", FrozenClock)
    content, reason = CORRUPT[kind]
    autosave = Autosave(tmp_path)
    autosave.path.write_bytes(content)
    with pytest.raises(RecordError) as caught:
        autosave.load()
    message = str(caught.value)
    kept = tmp_path / "autosave-unreadable-20261123-123456.txt"
    assert "\n" not in message
    assert reason in message
    assert message.endswith(f"kept as {kept}")
    assert kept.read_bytes() == content
    assert not autosave.path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [kept.name]


def test_corrupt_autosaves_in_the_same_second_are_kept_under_different_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saves_module, "datetime", FrozenClock)
    autosave = Autosave(tmp_path)
    kept = []
    for number in range(3):
        content = f"corrupt number {number}\n".encode()
        autosave.path.write_bytes(content)
        with pytest.raises(RecordError) as caught:
            autosave.load()
        path = Path(str(caught.value).rsplit("kept as ", 1)[1])
        assert path.read_bytes() == content
        kept.append(path.name)
    assert kept == [
        "autosave-unreadable-20261123-123456.txt",
        "autosave-unreadable-20261123-123456-2.txt",
        "autosave-unreadable-20261123-123456-3.txt",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(kept)


def test_an_autosave_that_cannot_be_read_is_kept_aside(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path)
    autosave.path.mkdir()  # a folder where the file should be: reading it fails with OSError
    (autosave.path / "inside.txt").write_text("kept too")
    with pytest.raises(RecordError, match="could not be read") as caught:
        autosave.load()
    message = str(caught.value)
    assert "\n" not in message and "None" not in message
    kept = Path(message.rsplit("kept as ", 1)[1])
    assert kept.parent == tmp_path and kept.name.startswith("autosave-unreadable-")
    assert (kept / "inside.txt").read_text() == "kept too"
    assert not autosave.path.exists()


# -- where files go, and games by name -----------------------------------------------------------


def test_data_dir_honours_the_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "elsewhere"))
    assert data_dir() == tmp_path / "elsewhere"
    assert Autosave().path == tmp_path / "elsewhere" / "autosave.txt"


@pytest.mark.parametrize("value", [None, ""])
def test_data_dir_defaults_to_the_user_data_dir(
    monkeypatch: pytest.MonkeyPatch, value: str | None
) -> None:
    if value is None:
        monkeypatch.delenv(DATA_DIR_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(DATA_DIR_VARIABLE, value)
    assert data_dir() == Path(user_data_dir("dipole-tui", appauthor=False))


def test_a_loaded_game_whose_mover_must_pass_passes_at_once(tmp_path: Path) -> None:
    text = '[Game "Dipole"]\n[Position "8:W:Wc3=1:Bb4=2,d4=2"]\n\n*\n'
    session = Session.from_text(text)
    assert session.state.legal_moves() != [PASS], "the loaded game is stuck on a forced pass"
    autosave = Autosave(tmp_path)
    autosave.path.write_text(text)
    loaded = autosave.load()
    assert loaded is not None and loaded.state.legal_moves() != [PASS]


def test_two_games_finished_in_the_same_second_are_both_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saves_module, "datetime", FrozenClock)
    autosave = Autosave(tmp_path)
    games = []
    for capture in ("b4xc3", "d4xc3"):
        session = Session(DIPOLE, DIPOLE.parse_position("8:B:Wc3=1:Bb4=2,d4=2"))
        session.play(session.game.parse_move(capture, session.state))
        games.append((autosave.finish(session), session.record_text()))
    (first, first_text), (second, second_text) = games
    assert first != second, "the second finished game overwrote the first"
    assert first.read_text() == first_text and second.read_text() == second_text


def test_an_autosave_that_cannot_be_moved_aside_is_still_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    autosave = Autosave(tmp_path)
    autosave.path.write_text("garbage that is no record")

    def refuse(source: object, target: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("dipole_tui.saves.os.replace", refuse)
    with pytest.raises(RecordError, match="left where it is, since it could not be moved"):
        autosave.load()
    assert autosave.path.read_text() == "garbage that is no record"
