"""Every parser of every game, pushed as a hostile user and a damaged file would push it: only
GameError escapes, its message is one printable line of bounded length, and no text with a digit
other than 0-9 is ever read as a move, a square or a position.

`HYPOTHESIS_PROFILE=fuzz` runs many more cases than the default, for a long local run."""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dipole_tui.games import GameError, bipod, death_stacks, dipole, shown
from dipole_tui.games.base import AnyGame, State
from dipole_tui.registry import REGISTRY, games

# This file's own settings (a profile loaded here would change every other test's too).
FUZZ = settings(
    max_examples=5000 if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else 300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# The quoted input is cut to 40 characters; the longest message around it is Bi-Pod's position
# form with its example (some 330 characters).
LONGEST_MESSAGE = 400
OTHER_DIGITS = "²³¹⁵₃٣۴३৫๓０３９𝟘"  # digits of other scripts and forms, which int() may read
CONTROLS = "\x00\x07\x08\t\n\r\x0b\x0c\x1b\x7f\x85\u2028\u202e\ufeff"
ESCAPES = ["\x1b[2J", "\x1b[31m", "\x1b]0;title\x07", "\r\n", "\x00"]


def random_game(game: AnyGame, variant: str, seed: int, plies: int) -> State[Any]:
    rng = random.Random(seed)
    state: State[Any] = game.new(variant)
    for _ in range(plies):
        if state.outcome() is not None:
            break
        state.play(state.random_move(rng))
    return state


# Random Death Stacks games rarely end: its finished game is a position where Red controls none.
FINISHED_POSITIONS = {"death-stacks": [",,,,,/,,,,,/,,,,,/,,,,,/,,,,,/rrb,,,,,b r"]}


@functools.cache
def states(key: str) -> tuple[State[Any], ...]:
    """The game's states the parsers read against. Built on first use, once per process: Bi-Pod's
    multi-stone games take seconds, which every xdist worker paid at import."""
    game = REGISTRY[key].game
    return (
        *(
            game.new(variant) if plies == 0 else random_game(game, variant, seed=plies, plies=plies)
            for variant in game.variants
            for plies in (0, 9, 30, 500)
        ),
        *(game.parse_position(text) for text in FINISHED_POSITIONS.get(key, [])),
    )


def test_some_states_are_finished_games_in_every_game() -> None:
    finished = [state for key in REGISTRY for state in states(key) if state.outcome()]
    assert {type(state) for state in finished} == {type(game.new()) for game in games()}


@functools.cache
def valid_texts(key: str) -> tuple[str, ...]:
    """Moves, positions, squares and variants the game reads, for mutation."""
    game = REGISTRY[key].game
    texts = list(game.variants)
    for state in states(key):
        texts.append(state.position())
        texts.extend(game.format_move(move) for move in state.legal_moves()[:30])
    return tuple(text for text in texts if text)


nasty_pieces = st.one_of(
    st.sampled_from(OTHER_DIGITS),
    st.sampled_from(CONTROLS),
    st.sampled_from(ESCAPES),
    st.integers(min_value=5, max_value=6000).map(lambda digits: "9" * digits),
    st.integers(min_value=2, max_value=40).map(lambda digits: "0" * digits + "1"),
    st.text(max_size=8),
    st.sampled_from(" :/,=-x+;.`'@Q0123456789"),
)


# Digits of other scripts and forms by value: a valid text with them is read as the same move
# by `\\d` and int(), or crashes int() (superscripts).
DIGIT_FORMS = [
    [chr(zero + value) for value in range(10)] for zero in (0x660, 0x966, 0xFF10, 0x1D7CE)
] + [list("⁰¹²³⁴⁵⁶⁷⁸⁹"), list("₀₁₂₃₄₅₆₇₈₉")]


@functools.cache
def sampled(key: str, digits: bool = False) -> st.SearchStrategy[str]:
    """One of the game's valid texts (with a digit, when `digits`): one strategy per game and
    process, as `hostile`'s, since Hypothesis looks at all of a new one's texts (its label)."""
    texts = [text for text in valid_texts(key) if not digits or any(map(str.isdigit, text))]
    return st.sampled_from(texts)


@st.composite
def other_digits(draw: st.DrawFn, key: str) -> str:
    """A valid text of the game with its digits written in another script or form."""
    text = draw(sampled(key, digits=True))
    forms = draw(st.sampled_from(DIGIT_FORMS))
    every = draw(st.booleans())
    chosen = draw(st.sampled_from([at for at, char in enumerate(text) if char.isdigit()]))
    return "".join(
        forms[int(char)] if char.isdigit() and (every or at == chosen) else char
        for at, char in enumerate(text)
    )


@st.composite
def mutated(draw: st.DrawFn, key: str) -> str:
    """A valid text of the game with a few pieces replaced, inserted or repeated."""
    text = draw(sampled(key))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=len(text)))
        cut = draw(st.integers(min_value=0, max_value=2))
        text = text[:at] + draw(nasty_pieces) + text[at + cut :]
    return text


