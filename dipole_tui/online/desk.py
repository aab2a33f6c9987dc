"""The server's desk: names claimed, the lobby's seeks paired into rooms, the leaderboard.

What a player asks of the server as a whole rather than of one room. The desk holds the lobby
and asks its server for what rooms need (a new room, the count of an address's guesses).
"""

from __future__ import annotations

import secrets
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..bots import BOT_NAMES
from ..games.base import GameError
from ..registry import game_named
from ..session import Session
from .connection import Client, WrongKey, new_secret, refused
from .limits import Address
from .lobby import Lobby as Seeks
from .lobby import Waiting
from .protocol import (
    BAD_MESSAGE,
    MOST_LISTED,
    MOST_PLAYERS_LISTED,
    NAME_TAKEN,
    NO_ROOM,
    TOO_FAST,
    Accept,
    Claim,
    Create,
    Lobby,
    Named,
    PlayerList,
    ProtocolError,
    Ranked,
    Seek,
    Sought,
    room_code,
)
from .ratings import Standing, speed
from .rooms import Room, new_session
from .store import NameTaken, holds, name_key

if TYPE_CHECKING:
    from .server import GameServer

# Names nobody claims: the seats' words and the bots' levels a record writes as White or Black.
RESERVED_NAMES = frozenset({"white", "black", "human", "anonymous", "admin", "server", *BOT_NAMES})


class Desk:
    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.store = server.store
        self.limits = server.limits
        self.lobby = Seeks()

    # -- the lobby ------------------------------------------------------------------------------

    async def seek(self, client: Client, counted: Address | None, message: Seek) -> None:
        """Post the seek, or (one in the lobby fits it) seat both players at once."""
        if client.name is None:
            raise refused("the lobby is for named players: claim a name first (--name)")
        if counted is not None and not counted.seeks.take():
            most = self.limits.seeks_per_minute
            raise ProtocolError(TOO_FAST, f"{most:g} seeks a minute from one address at most")
        if len(self.lobby) >= self.limits.most_seeks:
            raise refused("the lobby is full: try again in a while")
        session = asked_session(client, message)
        standing = await self._standing(client.name, session)
        code = self.lobby.new_code(self.server.rooms)
        clock = str(session.clock.control) if session.clock is not None else None
        waiting = Waiting(code, client, message, session.state.variant, clock, standing)
        match = self.lobby.add(waiting)
        if match is None:
            client.send(Sought(code))
        else:
            await self._pair(match, client, message.side)

    async def accept(self, client: Client, counted: Address | None, message: Accept) -> None:
        code = room_code(message.seek)
        waiting = self.lobby.seeks.get(code)
        if waiting is None or not waiting.shown_to(client.name):
            self.server.guessing(counted)
            raise ProtocolError(NO_ROOM, f"there is no seek {code}: taken, or withdrawn")
        if waiting.client is client:
            raise refused("that is your own seek: another player accepts it")
        if waiting.seek.rated and client.name is None:
            raise refused("a rated game is between named players: claim a name first")
        session = new_session(waiting.seek.game, waiting.variant, waiting.clock)
        standing = None if client.name is None else await self._standing(client.name, session)
        if not waiting.admits(standing):
            raise refused(f"your rating is outside the range {waiting.name} asked for")
        self.lobby.take(code)
        self.lobby.withdraw(client)
        await self._pair(waiting, client, None)

    async def _pair(self, first: Waiting, second: Client, side_asked: str | None) -> None:
        """A room for a seek and the player who takes it: the seeker's side, else the
        other's, else one drawn; both seated."""
        session = new_session(first.seek.game, first.variant, first.clock)
        room = await self.server.new_room(session, bool(first.seek.rated))
        side = {"white": 0, "black": 1}.get(first.seek.side or "")
        if side is None:
            side = {"white": 1, "black": 0}.get(side_asked or "", secrets.randbelow(2))
        await room.pair(first.client, side, second)

    async def rematch(self, client: Client, room: Room) -> None:
        """A rematch offered, or agreed: then a new room of the same game, clock and rating,
        the colours swapped, both players seated there from where they are."""
        players = await room.rematch(client)
        if players is None:
            return
        session = new_session(room.session.game.key, room.session.state.variant, room.clock_text)
        try:
            new = await self.server.new_room(session, room.rated)
        except ProtocolError:
            room.next = None  # not made: it may be asked again
            raise
        await room.rematched(new.code)
        if any([room.leave(player) for player in players]):  # both leave, then it may go
            self.server.forget(room)
        await new.pair(players[0], 0, players[1])

    def lobby_list(self, client: Client, game: str | None) -> None:
        seeks = self.lobby.shown_to(client.name, game)
        rooms = (
            room.on()
            for room in self.server.rooms.values()
            if room.going_on() and game in (None, room.session.game.key)
        )
        listed = tuple(waiting.listed() for waiting in islice(seeks, MOST_LISTED))
        client.send(Lobby(listed, tuple(islice(rooms, MOST_LISTED))))

    async def _standing(self, name: str, session: Session[Any]) -> Standing | None:
        """The player's standing at the game's speed (None without a clock)."""
        at = speed(None if session.clock is None else str(session.clock.control))
        return None if at is None else await self.store.standing(name, session.game.key, at)

    async def claim(self, client: Client, counted: Address | None, message: Claim) -> None:
        """The connection plays under the name from now on: a new one is kept with a new
        token, one claimed before is taken with its token (a wrong token is a guess)."""
        name, token = message.name, message.token
        if client.name is not None:
            raise refused(f"this connection plays as {client.name} already")
        if token is not None:
            self.server.guessing(counted)
            kept = await self.store.player(name)
            if kept is None or not holds(token, kept.token):
                raise WrongKey(f"that token is not the key of the name {name}")
            client.name = kept.name
            client.send(Named(kept.name))
            return
        if name_key(name) in RESERVED_NAMES:
            raise ProtocolError(NAME_TAKEN, f"{name} is a name of this program's: choose another")
        if counted is not None and not counted.names.take():
            most = self.limits.names_per_hour
            raise ProtocolError(TOO_FAST, f"{most:g} new names an hour from one address at most")
        token = new_secret()
        try:
            await self.store.claim_name(name, token)
        except NameTaken:
            raise ProtocolError(
                NAME_TAKEN, f"the name {name} is taken: choose another, or claim it with its token"
            ) from None
        client.name = name
        client.send(Named(name, token))

    async def leaderboard(self, client: Client, game: str, speed: str | None) -> None:
        try:
            key = game_named(game).key
        except GameError as error:
            raise ProtocolError(BAD_MESSAGE, str(error)) from None
        rows = await self.store.leaderboard(key, speed, MOST_PLAYERS_LISTED)
        standings = tuple(
            Ranked(row.name, row.speed, row.standing.points, row.standing.provisional,
                   row.standing.games)
            for row in rows
        )  # fmt: skip
        client.send(PlayerList(key, standings))


def asked_session(client: Client, asked: Create | Seek) -> Session[Any]:
    """The game a `create` or a `seek` asks for; refused in one line when it cannot be one (a
    rated game needs a clock, and a name)."""
    try:
        session = new_session(asked.game, asked.variant, asked.clock)
    except GameError as error:
        raise ProtocolError(BAD_MESSAGE, str(error)) from None
    if asked.rated and asked.clock is None:
        raise refused("a rated game needs a clock (5+3, say): without one it may never end")
    if asked.rated and client.name is None:
        raise refused("a rated game is between named players: claim a name first")
    return session


__all__ = ["RESERVED_NAMES", "Desk", "asked_session"]
