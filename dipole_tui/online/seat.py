"""An online game as the client sees it: which room, which seat, and what each message of the
server does to the game on screen; and the seats a player holds, kept in the data folder.

No Textual and no sockets: the keeper hands a message in and gets back what changed (a whole
game to show instead, the opponent's move to play, words to say). The server referees; the
client plays the same moves through its own session (the last guard) and, when the two ever
disagree, asks for the server's game again. The room's events come numbered: the client applies
each once, in order (one told again is passed over, one after a gap asks for the whole game),
and coming back asks for those after the last it applied.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit, urlunsplit

from .. import storage
from ..clock import TimeControl
from ..games.base import GameError
from ..session import HUMAN, REMOTE, Seat, Session
from .protocol import (
    MOST_CHAT,
    Archive,
    Asked,
    Chat,
    ChatLine,
    Declined,
    Ended,
    Error,
    Event,
    Join,
    Lobby,
    Moved,
    Named,
    Offer,
    Player,
    PlayerList,
    Players,
    Pong,
    Rematched,
    RoomList,
    Seated,
    Seats,
    ServerMessage,
    Sought,
    TakenBack,
    Watch,
    Welcome,
    WholeGame,
    invitation_text,
    unanswered,
)

SEATS_FILE = "online.json"
SEATS_MODE = 0o600  # the file holds the seats' secrets: its owner's alone
MOST_SEATS = 500  # the seats kept: the oldest finished ones go first
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})  # this machine, by any of its names
DEFAULT_PORTS = {"ws": 80, "wss": 443}


def normalised(server: str) -> str:
    """A server's address as the seat book matches it: the scheme and host in lower case, this
    machine's names as one, the default port written out, no trailing slash. So a seat taken on
    `ws://localhost:8765/` is found again on `ws://127.0.0.1:8765`. An address that does not
    parse is itself."""
    try:
        parts = urlsplit(server.strip())
        port = parts.port
    except ValueError:
        return server
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    host = "127.0.0.1" if host in LOOPBACK else host
    port = DEFAULT_PORTS.get(scheme) if port is None else port
    where = f"[{host}]" if ":" in host else host
    where += "" if port is None else f":{port}"
    return urlunsplit((scheme, where, parts.path.rstrip("/"), parts.query, ""))


WORDS = {"draw": "draw", "takeback": "take-back", "rematch": "rematch"}  # what is asked, in words
MOST_TEXT = 2_000  # characters of a seat's server, room, secret or game: more is no seat of ours


@dataclass
class RoomSeat:
    """A seat in a room of a server: the secret that holds it, and what the Open dialog lists."""

    server: str
    room: str
    secret: str
    side: int
    game: str
    filed: bool = False  # the finished game is in this player's finished/ already


class SeatBook:
    """The player's seats (`online.json` in the data folder): the secret is what lets the same
    player come back to a room days later, and nobody else move for that seat."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / SEATS_FILE
        self.problem = ""  # why the file was set aside, to be told once

    def seats(self) -> list[RoomSeat]:
        """The seats kept. A file that is not a book of seats (or holds one entry that is not a
        seat) is set aside under a new name, never replaced unread: `problem` says so."""
        self._tighten()
        kept, problem = storage.read_settings(self.path, "a book of online seats", _seats)
        self.problem = problem or self.problem
        return kept or []

    def find(self, server: str, room: str) -> RoomSeat | None:
        """The seat kept in that server's room, by the server's normalised address."""
        where = normalised(server)
        return next(
            (s for s in self.seats() if s.room == room and normalised(s.server) == where), None
        )

    def keep(self, seat: RoomSeat) -> None:
        """Add or replace the seat of that server's room (OSError when it cannot be written)."""
        where = (normalised(seat.server), seat.room)
        seats = [s for s in self.seats() if (normalised(s.server), s.room) != where]
        seats.append(seat)
        if len(seats) > MOST_SEATS:
            seats.sort(key=lambda s: not s.filed)  # finished ones first, oldest first
            del seats[: len(seats) - MOST_SEATS]
        text = json.dumps([asdict(s) for s in seats], indent=1) + "\n"
        storage.write_settings(self.path, text, mode=SEATS_MODE)

    def _tighten(self) -> None:
        """A book written by an older version, readable by others, is made its owner's alone."""
        with contextlib.suppress(OSError):
            info = os.lstat(self.path)
            if stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) & ~SEATS_MODE:
                os.chmod(self.path, SEATS_MODE)


