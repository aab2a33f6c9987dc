"""The protocol's reader: whatever a client sends is a checked message or one ProtocolError."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dipole_tui.online.protocol import (
    CLIENT_TYPES,
    Move,
    ProtocolError,
    invitation_text,
    read_message,
    room_code,
    room_or_invitation,
    write_message,
)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
FIELD = st.one_of(JSON, st.text(max_size=250), st.integers(-5, 2_000_000), st.just("ABCDEF"))


@st.composite
def near_messages(draw: st.DrawFn) -> dict[str, Any]:
    """A message of a known type with some of its fields, of any kind, and perhaps others."""
    kind = draw(st.sampled_from(sorted(CLIENT_TYPES)))
    names = [*fields_of(kind), "room", "secret", "extra"]
    fields = draw(st.dictionaries(st.sampled_from(names), FIELD, max_size=5))
    return {"type": kind, **fields}


def fields_of(kind: str) -> list[str]:
    return [field.name for field in dataclasses.fields(CLIENT_TYPES[kind])]


def read(frame: str | bytes) -> None:
    try:
        message = read_message(frame)
    except ProtocolError as error:
        assert error.code and str(error) and "\n" not in str(error)
    else:
        assert isinstance(message, tuple(CLIENT_TYPES.values()))
        assert CLIENT_TYPES[message.TYPE] is type(message)


@given(st.text(max_size=300) | st.binary(max_size=300))
def test_any_text_or_bytes_is_a_message_or_a_protocol_error(frame: str | bytes) -> None:
    read(frame)


@given(JSON)
def test_any_json_value_is_a_message_or_a_protocol_error(value: object) -> None:
    read(json.dumps(value))


@given(near_messages())
def test_a_known_type_with_any_fields_is_a_message_or_a_protocol_error(
    message: dict[str, Any],
) -> None:
    read(json.dumps(message))


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("[" * 100_000, "bad-json"),  # deeper than the parser goes
        ('{"type": "move", "room": "ABCDEF", "ply": true, "move": "e1-e3"}', "bad-message"),
        ('{"type": "move", "room": "AB", "ply": 0, "move": "e1-e3"}', "bad-message"),
        ('{"type": "join", "room": "ABCDEF", "secret": "short"}', "bad-message"),
        ('{"type": "rooms", "rooms": [{"room": "ABCDEF"}]}', "bad-message"),
        ('{"type": "create", "game": "dipole", "side": "purple"}', "bad-message"),
        ('{"type": "fly"}', "unknown-type"),
        ("42", "bad-json"),
    ],
)
def test_bad_messages_have_their_codes(frame: str, code: str) -> None:
    with pytest.raises(ProtocolError) as refusal:
        read_message(frame)
    assert refusal.value.code == code


def test_a_good_message_reads_back_and_a_code_in_any_case_is_one_room() -> None:
    frame = write_message(Move("abcdef", 3, "e1-e3"))
    assert json.loads(frame) == {"type": "move", "room": "abcdef", "ply": 3, "move": "e1-e3"}
    assert read_message(frame) == Move("abcdef", 3, "e1-e3")
    assert room_code("abcDEF") == "ABCDEF"


GOOD: dict[str, dict[str, Any]] = {
    "hello": {"version": 3, "client": "tests"},
    "create": {"game": "dipole", "variant": "8x8", "side": "white", "clock": "5+3", "rated": True},
    "join": {"room": "ABCDEF", "secret": "s" * 32, "invite": "i" * 24, "since": 999_999},
    "watch": {"room": "ABCDEF", "since": 999_999},
    "move": {"room": "ABCDEF", "ply": 0, "move": "e1-e3"},
    "resign": {"room": "ABCDEF"},
    "draw": {"room": "ABCDEF"},
    "rooms": {"rooms": [{"room": "ABCDEF", "secret": "s" * 32}] * 50},
    "claim": {"name": "n" * 20, "token": "t" * 64},
    "players": {"game": "d" * 40, "speed": "classical"},
    "seek": {
        "game": "d" * 40,
        "variant": "v" * 200,
        "clock": "c" * 200,
        "rated": False,
        "side": "random",
        "range": 4000,
        "invite": "n" * 20,
    },
    "accept": {"seek": "A" * 12},
    "lobby": {"game": "d" * 40},
    "takeback": {"room": "ABCDEF"},
    "rematch": {"room": "ABCDEF"},
    "decline": {"room": "ABCDEF", "what": "rematch"},
    "say": {"room": "ABCDEF", "text": "t" * 140},
    "games": {"name": "n" * 20, "game": "d" * 40, "before": "A" * 12},
    "ping": {},
}
TOO_MUCH: dict[type, object] = {
    str: "a" * 201,
    int: 1_000_000,
    bool: 1,  # not a bool
    list: [{"room": "ABCDEF", "secret": "s" * 32}] * 51,
}


@pytest.mark.parametrize("kind", sorted(CLIENT_TYPES))
def test_every_field_of_every_message_is_bounded(kind: str) -> None:
    """Each type, with every field at its most, reads (and writes back as it was); one field
    past it is refused."""
    assert set(GOOD[kind]) == set(fields_of(kind))
    good = {"type": kind, **GOOD[kind]}
    assert json.loads(write_message(read_message(json.dumps(good)))) == good
    for name, value in GOOD[kind].items():
        with pytest.raises(ProtocolError) as refusal:
            read_message(json.dumps({**good, name: TOO_MUCH[type(value)]}))
        assert refusal.value.code == "bad-message", name


def test_an_invitation_is_a_code_and_a_key() -> None:
    assert room_or_invitation("k7qmwd") == ("K7QMWD", None)
    assert room_or_invitation("k7qmwd-Ab_c-0123456789abcdefgh") == (
        "K7QMWD",
        "Ab_c-0123456789abcdefgh",
    )
    for wrong in ("K7", "K7QMWD-short", "K7QMWD-" + "x" * 65, "K7QMWD-\x1b[2J" + "x" * 20, ""):
        assert room_or_invitation(wrong) is None
    assert invitation_text("K7QMWD", "k" * 24) == "K7QMWD-" + "k" * 24
