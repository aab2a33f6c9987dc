"""A room: one game refereed by the server, its two seats, its watchers and its clocks.

The room's game is a `Session` (the last guard: every move goes through `parse_move` and
`Session.play`). What changes the game is done under the room's lock, stored, and only then
relayed, so the order every client sees is the order the store kept; each event told is
numbered and kept in the room's log (`events.py`) with it. Refusals are ProtocolError(REFUSED)
with the rules' reason; nothing is changed by them.

A game of days a move counts by the server's wall clock (`now`, which tests replace), not the
monotonic one: its deadline is kept with each move, and the time the server was down counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

from websockets.asyncio.server import broadcast

from ..clock import Mark, TimeControl
from ..games.base import GameError, Termination
from ..records import ending
from ..registry import game_named
from ..session import Session
from .chat import RoomChat
from .connection import RATED_UNNAMED, Client, WrongKey, invitation, new_secret, refused
from .events import EventLog
from .protocol import (
    NEW_IN_5,
    Asked,
    Chat,
    Clocks,
    Declined,
    Ended,
    Event,
    GameOn,
    Moved,
    Offer,
    Player,
    Players,
    ProtocolError,
    Rematched,
    RoomSummary,
    Seated,
    Seats,
    ServerMessage,
    TakenBack,
    WholeGame,
    write_message,
)
from .ratings import Standing, speed
from .store import (
    Changes,
    RatedEnd,
    RoomStore,
    SeatRow,
    StoredEvent,
    StoredRoom,
    digest,
    holds,
    name_key,
)

log = logging.getLogger("dipole_tui.online")
SIDES = (0, 1)
T = TypeVar("T")


class Seating(NamedTuple):
    """A seat given with a new room (a pairing's, a creator's): its side, its secret, and its
    player's name and standing (read before: the lobby's with the seeks)."""

    side: int
    secret: str
    name: str | None
    standing: Standing | None

    @classmethod
    def new(cls, side: int, name: str | None, standing: Standing | None) -> Seating:
        return cls(side, new_secret(), name, standing)


class Room:
    def __init__(
        self,
        code: str,
        session: Session[Any],
        seats: list[str | None],
        store: RoomStore,
        on_end: Callable[[Room], None],
        invite: str | None = None,
        rated: bool = False,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.code = code
        self.session = session
        self.now = now  # the wall clock: a game of days counts by it
        if session.clock is not None and session.clock.control.days is not None:
            session.clock.count_by(now)
        self.seats = seats  # each side's secret digest
        self.rated = rated
        self.speed = speed(self.clock_text)  # the ratings' (None without a clock)
        self.names: list[str | None] = [None, None]  # the name each seat's player plays under
        self.standings: list[Standing | None] = [None, None]  # the names' at the room's speed
        self.invite = invite  # the digest of the invitation to the free seat
        self.seatings: tuple[Seating, ...] = ()  # the seats it was made with (`made_with`)
        self.store = store
        self.on_end = on_end
        self.players: tuple[set[Client], set[Client]] = (set(), set())
        self.watchers: set[Client] = set()
        self.offer: int | None = None  # the side whose draw offer stands
        self.asked: tuple[str, int] | None = None  # a take-back or rematch asked, and by whom
        self.next: str | None = None  # the rematch's room, once agreed
        self.chat = RoomChat()
        self.log = EventLog()
        self.lock = asyncio.Lock()
        self.lost = False  # the store failed: the room is reloaded from it by the next client
        self.paused = False  # loaded from the store: the clocks wait for the players (stored)
        self.grace = 60.0  # seconds the clocks wait for the side to move once the other is back
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @classmethod
    def stored(
        cls,
        kept: StoredRoom,
        store: RoomStore,
        on_end: Callable[[Room], None],
        grace: float,
        now: Callable[[], float] = time.time,
    ) -> Room:
        """A room as the store kept it: its game `replayed` through the rules. Its clocks, if
        they ran, are paused: the time the room was out of this server (the server was down)
        is charged to nobody, and they run again when the side to move is back, or `grace`
        seconds after the other side is (the time an app needs to reconnect), so that nobody
        is charged for a reconnection either. A game of days is never paused: its clock runs
        on to the deadline kept, the downtime counted."""
        session = replayed(kept)
        clock = session.clock
        room = cls(kept.code, session, kept.seats, store, on_end, kept.invite, kept.rated, now)
        for side in SIDES:
            room._name(side, kept.names[side], kept.standings[side])
        room.log = EventLog.stored(kept)
        room.offer = None if session.outcome is not None else room.log.standing_offer()
        room.asked, room.next = room.log.standing_ask(), room.log.rematch()
        room.chat = RoomChat(kept.chat)
        room.grace = grace
        going_on = clock is not None and all(kept.seats) and session.outcome is None
        room.paused = going_on and not room.per_move
        if going_on and room.per_move and clock is not None:
            session.start_clock()
            if kept.deadline is not None:  # what the side to move used of its turn, downtime too
                clock.spend(clock.remaining(clock.to_move) - (kept.deadline - clock.now()))
            room._schedule_flag()
        return room

    # -- what the clients are told ------------------------------------------------------------

    def clients(self) -> Iterator[Client]:
        yield from self.players[0]
        yield from self.players[1]
        yield from self.watchers

    def tell(self, message: ServerMessage, but: Client | None = None) -> None:
        text = write_message(message)  # once, however many hear it
        hearers = self._hearers(message, self.clients())
        broadcast([c.connection for c in hearers if c is not but], text)

    @staticmethod
    def _hearers(message: ServerMessage, clients: Iterable[Client]) -> Iterator[Client]:
        """Those of `clients` who read `message`: a client of protocol 4 reads none new in 5."""
        new = message.TYPE in NEW_IN_5
        return (client for client in clients if not new or client.version >= 5)

    async def _told(self, event: Event, kept: Callable[[StoredEvent], Awaitable[None]]) -> None:
        """An event stored (by `kept`, with what it changed), logged, and only then told."""
        frame = write_message(event)
        await self._keep(kept(StoredEvent(event.version, frame)))
        self.log.add(frame)
        broadcast([c.connection for c in self._hearers(event, self.clients())], frame)

    @property
    def clock_text(self) -> str | None:
        clock = self.session.clock
        return None if clock is None else str(clock.control)

    @property
    def per_move(self) -> bool:
        """A game of days a move (correspondence)."""
        clock = self.session.clock
        return clock is not None and clock.control.days is not None

    def left(self) -> float | None:
        """The side to move's time left while its clock counts down (None: no clock running,
        or the game is over)."""
        clock = self.session.clock
        if clock is None or not clock.ticking or self.session.outcome is not None:
            return None
        return clock.remaining(clock.to_move)

    def deadline(self) -> float | None:
        """When the side to move's days run out, by the wall clock: a game of days going on
        (None for any other)."""
        left = self.left()
        return None if left is None or not self.per_move else self.now() + left

    def clocks(self) -> tuple[Clocks | None, int | None]:
        """Both clocks now, and whose runs."""
        clock = self.session.clock
        if clock is None:
            return None, None
        times = (clock.remaining(0), clock.remaining(1))
        return times, clock.to_move if clock.running else None

    def seated(self, client: Client, secret: str | None, invite: str | None) -> Seated:
        state = self.session.state
        return Seated(self.code, client.side, secret, invite, self.session.game.key,
                      state.variant, self.clock_text, self.log.version, self.rated)  # fmt: skip

    def whole_game(self) -> WholeGame:
        seats = self.seats_news()
        return WholeGame(self.code, self.session.record_text(), self.session.state.plies,
                         seats.clocks, seats.running, seats.seats, seats.online, seats.watchers,
                         self.offer, self.log.version, seats.players)  # fmt: skip

    def seats_news(self) -> Seats:
        """Who sits where, who is connected, how many watch; and the clocks."""
        taken = (self.seats[0] is not None, self.seats[1] is not None)
        online = (bool(self.players[0]), bool(self.players[1]))
        return Seats(self.code, taken, online, len(self.watchers), *self.clocks(),
                     self.seat_players())  # fmt: skip

    def seat_players(self) -> Players | None:
        """The seats' named players, with their ratings at the room's speed (None: no names)."""
        if not any(self.names):
            return None
        players = [
            None if name is None else Player(name, *_rating(standing))
            for name, standing in zip(self.names, self.standings, strict=True)
        ]
        return players[0], players[1]

    def summary(self, side: int) -> RoomSummary:
        """The room as a player's list of games shows it."""
        outcome, state = self.session.outcome, self.session.state
        return RoomSummary(self.code, self.session.game.key, state.variant, side, state.to_move,
                           state.plies, None if outcome is None else outcome.result(),
                           self.clock_text, self.left(), not all(self.seats))  # fmt: skip

    def side_of(self, secret: str) -> int | None:
        return next((side for side in SIDES if holds(secret, self.seats[side])), None)

    # -- seats --------------------------------------------------------------------------------

    async def join(
        self,
        client: Client,
        secret: str | None = None,
        invite: str | None = None,
        since: int | None = None,
    ) -> None:
        """Come back to the seat `secret` keeps, take the free seat `invite` opens, or watch
        (neither given); told what happened `since` (`_show`). A wrong secret or invitation is
        a WrongKey."""
        async with self.lock:
            side = None
            if secret is not None:
                side = self.side_of(secret)
                if side is None:
                    raise WrongKey(f"that secret keeps no seat of room {self.code}")
            elif invite is not None:
                if not holds(invite, self.invite):
                    raise WrongKey(f"that is not an invitation to room {self.code}")
                side = next((side for side in SIDES if self.seats[side] is None), None)
                if side is None:
                    raise refused(f"the invitation to room {self.code} was taken up: watch it")
                secret = await self._take(side, client.name)
            await self._enter(client, side, secret, since)

    def made_with(self, seatings: Sequence[Seating]) -> list[SeatRow]:
        """The seats the room is made with (a pairing's two, or its creator's), as the store
        keeps them with the room; kept here until `sit` seats their players."""
        if self.rated and any(seating.name is None for seating in seatings):
            raise refused(RATED_UNNAMED)
        self.seatings = tuple(seatings)
        return [(seating.side, seating.secret, None if seating.name is None
                 else name_key(seating.name)) for seating in seatings]  # fmt: skip

    def made_invite(self) -> str | None:
        """The digest of the invitation to the free seat of a room made with one seat, under
        its code (None when it is made with both)."""
        if len(self.seatings) != 1:
            return None
        return digest(invitation(self.seatings[0].secret, self.code))

    def made_deadline(self) -> float | None:
        """A game of days made with both seats: its first move's deadline (its clocks start)."""
        return self._days_deadline() if len(self.seatings) == 2 else None

    async def sit(self, *players: Client) -> None:
        """The players seated in the room stored with their seats (`made_with`, in its
        order): nothing is awaited before all are in, so no other room seats one of them
        meanwhile (the caller saw them free); a creator learns the invitation."""
        async with self.lock:
            for seating in self.seatings:
                self.seats[seating.side] = digest(seating.secret)
                self._name(seating.side, seating.name, seating.standing)
            self.invite = self.made_invite()
            self._start_clock()
            for client, seating in zip(players, self.seatings, strict=True):
                await self._enter(client, seating.side, seating.secret, None)

    def going_on(self) -> bool:
        """Both seats taken and the game not over: one the lobby lists to watch."""
        return all(self.seats) and self.session.outcome is None and not self.lost

    def on(self) -> GameOn:
        """The room as the lobby lists it."""
        state = self.session.state
        return GameOn(self.code, self.session.game.key, state.variant, self.clock_text,
                      self.rated, self.seat_players(), state.plies, len(self.watchers))  # fmt: skip

    async def _take(self, side: int, name: str | None) -> str:
        """The seat for a player (under `name`, if any): its secret, kept as a digest."""
        if self.rated and name is None:
            raise refused(RATED_UNNAMED)
        secret = new_secret()
        key = None if name is None else name_key(name)
        deadline = self._first_deadline(side)
        await self._keep(self.store.take_seat(self.code, side, secret, key, deadline))
        self.seats[side] = digest(secret)
        standing = None
        if name is not None and self.speed is not None:
            game = self.session.game.key
            standing = await self._keep(self.store.standing(name, game, self.speed))
        self._name(side, name, standing)
        self._start_clock()
        return secret

    def _first_deadline(self, side: int) -> float | None:
        """A game of days whose second seat `side` takes: its first move's deadline (its clocks
        start now). None for any other."""
        return None if self.seats[1 - side] is None else self._days_deadline()

    def _days_deadline(self) -> float | None:
        """A game of days: its first move's deadline if its clocks started now."""
        clock = self.session.clock
        if clock is None or clock.control.days is None:
            return None
        return self.now() + clock.control.seconds

    def _name(self, side: int, name: str | None, standing: Standing | None) -> None:
        """The seat's player's name, in the record too (as a person's name, a `White` tag),
        and their standing at the room's speed."""
        self.names[side], self.standings[side] = name, standing
        if name is not None:
            self.session.tags[("White", "Black")[side]] = name

    def watch(self, client: Client, since: int | None = None) -> None:
        self._show(client, None, None, None, since)

    async def _enter(
        self, client: Client, side: int | None, secret: str | None, since: int | None
    ) -> None:
        """Seat the client (or let it watch): the invitation to the free seat goes with a
        seat while the other is free (only its holder, the creator, ever sits alone)."""
        invite = None
        if secret is not None and not all(self.seats):
            invite = invitation(secret, self.code)
            if self.invite is None:  # a room stored before invitations: it gets one now
                await self._keep(self.store.set_invite(self.code, digest(invite)))
                self.invite = digest(invite)
        if side is not None and self.paused:
            self._resume(side)
        self._show(client, side, secret, invite, since)

    def _show(
        self,
        client: Client,
        side: int | None,
        secret: str | None,
        invite: str | None,
        since: int | None,
    ) -> None:
        """Seated, then the events after `since` and how the room stands now, or (the log
        cannot say what the client missed) the whole game."""
        client.room, client.side = self, side
        (self.watchers if side is None else self.players[side]).add(client)
        client.send(self.seated(client, secret, invite))
        missed = self.log.after(since)
        if missed is not None and client.version < 5 and any(_new(frame) for frame in missed):
            missed = None  # it could not read them all: the whole game instead
        if missed is None:
            client.send(self.whole_game())
        else:
            for frame in missed:
                client.say(frame)
            client.send(self.seats_news())
        if heard := self.chat.heard_by(client):
            client.send(Chat(self.code, heard, before=True))
        self.tell(self.seats_news(), but=client)  # the clocks start with the second seat

    def leave(self, client: Client) -> bool:
        """The client's connection closed; whether the room may leave memory now (nobody in it
        and no clock running that must flag)."""
        for group in (*self.players, self.watchers):
            group.discard(client)
        if client.room is self:
            client.room = client.side = None
        self.tell(self.seats_news())
        return self.idle()

    def idle(self) -> bool:
        """Nobody in the room and no clock running that must flag: it may leave memory. A
        game of days leaves it while its clock runs: the server's housekeeping flags it from
        the deadline kept (`GameServer.flag_overdue`)."""
        clock = self.session.clock
        running = clock is not None and clock.running and self.session.outcome is None
        if any(self.clients()) or (running and not self.per_move):
            return False
        self.stop()
        return True

    # -- the game -----------------------------------------------------------------------------

    async def move(self, client: Client, ply: int, text: str) -> None:
        async with self.lock:
            side = self._acting(client)
            session = self.session
            if session.check_flag():
                await self._ended()
            self._refuse_if_over()
            if session.state.to_move != side:
                name = session.game.side_names[session.state.to_move]
                raise refused(f"it is not your turn: {name} is to move")
            if ply != session.state.plies:
                raise refused(f"the game moved on: ply {session.state.plies} is next")
            try:
                move = session.game.parse_move(text, session.state)
                session.play(move)
            except GameError as error:
                raise refused(str(error)) from None
            if session.game.is_resignation(move):  # played as the resignation it says
                await self._ended()
                return
            await self._played(ply, session.game.format_move(move), side)

    async def _played(self, ply: int, move: str, side: int) -> None:
        """A move was played into the session: keep it, then tell everyone."""
        clock = self.session.clock
        times = None if clock is None else clock.marks[-1].times
        self.offer = self.asked = None
        moved = Moved(self.code, ply, move, side, *self.clocks(), self.log.version + 1)
        deadline = self.deadline()
        await self._told(moved, lambda event: self.store.add_move(self.code, ply, move, times,
                                                                  event, deadline))  # fmt: skip
        if self.session.outcome is not None:
            await self._ended()
        else:
            self._schedule_flag()

    async def resign(self, client: Client) -> None:
        async with self.lock:
            side = self._acting(client)
            self._refuse_if_over()
            self.session.resign(side)
            await self._ended()

    async def draw(self, client: Client) -> None:
        """An offer, or the acceptance of the opponent's standing one."""
        async with self.lock:
            side = self._acting(client)
            try:
                self.session.check_draw()
            except GameError as error:
                raise refused(str(error)) from None
            if self.offer == 1 - side:
                self.session.agree_draw()
                await self._ended()
                return
            if self.offer == side:  # told once: a client asking again fills no log
                raise refused("your draw offer stands until the next move")
            offer = Offer(self.code, side, self.log.version + 1)
            await self._told(offer, lambda event: self.store.add_event(self.code, event))
            self.offer = side

    async def take_back(self, client: Client) -> None:
        """Ask to take back the sender's last move, or accept the other's ask: the game goes
        back to before the asker's last move (and the reply to it). Casual games only."""
        async with self.lock:
            side = self._acting(client)
            self._refuse_if_over()
            if self.rated:
                raise refused("a rated game has no take-backs")
            if self.asked == ("takeback", 1 - side):
                await self._taken_back(self._last_move_of(1 - side))
                return
            self._last_move_of(side)  # refused when the asker has none
            await self._ask("takeback", side)

    def _last_move_of(self, side: int) -> int:
        """The plies before `side`'s last move (a pass the program played is no move)."""
        session = self.session
        state, first = session.state, (session.state.to_move - session.state.plies) % 2
        for ply in range(state.plies - 1, -1, -1):
            if (first + ply) % 2 == side and not session.is_pass(state.moves_played[ply]):
                return ply
        name = session.game.side_names[side]
        raise refused(f"{name} has played no move to take back")

    async def _taken_back(self, plies: int) -> None:
        session = self.session
        while session.state.plies > plies:
            session.undo()
        session.redo_moves.clear()
        self.offer = self.asked = None
        if session.clock is not None and all(self.seats):
            session.start_clock()
        taken = TakenBack(self.code, plies, *self.clocks(), self.log.version + 1)
        deadline = self.deadline()
        await self._told(taken, lambda event: self.store.take_back(self.code, plies, event,
                                                                   deadline))  # fmt: skip
        self._schedule_flag()

    async def rematch(self, client: Client) -> tuple[Client, Client] | None:
        """Offer a rematch, or accept the other's: the two players' connections, the old Black
        first (colours swapped), once agreed; None while it is only asked."""
        async with self.lock:
            side = self._acting(client)
            if self.session.outcome is None:
                raise refused("the game is still on: a rematch comes after its end")
            if self.next is not None:
                raise refused(f"the rematch was agreed: it is room {self.next}")
            if self.asked != ("rematch", 1 - side):
                await self._ask("rematch", side)
                return None
            other = next(iter(self.players[1 - side]), None)
            if other is None:
                raise refused("the other player has left: the rematch lapsed")
            self.asked, self.next = None, ""  # agreed: the room comes (`rematched`)
            return (client, other) if side == 1 else (other, client)

    async def rematched(self, code: str) -> None:
        """The rematch's room is made: said, and its players go there."""
        async with self.lock:
            self.next = code
            told = Rematched(self.code, code, self.log.version + 1)
            await self._told(told, lambda event: self.store.add_event(self.code, event))

    async def decline(self, client: Client, what: str) -> None:
        async with self.lock:
            side = self._acting(client)
            standing = self.offer == 1 - side if what == "draw" else self.asked == (what, 1 - side)
            if not standing:
                raise refused(f"the other player has asked no {what} to decline")
            if what == "draw":
                self.offer = None
            else:
                self.asked = None
            declined = Declined(self.code, side, what, self.log.version + 1)
            await self._told(declined, lambda event: self.store.add_event(self.code, event))

    async def _ask(self, what: str, side: int) -> None:
        if self.asked == (what, side):  # told once: a client asking again fills no log
            raise refused(f"your {what} request stands")
        asked = Asked(self.code, side, what, self.log.version + 1)
        await self._told(asked, lambda event: self.store.add_event(self.code, event))
        self.asked = (what, side)

    async def say(self, client: Client, text: str) -> None:
        """A chat line, stored, then told to those who hear it."""
        if client.room is not self:
            raise refused(f"you are not in room {self.code}")
        line = self.chat.line(client, text)
        await self._keep(self.store.add_chat(self.code, line))
        told = Chat(self.code, (line,))
        hearers = [c for c in self.clients() if line.side is not None or c.side is None]
        broadcast([c.connection for c in self._hearers(told, hearers)], write_message(told))

    def _acting(self, client: Client) -> int:
        if client.room is not self:
            raise refused(f"you are not seated in room {self.code}")
        if client.side is None:
            raise refused(f"you watch room {self.code}: only its players play")
        return client.side

    def _refuse_if_over(self) -> None:
        if self.session.outcome is not None:
            raise refused("the game is over")

    async def _ended(self) -> None:
        """The end stored (a rated game's ratings with it, in the same transaction), then
        told, with each side's rating change."""
        outcome = self.session.outcome
        assert outcome is not None
        self._stop_timer()
        self.offer = self.asked = None
        result, how = outcome.result(), outcome.termination.value
        record, version, frames = self.session.record_text(), self.log.version + 1, []

        def event(changes: Changes) -> StoredEvent:
            ended = Ended(self.code, result, outcome.reason, record, version, changes)
            frames.append(write_message(ended))
            return StoredEvent(version, frames[-1])

        after = await self._keep(self.store.end_room(self.code, result, how, event,
                                                     self._rated_end()))  # fmt: skip
        for side, standing in enumerate(after or ()):
            self.standings[side] = standing
        self.log.add(frames[-1])
        broadcast([c.connection for c in self.clients()], frames[-1])
        self.on_end(self)

    def _rated_end(self) -> RatedEnd | None:
        """What the store rates at the end: a rated room's two named players. A game of days
        that flagged before each side moved once is not rated: its first moves are timed (or
        a game nobody starts would never end), but nobody lost a game they never played."""
        white, black = self.names
        if not self.rated or white is None or black is None or self.speed is None:
            return None
        outcome = self.session.outcome
        unplayed = self.session.state.plies < 2 and self.per_move
        if unplayed and outcome is not None and outcome.termination is Termination.TIME:
            return None
        return RatedEnd((white, black), self.session.game.key, self.speed)

    async def _keep(self, stored: Awaitable[T]) -> T:
        """Store, or give the room up: its clients are closed, reconnect, and get the room as
        the store has it."""
        try:
            return await stored
        except Exception as error:
            log.warning("room %s could not be stored: %s", self.code, error)
            self.lost = True
            self._stop_timer()
            for client in self.clients():
                task = asyncio.create_task(client.connection.close(1011, "storage failed"))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            raise refused("the server could not store that: reconnect and try again") from None

    # -- clocks -------------------------------------------------------------------------------

    def _start_clock(self) -> None:
        """Clocks run once both seats are taken, whether or not anyone is connected."""
        if all(kept is not None for kept in self.seats):
            self.session.start_clock()
            self._schedule_flag()

    def _resume(self, side: int) -> None:
        """A player is back in a paused room: the side to move's clock runs again now; the
        other side's return only sets the grace running."""
        if side == self.session.state.to_move or self.grace <= 0:
            self.paused = False
            self._start_clock()
        elif self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.grace, self._grace_over)

    def _grace_over(self) -> None:
        self._timer = None
        if self.paused:
            self.paused = False
            self._start_clock()
            self.tell(self.seats_news())

    def _schedule_flag(self) -> None:
        self._stop_timer()
        clock = self.session.clock
        if clock is None or not clock.running or self.session.outcome is not None:
            return
        left = max(clock.remaining(clock.to_move), 0.0)
        self._timer = asyncio.get_running_loop().call_later(left + 0.001, self._flag_soon)

    def _flag_soon(self) -> None:
        task = asyncio.create_task(self._flag())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _flag(self) -> None:
        async with self.lock:
            if not self.lost and not await self._flag_if_out():
                self._schedule_flag()

    async def flag(self) -> bool:
        """End the game on time if the side to move's time is out: whether it did."""
        async with self.lock:
            return not self.lost and await self._flag_if_out()

    async def _flag_if_out(self) -> bool:
        if not self.session.check_flag():
            return False
        with contextlib.suppress(ProtocolError):  # logged; the room is reloaded
            await self._ended()
        return True

    def stop(self) -> None:
        """The server stops: no flag falls any more in this process."""
        self._stop_timer()

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _new(frame: str) -> bool:
    """Whether an event of the log is of a type new in protocol 5."""
    return any(f'"type":"{kind}"' in frame[:40] for kind in NEW_IN_5)


