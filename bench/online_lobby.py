"""The server's lobby under load: N named players seeking, paired, playing a short game and
seeking again; how long from a seek to the game's start and from a move to its relay, and the
server's memory.

    python bench/online_lobby.py --players 100 --seconds 30
    python bench/online_lobby.py --players 1000 --seconds 600   # issue 43: both p95 under 50 ms
    python bench/online.py --lobby --players 1000 --seconds 600  # the same
    python bench/online_lobby.py --players 300 --profile lobby.prof  # the server under cProfile

bench/online.py's machinery (the server started with `serve --bench` on a free port with a fresh
data folder, the client processes, the server's memory and CPU from /proc, the report of the
machine's CPU pressure) with players instead of tables. Each player claims a new name once,
before the measured window (`--bench` exempts loopback from the 5 new names an hour). Then, from
a moment drawn in the first `--ramp` seconds (by default a game's length, so the seeks come at
the steady rate from the start), it plays one game after another, each as the app plays one: a
new connection, `hello`, `claim` with the name's token, and a seek (the server keeps a
connection in its room after the game: the app's link is the room's). Most seeks are drawn
from a few pools (a game, a clock, rated or casual: POOLS) and pair at once with a seek of the
same pool that waits (quick pairing); a share (`--browse`) lists the lobby first and accepts a
seek listed (one taken meanwhile is answered `no-room`: counted, then the player seeks). The
game: random legal moves, each after a pause drawn evenly from 0 to twice `--think` seconds; a
game still going after `--plies` plies is resigned.

A game's start is timed from the message that made the pair (the second seek, or the accept)
to each player's `seated`. For the player whose seek waited that message was sent by another
coroutine, often in the other process, so each process keeps its sends and arrivals by room
(and moves by room and ply) and they are matched here: one machine, one monotonic clock. The
time a seek waited for an opponent depends on how many seek, not on the server: reported apart.
Refusals and errors must be 0. Ctrl+C ends the measured window early, with the figures so far.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from online import (
    GOAL,
    WAIT,
    Clients,
    Refused,
    Watch,
    announced,
    ended,
    expect,
    percentile,
    raise_file_limit,
    random_move,
    read,
    served,
    watch,
)
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from dipole_tui.online.protocol import (
    NO_ROOM,
    VERSION,
    Accept,
    AskLobby,
    Claim,
    ClientMessage,
    Hello,
    Move,
    Resign,
    Seek,
    write_message,
)
from dipole_tui.registry import game_named
from dipole_tui.session import Session

LOBBY_WAIT = 120.0  # seconds a seek may wait for an opponent before it counts as an error
EDGE_WAIT = 5.0  # seconds a game may take to end once the window has: its last move or two
Inbox = asyncio.Queue[tuple[float, int, dict[str, Any]]]
Ply = tuple[str, int]  # a move by its room and ply
A = TypeVar("A")


@dataclass(frozen=True)
class Pool:
    """Seeks that fit each other: one game (its first variant), one clock, rated or casual."""

    game: str
    clock: str | None
    rated: bool
    weight: int  # how often a seek is of this pool, against the others


POOLS = (
    Pool("dipole", "3+2", True, 4),
    Pool("dipole", "5+3", True, 3),
    Pool("death-stacks", "5+3", True, 2),
    Pool("bipod", "3+2", True, 1),
    Pool("dipole", None, False, 1),
    Pool("death-stacks", "5+3", False, 1),
)


@dataclass(frozen=True)
class LobbyPlan:
    """What the scripted players do."""

    url: str
    players: int
    think: float = 1.0  # seconds a move, on average
    plies: int = 40  # a game still going then is resigned
    seconds: float = 60.0  # measured, once every player has a name
    ramp: float | None = None  # the first seeks spread over these seconds; None: a game's length
    browse: float = 0.15  # the share of games found by listing the lobby and accepting a seek
    rate: float = 20.0  # messages a second a connection sends at most (the server's limit)
    seed: int = 1
    prefix: str = "lobby"  # the players' names: the prefix and the player's number
    pools: tuple[Pool, ...] = POOLS

    @property
    def spread(self) -> float:
        return self.plies * self.think if self.ramp is None else self.ramp


@dataclass(frozen=True)
class Seat:
    """One player's way into one room."""

    room: str
    seated: float  # when its `seated` arrived
    made: float | None  # when its message that made the pair was sent (None: its seek waited)
    sent: float  # when its seek (or accept) was sent
    accepted: bool  # the pair was made by an accept


