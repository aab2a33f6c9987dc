"""The protocol's reader: whatever a client sends is a checked message or one ProtocolError."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dipole_tui.online.protocol import (
    CLIENT_MESSAGES,
    ProtocolError,
    read_message,
    room_code,
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
    kind = draw(st.sampled_from(sorted(CLIENT_MESSAGES)))
    names = [*CLIENT_MESSAGES[kind], "room", "secret", "extra"]
    fields = draw(st.dictionaries(st.sampled_from(names), FIELD, max_size=5))
    return {"type": kind, **fields}


def read(frame: str | bytes) -> None:
    try:
        message = read_message(frame)
    except ProtocolError as error:
        assert error.code and str(error) and "\n" not in str(error)
    else:
        assert isinstance(message, dict) and message["type"] in CLIENT_MESSAGES


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
    frame = write_message("move", room="abcdef", ply=3, move="e1-e3")
    assert read_message(frame) == {"type": "move", "room": "abcdef", "ply": 3, "move": "e1-e3"}
    assert room_code("abcDEF") == "ABCDEF"
