"""`dipole-tui web` in a real browser: the server started as a player starts it, Debian's chromium
driven by playwright opening the page, a move typed on the keyboard, the server stopped as Ctrl+C
stops it.

The page draws the terminal with xterm.js on a canvas, so the text is read from xterm's own
buffer: textual-serve keeps its terminal to itself, and `HOOK` catches it as it is built.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from cli_steps import Cli
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as Timeout

from dipole_tui.saves import DATA_DIR_VARIABLE

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 20.0  # seconds for anything to happen: a loaded machine, never the usual case
# textual-serve's page builds its xterm.js Terminal in an object of its own, `this.terminal`,
# and then its `fitAddon`: a setter for that name on Object.prototype is called on that object
# first, keeps the terminal in window.textualTerminal and steps aside. `screenText` reads it
# row by row. (Not window.terminal: that names the page's <div id="terminal"> until then.)
HOOK = """
Object.defineProperty(Object.prototype, "fitAddon", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "fitAddon", {value, writable: true, configurable: true});
    window.textualTerminal = this.terminal;
  },
});
window.screenText = () => {
  const terminal = window.textualTerminal;
  if (!terminal) return "";
  const buffer = terminal.buffer.active;
  const rows = [];
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
};
"""


class Served(NamedTuple):
    process: subprocess.Popen[str]
    url: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def read_line(process: subprocess.Popen[str], deadline: float) -> str:
    """The server's next line of output, or a failure when it says nothing in time."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
    if not ready:
        pytest.fail(f"the server said nothing within {WAIT:g} s")
    return process.stdout.readline()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """`dipole-tui web` on a free loopback port, each tab starting a fresh game (`play --new`)
    with its files in the test's folder; its whole process group killed at the end."""
    port = free_port()
    environment = {**os.environ, DATA_DIR_VARIABLE: str(tmp_path / "data")}
    process = subprocess.Popen(
        [sys.executable, "-m", "dipole_tui", "web", "--port", str(port), "--", "--new"],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        first = read_line(process, time.monotonic() + WAIT)
        url = f"http://127.0.0.1:{port}"
        assert first == f"dipole-tui web: serving the game on {url} (this machine only)\n"
        yield Served(process, url)
    finally:
        for pid in descendants(process.pid) | {process.pid}:  # when the test failed
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.communicate()


def screen(page: Page) -> str:
    text: str = page.evaluate("window.screenText()")
    return text


def wait_for_text(page: Page, *wanted: str) -> str:
    """The terminal's text once every piece of `wanted` is on it."""
    try:
        page.wait_for_function(
            "wanted => wanted.every(piece => window.screenText().includes(piece))",
            arg=list(wanted),
            timeout=WAIT * 1000,
        )
    except Timeout:
        pytest.fail(f"never shown: {wanted}; the screen:\n{screen(page)}", pytrace=False)
    return screen(page)


def square(text: str, name: str) -> str:
    """What a square of the board shows on its first row (Dipole: the stack's height), found
    under its file's letter and beside its rank's number."""
    lines = text.splitlines()
    files = next(line for line in lines if re.match(r"\s+a\s+b\s+c\s+d\s+e", line))
    column = files.index(f" {name[0]} ") + 1
    row = next(line for line in lines if re.match(rf"\s*{name[1:]}\s", line))
    return row[column - 4 : column + 5].strip()


def descendants(pid: int) -> set[int]:
    """A process's children, and theirs: the server's are each tab's shell, its app (in a
    session of its own) and the app's workers."""
    found: set[int] = set()
    parents = [pid]
    while parents:
        done = subprocess.run(["pgrep", "-P", str(parents.pop())], capture_output=True, text=True)
        new = {int(word) for word in done.stdout.split()} - found
        found |= new
        parents.extend(new)
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's zombie may wait a little for its reaper)."""
    done = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    state = done.stdout.strip()
    return bool(state) and not state.startswith("Z")


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no browser: {CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_a_move_typed_in_a_browser_tab(served: Served, tmp_path: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium"),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1000, "height": 700},
        )
        page = browser.new_page()
        page.add_init_script(HOOK)
        page.goto(served.url, wait_until="domcontentloaded")
        start = wait_for_text(page, "Dipole 8x8", "White to move", "no moves yet")
        assert (square(start, "e1"), square(start, "e3")) == ("12", "·")
        apps = descendants(served.process.pid)
        assert apps  # the tab's

        page.locator(".xterm-helper-textarea").focus()
        page.keyboard.press(":")
        page.keyboard.type("e1-e3")
        wait_for_text(page, "e1-e3")
        page.keyboard.press("Enter")
        after = wait_for_text(page, "Black to move", "1. e1-e3")
        assert (square(after, "e1"), square(after, "e3")) == ("10", "2")
        browser.close()

    os.killpg(served.process.pid, signal.SIGINT)  # as Ctrl+C in its terminal: to every process
    out, err = served.process.communicate(timeout=WAIT)
    assert served.process.returncode == 0, err
    assert out.endswith("dipole-tui web: stopped\n")
    assert "Traceback" not in out + err, out + err
    deadline = time.monotonic() + WAIT
    while left := {pid for pid in apps if running(pid)}:  # the tab's app ended with the server
        assert time.monotonic() < deadline, f"left running: {left}"
        time.sleep(0.1)


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "dipole_tui", "web", "--port", str(port)],
            env={**os.environ, DATA_DIR_VARIABLE: str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=WAIT,
        )
    assert done.returncode == 2
    assert done.stderr == (
        f"dipole-tui: cannot serve on 127.0.0.1 port {port}: "
        "the port is in use (choose another with --port)\n"
    )
    assert done.stdout == ""


def test_the_tabs_arguments_are_checked_before_serving(cli: Cli) -> None:
    with socket.socket() as taken:  # were they not, the port in use would be said instead
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        said = cli("web", "--port", port, "--", "--new", "--clock", "soon")
    assert said.status == 2
    assert said.err.startswith("dipole-tui: argument --clock: ")
    assert said.err.endswith("(see dipole-tui play --help)\n")
    assert said.err.count("\n") == 1
