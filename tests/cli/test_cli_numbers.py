"""Numbers on the command line are plain ASCII decimals within sane ranges; anything else is one
line, status 2, saying what is expected (Python's float() and int() take far more: `1e308`,
`1_0`, `٣`, `inf`, ` 7`)."""

from __future__ import annotations

import pytest

from dipole_tui import cli
from dipole_tui.cli import main
from dipole_tui.cli.arguments import positive_seconds
from dipole_tui.games.base import GameError

POSITION = "8:W:Wc3=1:Bd4=1"
SECONDS = ["1e308", "1e-3", "1_0", "٣", "²", "inf", "nan", "-1", "0", "0.001", "3601", " 1"]
SECONDS += ["+1", "0x10", "1.", "", "1,5", "\u2028"]
WHOLE = ["٣", "³", "1_0", "1e3", " 3", "+3", "3.0", "-1", "0", "", "9" * 5000]


@pytest.fixture
def nothing_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A number wrongly taken makes the command fail here at once, not play a match or open the
    app."""

    def accepted(*args: object) -> None:
        raise GameError("the command ran")

    for name in ("run_perft", "run_best", "run_solve", "run_analyse", "run_play", "run_match"):
        monkeypatch.setattr(cli, name, accepted)


@pytest.mark.usefixtures("nothing_runs")
@pytest.mark.parametrize("text", SECONDS)
@pytest.mark.parametrize(
    "command",
    [
        ["best", "--movetime", "{}", POSITION],
        ["match", "random", "random", "--movetime", "{}"],
        ["analyse", "--movetime", "{}", "game.txt"],
        ["play", "--think", "{}"],
    ],
)
def test_seconds_are_plain_decimals_from_a_hundredth_to_an_hour(
    capsys: pytest.CaptureFixture[str], command: list[str], text: str
) -> None:
    assert main([part.format(text) for part in command]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "(0.01 to 3600, in plain digits as 0.5 or 10)" in err


@pytest.mark.parametrize(("text", "value"), [("0.01", 0.01), ("3600", 3600.0), (".5", 0.5)])
def test_the_ends_of_the_range_are_seconds(text: str, value: float) -> None:
    assert positive_seconds(text) == value


@pytest.mark.usefixtures("nothing_runs")
@pytest.mark.parametrize("text", WHOLE)
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["perft", "{}"], "DEPTH must be a whole number from 1 to 20"),
        (["best", "--depth", "{}", POSITION], "DEPTH must be a whole number from 1 to 20"),
        (["match", "random", "random", "--depth", "{}"], "DEPTH must be"),
        (["match", "random", "random", "--games", "{}"], "a whole number from 1 to 100000"),
        (["match", "random", "random", "--jobs", "{}"], "a whole number from 1 to 256"),
        (["solve", "--max-nodes", "{}", POSITION], "N must be a whole number of 1 or more"),
    ],
)
def test_counts_are_plain_whole_numbers_within_bounds(
    capsys: pytest.CaptureFixture[str], command: list[str], expected: str, text: str
) -> None:
    assert main([part.format(text) for part in command]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and expected in err and len(err) < 300


@pytest.mark.usefixtures("nothing_runs")
@pytest.mark.parametrize(
    "args",
    [
        ["perft", "21"],
        ["match", "random", "random", "--games", "100001"],
        ["match", "random", "random", "--jobs", "257"],
        ["solve", "--max-nodes", "1" + "0" * 15, POSITION],
        ["match", "random", "random", "--seed", "4294967296"],
        ["best", "--seed", "٣", POSITION],
        ["best", "--seed", "1_0", POSITION],
    ],
)
def test_past_the_bounds_is_refused(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and ("expected" in err or "must be" in err)


def test_the_bounds_themselves_are_taken(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "--position", "8:W:Wc3=1:B", "20"]) == 0
    assert main(["solve", "--max-nodes", "9" * 15, POSITION]) == 0
    assert main(["best", "--depth", "1", "--seed", "4294967295", POSITION]) == 0
    capsys.readouterr()
