"""The `dipole-tui` command with `--game bipod`, and Bi-Pod records written and read back."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_steps import Cli
from paths import DATA

from dipole_tui.games.bipod import BIPOD, START_POSITION, BipodState
from dipole_tui.records import RecordError, format_record, parse_record

SAMPLE = DATA / "sample-bipod.txt"
FINAL = (
    "...x.@....Q...../...xxo.....O.../xxxox.o..xxOx./....x..o..Ox./.....x...Ox./......x.Ox."
    " 2 1 multi resigned"
)
# The sample's last position: First to move, who resigns (an ending, not a move: the position
# string of the rules core marks a `resign` played on the state, as FINAL does).
LAST = FINAL.replace(" 2 1 multi resigned", " 1 1 multi")
RECORD = """[Game "Bi-Pod"]
[White "Ann"]
[Black "Bob"]
[Result "*"]

1. e1 s3
2. adopt v2 O
3. j4
*
"""


def test_moves_lists_the_legal_moves(cli: Cli) -> None:
    after_adopt = START_POSITION.replace(" 1 -", " 2 2")  # Second runs and moves
    status, out, _ = cli("moves", "--game", "bipod", START_POSITION, after_adopt)
    lines = out.splitlines()
    assert status == 0 and len(lines) == 2
    first = BIPOD.split_moves(lines[0])  # runner stones contain a space: split as records do
    assert len(first) == 80 and first[:3] == ["=1", "a1", "c1"] and first[-1] == "adopt"
    second = BIPOD.split_moves(lines[1])
    assert len(second) == 158 and second[:4] == ["=1 o", "=1 O", "a1 o", "a1 O"]


def test_moves_prints_an_empty_line_when_the_game_is_over(
    cli: Cli,
) -> None:
    status, out, _ = cli("moves", "--game", "bipod", FINAL)
    assert status == 0 and out == "\n"


def test_perft_counts_from_the_start(cli: Cli) -> None:
    status, out, _ = cli("perft", "--game", "bipod", "2")
    lines = out.splitlines()
    assert status == 0 and lines[:2] == ["1 80", "2 6399"] and lines[2].startswith("time ")


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        ("multi", ["1 82240"]),
        ("adopter-runs", ["1 80", "2 6320"]),
        ("adopter-runs,multi", ["1 82240"]),
        ("", ["1 80", "2 6399"]),
    ],
)
def test_perft_takes_a_variant(cli: Cli, variant: str, counts: list[str]) -> None:
    depth = str(len(counts))
    status, out, _ = cli("perft", "--game", "bipod", "--variant", variant, depth)
    assert status == 0 and out.splitlines()[: len(counts)] == counts


def test_perft_from_a_position_with_its_variant(cli: Cli) -> None:
    position = START_POSITION + " multi,adopter-runs"
    args = ["perft", "--game", "bipod", "--variant", "adopter-runs,multi", "--position", position]
    status, out, _ = cli(*args, "1")
    assert status == 0 and out.splitlines()[0] == "1 82240"


def test_replay_prints_the_sample_game_and_its_last_diagram(
    cli: Cli,
) -> None:
    status, out, _ = cli("replay", str(SAMPLE))
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "Bi-Pod multi: ? (First) v ? (Second), result 0-1"
    assert lines[1:4] == ["1. e13f2 su3", "2. ac3 adopt", "3. v2 O j4"]
    assert lines[11] == "11. t6 O p6"  # and then First resigned: an ending, not a move
    assert lines[12] == "_" * 31 and lines[13] == "      x . @ . . . . Q . . . . . 1"
    assert "Game over: Second wins (First resigned)" in lines
    assert lines[-1] == LAST


def test_replay_of_the_default_variant(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    status, out, _ = cli("replay", str(path))
    lines = out.splitlines()
    assert status == 0 and lines[0] == "Bi-Pod: Ann (First) v Bob (Second), result *"
    assert lines[1:4] == ["1. e1 s3", "2. adopt v2 O", "3. j4"]
    assert "Second to move" in lines


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["moves", "--game", "bipod", "xx"], "position 1: 'xx' is not a Bi-Pod position"),
        (["moves", "--game", "bipod", "a/b 1 -"], "position 1: a position has 6 rows"),
        (["perft", "--game", "bipod", "--variant", "big", "1"], "no variant option 'big'"),
        (
            ["perft", "--game", "bipod", "--variant", "multi", "--position", START_POSITION, "1"],
            "--variant multi disagrees with the position, which is the default variant",
        ),
    ],
)
def test_errors_are_one_line_with_status_2(cli: Cli, args: list[str], message: str) -> None:
    status, _, err = cli(*args)
    assert status == 2 and err.count("\n") == 1 and message in err


def test_an_illegal_record_names_the_move(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(SAMPLE.read_text().replace("3. v2 O    j4", "3. v2 O    v2"))
    status, _, err = cli("replay", str(path))
    assert status == 2 and err.count("\n") == 1
    assert "line 12, move 3 (Second): the cell v2 is taken" in err


def test_the_misprinted_sample_move_is_refused_for_what_it_is(tmp_path: Path) -> None:
    """With the sheet's `v2 o` the game goes on (o on v2 is legal), so only the last diagram
    tells; the record keeps `v2 O`, which the later diagrams show."""
    text = SAMPLE.read_text()
    assert "3. v2 O" in text and "misprint" in text
    misprinted = parse_record(text.replace("3. v2 O", "3. v2 o"))
    assert misprinted.state.position() != LAST


# -- records -------------------------------------------------------------------------------------


def _played(variant: str, *moves: str) -> BipodState:
    state = BIPOD.new(variant)
    for text in moves:
        state.play(BIPOD.parse_move(text, state))
    return state


def test_the_default_variant_is_named_standard_and_reads_back() -> None:
    state = _played("", "e1", "adopt", "v2 O", "j4")
    text = format_record(BIPOD, state, {"Date": "2026.01.01"})
    assert '[Game "Bi-Pod"]\n[Variant "standard"]' in text
    assert "1. e1 adopt\n2. v2 O j4\n*\n" in text
    again = parse_record(text)
    assert again.state.position() == state.position() and again.state.variant == ""


@pytest.mark.parametrize("variant", ["multi", "adopter-runs", "multi,adopter-runs"])
def test_other_variants_write_their_tag(variant: str) -> None:
    state = _played(variant, "e1", "adopt")
    text = format_record(BIPOD, state)
    assert f'[Variant "{variant}"]' in text
    assert parse_record(text).state.position() == state.position()


@pytest.mark.parametrize(
    ("tag", "variant"),
    [('[Variant ""]\n', ""), ('[Variant "adopter-runs,multi"]\n', "multi,adopter-runs"), ("", "")],
)
def test_variant_tags_are_read_leniently(tag: str, variant: str) -> None:
    record = parse_record(f'[Game "Bi-Pod"]\n{tag}\n1. e1 s3\n')
    assert record.state.variant == variant


def test_a_variant_tag_that_contradicts_the_position_is_refused() -> None:
    text = f'[Game "Bi-Pod"]\n[Variant "multi"]\n[Position "{START_POSITION}"]\n\n1. e1\n'
    with pytest.raises(RecordError, match="the Variant tag says multi"):
        parse_record(text)


def test_a_semicolon_cell_is_not_a_comment_but_a_semicolon_comment_still_is() -> None:
    text = '[Game "Bi-Pod"]\n\n1. ;1 \'2 ; a comment\n2. e1;a comment with no space\n'
    moves = parse_record(text).state.moves_played
    assert [BIPOD.format_move(m) for m in moves] == [";1", "'2", "e1"]
    text = '[Game "Bi-Pod"]\n[Variant "multi"]\n\n1. u1;1 {;1 in a comment} -3\n'
    moves = parse_record(text).state.moves_played
    assert [BIPOD.format_move(m) for m in moves] == ["u;1", "-3"]


def test_a_game_from_a_set_position_keeps_it() -> None:
    start = BIPOD.parse_position(START_POSITION.replace(".....@", "x....@") + " multi")
    start.play(BIPOD.parse_move("e13", start))
    text = format_record(BIPOD, start)
    assert '[Position "x....@' in text and '[Variant "multi"]' in text
    assert parse_record(text).state.position() == start.position()
