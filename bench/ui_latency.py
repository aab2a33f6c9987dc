"""Key-to-screen latency and start-up time of the Textual app, measured headless.

    python bench/ui_latency.py                          # 3 Dipole games on 8x8 at 100x30, seeds 1-3
    python bench/ui_latency.py --games 1 --variant 10x10 --size 120x40 --seed 7
    python bench/ui_latency.py --game death-stacks      # 3 Death Stacks games, 150 plies at most
    python bench/ui_latency.py --game bipod --variant multi
    python bench/ui_latency.py --gap-ms 100             # a random pause before each key
    python bench/ui_latency.py --clock 60+5             # with the clocks running (redrawn 10x/s)
    python bench/ui_latency.py --json                   # the figures as JSON

Key-to-screen latency
---------------------
Whole games are played through the keyboard only: for each ply a legal move is drawn (seeded) from
the engine's `legal_moves()`, the board cursor is walked to the origin with arrow keys, the stack
is selected, the arrows walk to the destination, and `enter` plays. Every key press is one sample,
labelled cursor / select / play. Per game (`--game`):
- Dipole: `enter` selects; a removal walks into the removal strip and along its counts;
- Death Stacks: a number key 1-9 selects that many pieces of the stack under the cursor (a whole
  stack of more than 9 is selected with `enter`; moves of a part of 10 or more are not drawn).
  Random Death Stacks games almost never end, so they stop at `--max-plies` (default 150) and
  are reported as unfinished.
The walk is closed loop: each arrow is chosen from where the board says its cursor is, and every
select and play is checked against the board and the game afterwards.

A key is sent as a terminal driver sends one: a `Key` event handed to the driver's `send_message`
(the path the input thread uses; `Pilot.press` does the same but then sleeps 2 x 20 ms or more
waiting for the CPU to go idle, so it cannot be timed). The clock starts just before the event is
handed over and stops when the first frame after it is complete. A "frame" is a call of
`App._display` with a compositor update: the one place where Textual hands a changed screen to the
terminal. `App._display` is wrapped on the app instance; because the headless driver skips the
terminal encoding, the wrapper does it (`render_segments` for a truecolor console, the call the
real driver path makes) and only then reads the clock. So a sample includes the event crossing
the message queues, the binding and the action, the app's own work (engine calls, the autosave
with its fsync, side-panel updates), Textual's wait for its next frame tick, layout, the
compositor render of what changed (the board's `render_line`s) and the escape-sequence encoding.
It leaves out only the write() to a real terminal and the terminal's own drawing.

The frame clock: Textual does not draw on every change. A changed screen resumes a timer that
ticks on a fixed grid of 1/TEXTUAL_FPS (60 fps by default: 16.7 ms), so a key that arrives just
after a frame waits for the next tick; and when a frame's work overruns a tick, the timer skips
ahead and the next frame can wait up to two periods. By default keys are sent back-to-back: the
next key goes as soon as the previous one has settled (no frame pending and the screen refreshed),
that is, right after a frame, the phase that waits longest for the tick; no human types faster
than this. So the wait for the frame clock is at its worst, and the figures are an upper bound
on it for keys typed at any pace (a key that comes more than two periods after the last frame is
drawn without waiting). The work itself is not bounded that way: after idle pauses the same frame
can cost more CPU (cold caches, a slower clock), which `--gap-ms G`, a random pause of 0..G ms
before each key, shows. The frame rate is never changed here: the one in force (TEXTUAL_FPS) is
reported.

Besides "first frame" (the figure the target applies to) each key reports: "settled", the time of
the last frame it caused once the app is idle again (a move can need a second frame, e.g. for
layout); "cpu", the CPU time the process used from the key to its first frame; and "render", how
long the frame tick that drew the first frame took (layout, compositor, encoding), to compare with
the frame period.

Start-up
--------
- in process: from constructing `GameApp(...)`, with the chosen game, to its first frame under
  `run_test` (modules already imported: what a second app in the same process costs);
- cold: a fresh interpreter, `python -c "import dipole_tui.app.app; ..."`, from spawning the
  process to the first frame, split into interpreter start, imports (Textual, Rich and the app)
  and app start; the bare interpreter (`python -c pass`) is timed alongside. Whether Python may
  write bytecode caches (PYTHONDONTWRITEBYTECODE) is reported: without them every run compiles
  the app's modules again.
Both are run several times; medians are reported.

Targets: p95 key to first frame (all keys) under 30 ms; cold start-up to the first frame under 1 s.
The autosave goes to a temporary folder, never to the user's data.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import textual
from rich.console import Console
from textual import constants, events
from textual.app import App
from textual.screen import Screen

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.bipod import BipodBoard
from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.clock import TimeControl
from dipole_tui.control.choice import GameChoice
from dipole_tui.games.base import State
from dipole_tui.games.bipod import ADOPT as BIPOD_ADOPT
from dipole_tui.games.bipod import CELL_COUNT as BIPOD_CELLS
from dipole_tui.games.bipod import BipodState
from dipole_tui.games.bipod import Move as BipodMove
from dipole_tui.games.death_stacks import SIZE as STACKS_SIZE
from dipole_tui.games.death_stacks import DeathStacksState
from dipole_tui.games.death_stacks import Move as StacksMove
from dipole_tui.games.dipole import OFF, PASS, DipoleState
from dipole_tui.games.dipole import Move as DipoleMove
from dipole_tui.registry import REGISTRY
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN

LATENCY_TARGET_MS = 30.0
STARTUP_TARGET_MS = 1000.0
FRAME_TIMEOUT_S = 5.0
KINDS = ("cursor", "select", "play")
REMOVAL_SHARE = 0.15
MAX_DIGIT = 9  # the number keys select 1-9 pieces of a Death Stacks stack
# What a terminal sends with a key: a one-character key name sends itself, arrows send none.
KEY_CHARACTERS = {"enter": "\r"}


def monotonic() -> float:
    """A clock this process and its children share (CLOCK_MONOTONIC on Linux)."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


