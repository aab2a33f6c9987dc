"""The tests' fixtures: every app test builds its app with `make_app`, which keeps the app's files
in the test's own folder and lets its bots think briefly; a command-line test runs `dipole-tui`
with `cli`. Every test that runs an app is marked `ui` here, never by hand, so that
`pytest -m "not ui"` runs the rest and no app test slips into it."""

from __future__ import annotations

import functools
import gc
import inspect
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import CodeType
from typing import Any

import app_steps
import pytest
from app_steps import AppFactory
from cli_steps import Cli, Ran
from hypothesis import settings
from seats import seated
from textual.app import App
from textual.pilot import Pilot

from dipole_tui.app.app import GameApp
from dipole_tui.cli import main
from dipole_tui.control.choice import GameChoice, OnlineChoice
from dipole_tui.registry import REGISTRY
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.tracker import Connect

# No example may fail for taking long: the machine is shared (CI, pytest's workers, other jobs)
# and speed is measured by the benchmarks (bench/), never by a timed test.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")

TESTS = Path(__file__).parent
UI_FIXTURES = {"make_app"}  # the fixtures that build an app to run
APP_RUNNERS = {"run_test", "sync_playwright"}  # Pilot's, and a browser's on `dipole-tui web`
running: list[pytest.Item] = []  # the test being run


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """The tests' folders in memory (/dev/shm) where the machine has it, unless `--basetemp`
    says otherwise: the app syncs every file it saves to disk (an autosave after each move),
    and on this machine's disk those syncs took a sixth of the app tests' time. Made by the
    first process only (pytest-xdist gives each worker a folder inside), removed at the end."""
    shm = Path("/dev/shm")
    if config.option.basetemp or hasattr(config, "workerinput"):
        return
    if shm.is_dir() and os.access(shm, os.W_OK):
        root = Path(tempfile.mkdtemp(prefix="dipole-tui-tests-", dir=shm))
        config.option.basetemp = str(root / "run")
        config.add_cleanup(lambda: shutil.rmtree(root, ignore_errors=True))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if UI_FIXTURES.intersection(fixtures) or runs_app(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.ui)
    items.sort(key=start_order)


def start_order(item: pytest.Item) -> tuple[bool, bool]:
    """The long tests first, then the app tests, then the rest (most of them short): the workers
    end together, rather than one starting a 20-second test when the others are done (measured:
    17 s of the whole suite's 303 s ran on one worker alone)."""
    return item.get_closest_marker("long") is None, item.get_closest_marker("ui") is None


@functools.cache
def runs_app(test: object) -> bool:
    """Whether `test` runs an app, itself or through the helpers of tests/ it names (those with
    no app fixture: screenshots, the state machine's driver, the browser, apps built by hand)."""
    seen: set[int] = set()
    todo = [test]
    while todo:
        found = todo.pop()
        if id(found) in seen:
            continue
        seen.add(id(found))
        if isinstance(found, type):
            todo.extend(getattr(member, "__func__", member) for member in vars(found).values())
            todo.extend(filter(ours, found.__bases__))
            continue
        if not callable(found):
            continue
        function = inspect.unwrap(getattr(found, "__func__", found))
        code = getattr(function, "__code__", None)
        if code is None:
            continue
        if APP_RUNNERS.intersection(names := names_in(code)):
            return True
        cells = [cell.cell_contents for cell in function.__closure__ or ()]
        scope = function.__globals__
        todo.extend(filter(ours, [*cells, *(scope.get(name) for name in names)]))
    return False


def names_in(code: CodeType) -> set[str]:
    """The global and attribute names `code` uses, with its lambdas' and inner functions'."""
    inner = (names_in(const) for const in code.co_consts if isinstance(const, CodeType))
    return set(code.co_names).union(*inner)


def ours(found: object) -> bool:
    """Whether `found` is a function or class of a module of tests/."""
    return callable(found) and of_tests(getattr(found, "__module__", None) or "")