def _seats(data: object) -> list[RoomSeat]:
    """The seats of an `online.json`; ValueError naming the first entry that is not one."""
    if not isinstance(data, list):
        raise ValueError("expected a list of seats")
    return [_seat(entry, number) for number, entry in enumerate(data, 1)]


def _seat(entry: object, number: int) -> RoomSeat:
    """One entry of the book (keys of a newer version passed over)."""
    if isinstance(entry, dict):
        texts = [entry.get(key) for key in ("server", "room", "secret", "game")]
        strings = [text for text in texts if isinstance(text, str) and len(text) <= MOST_TEXT]
        side, filed = entry.get("side"), entry.get("filed", False)
        if len(strings) == 4 and type(side) is int and side in (0, 1) and isinstance(filed, bool):
            server, room, secret, game = strings
            return RoomSeat(server, room, secret, side, game, filed)
    raise ValueError(f"entry {number} is not a seat (server, room, secret, side 0 or 1, game)")


class Received(NamedTuple):
    """What a server's message does to the game on screen (all empty: nothing)."""

    session: Session[Any] | None = None  # the server's whole game, to show instead
    move: Any = None  # the opponent's move, to play (then `set_clocks` with its `Moved`)
    said: str = ""  # words for the panel
    resync: bool = False  # the game here is not the server's: ask for its game again
    asked: str = ""  # what the other player asks of the player here (takeback, rematch)


class Sending(NamedTuple):
    """A move of the player here, played on screen and sent, that the server has not
    acknowledged yet (its `moved` says the move is stored)."""

    ply: int
    move: str
    sentence: str  # what the panel says once it is acknowledged
    refused: str = ""  # the server's refusal, when it answered one


