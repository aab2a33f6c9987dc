"""What every game's board widget shares: the move it reports, its CSS and glyph table, cached
styles, flipping, focus and the threat overlay's marks; it owns its turn (`BoardTurn`) and the
words under it (`BoardWords`), and `render_too_small` draws the notice that replaces a board too
big for its area.

A board asks the rules core for `legal_moves()` and never decides a rule; it reports a complete
legal move with `MoveChosen` (or `MoveToConfirm`, to be asked once more), and the app plays it.
A move is reported once (`choose`, `confirm`), with the position it was chosen in: a terminal
delivers a double press or a double click at once, before the app has played the first, so the
board drops its selection and takes no other choice until the app shows the next position.
Each game's board says how big it must be and which glyph stands for a side (the side panel uses
the same glyphs). What a board must say for itself is declared `@abstractmethod`: a board that
forgets one cannot be made. Whether the board is flipped and which squares the threat overlay
marks are reactive: setting them redraws the board.
"""

from __future__ import annotations

import re
from abc import ABCMeta, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeAlias, TypedDict, TypeVar, Unpack

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.message_pump import _MessagePumpMeta
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...control.position import Position, position_of
from ...games.base import M, S, Threat
from .board_status import BoardWords, threat_legend, too_small_line
from .board_styles import StyleCache
from .board_turn import BoardTurn
from .parts import Part

# The move a message carries: `GameBoard.MoveChosen[M]` on a board of moves `M`.
Chosen = TypeVar("Chosen")


def component_classes(css: str) -> set[str]:
    """The component classes a board's CSS styles (`.board--...`): listed once, in the CSS."""
    return set(re.findall(r"\.(board--[a-z-]+)", css))


class BoardOptions(TypedDict, total=False):
    """What every board takes besides its state: a board passes them on to `GameBoard`."""

    ascii_glyphs: bool  # draw with the ASCII glyphs
    name: str | None
    id: str | None


class BoardMoveChosen(Message, Generic[Chosen], namespace="game_board"):
    """A player picked a complete legal move on the board, in `position` (the app plays it only
    while the game is still there)."""

    def __init__(self, move: Chosen, position: Position) -> None:
        super().__init__()
        self.move = move
        self.position = position


class BoardMoveToConfirm(Message, Generic[Chosen], namespace="game_board"):
    """A move that ends the game by choice (resigning): the app asks `question`, says `text`,
    and plays the move only when the player answers `confirm` (the button's label)."""

    def __init__(
        self, move: Chosen, position: Position, question: str, text: str, confirm: str
    ) -> None:
        super().__init__()
        self.move = move
        self.position = position
        self.question = question
        self.text = text
        self.confirm = confirm


class _AbstractWidgetMeta(_MessagePumpMeta, ABCMeta):
    """Textual's metaclass for widgets with `ABCMeta`'s check that no abstract method is left."""