# -- frames ----------------------------------------------------------------------------------

_tick_started: list[float] = [0.0]  # when the running screen-update tick began; 0.0 outside


@contextmanager
def tick_timing() -> Iterator[None]:
    """Note when each screen-update tick starts, to time the work of each frame.

    The update timer binds `Screen._on_timer_update` when a screen first needs it, so patching
    the class before the app starts covers every screen of the app.
    """
    original = Screen._on_timer_update

    def timed(self: Screen[Any]) -> None:
        _tick_started[0] = time.perf_counter()
        try:
            original(self)
        finally:
            _tick_started[0] = 0.0  # frames drawn outside a tick get no render time

    Screen._on_timer_update = timed  # type: ignore[method-assign]
    try:
        yield
    finally:
        Screen._on_timer_update = original  # type: ignore[method-assign]


class FrameClock:
    """Wraps `app._display` to timestamp every frame, after encoding it as the terminal would."""

    def __init__(self, app: App[Any]) -> None:
        self.times: list[float] = []
        self.renders: list[float] = []  # seconds from the tick's start to the frame
        self.sizes: list[int] = []  # bytes of escape sequences
        self._new_frame = asyncio.Event()
        console = Console(
            color_system="truecolor",
            file=io.StringIO(),  # never written: only its options are used
            force_terminal=True,
            legacy_windows=False,
            safe_box=False,
            soft_wrap=False,
        )
        original = app._display

        def display(screen: Screen[Any], renderable: Any) -> None:
            original(screen, renderable)
            if renderable is None or app._batch_count:
                return  # Textual drew nothing either
            encode = getattr(renderable, "render_segments", None)
            size = len(encode(console)) if app.is_headless and encode is not None else 0
            now = time.perf_counter()
            self.times.append(now)
            self.renders.append(now - _tick_started[0] if _tick_started[0] else math.nan)
            self.sizes.append(size)
            self._new_frame.set()

        app._display = display  # type: ignore[method-assign]

    async def wait_for_frame(self, index: int, timeout: float = FRAME_TIMEOUT_S) -> float | None:
        """The time of frame number `index` (from 0), waiting for it; None on timeout."""
        deadline = time.perf_counter() + timeout
        while len(self.times) <= index:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return None
            self._new_frame.clear()
            try:
                await asyncio.wait_for(self._new_frame.wait(), remaining)
            except TimeoutError:
                return None
        return self.times[index]