@dataclass
class LobbyTally:
    """What one client process saw; added up over processes."""

    seats: list[Seat] = field(default_factory=list)  # seated in the measured window
    sent: dict[tuple[str, int], float] = field(
        default_factory=dict
    )  # (room, ply): a measured move sent
    arrived: dict[tuple[str, int], float] = field(default_factory=dict)  # ...and at its opponent
    listings: list[float] = field(default_factory=list)  # seconds from `lobby` to its answer
    handshakes: list[float] = field(default_factory=list)  # connect, hello, claim: seconds
    moves: int = 0  # every move relayed, measured or not
    games_ended: int = 0  # by each of its players (a game counts twice)
    seeks: int = 0
    accepts: int = 0
    lost: int = 0  # accepts answered no-room: the seek was taken first
    empty: int = 0  # listings with no seek to accept
    stranded: int = 0  # games left after the window, an opponent's move not coming (`play`)
    refusals: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    window: float = 0.0
    cpu: float = 0.0
    waited: float = 0.0

    def add(self, other: LobbyTally) -> None:
        self.seats += other.seats
        self.sent.update(other.sent)
        self.arrived.update(other.arrived)
        self.listings += other.listings
        self.handshakes += other.handshakes
        self.moves += other.moves
        self.games_ended += other.games_ended
        self.seeks += other.seeks
        self.accepts += other.accepts
        self.lost += other.lost
        self.empty += other.empty
        self.stranded += other.stranded
        self.refusals += other.refusals
        self.errors += other.errors
        self.window = max(self.window, other.window)
        self.cpu += other.cpu
        self.waited += other.waited


@dataclass(frozen=True)
class Starts:
    """Game starts, matched by room: each player's wait from the message that made the pair."""

    quick: list[float]  # paired by a second seek
    accepted: list[float]  # paired by an accept
    waits: list[float]  # a seek that waited: its send to its `seated`
    unmatched: int  # rooms seen by one player only in the window (its edges)


def game_starts(seats: list[Seat]) -> Starts:
    """Both players' seats of each room, timed from the one message that made the pair."""
    rooms: defaultdict[str, list[Seat]] = defaultdict(list)
    for seat in seats:
        rooms[seat.room].append(seat)
    starts = Starts([], [], [], 0)
    for pair in rooms.values():
        made = [seat.made for seat in pair if seat.made is not None]
        if len(pair) != 2 or len(made) != 1:
            starts = Starts(starts.quick, starts.accepted, starts.waits, starts.unmatched + 1)
            continue
        into = starts.accepted if any(seat.accepted for seat in pair) else starts.quick
        into += [seat.seated - made[0] for seat in pair]
        starts.waits.extend(seat.seated - seat.sent for seat in pair if seat.made is None)
    return starts


def relays(
    sent: dict[tuple[str, int], float], arrived: dict[tuple[str, int], float]
) -> list[float]:
    """Each measured move's time from its send to its opponent's `moved`."""
    return [arrived[key] - at for key, at in sent.items() if key in arrived]


