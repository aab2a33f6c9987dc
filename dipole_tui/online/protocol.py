"""The online protocol's messages: what each may hold, read strictly, written one way.

JSON objects in WebSocket text frames, each with a `type`. The server reads everything a client
sends through `read_message`, so a frame that is not JSON, not an object, of an unknown type, or
with a field missing, of the wrong kind or too long, is refused with one `ProtocolError` whose
`code` and text are sent back as an `error` message; nothing of it reaches a room. docs/protocol.md
is the reference for people; this table is the reference for the program.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ..games.base import displayable, shown

# Raised whenever a message changes meaning; `hello` carries it. 2: `join` without a secret or
# an invitation watches (in 1 it took the free seat); `rooms` asks after 50 rooms at most.
VERSION: Final = 2
MOST_BYTES: Final = 16_000  # a longer client frame is closed: a client never sends a record
ROOM_LETTERS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no I, O, 0, 1: read aloud, typed right
ROOM_CODE: Final = re.compile(r"[A-Za-z0-9]{4,12}")
SIDES: Final = ("white", "black", "random")

# Error codes, the `code` of an `error` message: stable words a program may match on.
BAD_JSON: Final = "bad-json"  # not JSON, or not an object
BAD_MESSAGE: Final = "bad-message"  # a field missing, of the wrong kind, or too long
UNKNOWN_TYPE: Final = "unknown-type"
UPGRADE: Final = "upgrade"  # the client's protocol version is not the server's
HELLO_FIRST: Final = "hello-first"
NO_ROOM: Final = "no-room"
TOO_MANY_ROOMS: Final = "too-many-rooms"
TOO_FAST: Final = "too-fast"
REFUSED: Final = "refused"  # a move or act the rules or the seats refuse: the text says why

_TEXT = 200  # longest free text field (a move, a game key, a reason) in characters


class ProtocolError(ValueError):
    """A message that is refused: `code` for programs, the text for people (one line)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


# Each type a client may send, and its fields: name -> (kind, required). `str` fields are at
# most _TEXT characters; `int` fields are plain integers (not booleans) from 0.
Field = tuple[type, bool]
CLIENT_MESSAGES: Final[dict[str, dict[str, Field]]] = {
    "hello": {"version": (int, True), "client": (str, False)},
    "create": {
        "game": (str, True),
        "variant": (str, False),
        "side": (str, False),
        "clock": (str, False),
    },
    "join": {"room": (str, True), "secret": (str, False), "invite": (str, False)},
    "watch": {"room": (str, True)},
    "move": {"room": (str, True), "ply": (int, True), "move": (str, True)},
    "resign": {"room": (str, True)},
    "draw": {"room": (str, True)},
    "rooms": {"rooms": (list, True)},
    "ping": {},
}
_SECRET = re.compile(r"[A-Za-z0-9_-]{16,64}")  # a seat's secret, an invitation's key
# An invitation as people pass it on: the room's code, a dash, the key of its free seat.
INVITATION: Final = re.compile(r"([A-Za-z0-9]{4,12})-([A-Za-z0-9_-]{16,64})")


def read_message(frame: str | bytes) -> dict[str, Any]:
    """A client's frame as a checked message; ProtocolError for anything else."""
    if isinstance(frame, bytes):
        raise ProtocolError(BAD_JSON, "binary frames are not read: send JSON text")
    try:
        message = _displayable_in(json.loads(frame))  # what the server logs shows nothing raw
    except (ValueError, RecursionError):
        raise ProtocolError(BAD_JSON, "the frame is not JSON: expected one JSON object") from None
    if not isinstance(message, dict):
        raise ProtocolError(BAD_JSON, "expected one JSON object with a 'type'")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(BAD_MESSAGE, "a message needs a 'type' string")
    fields = CLIENT_MESSAGES.get(kind)
    if fields is None:
        known = ", ".join(CLIENT_MESSAGES)
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type '{shown(kind)}'; known: {known}")
    checked: dict[str, Any] = {"type": kind}  # only the fields of its type: no other is read
    for name, (expected, required) in fields.items():
        value = message.get(name)
        if value is None:
            if required:
                raise ProtocolError(BAD_MESSAGE, f"'{kind}' needs '{name}'")
            continue
        _check(kind, name, value, expected)
        checked[name] = value
    message = checked
    if "room" in message and not ROOM_CODE.fullmatch(message["room"]):
        raise ProtocolError(BAD_MESSAGE, "a room code is 4 to 12 letters and digits")
    if isinstance(message.get("secret"), str) and not _SECRET.fullmatch(message["secret"]):
        raise ProtocolError(BAD_MESSAGE, "that is not a seat's secret")
    if isinstance(message.get("invite"), str) and not _SECRET.fullmatch(message["invite"]):
        raise ProtocolError(BAD_MESSAGE, "that is not an invitation's key")
    if kind == "create" and message.get("side", "random") not in SIDES:
        raise ProtocolError(BAD_MESSAGE, "'side' is white, black or random")
    if kind == "rooms":
        _check_rooms(message["rooms"])
    return message


