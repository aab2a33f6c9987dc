"""Random UI events against the real app, checked after every step (issue 26).

A hypothesis state machine drives a Pilot app with what a terminal sends: bursts of keys posted
together, single and double clicks, each game's moves confirmed twice at once, undo and redo, new
games, and the bots' and the analysis's answers let in late, in any order, after the game has
moved on. After every step the game must be a replay of its moves from the start, each legal
where it was played; the autosave on disk (in a folder of its own, `DIPOLE_TUI_DATA_DIR`) must
read back as the whole game; no answer about another position may have been used.

The app runs in an event loop on a thread of its own (`AppDriver`), so that the machine's rules,
which hypothesis calls one by one, can each run a step inside the app's loop and wait for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import tempfile
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from app_steps import HandAnalyst, answer_move, burst, clicks, message, settle
from game_samples import board_samples
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from seats import seated
from textual.pilot import Pilot

from dipole_tui.analysis import Analysis
from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.bipod import BipodBoard
from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.app.boards.game_board import GameBoard
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.control.choice import GameChoice
from dipole_tui.control.keeper import new_session
from dipole_tui.control.position import Position, position_of
from dipole_tui.games import bipod, death_stacks, dipole
from dipole_tui.games.base import State
from dipole_tui.registry import REGISTRY, levels
from dipole_tui.saves import DATA_DIR_VARIABLE
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.protocol import Request

T = TypeVar("T")
SIZE = (100, 32)
STEP_SECONDS = 30.0  # a step that takes longer has hung

# The variants played, and the keys each board adds: its samples' (tests/support/game_samples.py).
GAMES = [(key, variant) for key in REGISTRY for variant in board_samples(key).machine_variants]
# The keys of the bursts, the cursor's and the confirms twice as likely as the rest.
KEYS = [*(["up", "down", "left", "right", "enter", "space"] * 2), "escape", "u", "U", "i"]
CONFIRMS = [("enter", "enter"), ("enter", "space"), ("space", "enter"), ("space", "space"), ()]


class AppDriver:
    """The app under Pilot, in an event loop on its own thread: each step is a coroutine run
    there, inside the `run_test` context, while the caller waits for its result."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        started: concurrent.futures.Future[Pilot[None]] = concurrent.futures.Future()
        self.queue: asyncio.Queue[tuple[Any, Any]] | None = None
        self.running = asyncio.run_coroutine_threadsafe(self._drive(started), self.loop)
        self.pilot = started.result(timeout=STEP_SECONDS)

    async def _drive(self, started: concurrent.futures.Future[Pilot[None]]) -> None:
        queue: asyncio.Queue[tuple[Any, Any]] = asyncio.Queue()
        self.queue = queue
        async with self.app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            started.set_result(pilot)
            while True:
                step, done = await queue.get()
                if step is None:
                    return
                try:
                    done.set_result(await step(pilot))
                except BaseException as error:  # handed to the caller, which raises it
                    done.set_exception(error)

    def run(self, step: Callable[[Pilot[None]], Awaitable[T]]) -> T:
        assert self.queue is not None
        done: concurrent.futures.Future[T] = concurrent.futures.Future()
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (step, done))
        return done.result(timeout=STEP_SECONDS)

    def close(self) -> None:
        try:
            if self.queue is not None:
                self.loop.call_soon_threadsafe(self.queue.put_nowait, (None, None))
            self.running.result(timeout=STEP_SECONDS)  # raises what stopped the app, if any
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=STEP_SECONDS)
            self.loop.close()


class LateBots:
    """Stands in for the bots' process: each request gets a legal move of the position asked
    about, held until the machine lets it arrive, in any order, however late."""

    def __init__(self) -> None:
        self.held: dict[int, tuple[str, Position]] = {}  # number -> (answer, position asked)
        self.on_reply: Any = None

    def __call__(self, on_reply: Any) -> LateBots:
        self.on_reply = on_reply
        return self

    def send(self, number: int, request: Request) -> None:
        session = Session.from_text(request.record)
        legal = session.state.legal_moves()
        move = legal[number * 7 % len(legal)]
        self.held[number] = (session.game.format_move(move), position_of(session.state))

    def release(self, pick: int) -> Position:
        """One held answer arrives (on the app's thread); the position it was about."""
        number = sorted(self.held)[pick % len(self.held)]
        text, position = self.held.pop(number)
        answer_move(self.on_reply, number, text)
        return position

    def cancel(self, upto: int) -> None:
        """A stopped search still answers, as the process's do: its answer stays held."""

    def close(self) -> None:
        pass

    @property
    def alive(self) -> bool:
        return True


def click(app: GameApp, board: GameBoard[Any, Any], key: str, value: int, times: int) -> bool:
    """`app_steps.clicks`, False when nothing is drawn with this meta data (and not clicked)."""
    try:
        clicks(app, board, key, value, times)
    except AssertionError:
        return False
    return True


