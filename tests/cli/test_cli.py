"""The `dipole-tui` command: engine subcommands and their one-line errors (exit status 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cli_steps import Cli
from paths import DATA

from dipole_tui.clock import TimeControl
from dipole_tui.control.keeper import new_session

SAMPLE = DATA / "sample-dipole.txt"
START_MOVES = "e1-d2 e1-f2 e1-c3 e1-e3 e1-g3 e1-b4 e1-h4 e1-a5 e1-e5 e1-e7 " + " ".join(
    f"e1-off:{k}" for k in range(4, 13)
)


def test_moves_prints_one_line_per_position(cli: Cli) -> None:
    status, out, _ = cli("moves", "8:W:We1=12:Bd8=12", "8:W:Wc3=1:Bb4=2,d4=2", "8:B:Wc3=1:B")
    assert status == 0
    assert out.split("\n") == [START_MOVES, "pass", "", ""]


def test_moves_reads_stdin_when_no_position_is_given(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("8:W:We1=12:Bd8=12\n\n10:B:We1=1:Bf10=1\n"))
    status, out, _ = cli("moves", "--game", "dipole")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2
    assert lines[0] == START_MOVES
    # Black's 1-stack on f10 of 10x10: e9 and g9 diagonally forward; no removal of 1 (the
    # diagonals stay on the board) and nothing to capture.
    assert lines[1] == "f10-e9 f10-g9"


def test_perft_prints_depth_lines_then_time(cli: Cli) -> None:
    status, out, _ = cli("perft", "3")
    lines = out.splitlines()
    assert status == 0
    assert lines[:2] == ["1 19", "2 340"]
    assert lines[2].startswith("3 ") and lines[3].startswith("time ")
    status, out, _ = cli("perft", "--variant", "10x10", "1")
    assert out.splitlines()[0] == "1 29"
    status, out, _ = cli("perft", "--position", "8:W:Wc3=1:Bb4=2,d4=2", "2")
    # White passes (1), then Black's moves: b4 and d4 2-stacks.
    assert out.splitlines()[0] == "1 1"


def test_replay_ends_with_the_final_position(cli: Cli) -> None:
    status, out, _ = cli("replay", str(SAMPLE))
    lines = out.splitlines()
    assert status == 0
    assert lines[0].startswith("Dipole 8x8: Ann (White) v Bob (Black), result 0-1")
    assert lines[1] == "1. e1-f2 d8-c7"
    assert "Game over: Black wins (White has no checkers left)" in lines
    assert lines[-1].startswith("8:W:W:B")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["moves", "8:W:We1=12"], "position 1: '8:W:We1=12' is not a Dipole position"),
        (["moves", "8:W:We2=12:Bd8=12"], "e2 is a light square"),
        (["moves", "--game", "chess"], "invalid choice: 'chess'"),
        (["perft", "0"], "DEPTH must be a whole number from 1 to 20"),
        (["perft", "--variant", "9x9", "1"], "Dipole has no variant '9x9'"),
        (["perft", "--variant", "10x10", "--position", "8:W:We1=1:Bd8=1", "1"], "disagrees"),
        (["replay", "/nonexistent/game.txt"], "cannot read /nonexistent/game.txt"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_errors_are_one_line_with_status_2(cli: Cli, args: list[str], message: str) -> None:
    status, _, err = cli(*args)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("dipole-tui: ")
    assert message in err


def test_a_corrupt_record_is_reported_not_raised(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "corrupt.txt"
    path.write_text(SAMPLE.read_text().replace("9. e7-off:3", "9. e7-off:9"))
    status, _, err = cli("replay", str(path))
    assert status == 2
    assert "line 17, move 9 (White): cannot remove 9 checkers: the stack on e7 has only 3" in err


def test_the_installed_command_and_module_entry_point_work() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dipole_tui", "moves", "8:W:We1=12:Bd8=12"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip() == START_MOVES
    bad = subprocess.run(
        [sys.executable, "-m", "dipole_tui", "moves", "garbage"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--variant", "9x9"], "Dipole has no variant '9x9'; expected 8x8 or 10x10"),
        (["play", "--white", "grandmaster"], "argument --white: invalid choice: 'grandmaster'"),
        (["play", "--game", "go"], "argument --game: invalid choice: 'go'"),
        (
            ["play", "--clock", "x"],
            "argument --clock: 'x' is not a time control; "
            "expected MINUTES+SECONDS, like 5+3 or 0.5+2 (see",
        ),
        (["play", "--clock", "0+5"], "argument --clock: a game needs some time"),
        (["play", "--clock", "5+\u2028"], "argument --clock: '5+\\u2028' is not a time control"),
        (["play", "--clock", "9999"], "argument --clock: '9999' is too long"),
    ],
)
def test_play_refuses_bad_options_before_opening_the_app(
    cli: Cli, args: list[str], message: str
) -> None:
    status, out, err = cli(*args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


@pytest.mark.parametrize(("given", "control"), [([], None), (["--clock", "0.5+2"], "0.5+2")])
def test_play_hands_its_clock_to_the_new_game(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, given: list[str], control: str | None
) -> None:
    opened: list[dict[str, Any]] = []

    class App:
        def __init__(self, **settings: Any) -> None:
            opened.append(settings)

        def run(self) -> None:
            pass

    monkeypatch.setattr("dipole_tui.app.app.GameApp", App)
    status, _, err = cli("play", "--new", *given)
    assert status == 0, err
    choice = opened[0]["choice"]
    session = new_session(choice)
    if control is None:
        assert choice.time_control is None and session.clock is None
    else:
        assert choice.time_control == TimeControl.parse(control)
        assert session.clock is not None and str(session.clock.control) == control