@dataclass
class OnlineGame:
    """An online game as this client sees it: one room of one server, and where the client
    sits in it (`side` None: watching)."""

    server: str
    code: str = ""
    side: int | None = None
    secret: str | None = None
    game: str = ""
    clock: str | None = None
    online: tuple[bool, bool] = (False, False)
    seats: tuple[bool, bool] = (False, False)
    watchers: int = 0
    offer: int | None = None  # the side whose draw offer stands
    filed: bool = False
    seated: bool = False  # the server gave the seat (or a place to watch)
    invite: str | None = None  # the key to the free seat: its creator is given it
    sending: Sending | None = None  # the player's move on its way, until the server has it
    current: bool = False  # since the link was last made, the room's news came up to `up_to`
    version: int | None = None  # the room's last event applied here (None: the whole game next)
    up_to: int = 0  # the room's version when the server last seated the client
    name: str | None = None  # the name the player here plays under on this server
    named: Players = (None, None)  # the seats' named players, as the server says them
    rated: bool = False
    seeking: str = ""  # the player's seek in the lobby, while it waits there
    asked: tuple[str, int] | None = None  # a take-back or rematch standing, and its asker
    next: str | None = None  # the rematch's room, once agreed
    chat: list[ChatLine] = field(default_factory=list)  # the room's last lines heard
    muted: bool = False  # the others' chat lines are not shown (`/mute`)

    def invitation(self) -> str:
        """The invitation to the free seat as a friend types it (CODE-KEY), "" without one."""
        return "" if self.invite is None else invitation_text(self.code, self.invite)

    def join_command(self) -> str:
        """What a friend types to take the free seat (the code alone only watches)."""
        invited = self.invitation() or self.code
        return f"dipole-tui play --server {shlex.quote(self.server)} --join {invited}"

    def watch_command(self) -> str:
        return f"dipole-tui play --server {shlex.quote(self.server)} --watch {self.code}"

    def seat(self) -> RoomSeat | None:
        """The seat to keep in the player's book (None when watching)."""
        if self.side is None or self.secret is None:
            return None
        return RoomSeat(self.server, self.code, self.secret, self.side, self.game, self.filed)

    def players(self) -> tuple[Seat, Seat]:
        """Who sits where on this screen: the player here, the other at the other end."""
        return (
            HUMAN if self.side == 0 else REMOTE,
            HUMAN if self.side == 1 else REMOTE,
        )

    def rejoin(self) -> Join | Watch:
        """What a reconnection asks: the seat (or a place to watch) again, with the events
        after the last applied here; the whole game while a move is on its way (it settles
        whether the server has it)."""
        since = None if self.sending is not None else self.version
        if self.secret is None:
            return Watch(self.code, since)
        return Join(self.code, self.secret, since=since)

    def receive(self, message: ServerMessage, session: Session[Any]) -> Received:
        """What `message` does to `session`, the game on screen. A message that does not fit,
        or an event after a gap, raises GameError (the caller forgets `version` and resyncs);
        an event applied already changes nothing."""
        if not isinstance(message, Event):
            return self._apply(message, session)
        if self.version is not None and message.version <= self.version:
            return Received()  # told again
        if self.version is None or message.version != self.version + 1:
            raise GameError(f"the server's event {message.version} is not the next here")
        got = self._apply(message, session)
        self.version = message.version
        self.current = message.version >= self.up_to
        return got

    def _apply(self, message: ServerMessage, session: Session[Any]) -> Received:
        match message:
            case Seated():
                if message.room != self.code:  # another room (a rematch's): nothing carries over
                    self.filed, self.version, self.chat = False, None, []
                    self.offer = self.asked = self.next = None
                self.code, self.seated, self.side = message.room, True, message.side
                self.seeking = ""
                self.secret = message.secret if self.side is not None else None
                self.invite, self.game, self.clock = message.invite, message.game, message.clock
                self.up_to = message.version  # the events up to it, or the whole game, follow
                self.rated = bool(message.rated)
                self.current = self.version == message.version
            case WholeGame() | Ended():
                return self._whole_game(message, session)
            case Moved():
                return self._moved(message, session)
            case Seats():  # someone came or went; the clocks start when both seats are taken
                self._seats(message)
                self.set_clocks(session, message)
                for side, player in enumerate(self.named):  # the record names who sits there
                    if player is not None:
                        session.tags[("White", "Black")[side]] = player.name
            case Offer(side=side):
                self.offer = side
                if side == self.side:
                    return Received(said="Draw offered: it stands until the next move.")
                name = session.game.side_names[side]
                return Received(
                    said=f"{name} offers a draw: D accepts (it lapses at the next move)."
                )
            case Asked(side=side, what=what):
                self.asked = (what, side)
                return self._asked(what, side, session)
            case Declined(side=side, what=what):
                self.asked = None if what != "draw" else self.asked
                self.offer = None if what == "draw" else self.offer
                name = self._who(side, session)
                mine = "your" if self.side == 1 - side else "the"
                return Received(said=f"{name} declines {mine} {WORDS[what]}.")
            case TakenBack(plies=plies):
                while session.state.plies > plies and session.can_undo():
                    session.undo()
                session.redo_moves.clear()
                self.offer = self.asked = None
                self.set_clocks(session, message)
                to_move = session.game.side_names[session.state.to_move]
                said = f"A move was taken back, as both players agreed: {to_move} to move."
                return Received(session=session, said=said)
            case Rematched(next=code):
                self.next, self.asked = code, None
                if self.side is not None:
                    return Received(said=f"Rematch agreed: room {code}, colours swapped.")
                return Received(said=f"The players play again in room {code}: w watches it.")
            case Chat(lines=lines):
                self.chat = (self.chat + self.heard(lines))[-MOST_CHAT:]
            case Error(text=text):
                if self.sending is None:
                    return Received(said=text)
                # Most likely the move refused (the game moved on, the flag fell): its game again.
                self.sending = self.sending._replace(refused=text)
                return Received(said=text, resync=True)
            case Named(name=name):
                self.name = name
            case Sought(seek=code):  # in the lobby until someone takes the seek
                self.seeking = code
            case Welcome() | Pong() | RoomList() | PlayerList() | Lobby() | Archive():
                pass  # the link's own
            case _:
                raise unanswered(message)
        return Received()

    def _asked(self, what: str, side: int, session: Session[Any]) -> Received:
        if side == self.side:
            if what == "rematch":
                return Received(said="Rematch offered: waiting for the other player's answer.")
            return Received(said="Take-back asked: it stands until the next move.")
        name = self._who(side, session)
        if self.side is None:
            return Received(said=f"{name} asks for a {WORDS[what]}.")
        return Received(said=f"{name} asks for a {WORDS[what]}.", asked=what)

    def _who(self, side: int, session: Session[Any]) -> str:
        """A seat's player as sentences name them: by name, else by side."""
        player = self.named[side]
        return player.name if player is not None else session.game.side_names[side]

    def heard(self, lines: tuple[ChatLine, ...]) -> list[ChatLine]:
        """The lines shown here: muted, the player's own side's alone."""
        return [line for line in lines if not self.muted or line.side == self.side]

    def chat_text(self, line: ChatLine, session: Session[Any]) -> str:
        """A chat line as the panel and the chat show it."""
        if line.side is None:
            who = f"{line.name or 'a watcher'} (watching)"
        else:
            who = line.name or session.game.side_names[line.side]
        return f"{who}: {line.text}"

    def _seats(self, message: WholeGame | Seats) -> None:
        self.seats, self.online, self.watchers = message.seats, message.online, message.watchers
        self.named = message.players or (None, None)

    def _whole_game(self, message: WholeGame | Ended, session: Session[Any]) -> Received:
        server = Session.from_text(message.record)
        self.current = True
        server.players = self.players()
        server.tags["Site"] = self.server
        server.tags["Event"] = f"online room {self.code}"
        said = ""
        if isinstance(message, WholeGame):
            self._seats(message)
            self.offer, self.version = message.offer, message.version
            self.set_clocks(server, message)
        else:
            self.offer = None
            said = f"{server.outcome.reason}." if server.outcome else ""
            said += self._rated(message.changes, server)
        lost = self._lost(server)
        return Received(session=server, said=f"{lost} {said}".strip())

    def _rated(self, changes: tuple[int, int] | None, session: Session[Any]) -> str:
        """Each side's rating after a rated game, and its change (the players' ratings move
        with it)."""
        if changes is None:
            return ""
        told = []
        players = list(self.named)
        for side, (player, change) in enumerate(zip(self.named, changes, strict=True)):
            if player is None or player.rating is None:
                continue
            rating = player.rating + change
            players[side] = Player(player.name, rating, player.provisional)
            told.append(f"{player.name} {rating} ({change:+d})")
        self.named = (players[0], players[1])
        return "\nRatings: " + ", ".join(told) + "." if told else ""

    def _lost(self, server: Session[Any]) -> str:
        """The move on its way, in the server's whole game or not: what to say when not."""
        sending, self.sending = self.sending, None
        if sending is None:
            return ""
        stored = server.state.moves_played
        if sending.ply < len(stored) and server.game.format_move(stored[sending.ply]) == (
            sending.move
        ):
            return ""  # stored; its acknowledgement was lost with the connection
        if sending.refused:
            return f"{sending.move} was refused by the server: {sending.refused}"
        return f"{sending.move} was not received by the server; play it again."

    def _moved(self, message: Moved, session: Session[Any]) -> Received:
        ply, text = message.ply, message.move
        played = session.state.moves_played
        self.offer = None
        if ply < len(played) and session.game.format_move(played[ply]) == text:
            self.set_clocks(session, message)  # our own move, acknowledged: the server's times
            sending = self.sending
            if sending is None or (sending.ply, sending.move) != (ply, text):
                return Received()
            self.sending = None
            return Received(said=sending.sentence)
        if ply != session.state.plies:
            raise GameError(f"the server's ply {ply} is not ours ({session.state.plies})")
        return Received(move=session.game.parse_move(text, session.state))

    @staticmethod
    def set_clocks(session: Session[Any], news: WholeGame | Moved | Seats | TakenBack) -> None:
        """The server's times, where it said them (after the opponent's move, once played)."""
        clock, clocks = session.clock, news.clocks
        if clock is not None and clocks is not None:
            clock.set_to(clocks, news.running is not None and session.outcome is None)


def clock_text(control: TimeControl | None) -> str | None:
    """A time control as the `create` message carries it (`5+3`)."""
    return None if control is None else str(control)


def player_text(player: Player | None) -> str:
    """A seat's named player as the panel says them: the name, and the rating at the room's
    speed (with "?" while provisional)."""
    if player is None:
        return ""
    return f"{player.name} {rating_text(player.rating, player.provisional)}".rstrip()


def rating_text(rating: int | None, provisional: bool | None) -> str:
    """A rating as players read it: "1500?" while provisional; "" without one."""
    return "" if rating is None else f"{rating}{'?' if provisional else ''}"


__all__ = [
    "OnlineGame",
    "Received",
    "RoomSeat",
    "SeatBook",
    "Sending",
    "clock_text",
    "normalised",
    "player_text",
    "rating_text",
]
