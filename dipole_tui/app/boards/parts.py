"""How a board's widget lends its name to what one of its parts holds: `selected` read on the
board is its selection's. The board keeps the names the app and the tests read; the part
keeps the state."""

from __future__ import annotations

from typing import Generic, Self, TypeVar, overload

T = TypeVar("T")


class Part(Generic[T]):
    """An attribute of the board that lives in the part named `part` (under the same name),
    read and set there."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, board: None, owner: type) -> Self: ...
    @overload
    def __get__(self, board: object, owner: type) -> T: ...
    def __get__(self, board: object | None, owner: type) -> Self | T:
        if board is None:
            return self
        found: T = getattr(getattr(board, self.part), self.name)
        return found

    def __set__(self, board: object, value: T) -> None:
        setattr(getattr(board, self.part), self.name, value)