def _rating(standing: Standing | None) -> tuple[int | None, bool | None]:
    return (None, None) if standing is None else (standing.points, standing.provisional)


def replayed(kept: StoredRoom) -> Session[Any]:
    """A stored room's game: its moves replayed through the rules, each move's clock times put
    back, its ending, and its players' names as the record's White and Black. GameError when
    the store holds what the rules refuse."""
    control = None if kept.clock is None else TimeControl.parse(kept.clock)
    game = game_named(kept.game)
    session = Session.new(game, kept.variant, time_control=control)
    session.tags["Date"] = kept.date
    clock = session.clock
    for stored in kept.moves:
        session.play(game.parse_move(stored.move, session.state))
        if clock is not None and stored.clocks is not None:
            for ply in range(stored.ply + 1, len(clock.marks)):
                clock.marks[ply] = Mark(stored.clocks, clock.marks[ply].to_move)
    if kept.termination is not None and session.outcome is None:
        winner = {"1-0": 0, "0-1": 1}.get(kept.result or "")
        session.ending = ending(game, Termination(kept.termination), winner)
    for side, name in enumerate(kept.names):
        if name is not None:
            session.tags[("White", "Black")[side]] = name
    return session


def new_session(game_key: str, variant: str | None, clock: str | None) -> Session[Any]:
    """A new room's game; GameError for an unknown game, variant or time control."""
    control = None if clock is None else TimeControl.parse(clock)
    return Session.new(game_named(game_key), variant, time_control=control)


__all__ = ["Client", "Room", "new_session", "refused", "replayed"]
