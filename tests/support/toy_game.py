"""A fourth game, for the tests only: tic-tac-toe on 3x3, in the protocol of
`dipole_tui/games/base.py`, with a registry entry of its own.

It is there to show that a game joins the program by its entry alone: the conformance suite, the
command line, the records and the bots take it without a change to any module of the package.
The `misere` variant (three in a row loses) gives the suite a second variant to go through.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from game_samples import Samples, Threats

from dipole_tui.bots.levels import Style
from dipole_tui.bots.search import Knowledge
from dipole_tui.games.base import (
    EditSquare,
    Figures,
    Game,
    GameError,
    IllegalMoveError,
    NotationError,
    Outcome,
    State,
    Termination,
    Threat,
    shown,
)
from dipole_tui.registry import Entry

CROSSES, NOUGHTS = 0, 1
SIDE_NAMES = ("Crosses", "Noughts")
MARKS = "xo"  # by side
EMPTY = "."
FILES = "abc"
SIZE = 3
CELLS = SIZE * SIZE  # numbered rank * 3 + file, from a1 (0) to c3 (8)
STANDARD, MISERE = "standard", "misere"
LINES = (
    *((r * 3, r * 3 + 1, r * 3 + 2) for r in range(SIZE)),
    *((f, f + 3, f + 6) for f in range(SIZE)),
    (0, 4, 8),
    (2, 4, 6),
)
POSITION_FORM = "3 ranks (3 down to 1) of x, o or . separated by /, then x or o, then misere"

Move = int  # the cell marked

# Zobrist keys: one per (cell, mark), one for Noughts to move, one for the misere variant.
_RANDOM = random.Random(9)
ZOBRIST = [[_RANDOM.getrandbits(64) for _ in MARKS] for _ in range(CELLS)]
NOUGHTS_TO_MOVE_KEY = _RANDOM.getrandbits(64)
MISERE_KEY = _RANDOM.getrandbits(64)


def cell_name(cell: int) -> str:
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def line_of(cells: list[int | None], side: int) -> bool:
    """Whether `side` has three in a row."""
    return any(all(cells[cell] == side for cell in line) for line in LINES)


class ToyState(State[Move]):
    """A tic-tac-toe position with its history (the cells marked, in order)."""

    # No __slots__: slots of its own would hide State's compiled attributes (`_history`, `key`,
    # `to_move`) from the compiled code that reads them (mypyc reads its own slot).

    def __init__(self, cells: list[int | None], to_move: int, variant: str) -> None:
        self.cells = list(cells)
        self.to_move = to_move
        self._variant = variant
        self.key = self.zobrist_key()
        self._history: list[tuple[Move]] = []

    @property
    def variant(self) -> str:
        return self._variant

    def zobrist_key(self) -> int:
        key = NOUGHTS_TO_MOVE_KEY if self.to_move == NOUGHTS else 0
        if self._variant == MISERE:
            key ^= MISERE_KEY
        for cell, side in enumerate(self.cells):
            if side is not None:
                key ^= ZOBRIST[cell][side]
        return key

    def outcome(self) -> Outcome | None:
        for side in (CROSSES, NOUGHTS):
            if line_of(self.cells, side):
                if self._variant == MISERE:
                    return Outcome(
                        1 - side, Termination.OTHER, f"{SIDE_NAMES[side]} made three in a row"
                    )
                return Outcome(side, Termination.OTHER, f"{SIDE_NAMES[side]} made three in a row")
        if None not in self.cells:
            return Outcome(None, Termination.BOARD_FULL, "the board is full")
        return None

    def legal_moves(self) -> list[Move]:
        if self.outcome() is not None:
            return []
        return [cell for cell, side in enumerate(self.cells) if side is None]

    def play(self, move: Move) -> None:
        self.cells[move] = self.to_move
        self.key ^= ZOBRIST[move][self.to_move] ^ NOUGHTS_TO_MOVE_KEY
        self.to_move ^= 1
        self._history.append((move,))

    def undo(self) -> Move:
        (move,) = self._history.pop()
        self.to_move ^= 1
        self.key ^= ZOBRIST[move][self.to_move] ^ NOUGHTS_TO_MOVE_KEY
        self.cells[move] = None
        return move

    def copy(self) -> ToyState:
        twin = ToyState(self.cells, self.to_move, self._variant)
        twin._history = list(self._history)
        return twin

    def _rank(self, rank: int) -> str:
        row = self.cells[rank * SIZE : rank * SIZE + SIZE]
        return "".join(EMPTY if side is None else MARKS[side] for side in row)

    def diagram(self) -> str:
        rows = [f"{rank + 1} {' '.join(self._rank(rank))}" for rank in reversed(range(SIZE))]
        return "\n".join([*rows, "  " + " ".join(FILES)])

    def position(self) -> str:
        ranks = "/".join(self._rank(rank) for rank in reversed(range(SIZE)))
        text = f"{ranks} {MARKS[self.to_move]}"
        return f"{text} {MISERE}" if self._variant == MISERE else text


def parse_position(text: str) -> ToyState:
    fields = text.split()
    if len(fields) not in (2, 3) or (len(fields) == 3 and fields[2] != MISERE):
        expected = f"expected {POSITION_FORM}"
        raise NotationError(f"'{shown(text.strip())}' is not a Toy position; {expected}")
    ranks = fields[0].split("/")
    if len(ranks) != SIZE or any(len(rank) != SIZE for rank in ranks):
        raise NotationError(f"a Toy position has 3 ranks of 3 cells, not '{shown(fields[0])}'")
    cells: list[int | None] = [None] * CELLS
    for row, rank_text in enumerate(ranks):
        for file, mark in enumerate(rank_text):
            if mark not in MARKS + EMPTY:
                raise NotationError(f"'{shown(mark)}' is not a mark; expected x, o or .")
            cells[(SIZE - 1 - row) * SIZE + file] = None if mark == EMPTY else MARKS.index(mark)
    if fields[1] not in MARKS:
        raise NotationError(f"side to move must be x or o, not '{shown(fields[1])}'")
    if line_of(cells, CROSSES) and line_of(cells, NOUGHTS):
        raise NotationError("both sides have three in a row")
    return ToyState(cells, MARKS.index(fields[1]), MISERE if len(fields) == 3 else STANDARD)


_CELL = re.compile(r"([a-c])([1-3])", re.ASCII)


def parse_move(text: str, state: ToyState) -> Move:
    match = _CELL.fullmatch(text.strip())
    if not match:
        raise NotationError(f"'{shown(text.strip())}' is not a cell; expected a1 to c3")
    cell = (int(match[2]) - 1) * SIZE + FILES.index(match[1])
    outcome = state.outcome()
    if outcome is not None:
        raise IllegalMoveError(f"the game is over: {outcome.reason}")
    if state.cells[cell] is not None:
        raise IllegalMoveError(f"{cell_name(cell)} is marked already")
    return cell


class Toy(Game[ToyState, Move]):
    key = "toy"
    name = "Toy"
    variants = (STANDARD, MISERE)
    side_names = SIDE_NAMES
    can_draw = True  # a full board with no three in a row
    move_examples = "b2, a1"

    def start(self, variant: str) -> ToyState:
        return ToyState([None] * CELLS, CROSSES, variant)

    def parse_position(self, text: str) -> ToyState:
        return parse_position(text)

    def parse_move(self, text: str, state: ToyState) -> Move:
        return parse_move(text, state)

    def format_move(self, move: Move) -> str:
        return cell_name(move)

    def figures(self, state: ToyState) -> Figures:
        """Per side: its marks, and the lines it could still fill."""
        rows = tuple(
            (
                state.cells.count(side),
                sum(all(state.cells[c] in (side, None) for c in line) for line in LINES),
            )
            for side in (CROSSES, NOUGHTS)
        )
        return Figures(("marks", "open lines"), (rows[0], rows[1]))

    def threats(self, state: ToyState) -> list[Threat]:
        """Nothing is ever taken in noughts and crosses."""
        return []

    def edit_squares(self, variant: str) -> tuple[EditSquare, ...]:
        return tuple(
            EditSquare(cell_name(c), SIZE - 1 - c // SIZE, 2 * (c % SIZE)) for c in range(CELLS)
        )

    def edit_help(self, variant: str) -> str:
        return "x or o"

    def square_contents(self, state: ToyState) -> dict[str, str]:
        return {cell_name(c): MARKS[side] for c, side in enumerate(state.cells) if side is not None}

    def read_token(self, variant: str, square: str, text: str) -> str:
        parse_move(square, self.start(variant))
        if text.strip() not in ("", *MARKS):
            raise NotationError(f"'{shown(text.strip())}' is not a mark; expected x or o")
        return text.strip()

    def position_from(
        self,
        variant: str,
        contents: Mapping[str, str],
        to_move: int,
        choices: Mapping[str, str] | None = None,
    ) -> ToyState:
        marks = [
            self.read_token(variant, cell_name(c), contents.get(cell_name(c), ""))
            for c in range(CELLS)
        ]
        ranks = "/".join(
            "".join(m or EMPTY for m in marks[r * SIZE : r * SIZE + SIZE])
            for r in reversed(range(SIZE))
        )
        state = parse_position(f"{ranks} {MARKS[to_move]}{' misere' if variant == MISERE else ''}")
        outcome = state.outcome()
        if outcome is not None:
            raise GameError(f"{outcome.reason}, so the game would be over")
        return state


TOY = Toy()


class ToyKnowledge(Knowledge[ToyState, Move]):
    """What the search needs: the open lines of the side to move less the opponent's (no move
    is noisy, so the search orders them by its own tables)."""

    def evaluate(self, state: ToyState) -> int:
        rows = TOY.figures(state).rows
        mine, theirs = int(rows[state.to_move][1]), int(rows[1 - state.to_move][1])
        return theirs - mine if state.variant == MISERE else mine - theirs


LADDER = {
    "easy": Style(ToyKnowledge, depth=1, slack=0, blunder=0.0),
    "medium": Style(ToyKnowledge, depth=3, slack=0, blunder=0.0),
    "hard": Style(ToyKnowledge, depth=None, slack=0, blunder=0.0),
    "ab4": Style(ToyKnowledge, depth=4, slack=0, blunder=0.0),
}
# The toy is not played in the app: its board and help page are placeholders.
ENTRY = Entry(TOY, LADDER, "toy_game:NoBoard", "toy.md")
# Its entry in tests/support/game_samples.py, given when it is registered: no lessons, puzzles
# or board.
TOY_SAMPLES = Samples(
    opening=("b2", "a1", "c3", "a3"),
    middle_game=".../.x./... o",
    ending=("xx./oo./... x", "c3"),  # Crosses fills rank 3
    proved="xo./.../... x",  # Crosses wins in 5 (a1 or b2 first)
    finished='[Game "Toy"]\n[Result "1-0"]\n\n1. a1 a2\n2. b1 b2\n3. c1\n1-0\n',
    threats=Threats(".../.x./... o", {}, "a1", {}),  # nothing is ever taken
)