class Players(Clients[LobbyTally]):
    """`count` players of the plan, numbered from `first`, in this process's event loop."""

    plan: LobbyPlan

    def __init__(self, plan: LobbyPlan, first: int, count: int) -> None:
        super().__init__(plan, first, count, LobbyTally())
        self.tokens: dict[int, str] = {}  # a player's name's token, once claimed
        self.unnamed = 0  # players whose claim failed (counted): they do not play
        self.weights = [pool.weight for pool in plan.pools]

    def progress(self) -> tuple[int, int]:
        return len(self.tokens) + self.unnamed, self.tally.moves

    async def client(self, number: int) -> None:
        """Claim the player's name, wait for the window and a moment of the ramp, play."""
        rng = random.Random(self.plan.seed * 1_000_003 + number)
        try:
            async with self.seating:
                self.tokens[number] = await self.claim(number)
        except Refused as refusal:
            self.tally.refusals.append(f"claim: {refusal}")
        except (OSError, ConnectionClosed, TimeoutError) as error:
            self.tally.errors.append(f"claim: {type(error).__name__}: {error}")
        if number not in self.tokens:
            self.unnamed += 1
        if len(self.tokens) + self.unnamed == self.count:
            self.all_ready.set()
        if number not in self.tokens:
            return
        await self.started.wait()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.stop.wait(), rng.uniform(0, self.plan.spread))
        await self.games(number, rng)

    def name(self, number: int) -> str:
        return f"{self.plan.prefix}{number:05d}"

    async def claim(self, number: int) -> str:
        """A new name for the player: its token."""
        async with connect(self.plan.url, compression=None, open_timeout=WAIT) as socket_:
            await say(socket_, Hello(VERSION, "bench"))
            await expect(socket_, "welcome")
            await say(socket_, Claim(self.name(number)))
            named = await expect(socket_, "named")
            token: str = named["token"]
            return token

    async def game(self, number: int, rng: random.Random) -> None:
        """One game: a new connection, hello, the name claimed with its token, a seek (or an
        accept), then the player's side of the game to its end."""
        opened = time.monotonic()
        async with connect(self.plan.url, compression=None, open_timeout=WAIT) as socket_:
            inbox: Inbox = asyncio.Queue()
            reading = asyncio.create_task(read(socket_, 0, inbox))
            try:
                await say(socket_, Hello(VERSION, "bench"))
                await self.answer(inbox, "welcome")
                await say(socket_, Claim(self.name(number), self.tokens[number]))
                await self.answer(inbox, "named")
                if self.measuring:
                    self.tally.handshakes.append(time.monotonic() - opened)
                seated = await self.seat(socket_, inbox, number, rng)
                if seated is None:  # the window ended while the seek waited
                    return
                await self.answer(inbox, "game")
                rules = game_named(seated["game"])
                session = Session.new(rules, seated["variant"])
                await self.play(socket_, inbox, seated["room"], seated["side"], session, rng)
                self.tally.games_ended += 1
            finally:
                reading.cancel()

    async def seat(
        self, socket_: ClientConnection, inbox: Inbox, number: int, rng: random.Random
    ) -> dict[str, Any] | None:
        """A seek (or an accept of a seek listed) to `seated`; None when the window ends first."""
        if rng.random() < self.plan.browse:
            asked = time.monotonic()
            await say(socket_, AskLobby())
            _, listing = await self.answer(inbox, "lobby")
            if self.measuring:
                self.tally.listings.append(time.monotonic() - asked)
            mine = self.name(number).lower()
            offers = [seek for seek in listing["seeks"] if seek["name"].lower() != mine]
            if not offers:
                self.tally.empty += 1
            else:
                sent = time.monotonic()
                await say(socket_, Accept(rng.choice(offers)["seek"]))
                self.tally.accepts += 1
                arrived, answer = await self.answer(inbox, "seated", lose=NO_ROOM)
                if answer["type"] == "seated":
                    return self.seated(answer, arrived, sent, sent, accepted=True)
                self.tally.lost += 1  # taken first: seek instead
        pool = rng.choices(self.plan.pools, self.weights)[0]
        sent = time.monotonic()
        await say(socket_, Seek(pool.game, clock=pool.clock, rated=pool.rated or None))
        self.tally.seeks += 1
        arrived, answer = await self.answer(inbox, "seated", "sought")
        if answer["type"] == "seated":
            return self.seated(answer, arrived, sent, sent)
        paired = await self.until_stop(self.answer(inbox, "seated", wait=LOBBY_WAIT))
        return None if paired is None else self.seated(paired[1], paired[0], None, sent)

    def seated(
        self,
        seated: dict[str, Any],
        arrived: float,
        made: float | None,
        sent: float,
        accepted: bool = False,
    ) -> dict[str, Any]:
        if self.measuring:
            self.tally.seats.append(Seat(seated["room"], arrived, made, sent, accepted))
        return seated

    async def play(
        self,
        socket_: ClientConnection,
        inbox: Inbox,
        room: str,
        side: int,
        session: Session[Any],
        rng: random.Random,
    ) -> None:
        """The player's side: a move after a pause whenever it is its turn, to the `ended`."""
        last_sent = 0.0
        moving: asyncio.Task[None] | None = None

        async def move_soon() -> None:
            nonlocal last_sent
            pause = rng.uniform(0, 2 * self.plan.think)
            pause = max(pause, last_sent + 1 / self.plan.rate - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), pause)
            ply = session.state.plies
            last_sent = time.monotonic()
            if self.stop.is_set() or ply >= self.plan.plies:
                await say(socket_, Resign(room))
                return
            move = random_move(session, rng)
            sent = time.monotonic()
            if self.measuring:
                self.tally.sent[(room, ply)] = sent
            await say(socket_, Move(room, ply, move))

        def turn() -> None:
            nonlocal moving
            if session.outcome is None and session.state.to_move == side:
                moving = asyncio.create_task(move_soon())

        try:
            turn()
            while True:
                found = await self.until_stop(self.answer(inbox, "moved", "ended", "offer"))
                if found is None:
                    # The window ended: a game still going ends within a move or two (the side
                    # to move resigns), unless the opponent is gone: a seek whose player left at
                    # the window's end just as this one accepted it. That room is left, counted.
                    try:
                        found = await self.answer(inbox, "moved", "ended", "offer", wait=EDGE_WAIT)
                    except TimeoutError:
                        self.tally.stranded += 1
                        return
                arrived, message = found
                if moving is not None and moving.done() and moving.exception() is not None:
                    raise ConnectionError(f"a move could not be sent: {moving.exception()!r}")
                if message["type"] == "ended":
                    return
                if message["type"] == "moved":
                    if message["side"] != side:
                        self.tally.arrived[(room, message["ply"])] = arrived
                        self.tally.moves += 1
                    session.play(session.game.parse_move(message["move"], session.state))
                    turn()
        finally:
            if moving is not None:
                moving.cancel()

    async def answer(
        self, inbox: Inbox, *kinds: str, lose: str | None = None, wait: float = WAIT
    ) -> tuple[float, dict[str, Any]]:
        """The next message of those kinds (when it arrived, and it), news of seats passed over;
        an error of code `lose` is returned too, any other is Refused."""
        while True:
            try:
                async with asyncio.timeout(wait):
                    arrived, _, message = await inbox.get()
            except TimeoutError:
                raise TimeoutError(f"no {' or '.join(kinds)} in {wait:g} s") from None
            kind = message["type"]
            if kind in kinds or (kind == "error" and message["code"] == lose):
                return arrived, message
            if kind == "error":
                raise Refused(f"{message['code']}: {message['text']}")
            if kind == "closed":
                raise ConnectionError(f"the server closed the connection: {message['text']}")
            if kind == "seated":  # the server's bug, not the bench's: say which
                raise ConnectionError("seated in a second room while in one: a seek paired twice")
            if kind != "seats":
                raise ConnectionError(f"expected {' or '.join(kinds)}, the server sent {kind}")

    async def until_stop(self, awaited: Awaitable[A]) -> A | None:
        """What `awaited` gives, or None when the window ends first."""
        task = asyncio.ensure_future(awaited)
        stopping = asyncio.create_task(self.stop.wait())
        try:
            await asyncio.wait((task, stopping), return_when=asyncio.FIRST_COMPLETED)
            return task.result() if task.done() else None
        finally:
            task.cancel()
            stopping.cancel()