@functools.cache
def hostile(key: str) -> st.SearchStrategy[str]:
    """Built once per game and process: a strategy built anew for each example is looked at
    anew by Hypothesis (its label, its emptiness), which cost more than the parsing tested."""
    valid = valid_texts(key)
    return st.one_of(
        st.text(),
        st.text(alphabet=st.sampled_from(sorted(set("".join(valid)) | set(OTHER_DIGITS)))),
        mutated(key),
        mutated(key),
        other_digits(key),
        # a 100 KB line and a number of thousands of digits
        st.sampled_from(valid).map(lambda text: (text + " ") * (100_000 // (len(text) + 1))),
        st.sampled_from(valid).map(lambda text: text + "9" * 5000),
        # every character of a valid text repeated: 50 000 letters then 50 000 digits
        st.tuples(st.sampled_from(valid), st.integers(min_value=2, max_value=50_000)).map(
            lambda pair: "".join(char * pair[1] for char in pair[0])
        ),
    )


T = TypeVar("T")  # what a parser makes of its text


def refused_well_or_read(parse: Callable[[str], T], text: str) -> T | None:
    """What `parse` makes of `text`; a refusal must be a GameError of one printable, short line,
    and nothing with a digit other than 0-9 is read."""
    result = refused_well(parse, text)
    if result is not None:
        assert not any(char.isdigit() and not char.isascii() for char in text), (text, result)
    return result


def refused_well(parse: Callable[[str], T], text: str) -> T | None:
    """What `parse` makes of `text`; a refusal must be a GameError of one printable, short line."""
    try:
        result = parse(text)
    except GameError as error:
        message = str(error)
        assert message.isprintable(), message
        assert 0 < len(message) <= LONGEST_MESSAGE, message
        return None
    return result


@functools.cache
def sampled_states(key: str) -> st.SearchStrategy[State[Any]]:
    """One of `states(key)`, a strategy made once (Hypothesis hashes each state of a new one)."""
    return st.sampled_from(states(key))


@pytest.mark.parametrize("key", REGISTRY)
@FUZZ
@given(data=st.data())
def test_moves_are_refused_in_one_line_or_legal(key: str, data: st.DataObject) -> None:
    game = REGISTRY[key].game
    state = data.draw(sampled_states(key))
    text = data.draw(hostile(key))
    move = refused_well_or_read(lambda text: game.parse_move(text, state), text)
    if move is not None:
        assert move in state.legal_moves()


@pytest.mark.parametrize("key", REGISTRY)
@FUZZ
@given(data=st.data())
def test_positions_are_refused_in_one_line_or_read_back(key: str, data: st.DataObject) -> None:
    game = REGISTRY[key].game
    state = refused_well_or_read(game.parse_position, data.draw(hostile(key)))
    if state is not None:
        position = state.position()
        assert game.parse_position(position).position() == position


@pytest.mark.parametrize("key", REGISTRY)
@FUZZ
@given(data=st.data())
def test_variants_are_refused_in_one_line(key: str, data: st.DataObject) -> None:
    game = REGISTRY[key].game
    state = refused_well_or_read(game.new, data.draw(hostile(key)))
    if state is not None:
        assert state.variant in game.variants


@pytest.mark.parametrize("key", REGISTRY)
@FUZZ
@given(data=st.data())
def test_move_lists_split_without_error(key: str, data: st.DataObject) -> None:
    text = data.draw(hostile(key))
    tokens = refused_well(REGISTRY[key].game.split_moves, text)
    assert isinstance(tokens, list)


SQUARE_PARSERS: dict[str, Callable[[str], object]] = {
    "dipole 8x8": lambda text: dipole.parse_square(text, 8),
    "dipole 10x10": lambda text: dipole.parse_square(text, 10),
    "death-stacks": death_stacks.parse_square,
    "bipod cell": bipod.parse_cell,
    "bipod cells": bipod.parse_cells,
    "bipod read_move": bipod.read_move,
    "bipod variant": bipod.normalise_variant,
}


@pytest.mark.parametrize("name", SQUARE_PARSERS)
@FUZZ
@given(data=st.data())
def test_squares_and_cells_are_refused_in_one_line(name: str, data: st.DataObject) -> None:
    text = data.draw(hostile(name.split()[0]))
    refused_well_or_read(SQUARE_PARSERS[name], text)


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("bipod", "e²"),
        ("bipod", "e1²"),
        ("bipod", "v2 O\x1b[2J"),
        ("dipole", "e\N{ARABIC-INDIC DIGIT ONE}-f2"),
        ("dipole", "e1-off:\N{FULLWIDTH DIGIT TWO}"),
        ("death-stacks", "a\N{FULLWIDTH DIGIT ONE}-1-a2"),
        ("death-stacks", "a1-\N{DEVANAGARI DIGIT ONE}-a2"),
        ("dipole", "e1-g3" + "\x1b[2J" * 20_000),
    ],
)
def test_moves_with_other_digits_or_controls_are_refused(key: str, text: str) -> None:
    game = REGISTRY[key].game
    with pytest.raises(GameError) as error:
        game.parse_move(text, game.new())
    assert str(error.value).isprintable()
    assert len(str(error.value)) <= LONGEST_MESSAGE


