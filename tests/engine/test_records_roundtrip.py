"""What `format_record` writes, `parse_record` reads back: every tag value and every comment,
whatever its characters, in every game, as `displayable` shows it (a control character escaped,
tests/cli/test_outside_text.py); and a record's own comments are kept where they stood."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipole_tui.games.base import AnyGame, State, displayable
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import format_record, parse_record, read_header
from dipole_tui.registry import REGISTRY

# Every character str.splitlines splits at, which a tag value or a comment may hold.
BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def a_game(game: AnyGame, plies: int = 3) -> State[Any]:
    state: State[Any] = game.new()
    for _ in range(plies):
        state.play(state.legal_moves()[0])
    return state


GAMES = [(entry.game, a_game(entry.game)) for entry in REGISTRY.values()]
texts = st.text() | st.text(st.sampled_from([*BREAKS, "\\", '"', "{", "}", ";", "u", "0", "a"]))


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAMES), texts, st.sampled_from(["White", "Black", "Event", "Date", "X1"]))
def test_every_tag_value_reads_back(
    played: tuple[AnyGame, State[Any]], value: str, tag: str
) -> None:
    game, state = played
    text = format_record(game, state, {tag: value})
    read = parse_record(text).tags[tag]
    assert read == displayable(value) == read_header(text).tags[tag]
    assert parse_record(format_record(game, state, {tag: read})).tags[tag] == read


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAMES), st.lists(st.lists(texts, max_size=2), min_size=4, max_size=4))
def test_every_comment_reads_back_where_it_stood(
    played: tuple[AnyGame, State[Any]], comments: list[list[str]]
) -> None:
    game, state = played
    text = format_record(game, state, comments=comments)
    record = parse_record(text)
    assert record.comments == [[displayable(said, lines=True) for said in at] for at in comments]
    again = parse_record(format_record(game, state, comments=record.comments))
    assert again.comments == record.comments
    assert record.state.moves_played == state.moves_played


def test_a_value_with_any_line_break_stays_on_its_line() -> None:
    state = a_game(DIPOLE)
    text = format_record(DIPOLE, state, {"White": f"Ann{BREAKS}Bo"})
    assert '[White "Ann\\\\n\\\\r\\\\x0b' in text
    assert len(text.splitlines()) == len(format_record(DIPOLE, state).splitlines())


@pytest.mark.parametrize("brk", BREAKS.replace("\n", "").replace("\r", ""))
def test_a_record_written_with_a_raw_break_in_a_tag_still_reads(brk: str) -> None:
    """As the format was written before breaks were escaped: only LF and CRLF end a line, and
    the break is read as `displayable` shows it."""
    text = f'[Game "Dipole"]\r\n[White "Ann{brk}Bo"]\r\n\r\n1. e1-d2 {{a{brk}b}} d8-c7\r\n'
    record = parse_record(text)
    shown = displayable(brk)
    assert record.tags["White"] == f"Ann{shown}Bo" and record.comments[1] == [f"a{shown}b"]


def test_comments_are_kept_with_the_move_they_follow() -> None:
    text = (
        '; found in a notebook\n[Game "Dipole"]\n; second game of the evening\n\n'
        "{White opens} 1. e1-g3 {a quiet start}\n{spanning\ntwo lines} d8-b6 ;1st reply\n"
        "2. g3-h4?! {C:\\games\\} {+0.3}\n"
    )
    record = parse_record(text)
    assert record.comments == [
        [" found in a notebook", " second game of the evening", "White opens"],
        ["a quiet start", "spanning\ntwo lines"],
        ["1st reply"],
        ["C:\\games\\", "+0.3"],
    ]
    again = parse_record(format_record(DIPOLE, record.state, comments=record.comments))
    assert again.comments == record.comments


MARKS = ["", "!", "?", "!!", "??", "!?", "?!"]
VARIANTS = [(key, variant) for key, entry in REGISTRY.items() for variant in entry.game.variants]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(VARIANTS), st.randoms(use_true_random=False), st.data())
def test_every_moves_mark_reads_back_with_it(
    variant: tuple[str, str], rng: Any, data: st.DataObject
) -> None:
    """Whatever the moves (Bi-Pod's `v2 O` of two words, a pass), the mark after each goes
    with it and the moves read back the same."""
    game = REGISTRY[variant[0]].game
    state: State[Any] = game.new(variant[1])
    for _ in range(rng.randrange(1, 40)):
        if state.outcome() is not None:
            break
        state.play(state.random_move(rng))
    marks = data.draw(st.lists(st.sampled_from(MARKS), min_size=state.plies, max_size=state.plies))
    record = parse_record(format_record(game, state, marks=marks))
    assert record.marks == marks
    assert record.state.moves_played == state.moves_played