# -- playing by keys -------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    key: str
    first: float  # seconds from the key to its first frame
    settled: float  # seconds from the key to its last frame
    cpu: float  # CPU seconds of this process from the key to its first frame
    render: float  # seconds of work in the tick that drew the first frame
    frames: int
    bytes: int


@dataclass
class GameRun:
    seed: int
    plies: int = 0
    keys: int = 0
    no_frame: int = 0  # keys after which no frame came (should stay 0)
    finished: bool = False  # False: stopped at the ply cap
    winner: str = ""  # a side's name or "draw", once finished
    seconds: float = 0.0


@dataclass
class KeyPlayer:
    """Plays one game by keys, timing each key from hand-over to its first frame.

    The timing and the game loop are shared; a subclass per game knows its board: how to read
    the cursor, where a square is on screen, which move to draw and which keys play it."""

    app: GameApp
    clock: FrameClock
    rng: random.Random
    gap_ms: float
    run: GameRun
    samples: list[Sample] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.gap_rng = random.Random(f"gaps {self.run.seed}")

    @property
    def state(self) -> State[Any]:
        return self.app.session.state

    async def settle(self) -> None:
        """Wait until nothing is left to draw: two refresh rounds in a row without a frame."""
        quiet = 0
        while quiet < 2:
            count = len(self.clock.times)
            refreshed = asyncio.Event()
            self.app.call_after_refresh(refreshed.set)
            await asyncio.wait_for(refreshed.wait(), FRAME_TIMEOUT_S)
            quiet = quiet + 1 if len(self.clock.times) == count else 0

    async def press(self, key: str, kind: str) -> None:
        if self.gap_ms > 0:  # drawn from its own generator: the moves don't depend on the gap
            await asyncio.sleep(self.gap_rng.uniform(0, self.gap_ms) / 1000)
        driver = self.app._driver
        assert driver is not None, "the app is not running"
        character = KEY_CHARACTERS.get(key, key if len(key) == 1 else None)
        event = events.Key(key, character)
        event.set_sender(self.app)
        before = len(self.clock.times)
        cpu_started = time.process_time()
        started = time.perf_counter()
        driver.send_message(event)  # as the input thread does with a key it has read
        first = await self.clock.wait_for_frame(before)
        cpu = time.process_time() - cpu_started
        self.run.keys += 1
        if first is None:
            self.run.no_frame += 1
            await self.settle()
            return
        await self.settle()
        last = self.clock.times[-1]
        frames = len(self.clock.times) - before
        size = sum(self.clock.sizes[before:])
        render = self.clock.renders[before]
        self.samples.append(
            Sample(kind, key, first - started, last - started, cpu, render, frames, size)
        )

    # -- walking the cursor ------------------------------------------------------------------

    @property
    def board(self) -> DipoleBoard | DeathStacksBoard | BipodBoard:
        """The game's board (each keeps a cursor and knows where it draws a square)."""
        board = self.app.board
        assert isinstance(board, DipoleBoard | DeathStacksBoard | BipodBoard)
        return board

    @property
    def cursor(self) -> int:
        """The square under the board's cursor."""
        return self.board.cursor

    @property
    def side(self) -> int:
        """Squares along a side of the board."""
        raise NotImplementedError

    def screen_position(self, square: int) -> tuple[int, int]:
        """(column, row) of a square on screen, from the top left, as the board draws it."""
        return self.board.screen_cell(square)

    def on_square(self, square: int) -> bool:
        return self.cursor == square

    def arrow_toward(self, square: int) -> str:
        """The arrow that brings the cursor one step nearer `square`: rows first."""
        column, row = self.screen_position(self.cursor)
        to_column, to_row = self.screen_position(square)
        if row != to_row:
            return "up" if to_row < row else "down"
        return "left" if to_column < column else "right"

    async def walk_to(self, square: int) -> None:
        limit = 4 * self.side + 4
        while not self.on_square(square):
            if limit == 0:
                raise RuntimeError(f"the cursor did not reach square {square}")
            limit -= 1
            await self.press(self.arrow_toward(square), "cursor")

    # -- one game ----------------------------------------------------------------------------

    def choose_move(self) -> Any:
        """A seeded random legal move the keys can play."""
        raise NotImplementedError

    async def play_move(self, move: Any) -> None:
        """Walk, select and play `move` by keys, checking the board on the way."""
        raise NotImplementedError

    async def play_game(self, max_plies: int) -> None:
        started = time.perf_counter()
        await self.settle()
        while self.state.outcome() is None and self.run.plies < max_plies:
            move = self.choose_move()
            played = len(self.state.moves_played)
            await self.play_move(move)
            history = self.state.moves_played
            if len(history) <= played or history[played] != move:
                raise RuntimeError(f"enter did not play {move}")
            self.run.plies += 1
        outcome = self.state.outcome()
        if outcome is not None:
            self.run.finished = True
            winner = outcome.winner
            self.run.winner = "draw" if winner is None else self.app.session.game.side_names[winner]
        self.run.seconds = time.perf_counter() - started


