"""The game server under load: N games at once, each two scripted clients playing random legal
moves over loopback, and how long a move takes from its player's send to its opponent's screen.

    python bench/online.py --games 100                     # 60 s, about a move a second a game
    python bench/online.py --games 1000                    # the goal: p95 under 50 ms
    python bench/online.py --games 200 --think 0           # a flood: as fast as the server allows
    python bench/online.py --games 100 --profile server.prof  # the server under cProfile
    python bench/online.py --lobby --players 1000 --seconds 600  # the lobby: bench/online_lobby.py

The bench starts `dipole-tui serve` of this checkout (`--server-path` puts another first on its
PYTHONPATH; `--url` uses a server already running, `--pid` names its process for the figures),
on a free port with a fresh data folder. Each table plays a game (`--game`, or the three mixed;
each game's first variant, or all with `--every-variant`: Bi-Pod's multi lists thousands of
placements a move, which costs the clients ms a move), its moves chosen at random from
`legal_moves`, each after a pause drawn evenly from 0 to twice `--think` seconds; a game still
going after `--plies` plies is resigned, and the table starts another (two new connections, a new
room). Latency is measured from the mover's send to the `moved` that reaches its opponent (one
process, one monotonic clock), over `--seconds` once every table is seated. The clients run in
`--processes` processes (2 by default: one loop with 2,000 connections adds its own queueing to
what it measures) and spend CPU too; the bench reports their share of a core, the server's, and
how long each waited for a CPU another process had (on a shared machine that wait, not the
server, can be the latency). Refusals and errors must be 0. Ctrl+C ends the measured window
early: the figures so far are reported.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import resource
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any, Generic, NoReturn, Protocol, Self, TypeVar

from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from dipole_tui.cli.progress_bar import progress_bar
from dipole_tui.games.base import GameError
from dipole_tui.online.protocol import VERSION, Create, Hello, Join, Move, Resign, write_message
from dipole_tui.registry import REGISTRY, game_named
from dipole_tui.session import Session

ROOT = Path(__file__).resolve().parent.parent
GOAL = 0.050  # seconds: p95 of 1,000 games on a 2-core machine (issue 29)
WAIT = 30.0  # seconds a reply may take before it counts as an error
SEATING = 64  # tables connecting at once while they are seated (the listen backlog is 100)


@dataclass(frozen=True)
class Plan:
    """What the scripted clients do."""

    url: str
    games: int  # tables playing at once
    keys: tuple[str, ...]  # the games they choose from
    think: float = 1.0  # seconds a move, on average; 0 floods
    plies: int = 120  # a game still going then is resigned (random Death Stacks never ends)
    seconds: float = 60.0  # measured, once every table is seated
    rate: float = 20.0  # messages a second a connection sends at most (the server's limit)
    every_variant: bool = False  # each game's variants mixed; else its first, the one most play
    seed: int = 1


@dataclass
class Tally:
    """What one client process saw; added up over processes."""

    latencies: list[float] = field(default_factory=list)  # measured moves only
    moves: int = 0  # every move relayed, measured or not
    games_ended: int = 0
    refusals: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    window: float = 0.0  # seconds measured
    cpu: float = 0.0  # this process's CPU seconds in the window
    waited: float = 0.0  # seconds its event loop was ready to run but had no CPU, in the window

    def add(self, other: Tally) -> None:
        self.latencies += other.latencies
        self.moves += other.moves
        self.games_ended += other.games_ended
        self.refusals += other.refusals
        self.errors += other.errors
        self.window = max(self.window, other.window)
        self.cpu += other.cpu
        self.waited += other.waited


class Refused(Exception):
    """The server answered with an `error`."""


class Sums(Protocol):
    """What a client process saw, added up over processes (a `Tally`)."""

    refusals: list[str]
    errors: list[str]
    window: float
    cpu: float
    waited: float

    def add(self, other: Self) -> None: ...


T = TypeVar("T", bound=Sums)


class Clients(Generic[T]):
    """`count` clients of a plan (tables, or the lobby's players), numbered from `first`, in
    this process's event loop: made ready (seated, named), then measured for the plan's
    `seconds` or until `stop`, each playing one game after another."""

    def __init__(self, plan: Any, first: int, count: int, tally: T) -> None:
        self.plan, self.first, self.count, self.tally = plan, first, count, tally
        self.all_ready = asyncio.Event()  # set by the subclass: every client is ready
        self.stop = asyncio.Event()
        self.measuring = False
        self.started = asyncio.Event()  # the measured window has begun
        self.seating = asyncio.Semaphore(SEATING)

    def progress(self) -> tuple[int, int]:
        """How many clients are ready, and the moves relayed so far."""
        raise NotImplementedError

    async def game(self, number: int, rng: random.Random) -> None:
        """One game of client `number`, from its connections to its end."""
        raise NotImplementedError

    async def client(self, number: int) -> None:
        await self.games(number, random.Random(self.plan.seed * 1_000_003 + number))

    async def run(self, ready: Callable[[], Awaitable[None]] | None = None) -> T:
        """Make every client ready, wait for `ready` (the other processes), measure, end."""
        clients = [
            asyncio.create_task(self.client(n)) for n in range(self.first, self.first + self.count)
        ]
        try:
            await asyncio.wait_for(self.all_ready.wait(), WAIT + self.count / 10)
            if ready is not None:
                await ready()
            started, cpu, waited = time.monotonic(), time.process_time(), run_queue()
            self.measuring = True
            self.started.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), self.plan.seconds)
            self.measuring = False
            self.tally.window = time.monotonic() - started
            self.tally.cpu = time.process_time() - cpu
            self.tally.waited = run_queue() - waited
            self.stop.set()
            _, hung = await asyncio.wait(clients, timeout=WAIT)
            # a client still playing WAIT seconds after the window is cancelled below, and
            # counted: it waited on a game that never ended
            self.tally.errors += [f"a client still in a game {WAIT:g} s after the end"] * len(hung)
        finally:
            for task in clients:
                task.cancel()
            await asyncio.gather(*clients, return_exceptions=True)
        return self.tally

    async def games(self, number: int, rng: random.Random) -> None:
        """Games until `stop`, each refusal and error counted."""
        while not self.stop.is_set():
            try:
                await self.game(number, rng)
            except Refused as refusal:
                self.tally.refusals.append(str(refusal))
            except (OSError, ConnectionClosed, TimeoutError, GameError) as error:
                self.tally.errors.append(f"{type(error).__name__}: {error}")
            else:
                continue
            with contextlib.suppress(TimeoutError):  # a broken server: no busy loop
                await asyncio.wait_for(self.stop.wait(), 1.0)


class Tables(Clients[Tally]):
    """`count` tables of the plan, numbered from `first`, in this process's event loop."""

    plan: Plan

    def __init__(self, plan: Plan, first: int, count: int) -> None:
        super().__init__(plan, first, count, Tally())
        self.seated: set[int] = set()

    def progress(self) -> tuple[int, int]:
        return len(self.seated), self.tally.moves

    async def game(self, number: int, rng: random.Random) -> None:
        """One game at this table, from two new connections to its end."""
        key = rng.choice(self.plan.keys)
        rules = game_named(key)
        variant = rng.choice(rules.variants) if self.plan.every_variant else rules.variants[0]
        async with contextlib.AsyncExitStack() as stack:
            async with self.seating:
                sockets = []
                for _ in range(2):
                    socket_ = await stack.enter_async_context(
                        connect(self.plan.url, compression=None, open_timeout=WAIT)
                    )
                    await socket_.send(write_message(Hello(VERSION, "bench")))
                    await expect(socket_, "welcome")
                    sockets.append(socket_)
                await sockets[0].send(write_message(Create(key, variant)))
                seated = await expect(sockets[0], "seated")
                await expect(sockets[0], "game")
                room = seated["room"]
                invite = seated["invite"]  # the creator's alone: the code only watches
                await sockets[1].send(write_message(Join(room, invite=invite)))
                joined = await expect(sockets[1], "seated")
                await expect(sockets[1], "game")
            self.seated.add(number)
            if len(self.seated) == self.count:
                self.all_ready.set()
            by_side = {seated["side"]: sockets[0], joined["side"]: sockets[1]}
            await self.play(room, Session.new(rules, variant), by_side, rng)
        self.tally.games_ended += 1

    async def play(
        self,
        room: str,
        session: Session[Any],
        by_side: dict[int, ClientConnection],
        rng: random.Random,
    ) -> None:
        """Both players' messages through one inbox, stamped as they arrive; each move is
        chosen when its opponent has seen the last one."""
        inbox: asyncio.Queue[tuple[float, int, dict[str, Any]]] = asyncio.Queue()
        sent: dict[int, float] = {}  # ply -> when its move was sent
        last_sent = dict.fromkeys(by_side, 0.0)
        tasks = {
            asyncio.create_task(read(socket_, side, inbox)) for side, socket_ in by_side.items()
        }

        async def move_soon() -> None:
            side = session.state.to_move
            pause = rng.uniform(0, 2 * self.plan.think)
            pause = max(pause, last_sent[side] + 1 / self.plan.rate - time.monotonic())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), pause)
            socket_, ply = by_side[side], session.state.plies
            last_sent[side] = time.monotonic()
            if self.stop.is_set() or ply >= self.plan.plies:
                await socket_.send(write_message(Resign(room)))
                return
            move = random_move(session, rng)
            sent[ply] = time.monotonic()
            await socket_.send(write_message(Move(room, ply, move)))

        def spawn(coroutine: Awaitable[None]) -> None:
            task = asyncio.ensure_future(coroutine)
            tasks.add(task)
            task.add_done_callback(failed)

        def failed(task: asyncio.Future[None]) -> None:
            if not task.cancelled() and task.exception() is not None:
                said = {"type": "closed", "text": repr(task.exception())}
                inbox.put_nowait((time.monotonic(), -1, said))

        try:
            spawn(move_soon())
            ended: set[int] = set()
            while len(ended) < 2:
                async with asyncio.timeout(WAIT):
                    arrived, side, message = await inbox.get()
                kind = message["type"]
                if kind == "moved" and message["side"] != side:  # the opponent has it
                    started = sent.pop(message["ply"], None)
                    if started is not None and self.measuring:
                        self.tally.latencies.append(arrived - started)
                    self.tally.moves += 1
                    session.play(session.game.parse_move(message["move"], session.state))
                    if session.outcome is None:
                        spawn(move_soon())
                elif kind == "ended":
                    ended.add(side)
                elif kind == "error":
                    raise Refused(f"{message['code']}: {message['text']}")
                elif kind == "closed":
                    raise ConnectionError(f"the server closed a connection: {message['text']}")
        finally:
            for task in tasks:
                task.cancel()


