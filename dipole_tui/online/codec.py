"""The codec of the online protocol: a message class's fields read by their annotations, and a
message written one way. The messages themselves are in `protocol.py`.

A field is read by its kind and the bounds `Annotated` adds (a `Shape` for a text, a `range` for
a number or a list's length); whatever does not fit is one `ProtocolError` with a stable code and
a line for people. Every string read, keys too, is `displayable` first.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import types
from dataclasses import dataclass
from typing import Annotated, Any, Final, Never, Union, get_args, get_origin, get_type_hints

from ..games.base import displayable, shown

# Error codes of the codec's refusals (the `code` of an `Error`): stable words a program may
# match on. The protocol adds its own.
BAD_JSON: Final = "bad-json"  # not JSON, or not an object
BAD_MESSAGE: Final = "bad-message"  # a field missing, of the wrong kind or too long
UNKNOWN_TYPE: Final = "unknown-type"
_NUMBERS = range(1_000_000)  # every whole number either way, unless its field says less


class ProtocolError(ValueError):
    """A message that is refused: `code` for programs, the text for people (one line)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


@dataclass(frozen=True)
class Shape:
    """What a text field must match, and the refusal of one that does not."""

    pattern: re.Pattern[str]
    says: str


def unanswered(message: Never) -> ProtocolError:
    """The last case of a dispatch (`match message: ... case _: raise unanswered(message)`):
    typed `Never` as `typing.assert_never`'s argument is, so a message type the `match` misses
    fails mypy; should one come anyway, it is refused, never taken for another."""
    kind = getattr(message, "TYPE", type(message).__name__)
    return ProtocolError(UNKNOWN_TYPE, f"'{shown(str(kind))}' is not answered here")


def write_message(message: Any) -> str:
    """A message as it goes on the wire (either way): compact JSON, `type` first; an optional
    field (one whose default is None) is left out while it is None."""
    return json.dumps({"type": message.TYPE} | _plain(message), separators=(",", ":"),
                      ensure_ascii=False)  # fmt: skip


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {
            field.name: _plain(getattr(value, field.name))
            for field in dataclasses.fields(value)
            if not (field.default is None and getattr(value, field.name) is None)
        }
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def read(frame: str | bytes, kinds: dict[str, type[Any]], most_text: int | None) -> Any:
    """The message of one of `kinds` (by its `type`) that `frame` holds, each string of it at
    most `most_text` characters of one line (None: any length, lines kept); ProtocolError for
    anything else."""
    if isinstance(frame, bytes):
        raise ProtocolError(BAD_JSON, "binary frames are not read: send JSON text")
    try:
        data = _displayable_in(json.loads(frame))  # what is logged or shown is never raw
    except (ValueError, RecursionError):
        raise ProtocolError(BAD_JSON, "the frame is not JSON: expected one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError(BAD_JSON, "expected one JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(BAD_MESSAGE, "a message needs a 'type' string")
    cls = kinds.get(kind)
    if cls is None:
        known = ", ".join(kinds)
        raise ProtocolError(UNKNOWN_TYPE, f"unknown message type '{shown(kind)}'; known: {known}")
    return _Reader(kind, most_text).fields(cls, data)


@functools.cache
def _fields(cls: Any) -> list[tuple[str, Any, bool]]:
    """Each field of a message class: its name, its annotation and whether it is required."""
    hints = get_type_hints(cls, include_extras=True)
    return [
        (field.name, hints[field.name], field.default is dataclasses.MISSING)
        for field in dataclasses.fields(cls)
    ]


@dataclass(frozen=True)
class _Reader:
    """Reads the fields of one message of type `kind` (only those of its class: no other)."""

    kind: str
    most_text: int | None

    def refuse(self, text: str) -> ProtocolError:
        return ProtocolError(BAD_MESSAGE, text)

    def fields(self, cls: Any, data: dict[str, Any]) -> Any:
        values = {}
        for name, hint, required in _fields(cls):
            value = data.get(name)
            if value is not None:
                values[name] = self.value(name, hint, value)
            elif required and not _nullable(hint):
                raise self.refuse(f"'{self.kind}' needs '{name}'")
            elif required:
                values[name] = None
        return cls(**values)

    def value(self, name: str, hint: Any, value: Any) -> Any:
        origin, args = get_origin(hint), get_args(hint)
        if origin is Annotated:
            bounds = next((rule for rule in args[1:] if isinstance(rule, range)), None)
            if args[0] is int and bounds is not None:  # a number its field bounds (may be < 0)
                if type(value) is not int or value not in bounds:
                    raise self.refuse(
                        f"'{self.kind}' needs '{name}' from {bounds.start} to {bounds.stop - 1}"
                    )
                return value
            read = self.value(name, args[0], value)
            for rule in args[1:]:
                self.hold(name, rule, read)
            return read
        if origin in (Union, types.UnionType):  # X | None
            if value is None:  # an item of a list (a field's None is read before this)
                return None
            return self.value(name, next(a for a in args if a is not type(None)), value)
        if origin is tuple:
            return self.items(name, args, value)
        if dataclasses.is_dataclass(hint):
            if not isinstance(value, dict):
                names = ", ".join(field.name for field in dataclasses.fields(hint))
                raise self.refuse(f"'{self.kind}' holds {{{names}}} objects")
            return self.fields(hint, value)
        return self.scalar(name, hint, value)

    def items(self, name: str, args: tuple[Any, ...], value: Any) -> tuple[Any, ...]:
        many = len(args) == 2 and args[1] is Ellipsis
        if not isinstance(value, list) or not (many or len(value) == len(args)):
            size = "a list" if many else f"a list of {len(args)}"
            raise self.refuse(f"'{self.kind}' needs '{name}' as {size}")
        kinds = [args[0]] * len(value) if many else list(args)
        return tuple(self.value(name, kind, item) for kind, item in zip(kinds, value, strict=True))

    def scalar(self, name: str, hint: Any, value: Any) -> Any:
        if hint is bool and isinstance(value, bool):
            return value
        if hint is int and type(value) is int and value in _NUMBERS:
            return value
        if hint is float and type(value) in (int, float) and math.isfinite(value):
            return float(value)
        if hint is str and isinstance(value, str):
            if self.most_text is not None and (
                len(value) > self.most_text or not value.isprintable()
            ):
                raise self.refuse(f"'{self.kind}' has a '{name}' that is too long or not text")
            return value
        what = {int: "a whole number", float: "a number"}.get(hint, f"a {hint.__name__}")
        raise self.refuse(f"'{self.kind}' needs '{name}' as {what}")

    def hold(self, name: str, rule: object, value: Any) -> None:
        if isinstance(rule, Shape) and not rule.pattern.fullmatch(value):
            raise self.refuse(rule.says)
        if isinstance(rule, range) and isinstance(value, tuple) and len(value) not in rule:
            raise self.refuse(f"'{self.kind}' holds at most {rule.stop - 1} '{name}'")
        if isinstance(rule, range) and isinstance(value, int) and value not in rule:
            raise self.refuse(f"'{self.kind}' needs '{name}' from {rule.start} to {rule.stop - 1}")


def _nullable(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint)


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


__all__ = [
    "BAD_JSON",
    "BAD_MESSAGE",
    "UNKNOWN_TYPE",
    "ProtocolError",
    "Shape",
    "read",
    "unanswered",
    "write_message",
]