class DipolePlayer(KeyPlayer):
    """Dipole: `enter` selects, the arrows walk to the destination (or into the removal strip
    and along its counts), `enter` plays."""

    @property
    def state(self) -> DipoleState:
        state = self.app.session.state
        assert isinstance(state, DipoleState)
        return state

    @property
    def board(self) -> DipoleBoard:
        board = self.app.board
        assert isinstance(board, DipoleBoard)
        return board

    @property
    def side(self) -> int:
        return self.state.size

    def strip_on_top(self) -> bool:
        """The side to move's removals are drawn beside its far edge."""
        return (self.state.to_move == 0) != self.board.flipped

    def on_square(self, square: int) -> bool:
        return self.board.removal_cursor is None and self.cursor == square

    def arrow_toward(self, square: int) -> str:
        if self.board.removal_cursor is not None:  # back onto the board
            return "down" if self.strip_on_top() else "up"
        return super().arrow_toward(square)

    async def walk_to_removal(self, count: int) -> None:
        board = self.board
        toward_strip = "up" if self.strip_on_top() else "down"
        limit = 4 * self.state.size + 4
        while board.removal_cursor is None:
            if limit == 0:
                raise RuntimeError("the cursor did not reach the removal strip")
            limit -= 1
            await self.press(toward_strip, "cursor")
        counts = [move.count for move in board.removals]
        while board.removal_cursor != count:
            if limit == 0:
                raise RuntimeError(f"the cursor did not reach removal {count}")
            limit -= 1
            here = counts.index(board.removal_cursor) if board.removal_cursor in counts else 0
            await self.press("left" if counts.index(count) < here else "right", "cursor")

    def choose_move(self) -> DipoleMove:
        """A uniform choice would mostly take stacks off the board and end the game within a
        few plies, so board moves are preferred and a removal (never of a side's last checkers)
        is drawn 15% of the time: random games then last about 30 plies on 8x8 and 50 on 10x10,
        with a few removals each."""
        state = self.state
        legal = [m for m in state.legal_moves() if m != PASS]
        if not legal:
            raise RuntimeError("no legal move, yet the app did not pass")
        on_board = [m for m in legal if m.target != OFF]
        left = state.checkers[state.to_move]
        removals = [m for m in legal if m.target == OFF and m.count < left]
        if removals and (not on_board or self.rng.random() < REMOVAL_SHARE):
            return self.rng.choice(removals)
        return self.rng.choice(on_board or legal)

    async def play_move(self, move: DipoleMove) -> None:
        await self.walk_to(move.origin)
        await self.press("enter", "select")
        if self.board.selected != move.origin:
            raise RuntimeError(f"enter did not select square {move.origin}")
        if move.target == OFF:
            await self.walk_to_removal(move.count)
        else:
            await self.walk_to(move.target)
        await self.press("enter", "play")


