"""The position editor: put stacks (or stones) on squares, choose the side to move, and play or
analyse from there.

`EditorScreen(game, state, ascii_glyphs)` starts from `state` and dismisses with the edited
position, ready to play (`Session(game, state)`), or None when the player cancels. What a square
may hold and whether a whole position may be played are the rules' answers
(`Game.read_token`, `Game.position_from`); the screen only keeps the edit and says them.

Typing is kept here, not in an entry widget: every key goes to the one focused board in the
order the terminal sent it, so `w3` and Enter typed in a burst set the square they were typed on.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ...games.base import AnyGame, GameError, State, title
from ..ascii import plain, typed_as_drawn
from ..boards.registered import board_class
from ..closing import ClosingScreen
from ..commands import command
from ..widgets.editor_grid import EditGrid
from ..widgets.footer import GameFooter

# Keys that are commands, never the first letter of a token (no game's token starts so).
COMMANDS = frozenset("csampq?0+-hjkl ")
TYPING_KEYS = ("enter", "escape", "backspace")


class EditorScreen(ClosingScreen[State[Any] | None]):
    """A position being edited; dismissed with the position checked by the rules, or None."""

    CSS_PATH = "../css/editor.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        command(
            "ctrl+s,p",
            "play",
            "Play",
            "The rules check the position; the game starts from it",
        ),
        Binding("escape", "cancel", "Cancel"),
        command("tab,m", "side", "Side to move", "The other side moves first"),
        command("c", "clear", "Clear board", "Every square emptied that may be empty"),
        command("s", "start", "Start position", "The game's start, to change from"),
        Binding("delete,backspace,0", "empty", "Empty square", show=False),
        Binding("plus", "step(1)", "One more", show=False),
        Binding("minus", "step(-1)", "One less", show=False),
        Binding("enter", "retype", "Retype", show=False),
    ]

    def __init__(self, game: AnyGame, state: State[Any], ascii_glyphs: bool = False) -> None:
        super().__init__()
        self.game = game
        self.variant = state.variant
        self.ascii_glyphs = ascii_glyphs
        self.contents: dict[str, str] = {}
        self.to_move = 0
        self.choices: dict[str, str] = {}
        self.typed = ""  # a token being typed, set on its square by Enter
        self.said = ""  # the last refusal or news, until the next edit
        self.refused = False  # whether `said` is a refusal
        self._take(state)
        for name in self.game.edit_choices(self.variant):
            self._bindings.bind("a", "choice", name)  # the game's own word: Bi-Pod's Runner
            break  # the first choice; no game has two yet

    def _take(self, state: State[Any]) -> None:
        self.contents.clear()
        self.contents.update(self.game.square_contents(state))
        self.to_move = state.to_move
        self.choices = self.game.choices_of(state)
        for name, values in self.game.edit_choices(self.variant).items():
            self.choices.setdefault(name, values[0])

    def compose(self) -> ComposeResult:
        squares = self.game.edit_squares(self.variant)
        with Horizontal(id="editor-main"):
            yield EditGrid(squares, self.contents, self._board_glyphs(), self.ascii_glyphs)
            with Vertical(id="editor-side"):
                yield Static(
                    self._text(f"Edit: {title(self.game, self.variant)}"), id="editor-title"
                )
                yield Static(id="editor-square", markup=False)
                yield Static(id="editor-typed", markup=False)
                yield Static(id="editor-turn", markup=False)
                yield Static(id="editor-verdict", markup=False)
                with Horizontal(id="editor-buttons"):
                    yield Button("Play", id="editor-play", variant="primary", compact=True)
                    yield Button("Cancel", id="editor-cancel", compact=True)
                yield Static(self._text(self._legend()), id="editor-legend")
        yield GameFooter()

    def on_mount(self) -> None:
        for button in self.query(Button):
            button.can_focus = False  # the board keeps the keys: Tab is the side to move
        self.query_one(EditGrid).focus()
        self._show()

    @property
    def grid(self) -> EditGrid:
        return self.query_one(EditGrid)

    def _board_glyphs(self) -> dict[str, str]:
        """What the game's board draws for each typed character (as typed if it has no board)."""
        board = board_class(self.game.key)
        return typed_as_drawn(board.GLYPH_TABLES, self.ascii_glyphs) if board else {}

    def _text(self, text: str) -> str:
        return plain(text) if self.ascii_glyphs else text

    def _legend(self) -> str:
        keys = ["Type a token, Enter: put it", "Del empty, + more, - less"]
        keys.append("Tab side, c clear, s start")
        keys.append("p play, Esc cancel")
        keys += [f"a {name}" for name in self.game.edit_choices(self.variant)]
        return "\n".join(keys)

    # -- what the player sees -----------------------------------------------------------------

    def verdict(self) -> State[Any] | str:
        """The position as the rules read it, or their one-line refusal."""
        try:
            state: State[Any] = self.game.position_from(
                self.variant, self.contents, self.to_move, self.choices
            )
        except GameError as error:
            return str(error)
        return state

    def _show(self) -> None:
        square = self.grid.square
        token = self.contents.get(square.name, "")
        self.query_one("#editor-square", Static).update(
            self._text(f"{square.name}: {token or 'empty'}")
        )
        typed = f"> {self.typed}_" if self.typed else self.game.edit_help(self.variant)
        self.query_one("#editor-typed", Static).update(self._text(typed))
        side = self.game.side_names[self.to_move]
        turn = [f"{side} to move"]
        turn += [f"{name}: {value}" for name, value in self.choices.items()]
        self.query_one("#editor-turn", Static).update(self._text("\n".join(turn)))
        verdict = self.verdict()
        ready = not isinstance(verdict, str)
        judged = "Ready to play." if ready else f"Not yet: {verdict}"
        if self.refused and self.said:
            said, refused = self.said, True  # what was refused, until the next edit
        else:
            said, refused = f"{self.said} {judged}".strip(), not ready
        box = self.query_one("#editor-verdict", Static)
        box.update(self._text(said))
        box.set_class(refused, "-refused")
        self.grid.refresh()

    def _said(self, text: str, refused: bool = True) -> None:
        self.said, self.refused = text, refused
        self._show()

    @on(EditGrid.Moved)
    def _moved(self) -> None:
        self.said = ""
        self._show()

    # -- typing a token -------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """A token typed on the board: its first character is no command key; then every
        printable key is part of it until Enter sets it or Escape drops it."""
        char = event.character
        printable = char is not None and char.isprintable() and len(char) == 1
        if not self.typed and not (printable and char not in COMMANDS):
            return
        event.stop()
        event.prevent_default()
        if event.key == "enter":
            self._set(self.typed)
            return
        if event.key == "escape":
            self.typed = ""
        elif event.key == "backspace":
            self.typed = self.typed[:-1]
        elif printable and char is not None:
            self.typed += char
        self._show()

    def _set(self, text: str) -> None:
        """Put what `text` names on the cursor's square, as the rules read it."""
        square = self.grid.square.name
        self.typed = ""
        try:
            token = self.game.read_token(self.variant, square, text)
        except GameError as error:
            self._said(str(error))
            return
        if token:
            self.contents[square] = token
        else:
            self.contents.pop(square, None)
        self._said("")

    # -- the commands -----------------------------------------------------------------------

    def action_empty(self) -> None:
        self._set("")

    def action_retype(self) -> None:
        """Enter on a square: its token to change (Backspace, more letters, Enter)."""
        self.typed = self.contents.get(self.grid.square.name, "")
        self._show()

    def action_step(self, step: int) -> None:
        token = self.contents.get(self.grid.square.name, "")
        try:
            self._set(self.game.step_token(self.variant, token, step, self.to_move))
        except GameError as error:
            self._said(str(error))

    def action_side(self) -> None:
        self.to_move = 1 - self.to_move
        self._said("")

    def action_choice(self) -> None:
        for name, values in self.game.edit_choices(self.variant).items():
            now = values.index(self.choices[name]) if self.choices.get(name) in values else -1
            self.choices[name] = values[(now + 1) % len(values)]
            break  # the first choice; no game has two yet
        self._said("")

    def action_clear(self) -> None:
        """Every square emptied that may be empty (Bi-Pod's start stones stay)."""
        for square in list(self.contents):
            try:
                if not self.game.read_token(self.variant, square, ""):
                    del self.contents[square]
            except GameError:
                pass
        self._said("Board cleared.", refused=False)

    def action_start(self) -> None:
        self._take(self.game.new(self.variant))
        self._said("The start position.", refused=False)

    def action_play(self) -> None:
        verdict = self.verdict()
        if isinstance(verdict, str):
            self._said(f"Cannot play this: {verdict}")
        else:
            self.dismiss(verdict)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#editor-play")
    def _play_pressed(self) -> None:
        self.action_play()

    @on(Button.Pressed, "#editor-cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()
