"""`moves`, `best` and `solve` answer batches: a bad position is one line on stderr, with where it
was, and the others are still answered; the status is 2 if any failed."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from dipole_tui.cli import LONGEST_LINE, main

START = "8:W:We1=12:Bd8=12"
PASS = "8:W:Wc3=1:Bb4=2,d4=2"  # White must pass
OVER = "8:B:Wc3=1:B"  # Black has no checkers: the game is over
WON = "8:W:Wc3=1:Bd4=1"  # White to move wins in one ply: c3xd4
BAD = "8:W:We1=12"


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    stdin: str | None = None,
) -> tuple[int, list[str], list[str]]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(args)
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


def test_a_bad_argument_is_said_and_the_others_answered(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, ["moves", START, BAD, PASS])
    assert status == 2
    assert len(out) == 2 and out[0].startswith("e1-d2 ") and out[1] == "pass"
    assert len(err) == 1 and err[0].startswith("dipole-tui: position 2: '8:W:We1=12' is not")


def test_a_bad_line_is_said_with_its_number_and_the_others_answered(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = f"{START}\n\n{BAD}\n{PASS}\nnonsense\n"
    status, out, err = run(capsys, monkeypatch, ["moves"], lines)
    assert status == 2
    assert len(out) == 2 and out[1] == "pass"
    assert [line.split(":")[1] for line in err] == [" line 3", " line 5"]


def test_an_over_long_line_is_one_failed_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = f"{START}\n{'x' * (3 * LONGEST_LINE)}\n{PASS}\n"
    status, out, err = run(capsys, monkeypatch, ["moves"], lines)
    assert status == 2
    assert len(out) == 2 and out[1] == "pass"
    assert err == [f"dipole-tui: line 2: longer than any position ({LONGEST_LINE} characters)"]


def test_a_batch_with_no_bad_line_ends_with_status_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, ["moves"], f"{START}\n{PASS}")
    assert (status, len(out), err) == (0, 2, [])


@pytest.mark.parametrize(
    ("command", "answer"),
    [(["best", "--depth", "1"], "bestmove c3xd4"), (["solve"], "win in 1 plies: c3xd4")],
)
def test_best_and_solve_answer_the_lines_after_a_bad_one(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    answer: str,
) -> None:
    status, out, err = run(capsys, monkeypatch, command, f"{OVER}\n{BAD}\n{WON}\n")
    assert status == 2
    assert out[-1] == answer
    assert err[0].startswith("dipole-tui: line 1: the game is over")
    assert err[1].startswith("dipole-tui: line 2: '8:W:We1=12' is not") and len(err) == 2
    status, out, err = run(capsys, monkeypatch, [*command, BAD, WON])
    assert status == 2 and out[-1] == answer
    assert len(err) == 1 and err[0].startswith("dipole-tui: position 1: ")


def test_a_line_that_is_not_utf8_is_one_failed_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dipole_tui", "moves"],
        input=f"\xff\xfe\n{PASS}\n".encode("latin-1"),
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},  # decoded strictly, as in most locales
        check=False,
    )
    assert done.returncode == 2 and done.stdout == b"pass\n"
    err = done.stderr.decode()
    assert err.startswith("dipole-tui: line 1: ") and err.count("\n") == 1, err


def test_a_longest_line_ending_in_crlf_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    longest = START.ljust(LONGEST_LINE)  # a position padded with spaces to the longest line
    status, out, err = run(capsys, monkeypatch, ["moves"], f"{longest}\r\n{BAD}\r\n")
    assert status == 2 and len(out) == 1
    assert len(err) == 1 and err[0].startswith("dipole-tui: line 2: ")