class DeathStacksPlayer(KeyPlayer):
    """Death Stacks: a digit key on the cursor's stack selects it with that many pieces (a
    whole stack of more than 9: `enter`, which takes all), the arrows walk to the landing
    square, `enter` plays."""

    @property
    def state(self) -> DeathStacksState:
        state = self.app.session.state
        assert isinstance(state, DeathStacksState)
        return state

    @property
    def board(self) -> DeathStacksBoard:
        board = self.app.board
        assert isinstance(board, DeathStacksBoard)
        return board

    @property
    def side(self) -> int:
        return STACKS_SIZE

    def choose_move(self) -> StacksMove:
        """Uniform among the moves a digit key or `enter` selects in one press: at most 9
        pieces, or the whole stack. Random games seldom end: --max-plies stops them."""
        state = self.state
        legal = [
            m
            for m in state.legal_moves()
            if m.count <= MAX_DIGIT or m.count == len(state.cells[m.origin])
        ]
        if not legal:
            raise RuntimeError("no legal move in a game that has not ended")
        return self.rng.choice(legal)

    async def play_move(self, move: StacksMove) -> None:
        board = self.board
        await self.walk_to(move.origin)
        if move.count <= MAX_DIGIT:
            await self.press(str(move.count), "select")
        else:  # a whole stack (choose_move draws no other part of more than 9)
            await self.press("enter", "select")
        if board.selected != move.origin or board.count != move.count:
            raise RuntimeError(f"the keys did not select {move.count} on square {move.origin}")
        await self.walk_to(move.target)
        if board.targets.get(move.target) != move:
            raise RuntimeError(f"square {move.target} is not marked for {move}")
        await self.press("enter", "play")


class BipodPlayer(KeyPlayer):
    """Bi-Pod: the arrows walk to a cell and `enter` places (the Runner first presses `c` when
    the colour it wants is not the one `enter` places; in the multi variant `space` marks each
    stone and `enter` places them); `a` adopts, now and then (5% of the turns before adoption)."""

    @property
    def state(self) -> BipodState:
        state = self.app.session.state
        assert isinstance(state, BipodState)
        return state

    @property
    def board(self) -> BipodBoard:
        board = self.app.board
        assert isinstance(board, BipodBoard)
        return board

    @property
    def side(self) -> int:
        return 16  # cells on the long side

    def choose_move(self) -> BipodMove:
        """One to three stones (as the variant allows) on empty cells, or adopt."""
        state = self.state
        empty = [cell for cell in range(BIPOD_CELLS) if state.stone(cell) == "."]
        if state.runner is None:
            if self.rng.random() < ADOPT_SHARE or not empty:
                return BIPOD_ADOPT
            most = min(3 if state.multi else 1, len(empty))
            cells = self.rng.sample(empty, self.rng.randint(1, most))
            return BipodMove("x", tuple(sorted(cells)))
        kind = self.rng.choice("oO") if state.to_move == state.runner else "x"
        return BipodMove(kind, (self.rng.choice(empty),))

    async def play_move(self, move: BipodMove) -> None:
        board = self.board
        if move == BIPOD_ADOPT:
            await self.press("a", "play")
            return
        if move.kind != "x" and board.colour != move.kind:
            await self.press("c", "select")
        *marked, last = move.cells
        for cell in marked:
            await self.walk_to(cell)
            await self.press("space", "select")
        await self.walk_to(last)
        await self.press("enter", "play")


PLAYERS: dict[str, type[KeyPlayer]] = {
    "dipole": DipolePlayer,
    "death-stacks": DeathStacksPlayer,
    "bipod": BipodPlayer,
}
DEFAULT_MAX_PLIES = {"dipole": 1000, "death-stacks": 150, "bipod": 200}
ADOPT_SHARE = 0.05


def make_app(folder: Path, game: str, variant: str, clock: TimeControl | None = None) -> GameApp:
    return GameApp(
        choice=GameChoice(game, variant, (HUMAN, HUMAN), clock),
        new=True,
        autosave=Autosave(folder),
    )


