"""No process left behind: a match's workers and the app's bot worker end with their parent,
however the parent ends, and the app restores the terminal when it is asked to end.

Each test runs the real command in its own process group (killed whole at the end, so a failing
test leaves nothing running either), kills the parent alone, and waits a few seconds at most for
every child to be gone.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dipole_tui.saves import DATA_DIR_VARIABLE, Autosave

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="POSIX signals, process groups and pseudo-terminals"
)

DEADLINE = 8.0  # seconds: a worker looks for its parent twice a second; the rest is start-up
COMMAND = [sys.executable, "-m", "dipole_tui"]
# Two hard bots thinking 5 s a move: the workers are busy in a search when the parent is killed.
MATCH = [*COMMAND, "match", "hard", "hard", "--games", "4", "--jobs", "2", "--movetime", "5"]
APP = [*COMMAND, "play", "--white", "hard", "--black", "hard", "--new", "--think", "0.2"]


def name(signum: int) -> str:
    return signal.Signals(signum).name


def wait_for(condition: Callable[[], bool], what: str) -> None:
    """Poll until `condition` holds; fail, never hang, if it does not within the deadline."""
    deadline = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"still waiting for {what} after {DEADLINE:g} s")
        time.sleep(0.05)


def children(pid: int) -> set[int]:
    done = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return {int(word) for word in done.stdout.split()}


def descendants(pid: int) -> set[int]:
    """Children, and theirs: the app's bot worker is a child of its fork server."""
    found: set[int] = set()
    parents = [pid]
    while parents:
        new = children(parents.pop()) - found
        found |= new
        parents.extend(new)
    return found


def named(pid: int) -> str:
    done = subprocess.run(["ps", "-o", "args=", "-p", str(pid)], capture_output=True, text=True)
    return done.stdout.strip()


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie may wait a long time for its reaper)."""
    done = subprocess.run(
        ["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True, check=False
    )
    state = done.stdout.strip()
    return bool(state) and not state.startswith("Z")


def none_running(pids: set[int]) -> Callable[[], bool]:
    return lambda: not any(running(pid) for pid in pids)


@contextlib.contextmanager
def group_of(process: subprocess.Popen[bytes]) -> Iterator[subprocess.Popen[bytes]]:
    """The process, and at the end the end of its whole group, whatever the test found."""
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=DEADLINE)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL, signal.SIGHUP], ids=name)
def test_a_killed_match_leaves_no_worker_running(tmp_path: Path, signum: int) -> None:
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with (
        out.open("wb") as stdout,
        err.open("wb") as stderr,
        group_of(
            subprocess.Popen(MATCH, stdout=stdout, stderr=stderr, start_new_session=True)
        ) as match,
    ):
        wait_for(lambda: len(children(match.pid)) >= 2, "the match's two workers")
        workers = children(match.pid)
        match.send_signal(signum)
        status = match.wait(timeout=DEADLINE)
        wait_for(none_running(workers), f"the workers {sorted(workers)} to end")
    if signum == signal.SIGKILL:
        assert status == -signal.SIGKILL
        return
    assert status == 2
    assert err.read_text() == f"dipole-tui: stopped by {name(signum)} after 0 of 4 games\n"


def start_app(data: Path) -> tuple[subprocess.Popen[bytes], int]:
    """The app on a pseudo-terminal of 80x24, as in a terminal; returns it and the pty's master."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", **{DATA_DIR_VARIABLE: str(data)})
    app = subprocess.Popen(
        APP, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    return app, master


def read_all(master: int, into: bytearray) -> None:
    """Read what the app writes until nobody holds the terminal any more (EIO or EOF)."""
    with contextlib.suppress(OSError):
        while chunk := os.read(master, 65536):
            into += chunk
    os.close(master)


def last_switch(output: bytes, mode: int) -> str:
    """How the terminal's (DEC private) `mode` was last switched: "on", "off" or "never"."""
    on, off = output.rfind(b"\x1b[?%dh" % mode), output.rfind(b"\x1b[?%dl" % mode)
    return "never" if on == off == -1 else "on" if on > off else "off"


def a_move_is_saved(data: Path) -> bool:
    saved = Autosave(data).load()
    return saved is not None and bool(saved.state.moves_played)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=name)
def test_a_killed_app_leaves_no_bot_running(tmp_path: Path, signum: int) -> None:
    data = tmp_path / "data"
    app, master = start_app(data)
    output = bytearray()
    reader = threading.Thread(target=read_all, args=(master, output), daemon=True)
    reader.start()
    with group_of(app):
        wait_for(lambda: a_move_is_saved(data), "the bots' first move in the autosave")
        worker = descendants(app.pid)  # the bot worker, its fork server, their helpers
        assert any("forkserver" in named(pid) for pid in worker), "no fork server"
        assert len(worker) >= 3, f"no bot worker among {[named(pid) for pid in worker]}"
        app.send_signal(signum)
        app.wait(timeout=DEADLINE)
        wait_for(none_running(worker), f"the bot worker {sorted(worker)} to end")
        reader.join(timeout=DEADLINE)
        assert not reader.is_alive(), "someone still holds the app's terminal"
    assert a_move_is_saved(data)
    if signum == signal.SIGKILL:
        return
    written = bytes(output)
    assert last_switch(written, 1049) == "off"  # the alternate screen: the shell's is back
    assert last_switch(written, 25) == "on"  # the cursor is shown
    assert last_switch(written, 1000) == "off"  # mouse tracking