def _check(kind: str, name: str, value: object, expected: type) -> None:
    if expected is int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1_000_000:
            raise ProtocolError(BAD_MESSAGE, f"'{kind}' needs '{name}' as a whole number")
    elif not isinstance(value, expected):
        raise ProtocolError(BAD_MESSAGE, f"'{kind}' needs '{name}' as a {expected.__name__}")
    elif isinstance(value, str) and (len(value) > _TEXT or not value.isprintable()):
        raise ProtocolError(BAD_MESSAGE, f"'{kind}' has a '{name}' that is too long or not text")


MOST_ROOMS_ASKED: Final = 50  # a client with more seats asks in several messages


def _check_rooms(rooms: list[Any]) -> None:
    """`rooms` asks after the player's own games: each {room, secret}."""
    if len(rooms) > MOST_ROOMS_ASKED:
        raise ProtocolError(BAD_MESSAGE, f"'rooms' asks after at most {MOST_ROOMS_ASKED} rooms")
    for entry in rooms:
        if not isinstance(entry, dict) or set(entry) != {"room", "secret"}:
            raise ProtocolError(BAD_MESSAGE, "'rooms' holds {room, secret} objects")
        room, secret = entry["room"], entry["secret"]
        if not (isinstance(room, str) and ROOM_CODE.fullmatch(room)):
            raise ProtocolError(BAD_MESSAGE, "a room code is 4 to 12 letters and digits")
        if not (isinstance(secret, str) and _SECRET.fullmatch(secret)):
            raise ProtocolError(BAD_MESSAGE, "that is not a seat's secret")


def write_message(kind: str, **fields: Any) -> str:
    """A message as it goes on the wire (either way): compact JSON, `type` first."""
    return json.dumps({"type": kind, **fields}, separators=(",", ":"), ensure_ascii=False)


def read_reply(frame: str | bytes) -> dict[str, Any]:
    """A server's frame, as a client reads it: a JSON object with a `type`, else ProtocolError
    (a client trusts the server's fields beyond that no more than it must: it checks what it
    uses). Every string in it is `displayable`, so that nothing a server says reaches the screen
    raw."""
    try:
        message = _displayable_in(json.loads(frame))
    except (ValueError, RecursionError):
        raise ProtocolError(BAD_JSON, "the server sent something that is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(BAD_MESSAGE, "the server sent a message without a type")
    return message


def _displayable_in(value: Any) -> Any:
    """A JSON value with each of its strings, keys too, made `displayable` (line ends kept, as
    a record's text has them)."""
    if isinstance(value, str):
        return displayable(value, lines=True)
    if isinstance(value, list):
        return [_displayable_in(item) for item in value]
    if isinstance(value, dict):
        return {_displayable_in(key): _displayable_in(item) for key, item in value.items()}
    return value


def room_code(text: str) -> str:
    """A room code as typed (any case) in the form the server keeps: upper case."""
    return text.upper()


def room_or_invitation(text: str) -> tuple[str, str | None] | None:
    """What `--join` and the Online dialog take: a room's code (to watch it, or to come back
    to a seat kept) or an invitation `CODE-KEY` (to take its free seat): the code in upper
    case and the key as given (None for a bare code); None for anything else."""
    if ROOM_CODE.fullmatch(text):
        return room_code(text), None
    invited = INVITATION.fullmatch(text)
    return None if invited is None else (room_code(invited[1]), invited[2])


def invitation_text(room: str, key: str) -> str:
    """An invitation as a friend types it after `--join`."""
    return f"{room}-{key}"


__all__ = [
    "BAD_JSON",
    "BAD_MESSAGE",
    "CLIENT_MESSAGES",
    "HELLO_FIRST",
    "INVITATION",
    "MOST_BYTES",
    "MOST_ROOMS_ASKED",
    "NO_ROOM",
    "REFUSED",
    "ROOM_CODE",
    "ROOM_LETTERS",
    "SIDES",
    "TOO_FAST",
    "TOO_MANY_ROOMS",
    "UNKNOWN_TYPE",
    "UPGRADE",
    "VERSION",
    "ProtocolError",
    "invitation_text",
    "read_message",
    "read_reply",
    "room_code",
    "room_or_invitation",
    "write_message",
]