async def say(socket_: ClientConnection, message: ClientMessage) -> None:
    await socket_.send(write_message(message))


# -- the figures ---------------------------------------------------------------------------------


def figures(times: list[float]) -> tuple[float, float, float, float]:
    """p50, p95, p99 and the most, in ms."""
    ordered = sorted(times)
    p50, p95, p99, most = (percentile(ordered, share) * 1000 for share in (0.5, 0.95, 0.99, 1.0))
    return p50, p95, p99, most


def shown(times: list[float]) -> str:
    return " / ".join(f"{ms:.1f}" for ms in figures(times)) + f" ms ({len(times):,})"


def report(
    console: Console, plan: LobbyPlan, tally: LobbyTally, processes: int, seen: Watch
) -> None:
    starts = game_starts(tally.seats)
    started = starts.quick + starts.accepted
    moved = relays(tally.sent, tally.arrived)
    window = tally.window or float("nan")
    table = Table(
        title=f"the lobby: {plan.players:,} players, think {plan.think:g} s, "
        f"{plan.plies} plies at most, {tally.window:.0f} s"
    )
    table.add_column("measure")
    table.add_column("value (p50 / p95 / p99 / max, and how many)", justify="right")
    rows = [
        ("games started (quick pairing + accepted)",
         f"{len(started) // 2:,} ({len(starts.quick) // 2:,} + {len(starts.accepted) // 2:,}), "
         f"{len(started) / 2 / window:.1f} a second"),
        ("game start: the pairing message to each `seated`", shown(started)),
        ("  paired by a second seek", shown(starts.quick)),
        ("  paired by an accept", shown(starts.accepted)),
        ("a seek waiting for an opponent (the lobby's traffic)", shown(starts.waits)),
        ("connect, hello and claim with the token", shown(tally.handshakes)),
        ("`lobby` listed (its answer)", shown(tally.listings)),
        ("seeks / accepts / accepts too late / empty listings",
         f"{tally.seeks:,} / {tally.accepts:,} / {tally.lost:,} / {tally.empty:,}"),
        ("relay: a move's send to its opponent's `moved`", shown(moved)),
        ("moves a second", f"{len(moved) / window:,.0f}"),
        ("moves sent in the window never relayed", f"{len(tally.sent) - len(moved):,}"),
        ("games ended (each counted by both players)", f"{tally.games_ended:,}"),
        ("rooms seen by one player only (the window's edges)", str(starts.unmatched)),
        ("games left at the end, the opponent gone (the window's edge)", str(tally.stranded)),
        ("refusals", str(len(tally.refusals))),
        ("errors", str(len(tally.errors))),
        (f"client CPU ({processes} process{'es' * (processes > 1)}, summed) / waiting for one",
         f"{tally.cpu / window:.0%} of a core / {tally.waited / window:.0%}"),
        ("machine: some task waiting for a CPU", f"{seen.pressure / window:.0%} of the time"),
    ]  # fmt: skip
    idle, before, loaded = seen.idle, seen.before, seen.loaded
    if idle and before and loaded:
        mib = 1 << 20
        rows += [
            ("server RSS idle / names claimed / end / peak (VmHWM)",
             f"{idle.rss / mib:.0f} / {before.rss / mib:.0f} / {loaded.rss / mib:.0f} / "
             f"{loaded.peak / mib:.0f} MiB"),
            ("server CPU / its loop waiting for one",
             f"{(loaded.cpu - before.cpu) / window:.0%} of a core / "
             f"{(loaded.waited - before.waited) / window:.0%}"),
        ]  # fmt: skip
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for what, said in (("refusal", tally.refusals), ("error", tally.errors)):
        for text in sorted(set(said))[:5]:
            console.print(f"  {what}: {text} (x{said.count(text)})")
    for what, times in (("game start", started), ("relay", moved)):
        p95 = figures(times)[1]
        verdict = "under" if p95 < GOAL * 1000 else "OVER"
        console.print(f"{what} p95 {p95:.1f} ms: {verdict} the {GOAL * 1000:.0f} ms goal")