async def play_games(args: argparse.Namespace) -> tuple[list[Sample], list[GameRun]]:
    samples: list[Sample] = []
    runs: list[GameRun] = []
    with tick_timing():
        for index in range(args.games):
            seed = args.seed + index
            with tempfile.TemporaryDirectory(prefix="dipole-bench-") as folder:
                app = make_app(Path(folder), args.game, args.variant, args.clock)
                clock = FrameClock(app)
                player = PLAYERS[args.game](
                    app, clock, random.Random(seed), args.gap_ms, GameRun(seed)
                )
                async with app.run_test(size=args.size):
                    await player.play_game(args.max_plies)
            samples.extend(player.samples)
            runs.append(player.run)
            if not args.json:
                run = player.run
                print(
                    f"game {index + 1}/{args.games} (seed {seed}): {run.plies} plies, "
                    f"{run.keys} keys, {run.seconds:.1f} s",
                    file=sys.stderr,
                    flush=True,
                )
    return samples, runs


# -- start-up --------------------------------------------------------------------------------


async def startup_in_process(size: tuple[int, int], game: str, variant: str) -> float:
    with tempfile.TemporaryDirectory(prefix="dipole-bench-") as folder:
        started = time.perf_counter()
        app = make_app(Path(folder), game, variant)
        clock = FrameClock(app)
        async with app.run_test(size=size):
            first = await clock.wait_for_frame(0, timeout=30)
    if first is None:
        raise RuntimeError("the app drew no first frame")
    return first - started


CHILD = """\
import time
started = time.clock_gettime(time.CLOCK_MONOTONIC)
import dipole_tui.app.app
imported = time.clock_gettime(time.CLOCK_MONOTONIC)
import json, sys, tempfile
from pathlib import Path
from dipole_tui.control.choice import GameChoice
from dipole_tui.session import HUMAN
from dipole_tui.saves import Autosave
width, height, game, variant = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
frames = []
with tempfile.TemporaryDirectory(prefix="dipole-bench-") as folder:
    app = dipole_tui.app.app.GameApp(
        choice=GameChoice(game, variant, (HUMAN, HUMAN)), new=True,
        autosave=Autosave(Path(folder)),
    )
    original = app._display
    def display(screen, renderable):
        original(screen, renderable)
        if renderable is not None and not app._batch_count and not frames:
            frames.append(time.clock_gettime(time.CLOCK_MONOTONIC))
            app.exit()
    app._display = display
    app.run(headless=True, size=(width, height))
print(json.dumps({"started": started, "imported": imported, "first_frame": frames[0]}))
"""


def startup_cold(size: tuple[int, int], game: str, variant: str) -> dict[str, float]:
    width, height = size
    command = [sys.executable, "-c", CHILD, str(width), str(height), game, variant]
    spawned = monotonic()
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)
    marks = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "total": marks["first_frame"] - spawned,
        "interpreter": marks["started"] - spawned,
        "imports": marks["imported"] - marks["started"],
        "app": marks["first_frame"] - marks["imported"],
    }


def bare_interpreter() -> float:
    started = monotonic()
    subprocess.run([sys.executable, "-c", "pass"], check=True, timeout=60)
    return monotonic() - started


def to_ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def measure_startup(args: argparse.Namespace) -> dict[str, Any]:
    runs = args.startup_runs
    setup = (args.size, args.game, args.variant)
    in_process = [asyncio.run(startup_in_process(*setup)) for _ in range(runs)]
    cold = [startup_cold(*setup) for _ in range(runs)]
    bare = [bare_interpreter() for _ in range(runs)]

    def median_ms(values: Sequence[float]) -> float:
        return to_ms(statistics.median(values))

    return {
        "runs": runs,
        "in_process_median_ms": median_ms(in_process),
        "in_process_runs_ms": [to_ms(v) for v in in_process],
        "cold_median_ms": median_ms([run["total"] for run in cold]),
        "cold_runs_ms": [to_ms(run["total"]) for run in cold],
        "cold_interpreter_median_ms": median_ms([run["interpreter"] for run in cold]),
        "cold_imports_median_ms": median_ms([run["imports"] for run in cold]),
        "cold_app_median_ms": median_ms([run["app"] for run in cold]),
        "bare_interpreter_median_ms": median_ms(bare),
    }


