"""A browser on `dipole-tui web`, for tests/online/test_web.py and scripts/web_screenshot.py: the
server started as a player starts it, Debian's chromium driven by playwright, the terminal's
text read and moves typed as a player types them.

The page draws the terminal with xterm.js on a canvas, so the text is read from xterm's own
buffer: textual-serve keeps its terminal to itself, and `HOOK` catches it as it is built.
"""

from __future__ import annotations

import contextlib
import http.server
import os
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
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
    # A page is never put in the background: its timers, its terminal's writes and its frames
    # keep their pace however loaded the machine is (a notice of 10 s came and went unseen).
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
WAIT = 20.0  # seconds for anything to happen: a loaded machine, never the usual case
# Milliseconds between looks at the screen. Not Playwright's default (each animation frame):
# a page that is not the front tab of its browser gets no frames, so a second visitor's page
# was never looked at on a loaded machine, and its 10-second notice came and went unseen.
POLL = 100
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
    url: str  # as printed: with its token
    base: str  # the server's own origin, http://127.0.0.1:PORT


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


@contextlib.contextmanager
def serving(data: Path, *play: str) -> Iterator[Served]:
    """`dipole-tui web` on a free loopback port, its files in `data`, each tab running `play`
    with these arguments; it and every process it started are killed at the end (when a test
    failed: else they ended already)."""
    port = free_port()
    environment = {**os.environ, DATA_DIR_VARIABLE: str(data)}
    process = subprocess.Popen(
        [sys.executable, "-m", "dipole_tui", "web", "--port", str(port), "--", *play],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        first = read_line(process, time.monotonic() + WAIT)
        base = f"http://127.0.0.1:{port}"
        printed = re.fullmatch(
            rf"dipole-tui web: serving the game on ({base}/\?token=[A-Za-z0-9_-]{{43}}) "
            r"\(this machine only\)\n",
            first,
        )
        assert printed, first
        yield Served(process, printed[1], base)
    finally:
        if process.poll() is None:  # a test failed: end it, and every process it started
            for pid in descendants(process.pid) | {process.pid}:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        process.communicate()


@contextlib.contextmanager
def browser_page(profile: Path) -> Iterator[Page]:
    """A page of a headless chromium with a fresh profile in `profile`, 1000x700, its terminal's
    text readable (`HOOK`)."""
    with browser_pages(profile) as (page,):
        yield page


@contextlib.contextmanager
def browser_pages(*profiles: Path) -> Iterator[list[Page]]:
    """A page in each of these browsers (as `browser_page`): each a visitor of its own."""
    with sync_playwright() as playwright, contextlib.ExitStack() as browsers:
        pages = []
        for profile in profiles:
            browser = playwright.chromium.launch_persistent_context(
                str(profile),
                executable_path=str(CHROMIUM),
                headless=True,
                args=CHROMIUM_FLAGS,
                viewport={"width": 1000, "height": 700},
            )
            browsers.callback(browser.close)
            # The tab the browser opened with, not a second one behind it.
            page = browser.pages[0] if browser.pages else browser.new_page()
            page.add_init_script(HOOK)
            pages.append(page)
        yield pages


# A page's attempt at a tab's WebSocket: "open" when the server took it, else how it closed.
TRY_A_TAB = """url => new Promise(resolve => {
  const socket = new WebSocket(url);
  socket.onopen = () => { resolve("open"); socket.close(); };
  socket.onclose = event => resolve(`closed ${event.code}`);
})"""


@contextlib.contextmanager
def elsewhere() -> Iterator[str]:
    """Another web server on this machine, on a port of its own, serving an empty page: a
    page of another origin, which the browser counts as the same site (cookies and all)."""

    class Empty(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!DOCTYPE html><title>elsewhere</title><p>elsewhere</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Empty)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


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
            polling=POLL,
        )
    except Timeout:
        pytest.fail(f"never shown: {wanted}; the screen:\n{screen(page)}", pytrace=False)
    return screen(page)


def wait_until_gone(page: Page, *gone: str) -> str:
    """The terminal's text once no piece of `gone` is on it."""
    try:
        page.wait_for_function(
            "gone => !gone.some(piece => window.screenText().includes(piece))",
            arg=list(gone),
            timeout=WAIT * 1000,
            polling=POLL,
        )
    except Timeout:
        pytest.fail(f"still shown: {gone}; the screen:\n{screen(page)}", pytrace=False)
    return screen(page)


def start_a_game(page: Page) -> str:
    """A visitor with no game yet: the new-game dialog, started as it is offered (Enter)."""
    wait_for_text(page, "New game", "Start")
    page.locator(".xterm-helper-textarea").focus()
    page.keyboard.press("Enter")
    return wait_until_gone(page, "New game")


def play(page: Page, move: str, shown: str) -> str:
    """Type a move as a player does (`:`, the move, Enter); the screen once `shown` is on it."""
    page.locator(".xterm-helper-textarea").focus()
    page.keyboard.press(":")
    page.keyboard.type(move)
    wait_for_text(page, move)  # in the entry
    page.keyboard.press("Enter")
    return wait_for_text(page, shown)


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
