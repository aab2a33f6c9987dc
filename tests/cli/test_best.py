"""`dipole-tui best`: a level's thinking, depth by depth, then the move it plays."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys

import pytest
from cli_steps import Cli
from game_samples import SAMPLES

from dipole_tui.bots import Budget
from dipole_tui.bots.score import Score, ScoreUnit
from dipole_tui.registry import REGISTRY, create_bot

INFO = re.compile(
    r"depth (?P<depth>[1-9]\d*) score (?P<score>-?\d+\.\d|win [1-9]\d*|loss [1-9]\d*) "
    r"nodes \d+ time \d+\.\d{3} pv (?P<pv>\S.*)"
)
BESTMOVE = re.compile(r"bestmove (?P<move>\S.*)")


def answers(game_key: str, position: str, out: str) -> list[re.Match[str]]:
    """The info lines of one answer, each checked for form and its line for legality; the
    answer's bestmove, legal, is the last item."""
    game = REGISTRY[game_key].game
    *infos, last = out.splitlines()
    found = []
    for line in infos:
        info = INFO.fullmatch(line)
        assert info, f"not an info line: {line!r}"
        state = game.parse_position(position)
        for text in game.split_moves(info["pv"]):
            state.play(game.parse_move(text, state))  # GameError for an illegal line
        found.append(info)
    best = BESTMOVE.fullmatch(last)
    assert best, f"not a bestmove line: {last!r}"
    game.parse_move(best["move"], game.parse_position(position))
    found.append(best)
    return found


@pytest.mark.parametrize("key", list(REGISTRY))
def test_a_line_per_depth_then_the_move(cli: Cli, key: str) -> None:
    position = SAMPLES[key].middle_game
    status, out, err = cli("best", "--game", key, "--depth", "3", position)
    assert status == 0 and err == ""
    *infos, best = answers(key, position, out)
    assert [int(info["depth"]) for info in infos] == [1, 2, 3]
    assert all(len(info["pv"].split()) >= 1 for info in infos)
    # The deepest line starts with the move played.
    assert infos[-1]["pv"].startswith(best["move"])


@pytest.mark.parametrize("key", list(REGISTRY))
@pytest.mark.parametrize(("level", "seeds"), [("hard", [1]), ("medium", [1, 2]), ("easy", [1, 2])])
def test_a_level_plays_its_move_from_the_app(
    cli: Cli, key: str, level: str, seeds: list[int]
) -> None:
    game, position = REGISTRY[key].game, SAMPLES[key].middle_game
    for seed in seeds:
        args = ["--game", key, "--level", level, "--depth", "2", "--seed", str(seed)]
        status, out, _ = cli("best", *args, position)
        assert status == 0
        *_, best = answers(key, position, out)
        bot = create_bot(level, key, seed)
        expected = bot.choose(game.parse_position(position), Budget(movetime=None, depth=2))
        assert best["move"] == game.format_move(expected)


@pytest.mark.parametrize(
    ("level", "depth"),
    [
        (name, style.depth)
        for name, style in REGISTRY["dipole"].ladder.items()
        if style.slack and style.depth is not None
    ],
)
def test_a_level_that_looks_a_fixed_depth_says_one_line(cli: Cli, level: str, depth: int) -> None:
    position = SAMPLES["dipole"].middle_game
    status, out, _ = cli("best", "--level", level, "--seed", "1", position)
    assert status == 0
    info, best = answers("dipole", position, out)
    assert int(info["depth"]) == depth
    assert info["pv"].split()[0] == best["move"]