@functools.cache
def of_tests(module: str) -> bool:
    file = getattr(sys.modules.get(module), "__file__", None)
    return file is not None and Path(file).is_relative_to(TESTS)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (pytest's, Hypothesis's and Textual's objects, every test module)
    lives to the end: out of the garbage collector's way, which otherwise walks it all at each
    full collection (measured: the non-UI tests' CPU time 5 % less)."""
    gc.collect()
    gc.freeze()


def pytest_runtest_setup(item: pytest.Item) -> None:
    running[:] = [item]


@pytest.fixture(autouse=True, scope="session")
def apps_run_only_in_ui_tests() -> Iterator[None]:
    """An app run by a test `runs_app` missed fails it, rather than slipping into `-m "not ui"`."""
    run_test = App.run_test

    def checked(app: App[Any], *args: Any, **kwargs: Any) -> Any:
        test = running[-1]
        assert test.get_closest_marker("ui"), f"{test.nodeid} runs an app, unmarked: see runs_app"
        return run_test(app, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(App, "run_test", checked)
        yield


@pytest.fixture(autouse=True, scope="session")
def keys_wait_for_the_app() -> Iterator[None]:
    """Every `pilot.press` (the tests', the scenes', snap_compare's) is `app_steps.press`: each
    key is sent once the app has taken the one before and all that followed from it, not after
    Textual's two waits a key for the process to go idle, which the app's refreshes after a key
    stretch to a quarter of a second (measured on test_app.py, test_app_bipod.py and the
    snapshots: 16 % less time, 4 % less CPU time)."""

    async def press(pilot: Pilot[Any], *keys: str) -> None:
        await app_steps.press(pilot, *keys)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Pilot, "press", press)
        yield


@pytest.fixture
def make_app(tmp_path: Path) -> AppFactory:
    """Build an app, as `play` would with these options:

    - `game`, `variant` (its default when empty) and `players` choose a new game; `position`
      sets its start, or `session` gives the whole game;
    - `new`: the game starts at once (`play --new`); otherwise the autosave in the folder is
      offered first, and with none the new-game dialog opens on that choice, or with `chosen`
      (`play --black hard`: the command line chose) the game starts;
    - `folder`: where the autosave and kept games are (the test's `tmp_path`);
    - `thinker`: a stand-in for the bots' process (`app_steps.ScriptedBots`); the real one if
      None;
    - `reviewer`: one for the review's process (the real one unless given);
    - `analyst`: a stand-in for the analysis's (`app_steps.HandAnalyst`); the real one if None;
    - `learn`: open the lessons first, of that game or ("") of every game (`dipole-tui learn`);
    - `online`: a room of a game server to play in (`play --server ... --new-room`)."""

    def make(
        game: str = "dipole",
        variant: str = "",
        players: tuple[str, str] = (HUMAN, HUMAN),
        *,
        position: str | None = None,
        session: Session[Any] | None = None,
        new: bool = True,
        chosen: bool = False,
        folder: Path | None = None,
        ascii_glyphs: bool = False,
        think_time: float = 0.2,
        thinker: Connect | None = None,
        reviewer: Connect | None = None,
        analyst: Connect | None = None,
        learn: str | None = None,
        online: OnlineChoice | None = None,
    ) -> GameApp:
        rules = REGISTRY[game].game
        if position is not None:
            session = Session(rules, rules.parse_position(position), seated(*players))
        return GameApp(
            choice=GameChoice(game, variant or rules.variants[0], seated(*players)),
            session=session,
            new=new,
            chosen=chosen,
            ascii_glyphs=ascii_glyphs,
            autosave=Autosave(folder or tmp_path),
            think_time=think_time,
            thinker=thinker,
            reviewer=reviewer,
            analyst=analyst,
            learn=learn,
            online=online,
        )

    return make


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run `dipole-tui` in the test's process: its exit status and what it printed."""

    def run(*args: str) -> Ran:
        status = main(list(args))
        out, err = capsys.readouterr()
        return Ran(status, out, err)

    return run
