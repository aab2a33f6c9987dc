"""The Online dialog (from the new-game dialog): a game server, the name to play under there
(the one kept for it, `names.json`, is filled in), and what to play: a new room for the game
chosen there, a seek in the server's lobby for it, a room's code to join or watch, or a seek
or a game of the lobby listed below (`lobby_list.py`, asked again every few seconds). What it
settles is an `OnlineChoice`; the screen's online part (`online_play.py`) plays it."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select

from ...control.choice import GameChoice, OnlineChoice
from ...games.base import shown, title
from ...online.names import NameBook, name_problem
from ...online.protocol import Claim, OpenSeek, invitation_text, room_or_invitation
from ...registry import REGISTRY
from ..closing import Dialog
from .lobby_list import LobbyList

DEFAULT_SERVER = "ws://127.0.0.1:8765"  # `dipole-tui serve` on this machine
LOOK_EVERY = 10.0  # seconds between two looks at the lobby while the dialog is open


class OnlineScreen(Dialog[OnlineChoice | None]):
    """Where to play: the server, the name, and a new room or a seek (the game chosen before),
    a room's code, or one of the lobby's seeks and games."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self, game: GameChoice, server: str = DEFAULT_SERVER, names: NameBook | None = None
    ) -> None:
        super().__init__()
        self.game = game
        self.server = server
        self.names = names
        self.kept = self._kept_name(server)  # the name filled in: one typed over it is new

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
                yield Label("Name")
                yield Input(
                    self.kept,
                    placeholder="yours on this server (3-20 letters, digits, _ -)",
                    compact=True,
                    id="name",
                )
                yield Label("Room")
                yield Input(
                    placeholder="an invitation to join, a code to watch", compact=True, id="room"
                )
                yield Label("Side")
                with Horizontal(id="side-rated"):
                    yield Select(
                        [("random", "random"), (names[0], "white"), (names[1], "black")],
                        value="random",
                        allow_blank=False,
                        compact=True,
                        id="side",
                    )
                    yield Select(
                        [("casual", "casual"), ("rated", "rated")],
                        value="casual",
                        allow_blank=False,
                        compact=True,
                        id="rated",
                    )
            yield Label(
                f"New room and Seek play {about}. Escape: back.",
                classes="dialog-hint",
                id="about",
                markup=False,
            )
            with Horizontal(classes="buttons"):
                yield Button("New room", variant="primary", id="create")
                yield Button("Seek", id="seek")
                yield Button("Join", id="join")
                yield Button("Watch", id="watch")
                yield Button("Refresh", id="refresh")
            # Below the buttons: the list grows when the server answers, and nothing it pushes
            # down may be aimed at meanwhile.
            yield LobbyList(id="lobby")

    def on_mount(self) -> None:
        self.query_one("#create", Button).focus()
        self._look()
        self.set_interval(LOOK_EVERY, self._look)

    def _kept_name(self, server: str) -> str:
        kept = self.names.find(server) if self.names is not None else None
        return kept.name if kept is not None else ""

    def _look(self) -> None:
        """The lobby of the server typed (as the name kept there, when it is the one typed:
        a seek inviting that player is shown to them alone)."""
        server = self.query_one("#server", Input).value.strip()
        if not server.startswith(("ws://", "wss://")):
            return
        kept = self.names.find(server) if self.names is not None else None
        typed = self.query_one("#name", Input).value.strip().lower()
        same = kept is not None and kept.name.lower() == typed
        claim = Claim(kept.name, kept.token) if kept is not None and same else None
        self.query_one(LobbyList).ask(server, claim)

    @on(Input.Submitted, "#server")
    @on(Input.Blurred, "#server")
    def server_entered(self) -> None:
        """Another server: its kept name in place of the last one's (unless one was typed),
        and its lobby."""
        server = self.query_one("#server", Input).value.strip()
        name = self.query_one("#name", Input)
        if name.value.strip() == self.kept:
            self.kept = self._kept_name(server)
            name.value = self.kept
        self._look()

    def _refuse(self, said: str) -> None:
        self.query_one("#about", Label).update(said)
        self.query_one("#about", Label).add_class("refused")
        self.app.bell()

    def _settled(self) -> tuple[str, str | None] | None:
        """The server and the name typed (None: the one kept there, if any); None, said, when
        either is not one."""
        server = self.query_one("#server", Input).value.strip()
        if not server.startswith(("ws://", "wss://")):
            self._refuse(f"'{shown(server)}' is not a server: expected ws://HOST:PORT")
            return None
        name = self.query_one("#name", Input).value.strip()
        if problem := name_problem(name) if name else "":
            self._refuse(problem)
            self.query_one("#name", Input).focus()
            return None
        return server, name or None

    def _named(self, server: str, name: str | None, why: str) -> bool:
        """A name to play under on `server` (typed, or kept there); else said."""
        if name is not None or self._kept_name(server):
            return True
        self._refuse(f"{why}: type your name first.")
        self.query_one("#name", Input).focus()
        return False

    @on(Button.Pressed)
    def chosen(self, event: Button.Pressed) -> None:
        event.stop()
        kind = event.button.id or ""
        if kind == "refresh":
            if self._settled() is not None:
                self._look()
            return
        settled = self._settled()
        if settled is None:
            return
        server, name = settled
        if kind in ("create", "seek"):
            self._new_game(kind, server, name)
            return
        found = room_or_invitation(self.query_one("#room", Input).value.strip())
        if found is None:
            self._refuse("Type the invitation (CODE-KEY) or the room's code first.")
            self.query_one("#room", Input).focus()
            return
        code, key = found
        room = code if key is None or kind == "watch" else invitation_text(code, key)
        self.dismiss(OnlineChoice(server, kind, room=room, name=name))

    def _new_game(self, kind: str, server: str, name: str | None) -> None:
        """A new room or a seek for the game chosen before, with the side and kind here."""
        rated = self.query_one("#rated", Select).value == "rated"
        if rated and self.game.time_control is None:
            self._refuse("A rated game needs a clock: choose one in the new-game dialog.")
            return
        if kind == "seek" and not self._named(server, name, "The lobby is for named players"):
            return
        if rated and not self._named(server, name, "A rated game is between named players"):
            return
        side = str(self.query_one("#side", Select).value)
        self.dismiss(OnlineChoice(server, kind, game=self.game, side=side, name=name, rated=rated))

    @on(LobbyList.Chosen)
    def listed(self, event: LobbyList.Chosen) -> None:
        """A seek of the lobby taken, or a game going on watched, on the lobby's server."""
        settled = self._settled()
        if settled is None:
            return
        server, name = self.query_one(LobbyList).server, settled[1]
        if not isinstance(event.chosen, OpenSeek):
            self.dismiss(OnlineChoice(server, "watch", room=event.chosen.room, name=name))
            return
        if event.chosen.rated and not self._named(
            server, name, "A rated game is between named players"
        ):
            return
        self.dismiss(OnlineChoice(server, "accept", room=event.chosen.seek, name=name))

    def action_cancel(self) -> None:
        self.dismiss(None)


__all__ = ["DEFAULT_SERVER", "OnlineScreen"]
