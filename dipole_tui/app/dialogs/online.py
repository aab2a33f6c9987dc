"""The Online dialog (from the new-game dialog): a new room on a game server for the game chosen
there, or a room's code to join or watch. What it settles is an `OnlineChoice`; the screen's
online part (`online_play.py`) plays it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select

from ...control.choice import GameChoice, OnlineChoice
from ...games.base import shown, title
from ...online.protocol import invitation_text, room_or_invitation
from ...registry import REGISTRY
from ..closing import Dialog

DEFAULT_SERVER = "ws://127.0.0.1:8765"  # `dipole-tui serve` on this machine


class OnlineScreen(Dialog[OnlineChoice | None]):
    """Where to play: the server, and a new room (the game chosen before) or a room's code."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, game: GameChoice, server: str = DEFAULT_SERVER) -> None:
        super().__init__()
        self.game = game
        self.server = server

    def compose(self) -> ComposeResult:
        entry = REGISTRY[self.game.game_key].game
        names = entry.side_names
        clock = self.game.time_control
        about = title(entry, self.game.variant) + (f", clock {clock}" if clock else ", no clock")
        with Vertical(id="dialog", classes="online"):
            yield Label("Play online", classes="dialog-title")
            with Grid(id="form"):
                yield Label("Server")
                yield Input(self.server, compact=True, id="server")
                yield Label("Room")
                yield Input(
                    placeholder="an invitation to join, a code to watch", compact=True, id="room"
                )
                yield Label("Side")
                yield Select(
                    [("random", "random"), (names[0], "white"), (names[1], "black")],
                    value="random",
                    allow_blank=False,
                    compact=True,
                    id="side",
                )
            yield Label(
                f"A new room plays {about}. Escape: back.", classes="dialog-hint", id="about"
            )
            yield Label("", id="refusal", classes="dialog-hint", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("New room", variant="primary", id="create")
                yield Button("Join", id="join")
                yield Button("Watch", id="watch")

    def on_mount(self) -> None:
        self.query_one("#create", Button).focus()

    def _refuse(self, said: str) -> None:
        self.query_one("#refusal", Label).update(said)
        self.app.bell()

    @on(Button.Pressed)
    def chosen(self, event: Button.Pressed) -> None:
        kind = event.button.id or ""
        server = self.query_one("#server", Input).value.strip()
        if not server.startswith(("ws://", "wss://")):
            self._refuse(f"'{shown(server)}' is not a server: expected ws://HOST:PORT")
            return
        if kind == "create":
            side = str(self.query_one("#side", Select).value)
            self.dismiss(OnlineChoice(server, "create", game=self.game, side=side))
            return
        found = room_or_invitation(self.query_one("#room", Input).value.strip())
        if found is None:
            self._refuse("Type the invitation (CODE-KEY) or the room's code first.")
            self.query_one("#room", Input).focus()
            return
        code, key = found
        room = code if key is None or kind == "watch" else invitation_text(code, key)
        self.dismiss(OnlineChoice(server, kind, room=room))

    def action_cancel(self) -> None:
        self.dismiss(None)


__all__ = ["DEFAULT_SERVER", "OnlineScreen"]