def replay(session: Session[Any]) -> State[Any]:
    """The game from its start, each move checked legal where it is played."""
    state: State[Any] = session.game.new(session.state.variant)
    for move in session.state.moves_played:
        assert state.is_legal(move), f"{session.game.format_move(move)} was not legal there"
        state.play(move)
    return state


class UIMachine(RuleBasedStateMachine):
    """Random UI events against one app; the game checked after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.driver: AppDriver | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="dipole-machine-"))
        self.old_folder = os.environ.get(DATA_DIR_VARIABLE)
        os.environ[DATA_DIR_VARIABLE] = str(self.folder)
        self.bots = LateBots()
        self.analyst = HandAnalyst()
        self.keys: list[str] = []

    @initialize(game=st.sampled_from(GAMES), bots=st.sampled_from([(), (0,), (1,)]))
    def start(self, game: tuple[str, str], bots: tuple[int, ...]) -> None:
        """A game of two people, or of a person against a bot (its answers held: LateBots)."""
        key, variant = game
        seats = [levels(key)[0] if side in bots else HUMAN for side in (0, 1)]
        players = seated(seats[0], seats[1])
        choice = GameChoice(key, variant, players)
        app = GameApp(choice=choice, new=True, thinker=self.bots, analyst=self.analyst)
        assert app.autosave.folder == self.folder  # the data folder the variable names
        self.driver = AppDriver(app)
        self.keys = KEYS + list(board_samples(key).keys)

    def teardown(self) -> None:
        try:
            if self.driver is not None:
                self.driver.close()
        finally:
            if self.old_folder is None:
                os.environ.pop(DATA_DIR_VARIABLE, None)
            else:
                os.environ[DATA_DIR_VARIABLE] = self.old_folder
            shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def app(self) -> GameApp:
        assert self.driver is not None
        return self.driver.app

    def step(self, body: Callable[[Pilot[None]], Awaitable[T]]) -> T:
        assert self.driver is not None
        return self.driver.run(body)

    def on_the_board(self) -> bool:
        """No dialog is up, and the board has the focus."""
        app = self.app
        return len(app.screen_stack) == 1 and app.focused is app.board

    # -- rules -------------------------------------------------------------------------------

    @rule(data=st.data())
    def keys_in_a_burst(self, data: st.DataObject) -> None:
        keys = data.draw(st.lists(st.sampled_from(self.keys), min_size=1, max_size=8))

        async def body(pilot: Pilot[None]) -> None:
            burst(self.app, *keys)
            await settle(pilot)

        self.step(body)

    @rule(square=st.integers(0, 200), times=st.sampled_from([1, 2, 3]))
    def clicks(self, square: int, times: int) -> None:
        async def body(pilot: Pilot[None]) -> None:
            app = self.app
            if not self.on_the_board():
                return
            board = app.board
            key = "cell" if isinstance(board, BipodBoard) else "square"
            if click(app, board, key, square % 100, times):
                await settle(pilot)

        self.step(body)

    @rule(pick=st.integers(0, 10_000), confirm=st.sampled_from(CONFIRMS), data=st.data())
    def a_move_confirmed_twice_at_once(
        self, pick: int, confirm: tuple[str, ...], data: st.DataObject
    ) -> None:
        """A legal move set up by clicks and keys, then confirmed twice in one burst (two
        keys, or a double click), and keys typed ahead in the same burst: exactly that
        move is played, once, and nothing is refused (a double press is no mistake)."""
        typed_ahead = data.draw(st.lists(st.sampled_from(self.keys), max_size=4))

        async def body(pilot: Pilot[None]) -> None:
            app = self.app
            if not (self.on_the_board() and app.board.takes_choices):
                return
            burst(app, "escape")  # nothing selected or marked
            await settle(pilot)
            session = app.session
            legal = [m for m in session.state.legal_moves() if not session.is_pass(m)]
            if not legal:
                return
            move = legal[pick % len(legal)]
            aim = await self._set_up(pilot, move)
            if aim is None:
                return
            before = list(session.state.moves_played)
            if confirm:
                burst(app, *confirm)
            else:
                click(app, app.board, *aim, times=2)
            burst(app, *typed_ahead)
            await settle(pilot)
            after = session.state.moves_played
            assert app.session is session and after[: len(before)] == before
            new = after[len(before) :]
            chosen = [m for m in new if not session.is_pass(m)]
            said = session.game.format_move(move)
            assert chosen == [move], f"{said} confirmed twice played {new}"
            assert "Not played" not in message(app)

        self.step(body)

    async def _set_up(self, pilot: Pilot[None], move: Any) -> tuple[str, int] | None:
        """Select what `move` needs on the board and put the cursor on its last square: what
        a double click would land on, as (meta key, value); None for a move not set up here."""
        app = self.app
        board = app.board
        if isinstance(board, DipoleBoard):
            assert isinstance(move, dipole.Move)
            if not click(app, board, "square", move.origin, 1):
                return None
            await settle(pilot)
            if move.target == dipole.OFF:
                board.removal_cursor = move.count
                return "removal", move.count
            board.cursor = move.target
            return "square", move.target
        if isinstance(board, DeathStacksBoard):
            assert isinstance(move, death_stacks.Move)
            if move.count > 9 or not click(app, board, "square", move.origin, 1):
                return None
            await settle(pilot)
            burst(app, str(move.count))
            await settle(pilot)
            board.cursor = move.target
            return "square", move.target
        assert isinstance(board, BipodBoard) and isinstance(move, bipod.Move)
        if len(move.cells) != 1:
            return None  # adopting is a key of its own (`a`, in the bursts)
        if board.placing() != move.kind:
            burst(app, "c")  # the Runner's other colour
            await settle(pilot)
        board.cursor = move.cells[0]
        return "cell", move.cells[0]

    @rule(key=st.sampled_from(["u", "U"]))
    def undo_or_redo(self, key: str) -> None:
        async def body(pilot: Pilot[None]) -> None:
            burst(self.app, key)
            await settle(pilot)

        self.step(body)

    @precondition(lambda self: self.driver is not None and self.app.session.state.plies >= 4)
    @rule()
    def new_game(self) -> None:
        """A new game of the same choice, begun as the new-game dialog's Start begins it (the
        dialog takes most of a second to open; `n` in the bursts opens it now and then)."""

        async def body(pilot: Pilot[None]) -> None:
            app = self.app
            if len(app.screen_stack) == 1:
                app._start(new_session(app.choice))
                await settle(pilot)

        self.step(body)

    @precondition(lambda self: self.driver is not None and len(self.app.screen_stack) > 1)
    @rule()
    def escape_a_dialog(self) -> None:
        async def body(pilot: Pilot[None]) -> None:
            burst(self.app, "escape")
            await settle(pilot)

        self.step(body)

    @precondition(lambda self: bool(self.bots.held))
    @rule(pick=st.integers(0, 100))
    def a_bots_answer_arrives(self, pick: int) -> None:
        """A held answer arrives, perhaps long after it was asked: one about a position the
        game has left changes nothing (a move is asked for again, a hint is not marked)."""

        async def body(pilot: Pilot[None]) -> None:
            app = self.app
            before = position_of(app.session.state)
            hinted = getattr(app.board, "hint", None)  # a hint for this position may stand
            asked = self.bots.release(pick)
            await settle(pilot)
            if asked != before:
                assert position_of(app.session.state) == before, "a stale answer was played"
                assert getattr(app.board, "hint", None) == hinted, "a stale hint was marked"

        self.step(body)

    @precondition(lambda self: bool(self.analyst.records))
    @rule(pick=st.integers(0, 100), done=st.booleans())
    def an_analysis_arrives(self, pick: int, done: bool) -> None:
        """An update for any request so far (`nodes` says which, for the check)."""

        async def body(pilot: Pilot[None]) -> None:
            number = pick % len(self.analyst.records) + 1
            said = Analysis(1, PovScore(Score(), 0), (), number)
            self.analyst.tell(None if done else said, number)
            await settle(pilot)

        self.step(body)

    # -- what must always hold ---------------------------------------------------------------

    @invariant()
    def the_game_is_its_moves_replayed_and_kept_on_disk(self) -> None:
        if self.driver is None:
            return

        async def body(pilot: Pilot[None]) -> None:
            await settle(pilot)
            app = self.app
            assert app.is_running, "the app stopped"
            session = app.session
            assert replay(session) == session.state
            whole = session.whole_game()
            assert replay(whole) == whole.state
            if whole.outcome is None:
                saved = Session.from_text(app.autosave.path.read_text())
            else:  # filed under finished/, the autosave cleared
                assert not app.autosave.path.exists()
                finished = max((self.folder / "finished").glob("*.txt"), key=os.path.getmtime)
                saved = Session.from_text(finished.read_text())
            assert saved.state == whole.state
            assert saved.state.moves_played == whole.state.moves_played
            assert app.board.state is session.state
            if len(app.screen_stack) == 1:  # (a resignation asked about waits for its answer)
                assert not app.board.awaiting, "a move reported, never answered"
            found = app.analysis.latest
            if found is not None:  # the analysis shown is about the position on the board
                asked = Session.from_text(self.analyst.records[found.nodes - 1])
                assert position_of(asked.state) == position_of(session.state)

        self.step(body)


UIMachine.TestCase.settings = settings(
    max_examples=12,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestUIMachine = pytest.mark.long(UIMachine.TestCase)
