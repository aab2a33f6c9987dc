"""Every parser of every game, pushed by a hostile user: only GameError escapes, and its message
is one printable line of bounded length."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dipole_tui.games import shown


def test_shown_escapes_control_characters_as_repr_does() -> None:
    assert shown("a\x1b[2Jb\r\n\x00\t") == "a\\x1b[2Jb\\r\\n\\x00\\t"


def test_shown_keeps_printable_text_whole() -> None:
    text = "e² ٣ \N{FULLWIDTH DIGIT THREE} a1-b2"
    assert shown(text) == text


def test_shown_cuts_a_long_text_and_marks_the_cut() -> None:
    assert shown("x" * 100_000, 10) == "x" * 9 + "…"
    assert shown("x" * 10, 10) == "x" * 10


def test_shown_never_cuts_an_escape_in_half() -> None:
    assert shown("abc\x1b" + "x" * 10, 6) == "abc…"


@given(st.text(), st.integers(min_value=1, max_value=200))
def test_shown_is_one_printable_line_within_the_limit(text: str, limit: int) -> None:
    result = shown(text, limit)
    assert result.isprintable()
    assert len(result) <= limit
    assert (result == text) == (text.isprintable() and len(text) <= limit)
