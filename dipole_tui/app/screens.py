"""The app's dialogs: new game, a question (resume, game over), a file name, help. (Open a game:
`open_dialog.py`.)"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, Select

from ..adaptive import ADAPTIVE
from ..clock import TimeControl
from ..games.base import displayable, shown
from ..registry import REGISTRY, describe_level, nearest_level
from ..session import HUMAN
from ..session import players as players_of
from .ascii import BULLETS, plain
from .boards import playable
from .choice import GameChoice, LearnChoice, OnlineChoice
from .closing import Dialog
from .online_dialog import DEFAULT_SERVER, OnlineScreen
from .wrapping import wrap

# The clocks the new-game dialog offers (MINUTES+SECONDS a move), as players know them.
CLOCKS = ("1+0", "3+2", "5+3", "10+5", "15+10", "30+20")
HELP = Path(__file__).with_name("help")  # the game's page (its registry entry), then keys.md


def seat_label(game_key: str, seat: str) -> str:
    """A seat as the dialog offers it: a level with its number and rating, "3 easy (+640)"."""
    if seat in (HUMAN, ADAPTIVE):
        return seat.capitalize()
    return describe_level(game_key, seat)


class NewGameScreen(Dialog[GameChoice | LearnChoice | OnlineChoice | None]):
    """Choose the game, the board and who plays each side; or Online, a game server's room."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: GameChoice, server: str = DEFAULT_SERVER) -> None:
        super().__init__()
        self.current = current
        self.server = server  # the Online dialog's: the last one played on

    def compose(self) -> ComposeResult:
        game = REGISTRY[self.current.game_key].game
        key = self.current.game_key
        players = [(seat_label(key, name), name) for name in players_of(key)]
        with Vertical(id="dialog", classes="new-game"):
            yield Label("New game", classes="dialog-title")
            with Grid(id="form"):
                yield Label("Game")
                yield Select(
                    [(REGISTRY[key].game.name, key) for key in playable()],
                    value=self.current.game_key,
                    allow_blank=False,
                    compact=True,
                    id="game",
                )
                yield Label("Variant")
                yield Select(
                    [(variant or "default", variant) for variant in game.variants],
                    value=self.current.variant,
                    allow_blank=False,
                    compact=True,
                    id="variant",
                )
                for side, name in enumerate(game.side_names):
                    yield Label(name)
                    yield Select(
                        players,
                        value=self.current.players[side],
                        allow_blank=False,
                        compact=True,
                        id=f"player-{side}",
                    )
                yield Label("Clock")
                yield Select(
                    self._clock_options(),
                    value=self._clock_now(),
                    allow_blank=False,
                    compact=True,
                    id="clock",
                )
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Learn", id="learn")
                yield Button("Online", id="online")
                yield Button("Cancel", id="cancel")

    def _clock_now(self) -> str:
        control = self.current.time_control
        return "" if control is None else str(control)

    def _clock_options(self) -> list[tuple[str, str]]:
        """No clock, the usual controls (minutes+seconds a move), and the current one."""
        offered = ["", *CLOCKS]
        if self._clock_now() not in offered:
            offered.append(self._clock_now())
        return [(text or "none", text) for text in offered]

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    @on(Select.Changed, "#game")
    async def game_changed(self, event: Select.Changed) -> None:
        """Another game has its own boards and side names: the form is built again for it, and
        the new game list has the focus. A change that a list already replaced still had on
        its way is not the player's choice any more (a burst of keys sends such)."""
        key = str(event.value)
        if event.select is not self.query_one("#game", Select) or key == self.current.game_key:
            return
        seats = tuple(nearest_level(key, seat) for seat in self._seats())
        clock = self.current.time_control
        variant = REGISTRY[key].game.variants[0]
        self.current = GameChoice(key, variant, (seats[0], seats[1]), clock)
        await self.recompose()
        self.query_one("#game", Select).focus()

    def _seats(self) -> tuple[str, str]:
        return (
            str(self.query_one("#player-0", Select).value),
            str(self.query_one("#player-1", Select).value),
        )

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        self.dismiss(self._chosen())

    def _chosen(self) -> GameChoice:
        game_key = str(self.query_one("#game", Select).value)
        variants = REGISTRY[game_key].game.variants
        chosen = self.query_one("#variant", Select).value
        variant = chosen if chosen in variants else variants[0]
        clock = str(self.query_one("#clock", Select).value)
        control = TimeControl.parse(clock) if clock else None
        return GameChoice(game_key, variant, self._seats(), control)

    @on(Button.Pressed, "#online")
    def online(self) -> None:
        """A room for the game chosen here (people on both sides), or one to join or watch."""
        chosen = self._chosen()
        people = GameChoice(chosen.game_key, chosen.variant, (HUMAN, HUMAN), chosen.time_control)

        def answered(choice: OnlineChoice | None) -> None:
            if choice is not None:
                self.dismiss(choice)

        self.app.push_screen(OnlineScreen(people, self.server), answered)

    @on(Button.Pressed, "#learn")
    def learn(self) -> None:
        self.dismiss(LearnChoice(str(self.query_one("#game", Select).value)))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceScreen(Dialog[str]):
    """A question with a few answers, one button each; Escape gives the harmless answer."""

    BINDINGS = [Binding("escape", "escape", "Close")]
    # The first answer has the focus. Textual's own way: an on_mount query for it raised
    # NoMatches when the app closed as the question was being put (a game ending as one quits).
    AUTO_FOCUS = "Button"

    def __init__(self, title: str, text: str, answers: list[tuple[str, str]], escape: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.answers = answers
        self.escape_answer = escape

    def compose(self) -> ComposeResult:
        # The dialog is 56 columns, at most 95% of the screen, less its border and padding: the
        # text is wrapped here so that a file path breaks after a `/`, not mid-word.
        width = min(56, self.app.size.width * 95 // 100) - 6
        with Vertical(id="dialog"):
            # Not markup, and through the one sanitizer: a text may quote a file name (`a[/].txt`
            # would be a MarkupError) or a server's word (an escape would reach the terminal).
            title, text = displayable(self.title_text), displayable(self.text, lines=True)
            yield Label(title, classes="dialog-title", markup=False)
            yield Label("\n".join(wrap(text, width)), classes="dialog-text", markup=False)
            crowded = " four" if len(self.answers) > 3 else ""  # narrower buttons (dialogs.tcss)
            with Horizontal(classes="buttons" + crowded):
                for index, (label, key) in enumerate(self.answers):
                    yield Button(label, id=key, variant="primary" if index == 0 else "default")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "")

    def action_escape(self) -> None:
        self.dismiss(self.escape_answer)


class FileScreen(Dialog[Path | None]):
    """Ask for a file name, to save a record. A file that is there already is replaced only
    when the player says so; otherwise the dialog is back, the name as typed."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str) -> None:
        super().__init__()
        self.title_text = title
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(value=self.default, id="path")
            yield Label("Enter to confirm, Escape to cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        if self.app.screen is not self:  # a double Enter: the question is open already
            return
        path = path_from(event.value)
        if path is None or not os.path.isfile(path):
            self.dismiss(path)
            return
        answers = [("Keep that file", "keep"), ("Replace it", "replace")]

        def answered(answer: str | None) -> None:
            if answer == "replace":
                self.dismiss(path)
            else:
                self.query_one(Input).focus()

        text = f"{shown(str(path), 200)} is there already: saving would write over it."
        self.app.push_screen(ChoiceScreen("Replace the file?", text, answers, "keep"), answered)

    def action_cancel(self) -> None:
        self.dismiss(None)


def path_from(text: str) -> Path | None:
    """A typed file name, with `~` expanded; None when nothing was typed."""
    text = text.strip()
    if not text:
        return None
    try:
        return Path(text).expanduser()
    except RuntimeError:  # ~someone who does not exist: take the name as written
        return Path(text)


class HelpScreen(Dialog[None]):
    """The rules in the project's own words, with the sheet's examples, and the keys."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def __init__(self, game_key: str, ascii_glyphs: Mapping[str, str] | None = None) -> None:
        """`ascii_glyphs`: under --ascii, the board's ASCII glyph for each Unicode one."""
        super().__init__()
        self.game_key = game_key
        self.ascii_glyphs = ascii_glyphs

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # imported when first needed: it is slow to load

        with VerticalScroll(id="help"):
            pages = (HELP / REGISTRY[self.game_key].help_page, HELP / "keys.md")
            text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
            if self.ascii_glyphs is not None:
                text = plain(text, self.ascii_glyphs)
            markdown = Markdown(text)
            if self.ascii_glyphs is not None:
                markdown.BULLETS = BULLETS
            yield markdown

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = [
    "ChoiceScreen",
    "FileScreen",
    "HelpScreen",
    "NewGameScreen",
]