def main(argv: list[str] | None = None, prog: str | None = None) -> None:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100, help="players (default 100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured (default 60)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a move on average (default 1)"
    )
    parser.add_argument("--plies", type=int, default=40, help="a game is resigned after these")
    parser.add_argument(
        "--ramp",
        type=float,
        help="the first seeks spread over these seconds (plies x think)",
    )
    parser.add_argument(
        "--browse", type=float, default=0.15, help="share of games by lobby + accept (0.15)"
    )
    parser.add_argument("--processes", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a server already running (ws://127.0.0.1:PORT)")
    parser.add_argument("--pid", type=int, help="that server's process, for its memory and CPU")
    parser.add_argument("--data", type=Path, help="the folder the server's data folder is made in")
    parser.add_argument("--server-path", type=Path, help="the checkout whose server runs")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile into this file")
    args = parser.parse_args(argv)
    if args.players < 2 or args.processes < 1 or args.think < 0 or args.seconds <= 0:
        parser.error("--players at least 2, --processes 1, --think 0 or more, --seconds above 0")
    if not 0 <= args.browse <= 1 or args.plies < 1 or (args.ramp is not None and args.ramp < 0):
        parser.error("--browse is a share (0 to 1), --plies at least 1, --ramp 0 or more")
    raise_file_limit()
    console = announced()
    prefix = "lobby" if args.url is None else f"l{secrets.token_hex(3)}-"  # new names there

    def measure(url: str, pid: int | None) -> tuple[LobbyPlan, tuple[LobbyTally, Watch]]:
        plan = LobbyPlan(
            url, args.players, args.think, args.plies, args.seconds, args.ramp, args.browse,
            seed=args.seed, prefix=prefix,
        )  # fmt: skip
        return plan, watch(
            console, Players, LobbyTally(), plan, plan.players, plan.seconds,
            args.processes, pid, "claiming names",
        )  # fmt: skip

    plan, (tally, seen) = served(args, "online-lobby-", console, measure)
    report(console, plan, tally, args.processes, seen)
    ended(args, tally)


if __name__ == "__main__":
    main()