@pytest.mark.parametrize(
    ("key", "text"),
    [
        ("dipole", "8:W:We1=" + "1" * 5000 + ":Bd8=12"),
        ("dipole", "8:W:We1=1" + "0" * 40 + ":Bd8=12"),
        ("dipole", "8:W:We1=\N{ARABIC-INDIC DIGIT FIVE}:Bd8=12"),
        ("dipole", "8:W:We\N{SUPERSCRIPT ONE}=12:Bd8=12"),
        ("dipole", "\N{FULLWIDTH DIGIT EIGHT}:W:We1=12:Bd8=12"),
        ("death-stacks", death_stacks.START_POSITION.replace(" r", " \x1b[2J")),
        ("bipod", bipod.START_POSITION.replace(" 1 -", " \N{SUPERSCRIPT ONE} -")),
        ("bipod", bipod.START_POSITION.replace(" 1 -", " 1 \N{ARABIC-INDIC DIGIT TWO}")),
        ("bipod", bipod.START_POSITION + " multi" + "\x00" * 100_000),
    ],
)
def test_positions_with_other_digits_huge_numbers_or_controls_are_refused(
    key: str, text: str
) -> None:
    with pytest.raises(GameError) as error:
        REGISTRY[key].game.parse_position(text)
    assert str(error.value).isprintable()
    assert len(str(error.value)) <= LONGEST_MESSAGE


def test_a_cell_group_cannot_name_more_cells_than_the_board() -> None:
    with pytest.raises(GameError, match="names more cells than the board has"):
        bipod.parse_cells("a" * 3000 + "1" * 3000)


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


@FUZZ
@given(st.text(), st.integers(min_value=1, max_value=200))
def test_shown_is_one_printable_line_within_the_limit(text: str, limit: int) -> None:
    result = shown(text, limit)
    assert result.isprintable()
    assert len(result) <= limit
    assert (result == text) == (text.isprintable() and len(text) <= limit)
