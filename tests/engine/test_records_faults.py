"""Records as people write them and as damage leaves them: lenient where a person would be (a
byte-order mark, no result, comments anywhere), strict where it matters (a repeated tag, an
unclosed comment, an empty file, a file that is no record), and input echoed safely."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from game_samples import SAMPLES

from dipole_tui.games import DIPOLE
from dipole_tui.records import (
    RECORD_LIMIT,
    RecordError,
    load_record,
    parse_record,
    read_header,
    read_record_file,
)
from dipole_tui.registry import REGISTRY
from dipole_tui.session import Session


def without_result(text: str) -> str:
    """A record as typed from a book: no Result tag, no result after the moves."""
    text = re.sub(r'^\[Result "[^"]*"\]\n', "", text, flags=re.MULTILINE)
    return re.sub(r"\s(1-0|0-1|1/2-1/2|\*)\s*$", "\n", text)


def message(text: str) -> str:
    """Why a record (of Dipole, when it has no Game tag) is refused."""
    with pytest.raises(RecordError) as caught:
        parse_record(text, DIPOLE)
    return str(caught.value)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_a_byte_order_mark_is_passed_over(key: str, tmp_path: Path) -> None:
    plain = parse_record(SAMPLES[key].finished)
    assert parse_record("\ufeff" + SAMPLES[key].finished).state.position() == plain.state.position()
    path = tmp_path / "windows.txt"
    path.write_text(SAMPLES[key].finished, encoding="utf-8-sig")  # as Notepad writes it
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert load_record(path).state.position() == plain.state.position()
    assert read_header(path.read_text(encoding="utf-8")).game is REGISTRY[key].game


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_a_finished_game_with_no_result_takes_the_result_of_its_moves(key: str) -> None:
    text = without_result(SAMPLES[key].finished)
    assert "Result" not in text and text.rstrip().split()[-1] not in ("1-0", "0-1")
    record = parse_record(text)
    outcome = record.state.outcome() or record.ending  # Bi-Pod's sample: `12. resigns`
    assert outcome is not None
    reached = outcome.result()
    assert reached != "*" and record.result == reached
    written = Session.from_record(record).record_text()  # written again, the moves' result
    assert f'[Result "{reached}"]' in written and written.rstrip().endswith(reached)


def test_an_unfinished_game_with_no_result_goes_on() -> None:
    assert parse_record('[Game "Dipole"]\n\n1. e1-g3 d8-b6\n').result == "*"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[Result "*"]\n\n1. e1-off:12\n', "the Result is * but the moves end 0-1"),
        ("1. e1-off:12 1-0\n", "the Result is 1-0 but the moves end 0-1"),
        ('[Result "1-0"]\n\n1. e1-off:12\n', "the Result is 1-0 but the moves end 0-1"),
    ],
)
def test_a_stated_result_must_agree_with_the_moves(text: str, expected: str) -> None:
    assert expected in message(text)


def test_a_comment_in_braces_may_span_lines() -> None:
    text = (
        '[Game "Dipole"]\n\n1. e1-g3 {a long thought\nthat goes on; with [brackets]\n'
        "and 2. e1-h4 in it} d8-b6\n2. g3-h4 {\n}\n"
    )
    moves = parse_record(text).state.moves_played
    assert [REGISTRY["dipole"].game.format_move(m) for m in moves] == ["e1-g3", "d8-b6", "g3-h4"]


def test_a_comment_spanning_lines_in_bipod_ends_before_a_cell_of_semicolon() -> None:
    text = '[Game "Bi-Pod"]\n\n1. {the corner,\nof course} ;1 =1 ; a comment\n'
    moves = parse_record(text).state.moves_played
    assert [REGISTRY["bipod"].game.format_move(m) for m in moves] == [";1", "=1"]


def test_a_comment_never_closed_is_refused_at_the_line_it_opens() -> None:
    text = '[Game "Dipole"]\n\n1. e1-g3 d8-b6\n2. g3-h4 {forgot to close\n2... b6-a5\n'
    assert message(text) == "line 4: a comment opened with { is not closed with }"


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_comment_lines_may_stand_before_and_among_the_tags(key: str) -> None:
    lines = SAMPLES[key].finished.splitlines()
    text = "\n".join(["; typed from the book, page 12", "", lines[0], ";; and a note", *lines[1:]])
    record = parse_record(text)
    assert record.game is REGISTRY[key].game
    assert record.state.position() == parse_record(SAMPLES[key].finished).state.position()


def test_a_bipod_body_line_of_semicolon_cells_after_the_tags_is_moves() -> None:
    record = parse_record('; a comment\n[Game "Bi-Pod"]\n;1 =1\n')
    assert [REGISTRY["bipod"].game.format_move(m) for m in record.state.moves_played] == [
        ";1",
        "=1",
    ]


def test_a_repeated_tag_is_refused_with_both_lines() -> None:
    text = '[Game "Dipole"]\n[White "Ann"]\n\n[Game "Bi-Pod"]\n\n1. e1-g3\n'
    assert message(text) == (
        "line 4: a second Game tag (the first is on line 1); each tag is given once"
    )
    with pytest.raises(RecordError, match="line 3: a second White tag"):
        read_header('[White "Ann"]\n[Black "Bob"]\n[White "Cy"]\n')


@pytest.mark.parametrize("text", ["", "\n  \n\t\n", "\ufeff", "\ufeff\r\n", "; nothing\n", "{}"])
def test_an_empty_record_is_not_a_game(text: str) -> None:
    assert message(text) == "the record is empty: no game in it"
    with pytest.raises(RecordError, match="the record is empty: no game in it"):
        read_header(text)


def test_an_empty_file_is_named_in_the_message(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with pytest.raises(RecordError) as caught:
        load_record(path)
    assert str(caught.value) == f"{path}: the record is empty: no game in it"


def test_a_record_of_tags_only_is_a_game_begun() -> None:
    record = parse_record('[Game "Dipole"]\n')
    assert record.state.moves_played == [] and record.result == "*"


# Escape sequences (clear the screen, set the window title), NUL and a 100,000-character run; no
# line break, so that it stays within one line of a record (a CR in a tag would end the line).
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x00\x7f" + "x" * 100_000


@pytest.mark.parametrize(
    ("text", "start"),
    [
        (f"[Game {HOSTILE}]\n", 'line 1: expected a tag like [Game "Dipole"], not '),
        (f'[Game "{HOSTILE}"]\n', "the Game tag names "),
        (f'[Result "{HOSTILE}"]\n', "the Result tag is "),
        (f"1. e1-off:12 0-1 {HOSTILE}\r\n", "line 1: '\\x1b[2J"),
        (
            f'[Variant "10x10{HOSTILE}"]\n[Position "8:W:We1=1:Bd8=1"]\n',
            "the Variant tag says 10x10",
        ),
        (f'[{"G" * 100_000} "a"]\n[{"G" * 100_000} "b"]\n', "line 2: a second GGG"),
    ],
    ids=["tag line", "Game", "Result", "after the result", "Variant", "tag name"],
)
def test_echoed_input_is_escaped_and_cut(text: str, start: str) -> None:
    shown = message(text)
    assert shown.startswith(start)
    assert shown.isprintable() and len(shown) < 200
    assert "\x1b" not in shown and "\x00" not in shown and "\x7f" not in shown


def test_a_file_name_is_echoed_escaped(tmp_path: Path) -> None:
    path = tmp_path / "game\x1b[2J\r.txt"
    path.write_text("")
    with pytest.raises(RecordError) as caught:
        load_record(path)
    assert "game\\x1b[2J\\r.txt: the record is empty" in str(caught.value)
    assert str(caught.value).isprintable()


def test_a_folder_is_not_read(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"is a folder, not a game record$"):
        read_record_file(tmp_path)


def test_a_file_larger_than_any_game_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"1. e1-g3\n" + b" " * (RECORD_LIMIT - 9))
    assert len(read_record_file(path)) == RECORD_LIMIT  # up to the limit is read
    with path.open("ab") as stream:
        stream.write(b" ")
    with pytest.raises(RecordError, match=r"huge\.txt is larger than 1 MB, more than any game"):
        read_record_file(path)


def test_a_file_that_is_not_utf8_text_is_named(tmp_path: Path) -> None:
    path = tmp_path / "binary.txt"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match=r"binary\.txt is not a text file"):
        read_record_file(path)
