"""The `dipole-tui` command with `--game death-stacks`, and a Death Stacks record replayed."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_steps import Cli

from dipole_tui.games.death_stacks import START_POSITION

RECORD = """[Game "Death Stacks"]
[Variant "standard"]
[White "Ann"]
[Black "Bob"]
[Result "*"]

1. c1-2-c3 d6-1-d5
2. c3-2-c5 d5-1-c5
*
"""
# c1's 2-stack goes to c3, then on to c5; Black's single from d6 steps to d5, then onto c5.
FINAL = "bb,bb,bb,b,bb,bb/,,rrb,,,/,,,,,/,,,,,/,,,,,/rr,rr,,rr,rr,rr r"


def test_moves_lists_the_legal_moves(cli: Cli) -> None:
    # Red's c3 single (8 neighbours) and Black's d4 single: a1-first order, then targets.
    position = ",,,,,/,,,,,/,,,b,,/,,r,,,/,,,,,/,,,,, r"
    status, out, _ = cli("moves", "--game", "death-stacks", position, START_POSITION)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2
    assert lines[0] == "c3-1-b2 c3-1-c2 c3-1-d2 c3-1-b3 c3-1-d3 c3-1-b4 c3-1-c4 c3-1-d4"
    assert len(lines[1].split()) == 48
    assert lines[1].split()[:6] == [
        "a1-1-b1",
        "a1-1-a2",
        "a1-1-b2",
        "a1-2-c1",
        "a1-2-a3",
        "a1-2-c3",
    ]


def test_moves_prints_an_empty_line_when_the_game_is_over(
    cli: Cli,
) -> None:
    status, out, _ = cli(
        "moves", "--game", "death-stacks", ",,,,,/,,,,,/,,,,,/,,,,,/,,,,,/rb,,,,, r"
    )
    assert status == 0 and out == "\n"


def test_perft_counts_from_the_start(cli: Cli) -> None:
    status, out, _ = cli("perft", "--game", "death-stacks", "2")
    lines = out.splitlines()
    assert status == 0
    assert lines[:2] == ["1 48", "2 2304"] and lines[2].startswith("time ")


def test_replay_ends_with_the_final_position(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    status, out, _ = cli("replay", str(path))
    lines = out.splitlines()
    assert status == 0
    assert lines[0].startswith("Death Stacks: Ann")
    assert lines[1:3] == ["1. c1-2-c3 d6-1-d5", "2. c3-2-c5 d5-1-c5"]
    assert "Red to move" in lines
    assert lines[-1] == FINAL


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["moves", "--game", "death-stacks", "rr"], "position 1: 'rr' is not a Death Stacks"),
        (["moves", "--game", "death-stacks", "rr r"], "position 1: a position has 6 ranks"),
        (["perft", "--game", "death-stacks", "--variant", "big", "1"], "has no variant 'big'"),
    ],
)
def test_errors_are_one_line_with_status_2(cli: Cli, args: list[str], message: str) -> None:
    status, _, err = cli(*args)
    assert status == 2 and err.count("\n") == 1 and message in err


def test_an_illegal_record_names_the_move(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(RECORD.replace("d5-1-c5", "d5-2-c5"))
    status, _, err = cli("replay", str(path))
    assert status == 2
    assert "line 8, move 2 (Black): the stack on d5 has only 1 piece" in err
