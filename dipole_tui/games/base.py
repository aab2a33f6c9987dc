"""The game-neutral protocol that bots, records, the command line and the app depend on.

A game is a module-level object (`Game`) that knows its name, variants and notation; a
`State` is one position plus its history. The shape follows python-chess (`Board`, `push`/`pop`,
`outcome()`) and OpenSpiel (`State`): moves are small immutable values that only their own game
interprets, so a placement game (Bi-Pod) or a game of mixed stacks (Death Stacks) fits the same
protocol as Dipole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


class GameError(ValueError):
    """Any text the engine refuses: a malformed move, position or record, or an illegal move.

    The message is one line that says what was wrong and what is expected, fit to show a player.
    """


def shown(text: str, limit: int = 40) -> str:
    """Input fit to quote in a one-line message: a control character (an escape sequence, NUL,
    CR, a newline) must not reach the terminal raw, and a huge line must not be printed back in
    full. Characters that are not printable are escaped as `repr` does (`\\x1b`, `\\r`), and the
    result is cut to at most `limit` characters, a `…` marking the cut."""
    # Each character shows as at least one, so no more than `limit + 1` of them are ever looked at.
    pieces = [char if char.isprintable() else repr(char)[1:-1] for char in text[: limit + 1]]
    whole = "".join(pieces)
    if len(text) <= limit and len(whole) <= limit:
        return whole
    kept: list[str] = []
    room = limit - 1
    for piece in pieces:
        if len(piece) > room:
            break
        kept.append(piece)
        room -= len(piece)
    return "".join(kept) + "…"


class NotationError(GameError):
    """Text that is not well formed (a typo), as opposed to a well-formed but illegal move."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules forbid here; the message says why, in the game's words."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` is a side index (0 moves first), or None for a draw."""

    winner: int | None
    reason: str

    def result(self) -> str:
        """The result as records write it: `1-0` (the first side won), `0-1`, or `1/2-1/2`."""
        return result_of_winner(self.winner)


def result_of_winner(winner: int | None) -> str:
    """`1-0` when the side that moves first won, `0-1` the other, `1/2-1/2` a draw."""
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]


# Moves are opaque to the protocol: each game defines its own immutable move type, and only
# that game's functions look inside. `Any` keeps every game's state a structural `State`.
Move = Any


class State(Protocol):
    """One position of one game, with the moves that led to it, so it can be undone."""

    @property
    def to_move(self) -> int:
        """0 for the side that moves first, 1 for the other."""
        ...

    @property
    def variant(self) -> str: ...

    def legal_moves(self) -> list[Move]:
        """Every legal move in canonical order; empty exactly when the game is over."""
        ...

    def play(self, move: Move) -> None:
        """Apply a move known to be legal (from `legal_moves` or `Game.parse_move`)."""
        ...

    def undo(self) -> Move:
        """Take back the last move played and return it."""
        ...

    def outcome(self) -> Outcome | None: ...

    def position(self) -> str:
        """The position string, which `Game.parse_position` reads back."""
        ...

    def copy(self) -> State:
        """An independent state with the same position and history."""
        ...

    def diagram(self) -> str:
        """The board as plain text, for the command line."""
        ...

    @property
    def moves_played(self) -> list[Move]:
        """The moves played since this state was created, oldest first."""
        ...


class Game(Protocol):
    """The rules of one game: its names, variants, notation and position strings."""

    key: str  # command-line name, e.g. "dipole"
    name: str  # record tag and display name, e.g. "Dipole"
    variants: tuple[str, ...]  # the first is the default
    side_names: tuple[str, str]
    # What starts a comment to the end of a line in a record (a regular expression): `;`, unless
    # the game has cells whose names begin with it (Bi-Pod's `;1`).
    line_comment: str

    def new(self, variant: str | None = None) -> State:
        """The start position of a variant (the default variant when None)."""
        ...

    def parse_position(self, text: str) -> State: ...

    def parse_move(self, text: str, state: State) -> Move:
        """A legal move of `state`, or GameError saying what is wrong with the text."""
        ...

    def format_move(self, move: Move) -> str: ...

    def is_pass(self, move: Move) -> bool:
        """Whether `move` is a pass (played by the program for a side with no legal move)."""
        ...

    def split_moves(self, text: str) -> list[str]:
        """Split record text into move tokens (a game whose moves contain spaces overrides)."""
        ...


def title(game: Game, variant: str) -> str:
    """How a game is named to players: with its variant when it has a choice of them and this
    one has a name ("Dipole 10x10", "Bi-Pod multi", but "Death Stacks", "Bi-Pod")."""
    return game.name if len(game.variants) == 1 or not variant else f"{game.name} {variant}"
