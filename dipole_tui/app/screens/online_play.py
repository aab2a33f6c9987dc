"""The game screen's online part: a room of a game server on the board.

The link (`online/client.py`) runs as a task of the app's own event loop, so the server's
messages arrive here in order with the keys; the server's referee turns each into a change
of the game, shown as any change is. The panel says the room, the seats and the connection, a
move of the player's on its way, and while a seat is free, the command a friend types to take it.
What a room refuses of the screen's actions (help for a player, the editor) is refused here,
once for their keys and their commands (`refusable`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from rich.text import Text
from textual.message import Message

from ...control.changes import Notice
from ...control.choice import OnlineChoice
from ...control.game_news import Left, room_of
from ...games.base import GameError
from ...online.client import Ask
from ...online.my_games import Turn
from ...online.protocol import (
    NO_ROOM,
    Accept,
    Chat,
    Create,
    Ended,
    Error,
    Join,
    Rematched,
    Seated,
    Seek,
    ServerMessage,
    Watch,
    WholeGame,
    room_code,
    room_or_invitation,
)
from ...online.seat import OnlineGame, clock_text, player_text
from ..dialogs.chat import ChatScreen
from ..dialogs.choice import ChoiceScreen

if TYPE_CHECKING:
    from ...session import Session
    from .game import GameScreen

# The game screen's actions that help a player: none for a player of a live online game.
HELP_ACTIONS = frozenset({"hint", "analyse", "lines", "review"})

Action = TypeVar("Action", bound=Callable[..., None])


def refusable(action: Action) -> Action:
    """A game screen's action that an online game may refuse (`OnlinePlay.why_refused`): it is
    refused in one line, alike from its key and from the command palette."""
    name = action.__name__.removeprefix("action_")

    @functools.wraps(action)
    def guarded(screen: GameScreen, *parameters: Any) -> None:
        if why := screen.online.why_refused(name):
            screen.refuse(why)
            return
        action(screen, *parameters)

    return cast(Action, guarded)


class RoomShown(Message):
    """Another room (or none) is on the game screen: the app's count of the games waiting for
    the player leaves it out at once, and takes the room left (`left`) as it stood
    (`online_news.py`)."""

    def __init__(self, left: Left | None = None) -> None:
        super().__init__()
        self.left = left


class OnlinePlay:
    """The game screen's online play: the link to the server, and the room in the panel."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.keeper = screen.keeper
        self.panel = screen.panel
        self.analysis = screen.analysis
        self.link_status = ""  # why the link is not connected now ("" when it is)
        self.oriented = False  # the board was turned to the player's side in this room
        self.creating = False  # a new room was asked for, and the server has not given it yet
        self.chat_screen: ChatScreen | None = None  # the chat, while it is open

    @property
    def session(self) -> Session[Any]:
        return self.keeper.session

    def why_refused(self, action: str) -> str:
        """Why the screen's `action` may not run now ("" when it may): no help for a player of
        a live online game (turning the analysis off always may), and no editor in a room."""
        if action == "analyse" and self.analysis.on:
            return ""
        if action in HELP_ACTIONS:
            return self.keeper.referee.why_no_help()
        if action == "edit":
            return self.keeper.referee.why_no_edit()
        return ""

    def _no_help_now(self) -> None:
        """A player of a live online game: an analysis still running stops, its bar goes."""
        if self.analysis.on and self.keeper.referee.why_no_help():
            self.screen.action_analyse()

    def go_online(self, choice: OnlineChoice) -> None:
        """Create, join or watch a room: the link connects (and reconnects) by itself."""
        self.leave_online()
        seat = None
        code, key = room_or_invitation(choice.room) or (room_code(choice.room), None)
        ask: Ask
        if choice.kind in ("create", "seek") and choice.game is not None:
            game, rated = choice.game, choice.rated or None
            clock = clock_text(game.time_control)
            ask = Create(game.game_key, game.variant, choice.side, clock, rated)
            if choice.kind == "seek":
                side = None if choice.side == "random" else choice.side
                ask = Seek(game.game_key, game.variant, clock, rated, side, choice.range,
                           choice.invite)  # fmt: skip
        elif choice.kind == "accept":
            ask = Accept(code)
        elif choice.kind == "join":  # a seat kept, or the invitation to the free one
            seat = self.keeper.seat_book.find(choice.server, code)
            ask = Join(code, seat.secret) if seat else Join(code, invite=key)
        else:
            ask = Watch(code)
        room = OnlineGame(choice.server, code=code, filed=bool(seat and seat.filed))
        claim = self.keeper.name_book.claim(choice.server, choice.name)
        link = self.screen.link_class(choice.server, ask, self._from_server, self._link_said, claim)
        self.screen.bots.cancel()
        self.link_status = "connecting..."
        self.oriented = False
        self.creating = choice.kind == "create"
        self.screen.menus.tell(self.keeper.go_online(room, link))
        self._no_help_now()
        self.screen.run_worker(link.run(), group="online", exclusive=True, exit_on_error=False)
        self.show_room()
        self.screen.post_message(RoomShown())

    def leave_online(self) -> None:
        """Back to games played here: the link closes (the room goes on on the server)."""
        left = self._left()
        link = self.keeper.leave_room()
        if link is not None:
            self.screen.run_worker(link.close(), group="online-close")
            self.show_room()
            self.screen.post_message(RoomShown(left))

    def _left(self) -> Left | None:
        """The player's room on screen as it stands, to be watched once left (None: none, a
        room watched, or a move on its way: the next look takes it as the server has it)."""
        room, state = self.keeper.online, self.session.state
        if room is None or room.side is None or not room.code or room.sending is not None:
            return None
        turn = Turn.YOURS if state.to_move == room.side else Turn.THEIRS
        turn = Turn.OVER if self.session.outcome is not None else turn
        return room_of(room.server, room.code), turn, state.plies

    def _from_server(self, message: ServerMessage) -> None:
        online = self.keeper.online
        if isinstance(message, Error) and message.code == NO_ROOM and online and not online.seated:
            self.leave_online()  # a code mistyped (or a room gone): back to the game here
            said = f"{message.text} on {online.server}: check the code"
            self.screen.menus.tell([Notice(said, "Online", "error", timeout=12)])
            return
        change = self.keeper.referee.from_server(message)
        if isinstance(message, Chat) and online is not None:
            self._heard(online, message)
        if isinstance(message, Rematched) and online is not None and online.side is not None:
            self.oriented = False  # the new room's side nearest
            if isinstance(self.screen.app.screen, ChoiceScreen):  # the old game's end: gone
                self.screen.app.screen.dismiss("board")
        if isinstance(message, Seated) and self.creating:  # how a friend comes in, once
            self.creating = False
            self._tell_join_command()
        self._no_help_now()
        if change is not None:
            if isinstance(message, WholeGame | Ended):
                self.screen.show_game(self.session)  # another game: its board
                if not self.oriented:  # the player's own side nearest, once: f still flips
                    self.oriented = True
                    self.screen.board.flipped = (
                        self.keeper.online is not None and self.keeper.online.side == 1
                    )
            self.screen.after_change(change)
        self.show_room()

    def _heard(self, room: OnlineGame, message: Chat) -> None:
        """New lines in the chat when it is open, else as a toast (those said before the
        player came in wait for the chat)."""
        lines = [room.chat_text(line, self.session) for line in room.heard(message.lines)]
        if self.chat_screen is not None:
            self.chat_screen.add(lines)
        elif not message.before and lines:
            self.screen.menus.tell([Notice(line, "Chat (C answers)", timeout=10) for line in lines])

    def chat(self) -> None:
        """The room's chat (C); refused in a game played here."""
        room = self.keeper.online
        if room is None:
            self.screen.refuse("Chat is for online games: C opens it in a room of a server.")
            return
        lines = [room.chat_text(line, self.session) for line in room.chat]
        self.chat_screen = ChatScreen(f"Chat in room {room.code}", lines, self._say)
        self.screen.app.push_screen(self.chat_screen, lambda _: self._chat_closed())

    def _chat_closed(self) -> None:
        self.chat_screen = None

    def _say(self, text: str) -> str:
        """A line sent, or a slash word done here: what to show in the chat instead."""
        room = self.keeper.online
        if room is None:
            return "The room was left: nobody reads this."
        if text in ("/mute", "/unmute"):
            room.muted = text == "/mute"
            if room.muted:
                return "The other side's lines are hidden now: /unmute shows them again."
            return "Every line is shown again."
        if text.startswith("/"):
            return f"{text.split()[0]}: not a chat command (/mute, /unmute)."
        try:
            self.keeper.referee.say(text)
        except GameError as error:
            return str(error)
        return ""

    def _tell_join_command(self) -> None:
        room = self.keeper.online
        if room is not None:
            said = f"Room {room.code} is open.\ninvite: {room.join_command()}"
            said += f"\nwatch: {room.watch_command()}"
            self.screen.menus.tell([Notice(said, "Online", timeout=60)])

    def _link_said(self, said: str) -> None:
        """The link's state: anything said is a connection down (or given up)."""
        room, link = self.keeper.online, self.keeper.referee.link
        if room is not None and not room.seated and link is not None and link.fatal:
            self.leave_online()  # refused before any seat (a name taken): the game here again
            self.screen.menus.tell([Notice(said, "Online", "error", timeout=12)])
            return
        self.link_status = said
        if said:
            self.keeper.referee.link_down()
            self.panel.show_clocks()
        self.show_room()

    def show_room(self) -> None:
        """The room's lines in the panel: the code, who sits where, the connection."""
        room = self.keeper.online
        if room is None:
            self.panel.show_room(Text())
            return
        if room.seeking:
            said = f"Seeking a game in the lobby ({room.seeking}): it starts when someone takes it."
            seats = f"{room.name or 'you'}, seeking"
            self.panel.show_room(Text(f"{said}\n{self.link_status}".rstrip(), "bold"), seats)
            return
        text = Text.assemble(("Room ", "bold"), (room.code or "...", "bold reverse"))
        names = self.session.game.side_names
        if room.rated:
            text.append("  rated", "bold")
        if room.side is not None:
            you = player_text(room.named[room.side]) or room.name or ""
            text.append(f"  you: {names[room.side]} {you}".rstrip(), "dim")
        elif room.seated:  # not before: a seat may still come
            text.append("  watching", "dim")
        news = []
        for side in () if not room.seated else (0, 1) if room.side is None else (1 - room.side,):
            if not room.seats[side]:
                invited = f": a friend joins with --join {room.invitation()}" if room.invite else ""
                news.append(f"{names[side]} free{invited}")
            else:
                named = f"{names[side]} {player_text(room.named[side])}".rstrip()
                news.append(f"{named} " + ("online" if room.online[side] else "away"))
        if room.watchers:
            news.append(f"{room.watchers} watching")
        if news:
            text.append("\n" + " · ".join(news), "dim")
        if room.sending is not None:
            text.append(f"\nsending {room.sending.move}...", "bold")
        if self.link_status:
            text.append(f"\n{self.link_status}", "bold red")
        self.panel.show_room(text)
