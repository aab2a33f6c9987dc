"""Where rooms are kept: a small interface (`RoomStore`) and its sqlite implementation.

The server plays a move into its room, awaits `add_move`, and only then relays it: whatever a
client saw acknowledged survives a SIGKILL. A distributed store (PostgreSQL, say) is a new class
with these methods; nothing else in the server knows sqlite. Secrets and invitations are kept
as SHA-256 digests only, so the file does not let anyone take a seat. Each event a room tells
(a move, a draw offer, the end) is kept as it went on the wire, numbered, with what it changed
(in the same transaction), so a client coming back after a restart is told what it missed. A
game of days keeps its deadline (when the side to move's days run out, by the wall clock) with
each move, so that its flag falls after a restart with nobody there (`overdue`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..learn.rating import Rating
from .protocol import MOST_CHAT, ChatLine
from .ratings import Standing, rate, speed

Clocks = tuple[float, float]  # white's and black's time left, in seconds


# A seat taken with its room (`create_room`): its side, its secret (the digest is kept) and its
# player's name key (None: an unnamed player).
SeatRow = tuple[int, str, str | None]


class RoomTaken(Exception):
    """A new room's code is in use already: the server draws another."""


class NameTaken(Exception):
    """A name claimed already (in any case)."""


@dataclass(frozen=True)
class StoredPlayer:
    name: str  # as first written
    token: str  # the digest of the name's token


@dataclass(frozen=True)
class RatedEnd:
    """A rated game's players (white's name, black's), game and speed: the store rates them in
    the transaction that ends the room, against their standings then."""

    names: tuple[str, str]
    game: str
    speed: str


Changes = tuple[int, int] | None  # each side's rating change (None: not rated)


@dataclass(frozen=True)
class StoredRating:
    """A player's standing in a game at a speed, as the rated games left it."""

    name: str  # as first written
    game: str
    speed: str
    standing: Standing


@dataclass(frozen=True)
class StoredMove:
    ply: int  # plies played before it (forced passes count)
    move: str  # in the game's notation
    clocks: Clocks | None  # both sides' time left once it (and the passes after it) was played


@dataclass(frozen=True)
class StoredEvent:
    version: int  # the room's count of events, with this one
    message: str  # as it went on the wire


@dataclass
class StoredRoom:
    code: str
    game: str
    variant: str
    clock: str | None  # the time control as typed, "5+3"
    date: str  # the record's Date tag, as the room was created
    seats: list[str | None]  # each side's secret digest, None while the seat is free
    names: list[str | None] = field(default_factory=lambda: [None, None])  # the seats' players
    rated: bool = False
    standings: list[Standing | None] = field(default_factory=lambda: [None, None])  # the names'
    invite: str | None = None  # the digest of the invitation to the free seat
    moves: list[StoredMove] = field(default_factory=list)
    result: str | None = None  # "1-0", "0-1", "1/2-1/2" once ended
    termination: str | None = None  # Termination.value of the ending
    events: list[StoredEvent] = field(default_factory=list)  # none before protocol 3
    deadline: float | None = None  # a game of days: when the side to move's time runs out
    chat: list[ChatLine] = field(default_factory=list)  # its last lines, oldest first


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def holds(secret: str, kept: str | None) -> bool:
    """Whether `secret` is the one whose digest is `kept` (in constant time)."""
    return kept is not None and hmac.compare_digest(digest(secret), kept)


