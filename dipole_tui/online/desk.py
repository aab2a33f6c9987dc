"""The server's desk: names claimed, the lobby's seeks paired into rooms, the leaderboard, a
player's finished games.

What a player asks of the server as a whole rather than of one room. The desk holds the lobby
and asks its server for what rooms need (a new room, the count of an address's guesses).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..bots import BOT_NAMES
from ..games.base import GameError
from ..registry import game_named
from ..session import Session
from .connection import RATED_UNNAMED, Client, WrongKey, new_secret, refused
from .limits import Address
from .lobby import Lobby as Seeks
from .lobby import Waiting
from .protocol import (
    ARCHIVE_TEXT,
    BAD_MESSAGE,
    MOST_ARCHIVED,
    MOST_LISTED,
    MOST_PLAYERS_LISTED,
    NAME_TAKEN,
    NO_ROOM,
    TOO_FAST,
    UNKNOWN_TYPE,
    Accept,
    Archive,
    ArchivedGame,
    AskGames,
    Claim,
    Create,
    Ended,
    Lobby,
    Named,
    PlayerList,
    ProtocolError,
    Ranked,
    Seek,
    Sought,
    read_reply,
    room_code,
)
from .ratings import Standing, speed
from .rooms import SIDES, Room, Seating, new_session, replayed
from .store import NameTaken, StoredRoom, holds, name_key

if TYPE_CHECKING:
    from .server import GameServer

log = logging.getLogger("dipole_tui.online")
ARCHIVE_VERSION = 5  # the protocol `games` came with: an older client is sent no `Archive`
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
        standing = await self.standing(client.name, session)
        if client.room is not None:  # its earlier seek was taken meanwhile
            raise refused(f"this connection is in room {client.room.code} already")
        code = self.lobby.new_code(self.server.rooms)
        clock = str(session.clock.control) if session.clock is not None else None
        waiting = Waiting(code, client, message, session.state.variant, clock, standing)
        match = self.lobby.add(waiting)
        if match is None:
            client.send(Sought(code))
        else:
            await self._pair(match, client, standing, message.side)

    async def accept(self, client: Client, counted: Address | None, message: Accept) -> None:
        code = room_code(message.seek)
        waiting = self.lobby.seeks.get(code)
        if waiting is None or not waiting.shown_to(client.name):
            self.server.guessing(counted)
            raise ProtocolError(NO_ROOM, f"there is no seek {code}: taken, or withdrawn")
        if waiting.client is client:
            raise refused("that is your own seek: another player accepts it")
        if waiting.seek.rated and client.name is None:
            raise refused(RATED_UNNAMED)
        session = new_session(waiting.seek.game, waiting.variant, waiting.clock)
        standing = await self.standing(client.name, session)
        if self.lobby.seeks.get(code) is not waiting or client.room is not None:
            # taken meanwhile (by a seek that fitted it, or another accept), or this
            # connection's own seek was: one player is never seated twice
            raise ProtocolError(NO_ROOM, f"there is no seek {code}: taken, or withdrawn")
        if not waiting.admits(standing):
            raise refused(f"your rating is outside the range {waiting.name} asked for")
        self.lobby.take(code)
        self.lobby.withdraw(client)
        await self._pair(waiting, client, standing, None)

    async def _pair(
        self, first: Waiting, second: Client, standing: Standing | None, side_asked: str | None
    ) -> None:
        """A room for a seek and the player who takes it (whose `standing` was just read, as
        the seek's was): the seeker's side, else the other's, else one drawn; both seated."""
        session = new_session(first.seek.game, first.variant, first.clock)
        side = {"white": 0, "black": 1}.get(first.seek.side or "")
        if side is None:
            side = {"white": 1, "black": 0}.get(side_asked or "", secrets.randbelow(2))
        seatings = (
            Seating.new(side, first.client.name, first.standing),
            Seating.new(1 - side, second.name, standing),
        )
        await self._seat(session, bool(first.seek.rated), (first.client, second), seatings)

    async def _seat(
        self,
        session: Session[Any],
        rated: bool,
        players: tuple[Client, Client],
        seatings: tuple[Seating, Seating],
    ) -> None:
        """A new room stored with both seats in one store job, then both players seated; if
        one sat down elsewhere meanwhile, the room is dropped, never seated twice."""
        room = await self.server.new_room(session, rated, seatings)
        if any(player.room is not None for player in players):
            self.server.forget(room)
            try:
                await self.store.drop_room(room.code)
            except Exception as error:  # kept: a room nobody sat in, said once here
                log.warning("room %s, of a pairing not made, could not be dropped: %s",
                            room.code, error)  # fmt: skip
            raise refused("a player of this pairing sat down elsewhere meanwhile")
        await room.sit(*players)

    async def rematch(self, client: Client, room: Room) -> None:
        """A rematch offered, or agreed: then a new room of the same game, clock and rating,
        the colours swapped, both players seated there from where they are."""
        players = await room.rematch(client)
        if players is None:
            return
        session = new_session(room.session.game.key, room.session.state.variant, room.clock_text)
        try:
            standings = await asyncio.gather(*(self.standing(p.name, session) for p in players))
            seatings = [Seating.new(side, players[side].name, standings[side]) for side in SIDES]
            new = await self.server.new_room(session, room.rated, seatings)
        except Exception:
            room.next = None  # not made: it may be asked again
            raise
        await room.rematched(new.code)
        if any([room.leave(player) for player in players]):  # both leave, then it may go
            self.server.forget(room)
        await new.sit(*players)

    def lobby_list(self, client: Client, game: str | None) -> None:
        seeks = self.lobby.shown_to(client.name, game)
        rooms = (
            room.on()
            for room in self.server.rooms.values()
            if room.going_on() and game in (None, room.session.game.key)
        )
        listed = tuple(waiting.listed() for waiting in islice(seeks, MOST_LISTED))
        client.send(Lobby(listed, tuple(islice(rooms, MOST_LISTED))))

    async def standing(self, name: str | None, session: Session[Any]) -> Standing | None:
        """The player's standing at the game's speed (None without a clock or a name)."""
        at = speed(None if session.clock is None else str(session.clock.control))
        if at is None or name is None:
            return None
        return await self.store.standing(name, session.game.key, at)

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
        key = _game_key(game)
        rows = await self.store.leaderboard(key, speed, MOST_PLAYERS_LISTED)
        standings = tuple(
            Ranked(row.name, row.speed, row.standing.points, row.standing.provisional,
                   row.standing.games)
            for row in rows
        )  # fmt: skip
        client.send(PlayerList(key, standings))

    # -- the archive ----------------------------------------------------------------------------

    async def archive(self, client: Client, counted: Address | None, message: AskGames) -> None:
        """A page of a player's finished games, newest first, each with its record: at most
        MOST_ARCHIVED games and ARCHIVE_TEXT characters of records (but the first game), and
        no more than the address may still be sent (`Limits.archived_per_minute`: records are
        big). An unknown name has no games."""
        if client.version < ARCHIVE_VERSION:
            raise ProtocolError(UNKNOWN_TYPE, "'games' is a message of protocol 5: upgrade")
        game = None if message.game is None else _game_key(message.game)
        before = None if message.before is None else room_code(message.before)
        most = MOST_ARCHIVED if counted is None else min(MOST_ARCHIVED, counted.archived.whole())
        if most < 1:
            per_minute = self.limits.archived_per_minute
            raise ProtocolError(TOO_FAST, f"{per_minute:g} finished games a minute are sent to "
                                "one address at most: wait a little")  # fmt: skip
        if counted is not None:
            counted.archived.take(most)  # taken now, so that other connections wait too
        try:
            total, kept = await self.store.finished_games(message.name, game, before, most + 1)
        except Exception as error:  # the store failed: said, and nothing counted
            if counted is not None:
                counted.archived.give(most)
            log.warning("the games of %s could not be read: %s", message.name, error)
            raise refused("the server could not read its games: try again later") from None
        sent: list[ArchivedGame] = []
        looked, size = 0, 0
        for room in kept[:most]:
            try:
                found = archived(room)
            except (GameError, ProtocolError) as error:  # a store edited by hand, say
                log.warning("room %s cannot be read back: %s", room.code, error)
                looked += 1
                continue
            if sent and size + len(found.record) > ARCHIVE_TEXT:
                break
            sent.append(found)
            looked, size = looked + 1, size + len(found.record)
        if counted is not None:
            counted.archived.give(most - len(sent))
        asked = name_key(message.name)  # answered as first written, when the store has it
        name = next((n for r in kept for n in r.names if n and name_key(n) == asked), message.name)
        total = min(total, 999_999)  # the protocol's numbers stop there
        client.send(Archive(name, tuple(sent), looked < len(kept), total))


def archived(kept: StoredRoom) -> ArchivedGame:
    """A finished game as the archive sends it: its result, reason and record as its `ended`
    event told them (the record the session wrote at the end, the one its players were sent),
    or, for a room that ended before servers kept events, as its game `replayed` says them.
    GameError or ProtocolError when the store holds what cannot be read back."""
    told = (read_reply(event.message) for event in reversed(kept.events))
    ended = next((event for event in told if isinstance(event, Ended)), None)
    if ended is not None:
        result, reason, record = ended.result, ended.reason, ended.record
    else:
        session = replayed(kept)
        if session.outcome is None:
            raise GameError("its moves and its ending do not end the game")
        result, reason = session.outcome.result(), session.outcome.reason
        record = session.record_text()
    white, black = kept.names
    return ArchivedGame(kept.code, kept.game, kept.variant, kept.clock, kept.rated, white, black,
                        result, reason, kept.date, record)  # fmt: skip


def _game_key(game: str) -> str:
    """A game's key as the registry has it; bad-message for a game it does not know."""
    try:
        return game_named(game).key
    except GameError as error:
        raise ProtocolError(BAD_MESSAGE, str(error)) from None


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
        raise refused(RATED_UNNAMED)
    return session


__all__ = ["RESERVED_NAMES", "Desk", "archived", "asked_session"]
