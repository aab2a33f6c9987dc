"""Saved games: the text format, replay through the engine, errors with line and move, atomicity."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from paths import DATA

from dipole_tui import storage
from dipole_tui.games.bipod import BIPOD
from dipole_tui.games.dipole import DIPOLE, DipoleState
from dipole_tui.records import (
    RecordError,
    format_record,
    load_record,
    move_label,
    parse_record,
    result_of,
    save_record,
)

SAMPLE = DATA / "sample-dipole.txt"


def random_game(variant: str, seed: int, plies: int | None = None) -> DipoleState:
    """A random game to its end, or `plies` long, avoiding moves that end it early."""
    rng = random.Random(seed)
    state = DIPOLE.new(variant)
    while state.outcome() is None and (plies is None or len(state.moves_played) < plies):
        moves = state.legal_moves()
        if plies is not None:
            moves = [m for m in moves if m.count < state.checkers[state.to_move]] or moves
        state.play(rng.choice(moves))
    return state


def test_sample_game_replays_to_a_black_win_with_checkers_accounted_for() -> None:
    record = load_record(SAMPLE)
    state = record.state
    assert record.game is DIPOLE
    assert isinstance(state, DipoleState)
    assert record.tags["White"] == "Ann" and record.tags["Event"] == "Sample game"
    assert len(state.moves_played) == 26
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 1
    assert state.checkers[0] == 0
    # Black's checkers: 12, less what White's captures took, less Black's own removal f2-off:2.
    replay, taken = DIPOLE.new(), 0
    for move in state.moves_played:
        before = replay.checkers[1]
        white_moved = replay.to_move == 0
        replay.play(move)
        if white_moved:
            taken += before - replay.checkers[1]
    assert taken > 0
    assert state.checkers[1] == 12 - taken - 2


@pytest.mark.parametrize(("variant", "seed"), [("8x8", 1), ("8x8", 2), ("10x10", 3)])
def test_format_then_parse_gives_the_same_game(variant: str, seed: int) -> None:
    state = random_game(variant, seed)
    text = format_record(DIPOLE, state, {"White": "a", "Black": "b"})
    record = parse_record(text)
    assert record.state.moves_played == state.moves_played
    assert record.state.position() == state.position()
    assert record.result == result_of(state) != "*"
    assert f'[Variant "{variant}"]' in text


def test_an_unfinished_game_from_a_set_position_keeps_its_position_tag() -> None:
    state = DIPOLE.parse_position("8:B:We1=3,c3=2:Bf6=1,d8=4")
    state.play(state.legal_moves()[0])
    state.play(state.legal_moves()[-1])
    text = format_record(DIPOLE, state)
    assert '[Position "8:B:We1=3,c3=2:Bf6=1,d8=4"]' in text
    assert "1... " in text and '[Result "*"]' in text
    assert parse_record(text).state.position() == state.position()


def test_a_forced_pass_is_a_numbered_ply() -> None:
    text = '[Game "Dipole"]\n[Position "8:W:Wc3=1:Bb4=2,d4=2"]\n\n1. pass b4xc3\n0-1\n'
    record = parse_record(text)
    assert [DIPOLE.format_move(m) for m in record.state.moves_played] == ["pass", "b4xc3"]
    assert record.result == "0-1"
    assert "1. pass b4xc3" in format_record(DIPOLE, record.state)


def test_move_labels_number_full_moves_from_either_side() -> None:
    assert [move_label(0, ply) for ply in range(4)] == ["1.", "1...", "2.", "2..."]
    assert [move_label(1, ply) for ply in range(3)] == ["1...", "2.", "2..."]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("1. e1-f2 d8-c7\n2. f2-g4", "line 4, move 2 (White): g4 is a light square"),
        ("1. e1-f2 d8-c7\n2. f2-h6", "line 4, move 2 (White): f2 to h6 is not a straight line"),
        ("1. e1-f2 d8-c7\n2. f2-g3 c7-c6", "line 4, move 2 (Black): c6 is a light square"),
        ("1. e1-f2 d8-c7\n2. f2-g3 c7-d8", "move 2 (Black): merges go forward"),
        ("1. e1-f2 zz9", "line 3, move 1 (Black): 'zz9' is not a move"),
        ("1. e1-off:12 d8-c7", "line 3, move 1 (Black): the game is over"),
        ("1. e1-off:12 0-1 d8-c7", "'d8-c7' follows the result 0-1"),
        ("1. e1-off:12 1-0", "the moves end 0-1 (White has no checkers left)"),
    ],
)
def test_a_bad_record_names_its_line_and_move(body: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(f'[Game "Dipole"]\n\n{body}\n')
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Game "Chess"]\n1. e4', "the Game tag names 'Chess'; this program plays Dipole"),
        ("[Game Dipole]\n", 'line 1: expected a tag like [Game "Dipole"]'),
        ('[Variant "9x9"]\n', "in the tags: Dipole has no variant '9x9'"),
        ('[Position "8:W:We1=13:B"]\n', "in the tags: White has 13 checkers"),
        ('[Variant "10x10"]\n[Position "8:W:We1=1:Bd8=1"]\n', "the Variant tag says 10x10"),
        ('[Result "2-0"]\n', "the Result tag is '2-0'"),
        ('[Result "1-0"]\n\n1. e1-f2 0-1\n', "the moves end with 0-1 but the Result tag says 1-0"),
    ],
)
def test_bad_tags_are_explained(text: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(text, DIPOLE)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_ongoing_result_claim_is_kept_for_a_resignation() -> None:
    record = parse_record('[Result "1-0"]\n\n1. e1-f2 d8-c7\n1-0\n', DIPOLE)
    assert record.result == "1-0" and record.state.outcome() is None


def test_load_reports_unreadable_files_in_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    with pytest.raises(RecordError, match=r"cannot read .*missing\.txt"):
        load_record(missing)
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="not a text file"):
        load_record(binary)
    bad = tmp_path / "bad.txt"
    bad.write_text("1. e1-e2\n")
    with pytest.raises(RecordError, match=r"bad.txt: line 1, move 1 \(White\): e2 is a light"):
        load_record(bad, DIPOLE)


def test_a_record_without_a_game_tag_is_of_the_game_the_caller_names() -> None:
    """Only the command line assumes Dipole: below it the game is always said."""
    with pytest.raises(RecordError, match=r'no Game tag; expected one like \[Game "Dipole"\]'):
        parse_record("1. e1-g3\n")
    assert parse_record("1. e1-g3\n", DIPOLE).game is DIPOLE
    assert parse_record('[Game "Death Stacks"]\n', DIPOLE).game.key == "death-stacks"


def test_save_writes_atomically_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "games" / "game.txt"
    path.parent.mkdir()
    state = random_game("8x8", 5, plies=10)
    save_record(path, DIPOLE, state, {"White": "Ann"})
    assert load_record(path).state.position() == state.position()
    state.play(state.legal_moves()[0])
    save_record(path, DIPOLE, state)
    assert load_record(path).state.position() == state.position()
    assert [p.name for p in path.parent.iterdir()] == ["game.txt"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.txt"
    path.write_text("old contents")

    def broken_replace(source: str, target: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        storage.write_text(path, "new contents")
    assert path.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["game.txt"]


def test_tag_values_with_quotes_round_trip() -> None:
    state = random_game("8x8", 9, plies=4)
    text = format_record(DIPOLE, state, {"White": 'Ann "the Bold" \\o/'})
    assert parse_record(text).tags["White"] == 'Ann "the Bold" \\o/'


def test_comments_in_braces_and_after_a_semicolon_are_skipped() -> None:
    text = '[Game "Dipole"]\n\n1. e1-g3 {a quiet start} d8-b6 ;1st reply, a comment too\n2. g3-h4\n'
    record = parse_record(text)
    assert [DIPOLE.format_move(m) for m in record.state.moves_played] == ["e1-g3", "d8-b6", "g3-h4"]


def test_a_semicolon_cell_of_bipod_is_a_cell_not_a_comment() -> None:
    record = parse_record('[Game "Bi-Pod"]\n\n1. ;1 {the corner} =1 ; a comment\n')
    assert [BIPOD.format_move(m) for m in record.state.moves_played] == [";1", "=1"]


@pytest.mark.parametrize("line_end", ["\r", "\r\n"])
def test_a_record_with_cr_line_ends_reads_as_with_lf(line_end: str) -> None:
    """A terminal's paste ends its lines with CR; an old Mac or Windows file too."""
    text = '[Game "Dipole"]\n[White "Ann"]\n; a note\n\n1. e1-e3 {one\ntwo} d8-d6\n2. e3-e5 *\n'
    lf, other = parse_record(text), parse_record(text.replace("\n", line_end))
    assert other.tags == lf.tags and other.comments == lf.comments
    assert other.state.moves_played == lf.state.moves_played and lf.state.plies == 3