class RoomStore(Protocol):
    """What the server asks of its storage; each call is durable when it returns."""

    async def create_room(
        self,
        code: str,
        game: str,
        variant: str,
        clock: str | None,
        date: str,
        rated: bool,
        created: float | None = None,
        seats: Sequence[SeatRow] = (),
        deadline: float | None = None,
        invite: str | None = None,
    ) -> None:
        """RoomTaken when `code` is in use. `created`: when, by the server's wall clock (now
        by the store's when not said). The `seats` it is made with, its `deadline` (a game of
        days made with both) and the digest of the invitation to its free seat (made with
        one), as `take_seat` and `set_invite` keep them: one store round trip, not three."""

    async def drop_room(self, code: str) -> None:
        """Forget a room made for a pairing that could not seat its players."""

    async def take_seat(
        self, code: str, side: int, secret: str, name: str | None, deadline: float | None = None
    ) -> None:
        """The seat's secret (its digest kept), and the name its player plays under, if any;
        with `deadline`, the room's (a game of days whose clock this seat starts)."""

    async def claim_name(self, name: str, token: str) -> None:
        """A new name and its token (its digest kept); NameTaken when it is held in any case."""

    async def player(self, name: str) -> StoredPlayer | None:
        """The name claimed as `name` in any case, if any."""

    async def set_invite(self, code: str, invite: str) -> None:
        """Keep the digest of the invitation to the room's free seat."""

    async def seats_of(self, codes: list[str]) -> dict[str, list[str | None]]:
        """The seats' secret digests of those rooms that have a seat taken, without loading
        their games (at most 50 codes)."""

    async def add_move(
        self,
        code: str,
        ply: int,
        move: str,
        clocks: Clocks | None,
        event: StoredEvent,
        deadline: float | None = None,
    ) -> None:
        """The move, its event and (a game of days) the room's new deadline, together."""

    async def overdue(self, now: float, most: int) -> list[str]:
        """Unfinished rooms of days whose deadline is `now` (a time.time()) or before, the
        longest overdue first, at most `most`."""

    async def add_event(self, code: str, event: StoredEvent) -> None:
        """An event that changes no move and no result (a draw offer)."""

    async def take_back(
        self, code: str, plies: int, event: StoredEvent, deadline: float | None = None
    ) -> None:
        """The moves after the first `plies` forgotten, with the event that says so (and a
        game of days' new deadline)."""

    async def add_chat(self, code: str, line: ChatLine) -> None:
        """A chat line said in the room."""

    async def end_room(
        self,
        code: str,
        result: str,
        termination: str,
        event: Callable[[Changes], StoredEvent],
        rated: RatedEnd | None = None,
    ) -> tuple[Standing, Standing] | None:
        """The room's end, and for a rated game both players rated (`ratings.rate`), with the
        event `event` makes of the changes, in one transaction: the new standings."""

    async def standing(self, name: str, game: str, speed: str) -> Standing:
        """The player's standing in that game at that speed (a new player's if none)."""

    async def leaderboard(self, game: str, speed: str | None, most: int) -> list[StoredRating]:
        """The best `most` standings of a game (at a speed, or any), best first."""

    async def load_room(self, code: str) -> StoredRoom | None: ...

    async def finished_games(
        self, name: str, game: str | None, before: str | None, most: int
    ) -> tuple[int, list[StoredRoom]]:
        """How many finished games the player `name` (in any case) played (of `game`, or any),
        and the newest `most` of them (by when the room was made) older than the one of room
        `before`, each loaded as `load_room` loads it (none when `before` is not one of them).
        A finished game is a room with both seats taken and a result; none is ever removed."""

    async def expire(self, before: float, keep: set[str]) -> list[str]:
        """Remove the rooms created before `before` (a time.time()) whose second seat was never
        taken, but those of `keep`; their codes. (No game played by two is ever removed.)"""

    async def close(self) -> None: ...


# The file's `user_version`: 0 before events were kept (protocol 2), 1, 2 with names, 3 with
# chat and the deadlines of games of days.
SCHEMA = 3
_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, clock TEXT,
    date TEXT NOT NULL, created REAL NOT NULL, result TEXT, termination TEXT, invite TEXT,
    rated INTEGER NOT NULL DEFAULT 0, deadline REAL);
CREATE INDEX IF NOT EXISTS rooms_created ON rooms (created);
CREATE INDEX IF NOT EXISTS rooms_deadline ON rooms (deadline) WHERE result IS NULL;
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL, side INTEGER NOT NULL, secret TEXT NOT NULL, name TEXT,
    PRIMARY KEY (code, side)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS seats_name ON seats (name);
