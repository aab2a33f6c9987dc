"""The app's dialogs: new game, resume, game over, file name, help."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

from ..games import GAMES
from ..session import PLAYERS
from .ascii import BULLETS, plain
from .boards import PLAYABLE
from .wrapping import wrap

HELP = Path(__file__).with_name("help")  # <game key>.md, then keys.md for every game


@dataclass(frozen=True)
class GameChoice:
    """What the new-game dialog settles: which game, which board, who plays each side."""

    game_key: str
    variant: str
    players: tuple[str, str]


class NewGameScreen(ModalScreen[GameChoice | None]):
    """Choose the game, the board and who plays each side."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: GameChoice) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        game = GAMES[self.current.game_key]
        players = [(name.capitalize(), name) for name in PLAYERS]
        with Vertical(id="dialog", classes="new-game"):
            yield Label("New game", classes="dialog-title")
            with Grid(id="form"):
                yield Label("Game")
                yield Select(
                    [(g.name, key) for key, g in GAMES.items() if key in PLAYABLE],
                    value=self.current.game_key,
                    allow_blank=False,
                    id="game",
                )
                yield Label("Variant")
                yield Select(
                    [(variant or "default", variant) for variant in game.variants],
                    value=self.current.variant,
                    allow_blank=False,
                    id="variant",
                )
                for side, name in enumerate(game.side_names):
                    yield Label(name)
                    yield Select(
                        players,
                        value=self.current.players[side],
                        allow_blank=False,
                        id=f"player-{side}",
                    )
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        """Another game has its own boards and side names: the form is built again for it."""
        key = str(event.value)
        if key != self.current.game_key:
            self.current = GameChoice(key, GAMES[key].variants[0], self._seats())
            self.refresh(recompose=True)
            self.call_after_refresh(self.query_one("#game", Select).focus)

    def _seats(self) -> tuple[str, str]:
        return (
            str(self.query_one("#player-0", Select).value),
            str(self.query_one("#player-1", Select).value),
        )

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        game_key = str(self.query_one("#game", Select).value)
        variants = GAMES[game_key].variants
        chosen = self.query_one("#variant", Select).value
        variant = chosen if chosen in variants else variants[0]
        self.dismiss(GameChoice(game_key, variant, self._seats()))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceScreen(ModalScreen[str]):
    """A question with a few answers, one button each; Escape gives the harmless answer."""

    BINDINGS = [Binding("escape", "escape", "Close")]

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
            yield Label(self.title_text, classes="dialog-title")
            yield Label("\n".join(wrap(self.text, width)), classes="dialog-text")
            with Horizontal(classes="buttons"):
                for index, (label, key) in enumerate(self.answers):
                    yield Button(label, id=key, variant="primary" if index == 0 else "default")

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "")

    def action_escape(self) -> None:
        self.dismiss(self.escape_answer)


class FileScreen(ModalScreen[Path | None]):
    """Ask for a file name, to save or load a record."""

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
        text = event.value.strip()
        try:
            path = Path(text).expanduser()
        except RuntimeError:  # ~someone who does not exist: take the name as written
            path = Path(text)
        self.dismiss(path if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
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
            pages = (HELP / f"{self.game_key}.md", HELP / "keys.md")
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


__all__ = ["ChoiceScreen", "FileScreen", "GameChoice", "HelpScreen", "NewGameScreen"]