# -- the report ------------------------------------------------------------------------------


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(fraction * len(ordered))) - 1]


def figures(values: Sequence[float]) -> dict[str, float]:
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return {}
    return {
        "median_ms": round(statistics.median(values) * 1000, 2),
        "p95_ms": round(percentile(values, 0.95) * 1000, 2),
        "max_ms": round(max(values) * 1000, 2),
        "mean_ms": round(statistics.fmean(values) * 1000, 2),
    }


def latency_report(samples: Sequence[Sample]) -> dict[str, Any]:
    measures: dict[str, Callable[[Sample], float]] = {
        "first_frame": lambda s: s.first,
        "settled": lambda s: s.settled,
        "cpu": lambda s: s.cpu,
        "render": lambda s: s.render,
    }
    report: dict[str, Any] = {}
    for label in ("all", *KINDS):
        chosen = [s for s in samples if label in ("all", s.kind)]
        if not chosen:
            continue
        entry: dict[str, Any] = {"n": len(chosen)}
        for name, measure in measures.items():
            entry[name] = figures([measure(s) for s in chosen])
        entry["frames_per_key"] = round(statistics.fmean(s.frames for s in chosen), 2)
        entry["bytes_per_key"] = round(statistics.fmean(s.bytes for s in chosen))
        report[label] = entry
    return report


def parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    return width, height


