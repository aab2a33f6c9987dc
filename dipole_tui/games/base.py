"""The game-neutral protocol that bots, records, the command line and the app depend on.

A game is a module-level object (`Game`) that knows its name, variants and notation; a
`State` is one position plus its history. The shape follows python-chess (`Board`, `push`/`pop`,
`outcome()`) and OpenSpiel (`State`): moves are small immutable values that only their own game
interprets, so a placement game (Bi-Pod) or a game of mixed stacks (Death Stacks) fits the same
protocol as Dipole.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from mypy_extensions import mypyc_attr

STANDARD_VARIANT = "standard"  # a record's Variant tag for a default variant without a name


class GameError(ValueError):
    """Any text the engine refuses: a malformed move, position or record, or an illegal move.

    The message is one line that says what was wrong and what is expected, fit to show a player.
    """


def displayable(text: str, *, lines: bool = False) -> str:
    """The one sanitizer of text from outside (a record's tags and comments, a paste, a file
    name, a server's word): every character a terminal would act on rather than show (an escape
    sequence, a C1 control, a right-to-left override) is escaped as `repr` does (`\\x1b`,
    `\\u202e`), so that nobody else's text can write the clipboard, set the window title or
    turn a line around. `lines` keeps the line ends of a text that may span lines (a comment)."""
    if text.isprintable():  # nearly every text: kept whole, not looked at character by character
        return text
    return "".join(_escaped(char, lines) for char in text)


def _escaped(char: str, lines: bool) -> str:
    if char.isprintable() or (lines and char == "\n"):
        return char
    return repr(char)[1:-1]


def shown(text: str, limit: int = 40) -> str:
    """Input fit to quote in a one-line message: escaped as `displayable` escapes it, a line end
    too, and cut to at most `limit` characters, a `…` marking the cut, so that a huge line is
    not printed back in full."""
    # Each character shows as at least one, so no more than `limit + 1` of them are ever looked at.
    pieces = [_escaped(char, False) for char in text[: limit + 1]]
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


class Termination(Enum):
    """Which rule ended a game, for code to match on; `Outcome.reason` tells players in words.

    One member per way the games end, named after the rule, as python-chess's `Termination`."""

    NO_CHECKERS = "no checkers"  # Dipole: a side has no checkers left, and loses
    NO_STACKS = "no stacks"  # Death Stacks: a side controls no stack, and loses
    REPETITION = "repetition"  # Death Stacks: the same position a third time, a draw
    CHAINS_HOME = "chains home"  # Bi-Pod: both runner chains reach a short side, the Runner wins
    CHAIN_CUT = "chain cut"  # Bi-Pod: a runner chain can no longer reach a short side
    BOARD_FULL = "board full"  # the board filled with no result: a draw (Bi-Pod before adoption)
    RESIGNED = "resigned"  # a player resigned: Bi-Pod's `resign` move, or any game's act
    TIME = "time"  # a player's clock ran out: lost on time
    AGREED = "agreed draw"  # the players agreed to a draw, in a game that can be drawn
    # A rule of a game's own that no member names (the tests' toy game's three in a row): the
    # reason says which. A game the program ships names its rule here instead.
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` is a side index (0 moves first), or None for a draw; by which
    rule (`termination`), and in a player's words (`reason`)."""

    winner: int | None
    termination: Termination
    reason: str

    def result(self) -> str:
        """The result as records write it: `1-0` (the first side won), `0-1`, or `1/2-1/2`."""
        return result_of_winner(self.winner)


def result_of_winner(winner: int | None) -> str:
    """`1-0` when the side that moves first won, `0-1` the other, `1/2-1/2` a draw."""
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]


@dataclass(frozen=True, slots=True)
class Threat:
    """A square (or cell) where side `by` can strike with one move: a stack of the other side
    it can capture (Dipole, Death Stacks), or a cell where its stone cuts a chain (Bi-Pod).
    `square` is named in the game's notation, so a generic layer needs no board to show it."""

    square: str
    by: int


# -- the protocol -------------------------------------------------------------------------------

M = TypeVar("M")  # a game's move type: a small immutable value only its own game looks inside
S = TypeVar("S", bound="State[Any]")


@dataclass(frozen=True)
class Figures:
    """What a game's side panel counts: a heading per column and one row per side."""

    headings: tuple[str, ...]
    rows: tuple[tuple[int | str, ...], tuple[int | str, ...]]
    note: str = ""  # lines under them


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' toy games subclass it
class State(ABC, Generic[M]):
    """One position of one game, with the moves that led to it, so it can be undone.

    A game's state subclasses this: the rules are its own; comparing, hashing, the list of moves
    played and the slow but sure `count_moves` and `is_legal` are written here once."""

    __slots__ = ()

    to_move: int  # 0 for the side that moves first, 1 for the other
    key: int  # the position's Zobrist key, kept up to date move by move
    # One entry per move played, oldest first, each a tuple whose first item is the move and
    # the rest what `undo` needs to restore the position exactly.
    _history: list[tuple[Any, ...]]

    @property
    @abstractmethod
    def variant(self) -> str: ...

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal move in canonical order; empty exactly when the game is over."""

    @abstractmethod
    def play(self, move: M) -> None:
        """Apply a move known to be legal (from `legal_moves` or `Game.parse_move`)."""

    @abstractmethod
    def undo(self) -> M:
        """Take back the last move played and return it."""

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    @abstractmethod
    def position(self) -> str:
        """The position string, which `Game.parse_position` reads back."""

    @abstractmethod
    def copy(self: S) -> S:
        """An independent state with the same position and history (its arrays copied: a
        search copies the state it is given, so this must not replay the game)."""

    @abstractmethod
    def diagram(self) -> str:
        """The board as plain text, for the command line."""

    @property
    def moves_played(self) -> list[M]:
        """The moves played since this state was created, oldest first."""
        return [entry[0] for entry in self._history]

    @property
    def plies(self) -> int:
        """How many moves have been played since this state was created (`moves_played` builds
        the list; this does not)."""
        return len(self._history)

    def count_moves(self) -> int:
        """len(legal_moves()); a game overrides it with a count that builds no moves (perft's
        last ply and the bots' mobility call it at every leaf)."""
        return len(self.legal_moves())

    def is_legal(self, move: M) -> bool:
        """Whether `move` may be played here: one of `legal_moves()`, or a move that a game
        allows without listing it (Bi-Pod's resign). A game may answer without building them."""
        return move in self.legal_moves()

    def random_move(self, rng: random.Random) -> M:
        """The move `rng.choice(self.legal_moves())` would draw, for playouts that only need to
        reach positions: uniform over the legal moves, and the same game from the same seed
        whichever of the two a caller uses. A game may draw it without building the list (Bi-Pod
        multi's first turn has 82,240 moves). IndexError when the game is over, as `choice`."""
        return rng.choice(self.legal_moves())

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and type(other) is type(self)
            and self.position() == other.position()
        )

    def __hash__(self) -> int:
        return hash(self.position())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.position()!r})"


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' toy games subclass it
class Game(ABC, Generic[S, M]):
    """The rules of one game: its names, variants, notation, position strings and panel.

    Its facts are class variables, so a subclass's own (the tests' toy games, interpreted) are
    the ones read when the rules are compiled (mypyc reads a plain attribute from the instance)."""

    key: ClassVar[str]  # command-line name, e.g. "dipole"
    name: ClassVar[str]  # record tag and display name, e.g. "Dipole"
    variants: ClassVar[tuple[str, ...]]  # the first is the default
    side_names: ClassVar[tuple[str, str]]
    # What starts a comment to the end of a line in a record (a regular expression): `;`, unless
    # the game has cells whose names begin with it (Bi-Pod's `;1`).
    line_comment: ClassVar[str] = ";"
    # What stands between two moves written in a row (a line, a pair of the move list): a game
    # whose moves hold spaces (Bi-Pod's `i3 o`) needs more than a space to keep them apart.
    move_separator: ClassVar[str] = " "
    # A few moves as typed, short enough for one line of the side panel.
    move_examples: ClassVar[str]
    # Every game ends (by its own rules: a bounded length, or a draw by repetition): the exact
    # solver can prove its positions.
    solvable: ClassVar[bool] = False
    # Whether a position can come again in one game, so that a search must treat a repetition
    # (a draw, in the solver) rather than count on every line going forward.
    repeats: ClassVar[bool] = False
    # Whether a game of this kind can end drawn (by its rules: a repetition, a full board), so
    # that the players may also agree to a draw.
    can_draw: ClassVar[bool] = False

    def new(self, variant: str | None = None) -> S:
        """The start position of a variant (the default variant when None)."""
        variant = variant or self.variants[0]
        if variant not in self.variants:
            expected = " or ".join(shown(name) for name in self.variants)
            raise GameError(f"{self.name} has no variant '{shown(variant)}'; expected {expected}")
        return self.start(variant)

    @abstractmethod
    def start(self, variant: str) -> S:
        """The start position of a variant known to exist."""

    @abstractmethod
    def parse_position(self, text: str) -> S: ...

    @abstractmethod
    def parse_move(self, text: str, state: S) -> M:
        """A legal move of `state`, or GameError saying what is wrong with the text."""

    @abstractmethod
    def format_move(self, move: M) -> str: ...

    @abstractmethod
    def figures(self, state: S) -> Figures:
        """What the side panel counts for each side (pieces, roles, captures...)."""

    @abstractmethod
    def threats(self, state: S) -> list[Threat]:
        """What each side could strike with its next move if it moved now, for the threat
        overlay: the side to move's in the position as it is, the other side's as if it were
        its turn. In the game's own square order; empty when the game is over. `state` is left
        as it was."""

    def move_sentence(self, side: str, move: M) -> str:
        """What the side panel says after `side` (its name) played `move`."""
        return f"{side} played {self.format_move(move)}."

    def is_pass(self, move: M) -> bool:
        """Whether `move` is a pass, which the program plays for a side with no legal move."""
        return False

    def role(self, state: S, side: int) -> str:
        """The part `side` plays in `state` where the game gives sides parts of their own
        (Bi-Pod's Runner and Blocker, once one adopted); "" where it does not."""
        return ""

    def is_resignation(self, move: M) -> bool:
        """Whether `move` is the game's own word for resigning (Bi-Pod's `resign`, as its sheet
        writes a game): a session ends the game by resignation for it, as in every game, and a
        record read takes it as that ending, not as a move (docs/rules.md)."""
        return False

    def gives_away(self, move: M) -> bool:
        """Whether `move` throws material away for nothing (Dipole's removals): random openings
        avoid such moves while there is another choice."""
        return False

    def move_words(self, move: M) -> str:
        """`move` told in words that leave part of it to find (which piece, what kind of move),
        for a puzzle's first hint; "" when the game has nothing smaller to say than the move."""
        return ""

    def split_moves(self, text: str) -> list[str]:
        """Split record text into move tokens (a game whose moves contain spaces overrides)."""
        return text.split()

    # -- editing a position: what the position editor asks; the rules decide every answer ----

    @abstractmethod
    def edit_squares(self, variant: str) -> tuple[EditSquare, ...]:
        """Every square a piece may stand on, where the editor draws it."""

    @abstractmethod
    def edit_help(self, variant: str) -> str:
        """What a square may hold, in a few words with examples, for the editor's panel."""

    @abstractmethod
    def square_contents(self, state: S) -> dict[str, str]:
        """What stands on each occupied square, by name, as `read_token` writes it."""

    @abstractmethod
    def read_token(self, variant: str, square: str, text: str) -> str:
        """What `text` puts on `square`, written as `square_contents` writes it ("" for empty),
        or GameError saying what may stand there."""

    @abstractmethod
    def position_from(
        self,
        variant: str,
        contents: Mapping[str, str],
        to_move: int,
        choices: Mapping[str, str] | None = None,
    ) -> S:
        """The position with `contents` on its squares and `to_move` to move (and the game's
        own `edit_choices`), ready to play; GameError in one line for a position the rules
        refuse, a finished one included (there is nothing to play or analyse in it)."""

    def step_token(self, variant: str, token: str, step: int, to_move: int) -> str:
        """The token with one piece more (`step` 1) or less (-1), for the editor's + and -; the
        result is still read by `read_token`. GameError where that means nothing."""
        raise GameError(
            f"+ and - mean nothing in {self.name}; type what the square holds: "
            f"{self.edit_help(variant)}"
        )

    def edit_choices(self, variant: str) -> dict[str, tuple[str, ...]]:
        """What else a position holds besides its squares and the side to move, by name, with
        the values a player may choose (Bi-Pod's Runner); none by default."""
        return {}

    def choices_of(self, state: S) -> dict[str, str]:
        """The `edit_choices` values of `state`."""
        return {}


class EditSquare(NamedTuple):
    """A square as the position editor draws it: its name, its row from the top, and its column
    counted in half squares (a hex board's rows sit half a cell apart)."""

    name: str
    row: int
    column: int


AnyGame = Game[Any, Any]  # a game of the registry, whatever its moves; generic layers hold these


def title(game: AnyGame, variant: str) -> str:
    """How a game is named to players: with its variant when it has a choice of them and this
    one has a name ("Dipole 10x10", "Bi-Pod multi", but "Death Stacks", "Bi-Pod")."""
    return game.name if len(game.variants) == 1 or not variant else f"{game.name} {variant}"