@pytest.mark.parametrize(
    ("position", "score", "line"),
    [
        ("8:W:Wc3=1:Bd4=1", "win 1", "c3xd4"),  # the capture of Black's last checker
        # Black must step to the first row and then take its last checker off. No capture can
        # happen any more, so `hard` knows the race's end at once and its line stops there.
        ("8:B:Wh4=1:Bb2=1", "loss 3", "b2-a1"),
    ],
)
def test_a_proved_result_is_told_in_plies(cli: Cli, position: str, score: str, line: str) -> None:
    status, out, _ = cli("best", position)
    assert status == 0
    *infos, best = answers("dipole", position, out)
    assert infos[-1]["score"] == score and infos[-1]["pv"] == line
    assert best["move"] == line.split()[0]


def test_scores_are_told_in_the_game_s_unit() -> None:
    checkers = REGISTRY["dipole"].unit
    assert Score(12).format(checkers) == "1.0"  # a checker ahead
    assert Score(-30).format(checkers) == "-2.5"
    stones = ScoreUnit("stones", 100)
    assert Score(-4).format(stones) == "0.0"  # never -0.0
    assert Score.win(5).format(stones) == "win 5"
    assert Score.loss(2).format(checkers) == "loss 2"


def test_positions_are_read_from_stdin(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("8:W:Wc3=1:Bd4=1\n\n8:B:Wc3=1:Bd4=1\n"))
    status, out, _ = cli("best", "--depth", "2")
    assert status == 0
    bestmoves = [line for line in out.splitlines() if line.startswith("bestmove")]
    assert bestmoves == ["bestmove c3xd4", "bestmove d4xc3"]


def test_a_bad_line_on_stdin_is_named_after_the_answers_before_it(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("8:W:Wc3=1:Bd4=1\nnonsense\n8:W:Wc3=1:Bd4=1\n"))
    status, out, err = cli("best", "--depth", "2")
    assert status == 2
    assert out.splitlines()[-1] == "bestmove c3xd4" and out.count("bestmove") == 2
    assert err.count("\n") == 1 and err.startswith("dipole-tui: line 2: 'nonsense' is not a")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["8:W:We1=12"], "position 1: '8:W:We1=12' is not a Dipole position"),
        (["8:B:Wc3=1:B"], "position 1: the game is over (Black has no checkers left)"),
        (["--depth", "2", "--movetime", "1", "8:W:Wc3=1:Bd4=1"], "not allowed with argument"),
        (["--level", "random", "8:W:Wc3=1:Bd4=1"], "argument --level: invalid choice"),
        (["--level", "ab4", "8:W:Wc3=1:Bd4=1"], "argument --level: invalid choice"),
        (["--depth", "0", "8:W:Wc3=1:Bd4=1"], "DEPTH must be a whole number from 1 to 20"),
        (["--movetime", "-1", "8:W:Wc3=1:Bd4=1"], "expected seconds greater than 0"),
        (["--variant", "10x10", "8:W:Wc3=1:Bd4=1"], "position 1: --variant 10x10 disagrees"),
        (["--variant", "9x9"], "Dipole has no variant '9x9'"),
        (["--game", "death-stacks", "8:W:Wc3=1:Bd4=1"], "is not a Death Stacks position"),
    ],
)
def test_bad_input_is_one_line_with_status_2(cli: Cli, args: list[str], message: str) -> None:
    status, out, err = cli("best", *args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("dipole-tui: ")
    assert message in err


def test_ctrl_c_stops_the_thinking_in_one_line() -> None:
    position = SAMPLES["dipole"].middle_game
    # Hard tries to prove the position for a quarter of its time before its first line
    # (1.5 s): the rest, 4.5 s of thinking, is what Ctrl+C cuts short.
    command = [sys.executable, "-m", "dipole_tui", "best", "--movetime", "6", position]
    # A shell's background job (`nohup ... &`) starts with Ctrl+C ignored, and a child inherits
    # that; with a handler here instead, the child starts with the default, as at a prompt.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    with process:
        assert process.stdout is not None
        first = process.stdout.readline()  # it is thinking
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert INFO.fullmatch(first.rstrip("\n"))
    assert process.returncode == 130
    assert err == "dipole-tui: interrupted\n"
    assert "bestmove" not in out