def print_human(result: dict[str, Any]) -> None:
    config = result["config"]
    period = 1000 / config["fps"]
    print(
        f"dipole-tui key-to-screen latency: {config['game']} {config['variant']} at "
        f"{config['size']}, "
        f"textual {config['textual']}, python {config['python']}, {config['cpus']} CPUs, "
        f"load {config['load_before']} -> {config['load_after']}"
    )
    gap = f"random 0..{config['gap_ms']:g} ms" if config["gap_ms"] else "none (back-to-back)"
    print(
        f"frame rate {config['fps']} fps (TEXTUAL_FPS={config['textual_fps_env'] or 'unset'}; "
        f"a frame every {period:.1f} ms); pause before each key: {gap}"
    )
    for run in result["games"]:
        if not run["finished"]:
            ended = f"unfinished (stopped at the cap of {config['max_plies']} plies)"
        else:
            ended = "drawn" if run["winner"] == "draw" else f"{run['winner']} won"
        note = f", {run['no_frame']} keys drew no frame" if run["no_frame"] else ""
        print(
            f"  game seed {run['seed']}: {run['plies']} plies, {run['keys']} keys, {ended}, "
            f"{run['seconds']:.1f} s{note}"
        )
    if result["latency"]:
        print(
            "\n            keys | to first frame: median   p95    max | settled p95   max"
            " | cpu p95 | render med  p95 | frames  bytes/key"
        )
    for label, entry in result["latency"].items():
        first, settled = entry["first_frame"], entry["settled"]
        cpu, render = entry["cpu"], entry["render"]
        print(
            f"  {label:<7}{entry['n']:>7} |{first['median_ms']:>23.1f}{first['p95_ms']:>6.1f}"
            f"{first['max_ms']:>7.1f} |{settled['p95_ms']:>12.1f}{settled['max_ms']:>6.1f}"
            f" |{cpu['p95_ms']:>8.1f} |{render.get('median_ms', math.nan):>11.1f}"
            f"{render.get('p95_ms', math.nan):>5.1f} |{entry['frames_per_key']:>7.2f}"
            f"{entry['bytes_per_key']:>11}"
        )
    if result["latency"]:
        print("  (milliseconds; render: the frame tick's work, to set against the frame period)")
    startup = result["startup"]
    if startup:
        print(f"\nstart-up to the first frame, median of {startup['runs']} runs")
        print(
            f"  in process, GameApp() to frame: {startup['in_process_median_ms']:7.1f} ms  "
            f"(runs {startup['in_process_runs_ms']})"
        )
        print(
            f"  cold, spawn to frame:             {startup['cold_median_ms']:7.1f} ms  "
            f"(runs {startup['cold_runs_ms']})"
        )
        print(
            f"    interpreter {startup['cold_interpreter_median_ms']:.0f} ms, imports "
            f"{startup['cold_imports_median_ms']:.0f} ms, app {startup['cold_app_median_ms']:.0f}"
            f" ms; bare `python -c pass` {startup['bare_interpreter_median_ms']:.0f} ms; "
            f"bytecode cache writes {'off' if config['dont_write_bytecode'] else 'on'}"
        )
    print()
    for check in result["checks"]:
        verdict = "PASS" if check["pass"] else "FAIL"
        print(
            f"{verdict}  {check['name']}: {check['value_ms']:.1f} ms "
            f"(target under {check['target_ms']:g} ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games to play (default 3)")
    parser.add_argument("--size", type=parse_size, default=(100, 30), help="terminal WxH")
    parser.add_argument("--game", default="dipole", choices=list(PLAYERS), help="the game")
    variants = [variant for key in PLAYERS for variant in REGISTRY[key].game.variants]
    parser.add_argument(
        "--variant", choices=variants, help="the game's board (default: its first, 8x8 for Dipole)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    parser.add_argument(
        "--gap-ms", type=float, default=0.0, help="random pause of 0..G ms before each key"
    )
    parser.add_argument(
        "--max-plies",
        type=int,
        help="stop a game after this many plies (default 1000 for Dipole, 150 for Death Stacks)",
    )
    parser.add_argument(
        "--clock", type=TimeControl.parse, help="play with clocks running: MINUTES+SECONDS"
    )
    parser.add_argument("--startup-runs", type=int, default=5, help="start-up runs (0: none)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    game_variants = REGISTRY[args.game].game.variants
    if args.variant is None:
        args.variant = game_variants[0]
    elif args.variant not in game_variants:
        parser.error(f"{args.game} has no variant {args.variant!r}: {', '.join(game_variants)}")
    if args.max_plies is None:
        args.max_plies = DEFAULT_MAX_PLIES[args.game]

    load_before = [round(v, 2) for v in os.getloadavg()]
    samples, runs = asyncio.run(play_games(args))
    startup = measure_startup(args) if args.startup_runs > 0 else {}
    load_after = [round(v, 2) for v in os.getloadavg()]

    latency = latency_report(samples)
    checks: list[dict[str, Any]] = []
    if samples:
        p95 = latency["all"]["first_frame"]["p95_ms"]
        checks.append(
            {
                "name": "p95 key to first frame",
                "value_ms": p95,
                "target_ms": LATENCY_TARGET_MS,
                "pass": p95 < LATENCY_TARGET_MS,
            }
        )
    if startup:
        cold = startup["cold_median_ms"]
        checks.append(
            {
                "name": "cold start-up to the first frame (median)",
                "value_ms": cold,
                "target_ms": STARTUP_TARGET_MS,
                "pass": cold < STARTUP_TARGET_MS,
            }
        )
    result: dict[str, Any] = {
        "config": {
            "game": args.game,
            "variant": args.variant,
            "max_plies": args.max_plies,
            "size": f"{args.size[0]}x{args.size[1]}",
            "games": args.games,
            "seed": args.seed,
            "gap_ms": args.gap_ms,
            "fps": constants.MAX_FPS,
            "textual_fps_env": os.environ.get("TEXTUAL_FPS"),
            "textual": textual.__version__,
            "python": sys.version.split()[0],
            "dont_write_bytecode": sys.dont_write_bytecode,
            "cpus": os.cpu_count(),
            "load_before": load_before,
            "load_after": load_after,
        },
        "games": [asdict(run) for run in runs],
        "latency": latency,
        "startup": startup,
        "checks": checks,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_human(result)


if __name__ == "__main__":
    main()
