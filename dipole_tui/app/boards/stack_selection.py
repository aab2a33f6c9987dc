"""The Death Stacks board's selection, without a widget: the stack picked, how many of its
pieces move, where they can land and the ways they go there, and why a pick is refused. It lives
as long as the position it was made for; the board draws what it says.
"""

from __future__ import annotations

from ...games.death_stacks import (
    TOO_TALL,
    DeathStacksState,
    Move,
    Way,
    move_ways,
    square_name,
    why_stack_cannot_move,
)
from .death_stacks_text import StackGlyphs, landing_mark, moving_words, ways_words


class StackSelection:
    """A position's legal moves seen from one stack: `selected` (None: no stack) and `count`,
    how many of its top pieces move."""

    def __init__(self, state: DeathStacksState, legal: list[Move]) -> None:
        self.state = state
        self._legal = legal
        self.selected: int | None = None
        self.count = 0
        self._targets: tuple[object, dict[int, Move]] = (None, {})
        self._ways: tuple[object, list[Way]] = (None, [])

    def counts_from(self, origin: int) -> list[int]:
        """How many pieces may leave `origin`: a too-tall stack offers only its legal parts."""
        return sorted({move.count for move in self._legal if move.origin == origin})

    @property
    def targets(self) -> dict[int, Move]:
        """Where the selected part can land, each with the move that lands there (worked out
        once per selection, not once per drawn cell)."""
        key = (self.selected, self.count)
        if self._targets[0] != key:
            moves = [m for m in self._legal if m.origin == self.selected and m.count == self.count]
            self._targets = (key, {move.target: move for move in moves})
        return self._targets[1]

    def ways_to(self, square: int) -> list[Way]:
        """The ways the selected part reaches `square` (none if it can't)."""
        key = (self.selected, self.count, square)
        if self._ways[0] != key:
            move = self.targets.get(square)
            self._ways = (key, move_ways(move) if move is not None else [])
        return self._ways[1]

    def paths_to(self, square: int) -> list[tuple[int, ...]]:
        """The squares of each way to `square`."""
        return [way.squares for way in self.ways_to(square)]

    def marked(self, cursor: int, hint: Move | None = None) -> set[int]:
        """The squares drawn differently because of the cursor, the selection and the hint."""
        marked = {cursor, *self.targets}
        if self.selected is not None:
            marked.add(self.selected)
        if hint is not None:
            marked.update((hint.origin, hint.target))
        for way in self.paths_to(cursor):
            marked.update(way)
        return marked

    def select(self, square: int, count: int | None) -> str:
        """Pick a stack and how many of its pieces move (None: all that may); "" when done,
        else why not (a count that cannot move still picks the stack)."""
        counts = self.counts_from(square)
        if not counts:
            self.selected = None
            why = why_stack_cannot_move(self.state, square)
            return why or f"{square_name(square)} cannot move"
        if count is not None and count not in counts:
            self.count = self.count if self.selected == square else counts[-1]
            self.selected = square
            height = len(self.state.cells[square])
            choices = ", ".join(map(str, counts))
            return f"{count} of {height} cannot move from {square_name(square)}: {choices}"
        self.selected = square
        self.count = counts[-1] if count is None else count
        return ""

    def choose(self, square: int) -> tuple[Move | None, str | None]:
        """Enter or a click on `square`: the selected part's move landing there; else the
        square's stack is picked ("" or why not), or the selection is dropped ("": another's
        stack while one is selected; None: picked again, a cancel, as Escape)."""
        move = self.targets.get(square)
        if move is not None:
            return move, ""
        if square == self.selected:
            self.selected = None
            return None, None
        if self.state.owner(square) == self.state.to_move or self.selected is None:
            return None, self.select(square, None)
        self.selected = None
        return None, ""

    def click(self, square: int, level: int | None) -> tuple[Move | None, str | None]:
        """A click on `square`, on its piece at `level` (0: the bottom one) if on a piece: that
        piece and those above it are picked to move, unless the selected part lands there."""
        if level is None or square in self.targets:
            return self.choose(square)
        return None, self.select(square, len(self.state.cells[square]) - level)

    def step(self, step: int) -> bool:
        """More (1) or fewer (-1) pieces of the selected stack, among the counts that can
        move; False when there are no more (or fewer)."""
        assert self.selected is not None
        counts = self.counts_from(self.selected)
        index = counts.index(self.count) + step
        if 0 <= index < len(counts):
            self.count = counts[index]
            return True
        return False

    def highlights(self, square: int) -> list[str]:
        """The component classes the selection adds to a square: where the part lands (on an
        enemy stack: a capture), and the stack it leaves."""
        kinds = []
        if square in self.targets:
            enemy = self.state.owner(square) not in (None, self.state.to_move)
            kinds.append("board--capture" if enemy else "board--target")
        if square == self.selected:
            kinds.append("board--selected")
        return kinds

    def mark(self, square: int, hint: Move | None, glyphs: StackGlyphs) -> str:
        """What a landing square of the selected part, else of the `hint`, says over it."""
        move = self.targets.get(square)
        if move is None and hint is not None and hint.target == square:
            move = hint
        return landing_mark(move, self.state.owner(square), self.state.to_move, glyphs)

    def said(self, cursor: int, brevity: int, interactive: bool) -> list[str]:
        """The status in words: the selected stack, how many move and the ways to the cursor's
        square; with none selected, what the player to move (if `interactive`) must do."""
        if self.selected is None:
            tall = self.state.too_tall()
            if tall and interactive:
                where = " or ".join(square_name(sq) for sq in tall)
                return [f"Too tall: {where} must move this turn, down to {TOO_TALL} or fewer"]
            return ["Pick a stack: Enter or click"] if interactive else []
        height = len(self.state.cells[self.selected])
        counts = self.counts_from(self.selected)
        moving = moving_words(self.selected, height, self.count, counts, brevity)
        return [moving, *ways_words(self.ways_to(cursor), cursor, brevity)]


def home_square(state: DeathStacksState, default: int) -> int:
    """Where the cursor starts: a stack that must move, else the side to move's tallest (else
    `default`)."""
    tall = state.too_tall()
    if tall:
        return tall[0]
    own = state.stacks_of(state.to_move)
    if not own:
        return default
    return max(own, key=lambda square: len(state.cells[square]))