CREATE TABLE IF NOT EXISTS players (
    name_key TEXT PRIMARY KEY, name TEXT NOT NULL, token TEXT NOT NULL, created REAL NOT NULL
    ) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ratings (
    name_key TEXT NOT NULL, game TEXT NOT NULL, speed TEXT NOT NULL, rating REAL NOT NULL,
    rd REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,
    PRIMARY KEY (name_key, game, speed)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_best ON ratings (game, speed, rating);
CREATE TABLE IF NOT EXISTS moves (
    code TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL, white REAL, black REAL,
    PRIMARY KEY (code, ply)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    code TEXT NOT NULL, version INTEGER NOT NULL, message TEXT NOT NULL,
    PRIMARY KEY (code, version)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    code TEXT NOT NULL, said REAL NOT NULL, side INTEGER, name TEXT, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chat_room ON chat (code, said);
"""

Job = Callable[[sqlite3.Connection], Any]
Answer = tuple[asyncio.Future[Any], Any, BaseException | None]
_MOST_BATCH = 2000  # jobs committed in one transaction at most


class SqliteStore:
    """One sqlite file in WAL mode with synchronous=FULL, written by one thread.

    Group commit: the jobs that queued while the last transaction was being written are run
    together in the next one, each in its own savepoint (one failing leaves the others), and
    each caller resumes only after that transaction's commit. Under load a thousand moves cost
    one fsync, not a thousand, and the event loop never waits on the disk."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            _migrate(connection)
        except sqlite3.Error:
            connection.close()
            raise
        self._connection = connection
        self._jobs: queue.SimpleQueue[tuple[Job, asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write, name="room-store", daemon=True)
        self._thread.start()

    async def _run(self, job: Job) -> Any:
        if not self._thread.is_alive():
            raise sqlite3.ProgrammingError("the room store is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._jobs.put((job, future))
        return await future

    def _write(self) -> None:
        connection = self._connection
        while True:
            first = self._jobs.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < _MOST_BATCH:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    self._jobs.put(None)  # finish this batch, then stop
                    break
                batch.append(job)
            self._commit(connection, batch)
        connection.close()

    def _commit(
        self, connection: sqlite3.Connection, batch: list[tuple[Job, asyncio.Future[Any]]]
    ) -> None:
        answers: list[Answer] = []
        try:
            connection.execute("BEGIN IMMEDIATE")
            for job, future in batch:
                connection.execute("SAVEPOINT job")
                try:
                    answers.append((future, job(connection), None))
                    connection.execute("RELEASE job")
                except Exception as error:
                    connection.execute("ROLLBACK TO job")
                    connection.execute("RELEASE job")
                    answers.append((future, None, error))
            connection.execute("COMMIT")
        except Exception as error:  # the disk is full, the file went away: nothing was kept
            if connection.in_transaction:
                connection.rollback()
            answers = [(future, None, error) for _, future in batch]
        by_loop: dict[asyncio.AbstractEventLoop, list[Answer]] = {}
        for answer in answers:
            by_loop.setdefault(answer[0].get_loop(), []).append(answer)
        for loop, settled in by_loop.items():  # one wake-up of each loop for the whole batch
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, settled)

    async def create_room(
        self,
        code: str,
        game: str,
        variant: str,
        clock: str | None,
        date: str,
        rated: bool,
        created: float | None = None,
        seats: Sequence[SeatRow] = (),
        deadline: float | None = None,
        invite: str | None = None,
    ) -> None:
        row = (code, game, variant, clock, date, time.time() if created is None else created)
        kept = [(code, side, digest(secret), name) for side, secret, name in seats]

        def job(connection: sqlite3.Connection) -> None:
            try:
                connection.execute(
                    "INSERT INTO rooms (code, game, variant, clock, date, created, rated, invite,"
                    " deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (*row, int(rated), invite, deadline),
                )
            except sqlite3.IntegrityError:
                raise RoomTaken(code) from None
            connection.executemany("INSERT INTO seats VALUES (?, ?, ?, ?)", kept)

        await self._run(job)

    async def drop_room(self, code: str) -> None:
        await self._run(lambda connection: _delete(connection, [code]))

    async def take_seat(
        self, code: str, side: int, secret: str, name: str | None, deadline: float | None = None
    ) -> None:
        row = (code, side, digest(secret), name)

        def job(connection: sqlite3.Connection) -> None:
            connection.execute("INSERT INTO seats VALUES (?, ?, ?, ?)", row)
            if deadline is not None:
                _set_deadline(connection, code, deadline)

        await self._run(job)

    async def claim_name(self, name: str, token: str) -> None:
        row = (name_key(name), name, digest(token), time.time())

        def job(connection: sqlite3.Connection) -> None:
            try:
                connection.execute("INSERT INTO players VALUES (?, ?, ?, ?)", row)
            except sqlite3.IntegrityError:
                raise NameTaken(name) from None

        await self._run(job)

    async def player(self, name: str) -> StoredPlayer | None:
        query = "SELECT name, token FROM players WHERE name_key = ?"

        def job(connection: sqlite3.Connection) -> StoredPlayer | None:
            row = connection.execute(query, (name_key(name),)).fetchone()
            return None if row is None else StoredPlayer(*row)

        return await self._run(job)  # type: ignore[no-any-return]

    async def set_invite(self, code: str, invite: str) -> None:
        row = (invite, code)
        await self._run(lambda c: c.execute("UPDATE rooms SET invite = ? WHERE code = ?", row))

    async def seats_of(self, codes: list[str]) -> dict[str, list[str | None]]:
        def job(connection: sqlite3.Connection) -> dict[str, list[str | None]]:
            found: dict[str, list[str | None]] = {}
            marks = ", ".join("?" * len(codes))
            query = f"SELECT code, side, secret FROM seats WHERE code IN ({marks})"
            for code, side, secret in connection.execute(query, codes):
                found.setdefault(code, [None, None])[side] = secret
            return found

        return await self._run(job)  # type: ignore[no-any-return]

    async def add_move(
        self,
        code: str,
        ply: int,
        move: str,
        clocks: Clocks | None,
        event: StoredEvent,
        deadline: float | None = None,
    ) -> None:
        row = (code, ply, move, *(clocks or (None, None)))

        def job(connection: sqlite3.Connection) -> None:
            connection.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", row)
            _add_event(connection, code, event)
            if deadline is not None:
                _set_deadline(connection, code, deadline)

        await self._run(job)

    async def overdue(self, now: float, most: int) -> list[str]:
        query = (
            "SELECT code FROM rooms WHERE result IS NULL AND deadline <= ?"
            " ORDER BY deadline LIMIT ?"
        )

        def job(connection: sqlite3.Connection) -> list[str]:
            return [code for (code,) in connection.execute(query, (now, most))]

        return await self._run(job)  # type: ignore[no-any-return]

    async def add_event(self, code: str, event: StoredEvent) -> None:
        await self._run(lambda connection: _add_event(connection, code, event))

    async def take_back(
        self, code: str, plies: int, event: StoredEvent, deadline: float | None = None
    ) -> None:
        def job(connection: sqlite3.Connection) -> None:
            connection.execute("DELETE FROM moves WHERE code = ? AND ply >= ?", (code, plies))
            _add_event(connection, code, event)
            if deadline is not None:
                _set_deadline(connection, code, deadline)

        await self._run(job)

    async def add_chat(self, code: str, line: ChatLine) -> None:
        row = (code, time.time(), line.side, line.name, line.text)
        await self._run(lambda connection: connection.execute(
            "INSERT INTO chat VALUES (?, ?, ?, ?, ?)", row))  # fmt: skip

    async def end_room(
        self,
        code: str,
        result: str,
        termination: str,
        event: Callable[[Changes], StoredEvent],
        rated: RatedEnd | None = None,
    ) -> tuple[Standing, Standing] | None:
        row = (result, termination, code)

        def job(connection: sqlite3.Connection) -> tuple[Standing, Standing] | None:
            connection.execute("UPDATE rooms SET result = ?, termination = ? WHERE code = ?", row)
            if rated is None:
                _add_event(connection, code, event(None))
                return None
            keys = [name_key(name) for name in rated.names]
            before = [_standing(connection, key, rated.game, rated.speed) for key in keys]
            after = rate(before[0], before[1], result)
            changes = (after[0].points - before[0].points, after[1].points - before[1].points)
            _add_event(connection, code, event(changes))
            for key, standing in zip(keys, after, strict=True):
                kept = standing.rating
                connection.execute(
                    "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (key, rated.game, rated.speed, kept.rating, kept.rd, kept.volatility,
                     standing.games),
                )  # fmt: skip
            return after

        return await self._run(job)  # type: ignore[no-any-return]

    async def standing(self, name: str, game: str, speed: str) -> Standing:
        key = (name_key(name), game, speed)
        return await self._run(lambda connection: _standing(connection, *key))  # type: ignore[no-any-return]

    async def leaderboard(self, game: str, speed: str | None, most: int) -> list[StoredRating]:
        query = (
            "SELECT players.name, game, speed, rating, rd, volatility, games FROM ratings"
            " JOIN players USING (name_key) WHERE game = ? AND (? IS NULL OR speed = ?)"
            " ORDER BY rating DESC, games DESC, players.name LIMIT ?"
        )

        def job(connection: sqlite3.Connection) -> list[StoredRating]:
            rows = connection.execute(query, (game, speed, speed, most))
            return [
                StoredRating(name, game, speed, _kept_standing(rating, rd, volatility, games))
                for name, game, speed, rating, rd, volatility, games in rows
            ]

        return await self._run(job)  # type: ignore[no-any-return]

    async def load_room(self, code: str) -> StoredRoom | None:
        return await self._run(lambda connection: _load(connection, code))  # type: ignore[no-any-return]

    async def finished_games(
        self, name: str, game: str | None, before: str | None, most: int
    ) -> tuple[int, list[StoredRoom]]:
        def job(connection: sqlite3.Connection) -> tuple[int, list[StoredRoom]]:
            asked = {"name": name_key(name), "game": game, "before": before, "most": most}
            count = _FINISHED + "SELECT count(*) FROM finished"
            (total,) = connection.execute(count, asked).fetchone()
            codes = connection.execute(
                _FINISHED + "SELECT code FROM finished WHERE :before IS NULL OR number <"
                " (SELECT number FROM finished WHERE code = :before) ORDER BY number DESC"
                " LIMIT :most",
                asked,
            ).fetchall()
            rooms = [_load(connection, code) for (code,) in codes]
            return total, [room for room in rooms if room is not None]

        return await self._run(job)  # type: ignore[no-any-return]

    async def expire(self, before: float, keep: set[str]) -> list[str]:
        def job(connection: sqlite3.Connection) -> list[str]:
            old = connection.execute(
                "SELECT code FROM rooms WHERE created < ? AND"
                " (SELECT count(*) FROM seats WHERE seats.code = rooms.code) < 2",
                (before,),
            )
            gone = [code for (code,) in old if code not in keep]
            _delete(connection, gone)
            return gone

        return await self._run(job)  # type: ignore[no-any-return]

    async def close(self) -> None:
        """Write what is queued, then stop the writer."""
        if self._thread.is_alive():
            self._jobs.put(None)
            await asyncio.to_thread(self._thread.join)


# A player's finished games: rooms with a result whose two seats are taken, one by the player;
# numbered in the order the rooms were made (sqlite's rowid).
_FINISHED = """
WITH finished AS (
    SELECT rowid AS number, code FROM rooms
    WHERE code IN (SELECT code FROM seats WHERE name = :name) AND result IS NOT NULL
    AND (:game IS NULL OR game = :game)
    AND (SELECT count(*) FROM seats WHERE seats.code = rooms.code) = 2)
"""


def _load(connection: sqlite3.Connection, code: str) -> StoredRoom | None:
    row = connection.execute(
        "SELECT game, variant, clock, date, result, termination, invite, rated, deadline"
        " FROM rooms WHERE code = ?",
        (code,),
    ).fetchone()
    if row is None:
        return None
    seats: list[str | None] = [None, None]
    names: list[str | None] = [None, None]
    for side, secret, name in connection.execute(
        "SELECT side, secret, players.name FROM seats LEFT JOIN players ON seats.name = name_key"
        " WHERE code = ?",
        (code,),
    ):
        seats[side], names[side] = secret, name
    moves = [
        StoredMove(ply, move, None if white is None else (white, black))
        for ply, move, white, black in connection.execute(
            "SELECT ply, move, white, black FROM moves WHERE code = ? ORDER BY ply", (code,)
        )
    ]
    events = [
        StoredEvent(version, message)
        for version, message in connection.execute(
            "SELECT version, message FROM events WHERE code = ? ORDER BY version", (code,)
        )
    ]
    chat = [
        ChatLine(name, side, text)
        for side, name, text in connection.execute(
            "SELECT side, name, text FROM (SELECT rowid, side, name, text FROM chat WHERE code = ?"
            " ORDER BY said DESC, rowid DESC LIMIT ?) ORDER BY rowid",
            (code, MOST_CHAT),
        )
    ]
    game, variant, clock, date, result, termination, invite, rated, deadline = row
    at = speed(clock)
    standings = [
        None if name is None or at is None else _standing(connection, name_key(name), game, at)
        for name in names
    ]
    return StoredRoom(code, game, variant, clock, date, seats, names, bool(rated), standings,
                      invite, moves, result, termination, events, deadline, chat)  # fmt: skip


def _standing(connection: sqlite3.Connection, key: str, game: str, at: str) -> Standing:
    row = connection.execute(
        "SELECT rating, rd, volatility, games FROM ratings WHERE name_key = ? AND game = ?"
        " AND speed = ?",
        (key, game, at),
    ).fetchone()
    return Standing() if row is None else _kept_standing(*row)


def _kept_standing(rating: float, rd: float, volatility: float, games: int) -> Standing:
    """A standing as the file keeps it; one out of Glicko's bounds (a file edited by hand) is
    a new player's, never a crash of the server."""
    try:
        return Standing(Rating(rating, rd, volatility), max(0, int(games)))
    except (ValueError, TypeError):
        return Standing()


def _add_event(connection: sqlite3.Connection, code: str, event: StoredEvent) -> None:
    connection.execute("INSERT INTO events VALUES (?, ?, ?)", (code, event.version, event.message))


def _delete(connection: sqlite3.Connection, codes: list[str]) -> None:
    """Rooms gone, with all that was kept of them."""
    for table in ("events", "moves", "seats", "chat", "rooms"):
        connection.executemany(f"DELETE FROM {table} WHERE code = ?", [(code,) for code in codes])


def _set_deadline(connection: sqlite3.Connection, code: str, deadline: float) -> None:
    connection.execute("UPDATE rooms SET deadline = ? WHERE code = ?", (deadline, code))


def _migrate(connection: sqlite3.Connection) -> None:
    """A file of an older server made this one's (its rooms kept: their moves predate the
    events, see `EventLog.stored`); one of a newer server is refused, never written."""
    (kept,) = connection.execute("PRAGMA user_version").fetchone()
    if kept > SCHEMA:
        raise sqlite3.DatabaseError(
            f"it was written by a newer dipole-tui (store schema {kept}, this one reads up to "
            f"{SCHEMA}): upgrade dipole-tui"
        )
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    _add_column(connection, "rooms", "invite TEXT")  # a file of a server before invitations
    _add_column(connection, "seats", "name TEXT")  # before names (schema 1)
    _add_column(connection, "rooms", "rated INTEGER NOT NULL DEFAULT 0")
    _add_column(connection, "rooms", "deadline REAL")  # before games of days (schema 2)
    connection.executescript(_SCHEMA)
    connection.execute(f"PRAGMA user_version = {SCHEMA}")


def _add_column(connection: sqlite3.Connection, table: str, column: str) -> None:
    """`column` ("name TYPE") added to `table` of an older file that lacks it."""
    columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
    if columns and column.split()[0] not in columns:
        connection.execute(f"ALTER TABLE {table} ADD COLUMN {column}")


def name_key(name: str) -> str:
    """How names are told apart: in any case (they are ASCII)."""
    return name.lower()


def _settle(answers: list[Answer]) -> None:
    for future, answer, error in answers:
        if future.done():  # the caller gave up waiting (its connection closed): the job is done
            continue
        if error is None:
            future.set_result(answer)
        else:
            future.set_exception(error)


__all__ = [
    "SCHEMA",
    "Clocks",
    "NameTaken",
    "RatedEnd",
    "RoomStore",
    "RoomTaken",
    "SqliteStore",
    "StoredEvent",
    "StoredMove",
    "StoredPlayer",
    "StoredRating",
    "StoredRoom",
    "digest",
    "holds",
    "name_key",
]
