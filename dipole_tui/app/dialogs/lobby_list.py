"""A game server's lobby in the Online dialog: the open seeks (who, their rating, the game, the
clock, rated or not) and the games going on, as the server's `lobby` answers (asked on a short
connection of its own, `online/client.py`'s `ask_lobby`). Enter on a seek takes it, on a game
watches it. Every word is the server's: shown as text, never read as markup."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from ...games.base import shown, title
from ...online.client import ask_lobby
from ...online.my_games import ASK_ERRORS, why_not
from ...online.protocol import Claim, GameOn, Lobby, OpenSeek, ProtocolError
from ...online.seat import player_text, rating_text
from ...registry import REGISTRY

Listed = OpenSeek | GameOn


class LobbyList(Vertical):
    """The lobby of one server: a line saying what it holds, and its seeks and games."""

    class Chosen(Message):
        """A seek to take or a game to watch."""

        def __init__(self, chosen: Listed) -> None:
            super().__init__()
            self.chosen = chosen

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.server = ""  # the server whose lobby is shown (or asked)
        self.rows: list[Listed | None] = []  # each option's seek or game (None: a heading)

    def compose(self) -> ComposeResult:
        yield Label("", id="lobby-said", classes="dialog-hint", markup=False)
        yield OptionList(id="lobby-rows", markup=False)

    def ask(self, server: str, claim: Claim | None) -> None:
        """Ask `server` for its lobby (as the player of `claim`, a name kept with its token);
        the rows shown stay until the answer, unless they were another server's."""
        if server != self.server:
            self.server = server
            self._said(f"Asking {shown(server, 50)} for its lobby...")
            self._show([])
        self._asked(server, claim)

    @work(group="lobby", exclusive=True)
    async def _asked(self, server: str, claim: Claim | None) -> None:
        try:
            try:
                lobby = await ask_lobby(server, None, claim)
            except ProtocolError:
                if claim is None:
                    raise
                lobby = await ask_lobby(server)  # the name refused: the lobby anyone sees
        except ASK_ERRORS as error:
            if server == self.server:
                self._said(f"The lobby of {shown(server, 40)}: the server {why_not(error)}.")
                self._show([])
            return
        if server == self.server:  # (not a server since left)
            self._said(f"The lobby of {shown(server, 50)}:")
            self.show(lobby)

    def show(self, lobby: Lobby) -> None:
        """The seeks, then the games, each under its heading; the highlight kept on the same
        seek or game when it is still there."""
        seeks = "Seeks: Enter takes one" if lobby.seeks else "No seeks: Seek posts yours"
        games = "Games going on: Enter watches one" if lobby.games else "No games going on"
        self._show([seeks, *lobby.seeks, games, *lobby.games])

    def _show(self, rows: list[Listed | str]) -> None:
        option_list = self.query_one(OptionList)
        was = option_list.highlighted
        before = _code(self.rows[was]) if was is not None and was < len(self.rows) else ""
        self.rows = [None if isinstance(row, str) else row for row in rows]
        option_list.set_options(
            Option(Text(row, "bold"), disabled=True) if isinstance(row, str) else _line(row)
            for row in rows
        )
        codes = [_code(row) for row in self.rows]
        same = [i for i, code in enumerate(codes) if code and code == before]
        listed = [i for i, code in enumerate(codes) if code]
        option_list.highlighted = (same or listed)[0] if listed else None

    def _said(self, said: str) -> None:
        self.query_one("#lobby-said", Label).update(said)

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = self.rows[event.option_index]
        if row is not None:
            self.post_message(self.Chosen(row))


def _code(row: Listed | None) -> str:
    """The seek's or the room's code ("" for a heading)."""
    return row.seek if isinstance(row, OpenSeek) else row.room if row is not None else ""


def _game(key: str, variant: str) -> str:
    entry = REGISTRY.get(key)
    return title(entry.game, variant) if entry is not None else f"{key} {variant}"


def _line(row: Listed) -> Option:
    """A seek or a game in one line: who, the game, the clock, rated or not, and the rest."""
    if isinstance(row, OpenSeek):
        who = f"{row.name} {rating_text(row.rating, row.provisional)}"
        rest = f"plays {row.side}" if row.side in ("white", "black") else ""
    else:
        players = row.players or (None, None)
        who = " v ".join(player_text(player) or "?" for player in players)
        watching = f", {row.watchers} watching" if row.watchers else ""
        rest = f"ply {row.plies}{watching}"
    cells = (
        (shown(who, 24), 24),
        (shown(_game(row.game, row.variant), 13), 13),
        (row.clock or "-", 5),
        ("rated" if row.rated else "casual", 6),
        (rest, 0),
    )
    return Option(Text("  ".join(cell.ljust(width) for cell, width in cells).rstrip()))


__all__ = ["LobbyList"]