class GameBoard(Widget, Generic[S, M], can_focus=True, metaclass=_AbstractWidgetMeta):
    """The base of the boards, each of one game's states and moves: subclasses draw with the
    line API (`render_line`)."""

    BREVITIES: ClassVar[int] = 1  # how many ways, fuller to shorter, the status can be said
    # (Unicode, ASCII): the glyph tables; under --ascii the help names the ASCII glyphs from them
    GLYPH_TABLES: ClassVar[tuple[object, object]]
    glyphs: object  # the table drawn with (a board names its own table's type)

    # The boards' own wood, whatever the theme (see docs/architecture.md). What they share is
    # here, with the highlights of the dark wood Dipole and Bi-Pod are drawn on; a board's own
    # rules (`DipoleBoard > .board--x`) win over these, so Death Stacks' light wood restates
    # their colours. Without colour (NO_COLOR) the cursor is reverse, a move's destinations are
    # underlined, and the last move is italic and lined above and below: no other highlight is.
    # The NO_COLOR rules start at `App:nocolor`, which a scoped stylesheet (every rule prefixed
    # with the board's type) would never match: no board's CSS is scoped (`__init_subclass__`);
    # the other rules name the board anyway.
    SCOPED_CSS = False
    DEFAULT_CSS = """
    GameBoard {
        width: 1fr;
        height: 1fr;
        background: $background;
    }
    GameBoard > .board--label { color: $text-muted; }
    GameBoard > .board--status { color: $text; }
    GameBoard > .board--white { color: #ffffff; text-style: bold; }
    GameBoard > .board--empty { color: #2a1a0a; }
    GameBoard > .board--cursor { background: #4080c0; }
    GameBoard > .board--last { background: #2f8f8f; }
    GameBoard > .board--hint { background: #b04890; text-style: bold underline; }
    App:nocolor GameBoard > .board--cursor { color: #ffffff; text-style: reverse; }
    App:nocolor GameBoard > .board--target { text-style: underline; }
    App:nocolor GameBoard > .board--capture { text-style: underline; }
    App:nocolor GameBoard > .board--last { text-style: italic overline underline; }
    """
    COMPONENT_CLASSES = component_classes(DEFAULT_CSS)

    # Subclasses add their own; Textual merges the bindings of the class hierarchy.
    BINDINGS = [
        Binding("up,k", "cursor(0, -1)", "Up", show=False),
        Binding("down,j", "cursor(0, 1)", "Down", show=False),
        Binding("left,h", "cursor(-1, 0)", "Left", show=False),
        Binding("right,l", "cursor(1, 0)", "Right", show=False),
        Binding("enter,space", "choose", "Select", show=True),
        Binding("escape", "cancel", "Cancel", show=False),
    ]

    # The messages a board posts, named as its own (`GameBoard.MoveChosen`).
    MoveChosen: TypeAlias = BoardMoveChosen
    MoveToConfirm: TypeAlias = BoardMoveToConfirm

    # The turn, read and set as the board's own (by the app, the tests and the bench).
    state = Part[S]("turn")
    last_move = Part[M | None]("turn")
    hint = Part[M | None]("turn")
    interactive = Part[bool]("turn")
    awaiting = Part[bool]("turn")
    takes_choices = Part[bool]("turn")
    # The words under it (`BoardWords`): a one-line answer to a key that could not be done, said
    # first; the status in full or wrapped to the room under the board.
    notice = Part[str]("words")
    status = Part[Callable[[], str]]("words")
    status_lines = Part[Callable[[int, int], list[str]]]("words")

    flipped: reactive[bool] = reactive(False)
    # The threat overlay: square name -> the side that can take it; None while it is off.
    threats: reactive[dict[str, int] | None] = reactive(None)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A board's component classes are those its CSS styles, and its CSS is not scoped."""
        super().__init_subclass__(**kwargs)
        cls.SCOPED_CSS = False
        cls.COMPONENT_CLASSES = component_classes(cls.__dict__.get("DEFAULT_CSS", ""))

    def __init__(self, state: S, **options: Unpack[BoardOptions]) -> None:
        """Each board takes its own game's state; it shows it (`show_state`) once its own
        attributes are set."""
        super().__init__(name=options.get("name"), id=options.get("id"))
        unicode_table, ascii_table = self.GLYPH_TABLES
        self.glyphs = ascii_table if options.get("ascii_glyphs") else unicode_table
        self.turn = BoardTurn[S, M](state)
        self.cursor = 0  # the square or cell under the cursor
        self.words = BoardWords(self.said, self.threat_legend, self.BREVITIES)
        self.looks = StyleCache(self.get_component_rich_style, lambda: self.rich_style)

    @abstractmethod
    def show_state(self, state: S, last_move: M | None) -> None:
        """Show a new position (after a move, undo, redo or load), forget the selection and take
        choices again (`awaiting` ends)."""

    def _take_position(self, state: S, last_move: M | None) -> bool:
        """The part of `show_state` every board does (`BoardTurn.take`)."""
        return self.turn.take(state, last_move)

    def choose(self, move: M) -> None:
        """Report `move`, once: the selection goes, and the board waits for the app's answer."""
        if self.turn.report():
            self.drop_selection()
            self.post_message(self.MoveChosen(move, position_of(self.state)))

    def confirm(self, move: M, question: str, text: str, confirm: str) -> None:
        """Report a move to be asked once more (`MoveToConfirm`), once, as `choose` does."""
        if self.turn.report():
            self.drop_selection()
            position = position_of(self.state)
            self.post_message(self.MoveToConfirm(move, position, question, text, confirm))

    @abstractmethod
    def drop_selection(self) -> None:
        """Forget what is selected or marked for the next move (the chosen move is on its way)."""

    def choose_again(self) -> None:
        """The app did not play the move reported (a question declined, a move refused): the
        board takes choices again in the same position."""
        self.awaiting = False
        self.refresh()

    @abstractmethod
    def show_hint(self, move: M | None) -> None:
        """Mark the move a hint suggests (None: no hint) until the position changes or Escape."""

    def show_threats(self, threats: list[Threat] | None) -> None:
        """Mark what each side could take next move (None: the overlay is off); the app asks
        the game (`Game.threats`) again after every change."""
        self.threats = None if threats is None else {threat.square: threat.by for threat in threats}

    def watch_threats(self) -> None:
        self.forget_drawn()  # (the reactive redraws the board)

    def forget_drawn(self) -> None:
        """Forget what is kept of earlier drawings (a board that keeps none has nothing to do)."""

    def threat_by(self, square: str) -> int | None:
        """The side that can take the square so named, if the overlay marks it."""
        return None if self.threats is None else self.threats.get(square)

    def threat_legend(self) -> str:
        return threat_legend(self.threats, self.threat_words)

    def said(self, brevity: int) -> list[str]:
        """The status before the legend (a board with no status line under it says nothing)."""
        return []

    @abstractmethod
    def threat_words(self) -> str:
        """The marks in words, after "Threats: "; each board says its own."""

    @abstractmethod
    def minimum_size(self) -> Size:
        """The smallest area the board can be drawn in."""

    @abstractmethod
    def side_glyph(self, side: int) -> str:
        """The glyph of a side's piece, for the side panel."""

    @abstractmethod
    def action_cursor(self, dx: int, dy: int) -> None:
        """Move the cursor by screen columns and rows (dy < 0 is up)."""

    @abstractmethod
    def action_choose(self) -> None:
        """Enter or Space: select, or choose the move under the cursor."""

    @abstractmethod
    def action_cancel(self) -> None:
        """Escape: forget the selection and the hint's marks."""

    def flip(self) -> None:
        self.flipped = not self.flipped

    def style_of(self, name: str, partial: bool = False) -> Style:
        return self.looks.of(name, partial)

    def notify_style_update(self) -> None:
        self.looks.clear()
        self.forget_drawn()  # the drawings hold the old theme's styles
        super().notify_style_update()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def render_too_small(board: GameBoard[Any, Any], y: int) -> Strip:
    """Line `y` of the notice that replaces a board which does not fit (`too_small_line`)."""
    need = board.minimum_size()
    text = too_small_line((need.width, need.height), (board.size.width, board.size.height), y)
    if text is None:
        return Strip.blank(board.size.width, board.rich_style)
    return Strip([Segment(text, board.style_of("board--label"))])
