"""`dipole-tui play RECORD`: a saved game opened from the command line and played on, as `o`
opens one in the app; bad files and options the record answers are one line, status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_steps import Cli
from paths import DATA

from dipole_tui.app.app import GameApp
from dipole_tui.control.keeper import Keeper
from dipole_tui.records import parse_record
from dipole_tui.saves import DATA_DIR_VARIABLE, Autosave
from dipole_tui.session import HUMAN, Session

SAMPLE = DATA / "sample-dipole.txt"  # Ann v Bob, won by Black
BIPOD_SAMPLE = DATA / "sample-bipod.txt"
GOING_ON = '[Game "Death Stacks"]\n[White "Ann"]\n\n1. a1-2-a3 f6-1-f5\n'


@pytest.fixture
def started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[GameApp]:
    """The apps `play` builds, not run; their files in the test's folder."""
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "data"))
    apps: list[GameApp] = []
    monkeypatch.setattr(GameApp, "run", lambda app: apps.append(app))
    return apps


def test_the_record_is_played_on_with_the_seats_given(
    cli: Cli, started: list[GameApp], tmp_path: Path
) -> None:
    record = tmp_path / "going-on.txt"
    record.write_text(GOING_ON, encoding="utf-8")
    ran = cli("play", str(record), "--black", "easy")
    assert ran.status == 0, ran.err
    session = started[0].session
    assert session.game.key == "death-stacks"
    assert session.state.moves_played == parse_record(GOING_ON).state.moves_played
    assert session.players == (HUMAN, "easy")
    assert session.player_name(0) == "Ann"  # the record's name, still written


def test_a_finished_game_opened_is_not_filed_again_and_the_autosave_is_kept(
    tmp_path: Path,
) -> None:
    autosave = Autosave(tmp_path)
    unfinished = Session.from_text(GOING_ON)
    autosave.write(unfinished)
    finished = Session.from_text(SAMPLE.read_text(encoding="utf-8"))
    assert finished.outcome is not None
    keeper = Keeper(finished, autosave)
    keeper.begin_new()
    assert keeper.after_change().game_over is None  # nothing to file: it is a file already
    assert not (tmp_path / "finished").exists()
    kept = list((tmp_path / "unfinished").iterdir())  # the game in progress, set aside, not lost
    assert [Session.from_text(path.read_text()).state for path in kept] == [unfinished.state]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["missing.txt"], "missing.txt"),
        (["not-a-record.txt"], "not-a-record.txt: "),
        (["going-on.txt", "--game", "dipole"], "--game cannot go with a RECORD"),
        (["going-on.txt", "--new", "--clock", "5+3"], "--clock, --new cannot go with a RECORD"),
        ([str(BIPOD_SAMPLE), "--white", "expert"], "Bi-Pod has no level called 'expert'"),
    ],
)
def test_a_record_that_cannot_be_played_on_is_one_line(
    cli: Cli,
    started: list[GameApp],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "going-on.txt").write_text(GOING_ON, encoding="utf-8")
    (tmp_path / "not-a-record.txt").write_text("hello\n", encoding="utf-8")
    ran = cli("play", *args)
    assert ran.status == 2 and ran.out == "" and not started
    assert ran.err.count("\n") == 1 and ran.err.startswith("dipole-tui: ") and said in ran.err


@pytest.mark.parametrize(
    ("args", "chosen"),
    [
        ((), False),
        (("--black", "hard"), True),
        (("--white", "easy"), True),
        (("--game", "bipod"), True),
        (("--variant", "10x10"), True),
        (("--clock", "5+3"), True),
        (("--ascii",), False),
    ],
)
def test_a_game_chosen_on_the_command_line_starts_unless_one_is_saved(
    cli: Cli, started: list[GameApp], args: tuple[str, ...], chosen: bool
) -> None:
    """`play --black hard` plays hard at once (the app offers a saved game first); `play` alone
    opens the new-game dialog, as `dipole-tui` does."""
    ran = cli("play", *args)
    assert ran.status == 0, ran.err
    assert started[0].game_screen.chosen is chosen
    assert started[0].game_screen.start_new is False