def random_move(session: Session[Any], rng: random.Random) -> str:
    """A legal move of the side to move, drawn evenly (passes are played by the server), as the
    game writes it."""
    rules = session.game
    return rules.format_move(
        rng.choice([move for move in session.state.legal_moves() if not rules.is_pass(move)])
    )


async def read(
    socket_: ClientConnection, side: int, inbox: asyncio.Queue[tuple[float, int, dict[str, Any]]]
) -> None:
    try:
        async for frame in socket_:
            inbox.put_nowait((time.monotonic(), side, json.loads(frame)))
    except ConnectionClosed:
        pass
    inbox.put_nowait(
        (time.monotonic(), side, {"type": "closed", "text": str(socket_.close_reason)})
    )


async def expect(socket_: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of that kind, news of seats passed over; Refused for an error."""
    while True:
        async with asyncio.timeout(WAIT):
            message: dict[str, Any] = json.loads(await socket_.recv())
        if message["type"] == kind:
            return message
        if message["type"] == "error":
            raise Refused(f"{message['code']}: {message['text']}")
        if message["type"] != "seats":
            raise ConnectionError(f"expected '{kind}', the server sent '{message['type']}'")


# -- processes: the server, the clients, this one watching ---------------------------------------


def raise_file_limit() -> None:
    """Two connections a game, in the clients and in the server (which inherits this)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def announced() -> Console:
    """A console, the run's command and the machine said first (its load: a shared machine's
    tails are its own)."""
    console = Console()
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    console.print(f"{shlex.join(['python', *sys.argv])}\n{os.cpu_count()} cores (load {load}), "
                  f"Python {platform.python_version()}, {platform.platform()}")  # fmt: skip
    return console


def start_server(
    folder: Path, server_path: Path | None = None, profile: Path | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """`dipole-tui serve` on a free loopback port, listening when this returns."""
    port = free_port()
    python = [sys.executable, *(["-m", "cProfile", "-o", str(profile)] if profile else [])]
    command = [*python, "-m", "dipole_tui", "serve", "--port", str(port), "--data", str(folder)]
    command.append("--bench")  # thousands of connections from this one address
    path = os.pathsep.join(str(p) for p in (server_path or ROOT, os.environ.get("PYTHONPATH")) if p)
    server = subprocess.Popen(
        command,
        env={**os.environ, "PYTHONPATH": path},
        stdout=(folder / "server.log").open("wb"),
        stderr=subprocess.STDOUT,
        cwd=folder,  # `-m` looks in the working folder first: only PYTHONPATH says which checkout
        start_new_session=True,  # ctrl+c is the bench's to pass on, so a profile is written
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return server, f"ws://127.0.0.1:{port}"
        time.sleep(0.1)
    server.kill()
    log = (folder / "server.log").read_text(errors="replace")[-2000:]
    raise SystemExit(f"online: the server did not start ({shlex.join(command)}):\n{log}")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@dataclass(frozen=True)
class Usage:
    """A process's memory and CPU as /proc tells them."""

    rss: int  # bytes
    peak: int  # bytes, VmHWM
    cpu: float  # seconds, user and system
    waited: float  # seconds its event loop waited for a CPU (another process had it)

    @classmethod
    def of(cls, pid: int) -> Usage:
        status = Path(f"/proc/{pid}/status").read_text()
        sizes = {k: int(v.split()[0]) * 1024 for k, v in _fields(status) if k in ("VmRSS", "VmHWM")}
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        cpu = (int(stat[11]) + int(stat[12])) / ticks
        return cls(sizes["VmRSS"], sizes["VmHWM"], cpu, run_queue(pid))


def run_queue(pid: int | str = "self") -> float:
    """Seconds a process's main thread (the event loop) has been ready to run but waited for a
    CPU: on a shared machine, what other processes cost it."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def pressure() -> float:
    """Seconds some task of the machine waited for a CPU (Linux's PSI; 0 without it)."""
    with contextlib.suppress(OSError):
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        return int(some.rsplit("total=", 1)[1]) / 1e6
    return 0.0


def _fields(status: str) -> Iterator[tuple[str, str]]:
    for line in status.splitlines():
        name, _, value = line.partition(":")
        yield name, value


def client_process(
    clients: Callable[[Any, int, int], Clients[T]],
    plan: Any,
    first: int,
    count: int,
    ready: Synchronized[int],
    moves: Synchronized[int],
    go: Any,
    halt: Any,
    results: Any,
) -> None:
    """One client process: its clients (`first` and the `count - 1` after it), with progress
    told to the parent through `ready` and `moves`; the measured window starts when the parent
    sets `go` and ends early when it sets `halt` (ctrl+c)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent ends the run

    async def main() -> T:
        group = clients(plan, first, count)

        async def tell() -> None:
            while True:
                ready.value, moves.value = group.progress()
                if halt.is_set():
                    group.stop.set()
                await asyncio.sleep(0.25)

        async def started() -> None:
            await asyncio.to_thread(go.wait)

        telling = asyncio.create_task(tell())
        try:
            return await group.run(started)
        finally:
            telling.cancel()

    results.put(asyncio.run(main()))


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(
    console: Console,
    plan: Plan,
    tally: Tally,
    processes: int,
    watch: Watch,
) -> None:
    ordered = sorted(tally.latencies)
    window = tally.window or float("nan")
    table = Table(title=f"{plan.games} games at once, think {plan.think:g} s, {tally.window:.0f} s")
    table.add_column("measure")
    table.add_column("value", justify="right")
    ms = [percentile(ordered, share) * 1000 for share in (0.5, 0.95, 0.99, 1.0)]
    rows = [
        ("games played to their end (the last resigned)", f"{tally.games_ended:,}"),
        ("moves measured", f"{len(ordered):,}"),
        ("moves a second", f"{len(ordered) / window:,.0f}"),
        ("latency p50 / p95 / p99 / max", " / ".join(f"{m:.1f}" for m in ms) + " ms"),
        ("refusals", str(len(tally.refusals))),
        ("errors", str(len(tally.errors))),
        (
            f"client CPU ({processes} process{'es' * (processes > 1)}, summed) / waiting for one",
            f"{tally.cpu / window:.0%} of a core / {tally.waited / window:.0%}",
        ),
        ("machine: some task waiting for a CPU", f"{watch.pressure / window:.0%} of the time"),
    ]
    idle, before, loaded = watch.idle, watch.before, watch.loaded
    if idle and before and loaded:
        mib = 1 << 20
        rows += [
            ("server RSS idle / loaded / peak", f"{idle.rss / mib:.0f} / {loaded.rss / mib:.0f} / "
                                                f"{loaded.peak / mib:.0f} MiB"),
            ("server memory a game", f"{(loaded.rss - idle.rss) / plan.games / 1024:.0f} KiB"),
            ("server CPU / its loop waiting for one", f"{(loaded.cpu - before.cpu) / window:.0%} "
             f"of a core / {(loaded.waited - before.waited) / window:.0%}"),
        ]  # fmt: skip
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for what, said in (("refusal", tally.refusals), ("error", tally.errors)):
        for text in sorted(set(said))[:5]:
            console.print(f"  {what}: {text} (x{said.count(text)})")
    verdict = "under" if ms[1] < GOAL * 1000 else "OVER"
    console.print(f"p95 {ms[1]:.1f} ms: {verdict} the {GOAL * 1000:.0f} ms goal")


def main() -> None:
    if "--lobby" in sys.argv[1:]:  # the lobby's bench, with its own options
        import online_lobby

        online_lobby.main([word for word in sys.argv[1:] if word != "--lobby"], "online.py --lobby")
        return
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="--lobby: the lobby's bench instead (python bench/online_lobby.py --help)",
    )
    parser.add_argument("--games", type=int, default=100, help="games at once (default 100)")
    parser.add_argument("--game", choices=sorted(REGISTRY), help="default: the three mixed")
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a move on average; 0 floods"
    )
    parser.add_argument(
        "--every-variant", action="store_true", help="mix each game's variants (default: its first)"
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="measured (default 60)")
    parser.add_argument("--plies", type=int, default=120, help="a game is resigned after these")
    parser.add_argument(
        "--processes",
        type=int,
        default=2,
        help="client processes (default 2: one has its own queue)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a server already running (ws://127.0.0.1:PORT)")
    parser.add_argument("--pid", type=int, help="that server's process, for its memory and CPU")
    parser.add_argument("--data", type=Path, help="the folder the server's data folder is made in")
    parser.add_argument("--server-path", type=Path, help="the checkout whose server runs")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile into this file")
    args = parser.parse_args()
    if args.games < 1 or args.processes < 1 or args.think < 0 or args.seconds <= 0:
        parser.error("--games and --processes are at least 1, --think 0 or more, --seconds above 0")
    raise_file_limit()
    console = announced()
    keys = (args.game,) if args.game else tuple(REGISTRY)

    def measure(url: str, pid: int | None) -> tuple[Plan, tuple[Tally, Watch]]:
        plan = Plan(
            url, args.games, keys, args.think, args.plies, args.seconds,
            seed=args.seed, every_variant=args.every_variant,
        )  # fmt: skip
        return plan, run(console, plan, args.processes, pid)

    plan, (tally, watch) = served(args, "online-bench-", console, measure)
    report(console, plan, tally, args.processes, watch)
    ended(args, tally)


R = TypeVar("R")


def served(
    args: argparse.Namespace,
    prefix: str,
    console: Console,
    measure: Callable[[str, int | None], R],
) -> R:
    """`measure(url, pid)` against `--url`'s server, or one started for it with a fresh data
    folder (under `--data`, named from `prefix`) and stopped after; Ctrl+C ends the bench with
    status 130."""
    with tempfile.TemporaryDirectory(prefix=prefix, dir=args.data) as folder:
        server, pid, url = None, args.pid, args.url
        if url is None:
            profile = args.profile and args.profile.resolve()
            server, url = start_server(Path(folder), args.server_path, profile)
            pid = server.pid
        try:
            return measure(url, pid)
        except KeyboardInterrupt:
            console.print("online: interrupted")
            sys.exit(130)
        finally:
            if server is not None:
                stop_server(server)


def ended(args: argparse.Namespace, tally: Sums) -> NoReturn:
    """The server's profile (a server the bench started under `--profile`), then the exit
    status: 1 if anything was refused or went wrong."""
    if args.profile and args.url is None:
        import pstats

        pstats.Stats(str(args.profile)).sort_stats("tottime").print_stats(25)
    sys.exit(1 if tally.refusals or tally.errors else 0)


@dataclass(frozen=True)
class Watch:
    """The server (when its process is known) and the machine, seen from outside."""

    idle: Usage | None  # before the clients connect
    before: Usage | None  # as the measured window starts
    loaded: Usage | None  # as it ends
    pressure: float  # seconds some task waited for a CPU in the window


def run(
    console: Console,
    plan: Plan,
    processes: int,
    pid: int | None,
) -> tuple[Tally, Watch]:
    """The tables in their processes, watched: seated, then measured."""
    return watch(console, Tables, Tally(), plan, plan.games, plan.seconds, processes, pid)


def watch(
    console: Console,
    clients: Callable[[Any, int, int], Clients[T]],
    tally: T,
    plan: Any,
    count: int,
    seconds: float,
    processes: int,
    pid: int | None,
    getting_ready: str = "seating",
) -> tuple[T, Watch]:
    """`count` clients shared among `processes` processes, watched: made ready, then measured
    for `seconds` (ctrl+c: until then), their tallies added up into `tally`."""
    usage = (lambda: Usage.of(pid)) if pid is not None else (lambda: None)
    idle = usage()
    context = multiprocessing.get_context("fork")
    go, halt, results = context.Event(), context.Event(), context.Queue()
    counts = [(context.Value("q", 0), context.Value("q", 0)) for _ in range(processes)]
    shares = [count * (i + 1) // processes - count * i // processes for i in range(processes)]
    workers = [
        context.Process(
            target=client_process,
            args=(clients, plan, sum(shares[:i]), shares[i], *counts[i], go, halt, results),
        )
        for i in range(processes)
    ]
    for worker in workers:
        worker.start()
    try:
        with progress_bar(console) as progress:
            readying = progress.add_task(getting_ready, total=count)
            while (ready := sum(s.value for s, _ in counts)) < count:
                progress.update(readying, completed=ready)
                if not all(w.is_alive() for w in workers):
                    raise SystemExit("online: a client process ended early")
                time.sleep(0.2)
            before, pressed = usage(), pressure()
            go.set()
            measuring = progress.add_task("measuring", total=round(seconds))
            started = time.monotonic()
            try:
                while (elapsed := time.monotonic() - started) < seconds:
                    moves = sum(m.value for _, m in counts)
                    description = f"{moves:,} moves"
                    progress.update(measuring, completed=int(elapsed), description=description)
                    time.sleep(0.2)
            except KeyboardInterrupt:
                halt.set()  # the clients end their window: the figures so far
                console.print(f"online: interrupted after {elapsed:.0f} s: the figures so far")
            loaded, pressed = usage(), pressure() - pressed
            for _ in workers:
                tally.add(results.get(timeout=WAIT * 2))
        for worker in workers:
            worker.join()
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
    return tally, Watch(idle, before, loaded, pressed)


if __name__ == "__main__":
    main()
