"""`dipole-tui web` in a real browser (tests/support/browser.py): the page loads, the board appears,
a move typed on the keyboard is played, a reloaded tab offers the game it had, and Ctrl+C stops the
server and every tab's app; a page without the token or from another origin drives no app, and two
visitors never see each other's games. (tests/online/test_web_tabs.py: the same doors, no
browser.)"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from browser import (
    CHROMIUM,
    TRY_A_TAB,
    WAIT,
    browser_page,
    browser_pages,
    descendants,
    elsewhere,
    play,
    running,
    serving,
    square,
    start_a_game,
    wait_for_text,
    wait_until_gone,
)
from cli_steps import Cli

from dipole_tui.cli import build_parser
from dipole_tui.cli.web import app_command
from dipole_tui.cli.web_tabs import TabServer
from dipole_tui.saves import DATA_DIR_VARIABLE

pytestmark = pytest.mark.long  # a browser and a server per test


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no browser: {CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_a_move_typed_in_a_browser_tab(tmp_path: Path) -> None:
    with serving(tmp_path / "data") as served, browser_page(tmp_path / "chromium") as page:
        page.goto(served.url, wait_until="domcontentloaded")
        start_a_game(page)  # a visitor with no game yet
        start = wait_for_text(page, "Dipole 8x8", "White to move", "no moves yet")
        assert (square(start, "e1"), square(start, "e3")) == ("12", "·")
        apps = descendants(served.process.pid)
        assert apps  # the tab's

        play(page, "e1-e3", "1. e1-e3")
        after = wait_for_text(page, "1. e1-e3", "Black to move")
        assert (square(after, "e1"), square(after, "e3")) == ("10", "2")

        page.goto("about:blank")  # the tab closed: its app ends...
        ended(apps)
        page.goto(served.url, wait_until="domcontentloaded")  # ...and the visitor comes back
        wait_for_text(page, "Resume the game in progress?", "Dipole 8x8, 1 ply played")
        page.locator(".xterm-helper-textarea").focus()
        page.keyboard.press("Enter")
        wait_until_gone(page, "Resume the game")
        again = wait_for_text(page, "1. e1-e3", "Black to move")
        assert square(again, "e1") == "10"
        apps = descendants(served.process.pid)

        os.killpg(served.process.pid, signal.SIGINT)  # as Ctrl+C in its terminal: to every process
        out, err = served.process.communicate(timeout=WAIT)
        page.get_by_text("Session ended.").wait_for(timeout=WAIT * 1000)  # the tab was told

    assert served.process.returncode == 0, err
    assert out.endswith("dipole-tui web: stopped\n")
    assert "Traceback" not in out + err, out + err
    ended(apps)  # the tab's app ended with the server


def ended(apps: set[int]) -> None:
    """Wait for these processes to end."""
    deadline = time.monotonic() + WAIT
    while left := {pid for pid in apps if running(pid)}:
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
        said = cli("web", "--port", port, "--", "--clock", "soon")
    assert said.status == 2
    assert said.err.startswith("dipole-tui: argument --clock: ")
    assert said.err.endswith("(see dipole-tui play --help)\n")
    assert said.err.count("\n") == 1


def test_a_record_the_tabs_cannot_open_is_said_before_serving(cli: Cli, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    with socket.socket() as taken:  # were it not said first, the port in use would be
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        said = cli("web", "--port", str(taken.getsockname()[1]), "--", str(missing))
    assert said.status == 2 and said.out == ""
    assert said.err == f"dipole-tui: cannot read {missing}: No such file or directory\n"


def test_each_tab_runs_play_with_the_arguments_after_the_dashes() -> None:
    args = build_parser().parse_args(["--ascii", "web", "--", "--game", "bipod"])
    command = app_command(args)
    tab = [sys.executable, "-m", "dipole_tui", "play", "--web-tab", "--ascii", "--game"]
    assert command == [*tab, "bipod"]


def test_a_tab_never_starts_anew(cli: Cli) -> None:
    """--new would set each visitor's game aside at every page load: a tab offers it instead."""
    with socket.socket() as taken:  # were it not refused first, the port in use would be said
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        said = cli("web", "--port", str(taken.getsockname()[1]), "--", "--new", "--game", "bipod")
    assert said.status == 2 and said.out == ""
    assert said.err == (
        "dipole-tui: --new cannot go with web: each tab starts with its visitor's own game "
        "(a new one is a key away)\n"
    )


@pytest.mark.parametrize("count", ["0", "1001", "-1", "four", "4.0"])
def test_max_tabs_is_a_whole_number_from_1(cli: Cli, count: str) -> None:
    said = cli("web", "--max-tabs", count)
    assert said.status == 2 and said.out == ""
    assert said.err.startswith("dipole-tui: argument --max-tabs: N must be a whole number from 1")
    assert said.err.count("\n") == 1


@pytest.mark.parametrize(
    ("host", "warned"),
    [("127.0.0.1", False), ("localhost", False), ("::1", False), ("0.0.0.0", True)],
)
def test_an_address_beyond_this_machine_is_warned_of(
    cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, host: str, warned: bool
) -> None:
    """The address printed has the token; --host other than loopback is one line on stderr.
    (The server is not started: another machine's address is no test's to listen on.)"""
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setattr(TabServer, "serve", lambda self, debug=False: self.announce())
    said = cli("web", "--host", host, "--port", "8123", "--max-tabs", "3")
    assert said.status == 0
    shown = f"[{host}]" if ":" in host else host
    where = "--host, as you chose" if warned else "this machine only"
    first = said.out.splitlines()[0]
    assert re.fullmatch(
        rf"dipole-tui web: serving the game on http://{re.escape(shown)}:8123/\?token="
        rf"[A-Za-z0-9_-]{{43}} \({re.escape(where)}\)",
        first,
    ), first
    if warned:
        assert said.err == (
            "dipole-tui web: warning: listening on 0.0.0.0, not this machine only: whoever "
            "reaches it with the address above runs the app here (3 tabs at most)\n"
        )
    else:
        assert said.err == ""


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no browser: {CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_a_tabs_app_ends_with_a_killed_server(tmp_path: Path) -> None:
    """SIGKILL gives the server no time to tell its tabs: each tab's app sees it gone and ends
    (its game is in the autosave), none is left running."""
    with serving(tmp_path / "data") as served, browser_page(tmp_path / "chromium") as page:
        page.goto(served.url, wait_until="domcontentloaded")
        wait_for_text(page, "New game", "Start")
        apps = descendants(served.process.pid)
        assert apps
        served.process.kill()
        served.process.communicate(timeout=WAIT)
    deadline = time.monotonic() + WAIT
    while left := {pid for pid in apps if running(pid)}:
        assert time.monotonic() < deadline, f"left running: {left}"
        time.sleep(0.1)


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no browser: {CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_only_the_servers_own_page_with_the_token_drives_a_tab(tmp_path: Path) -> None:
    """A page without the token is refused, and its WebSocket too; a page of another origin
    (another port of this machine, which has the browser's cookies for this one) cannot open a
    tab either: no app is started for them, and the server says why."""
    with (
        serving(tmp_path / "data") as served,
        elsewhere() as other,
        browser_page(tmp_path / "chromium") as page,
    ):
        tab = served.base.replace("http:", "ws:") + "/ws?width=80&height=24"
        refused = page.goto(served.base + "/", wait_until="domcontentloaded")
        assert refused is not None and refused.status == 403
        assert "the address that dipole-tui web printed" in page.inner_text("body")
        assert page.evaluate(TRY_A_TAB, tab) == "closed 1006"  # same origin, no token

        page.goto(served.url, wait_until="domcontentloaded")  # the token: the cookies set
        wait_for_text(page, "New game", "Start")
        apps = descendants(served.process.pid)
        assert apps

        stranger = page.context.new_page()
        stranger.goto(other, wait_until="domcontentloaded")
        assert stranger.evaluate(TRY_A_TAB, tab) == "closed 1006"
        assert descendants(served.process.pid) == apps  # no app started for either
        os.killpg(served.process.pid, signal.SIGINT)
        _, err = served.process.communicate(timeout=WAIT)
    refusals = [line for line in err.splitlines() if "refused a tab" in line]
    assert refusals == [
        "dipole-tui web: refused a tab: no token: open the address dipole-tui web printed, "
        "with its ?token=...",
        f"dipole-tui web: refused a tab: a page of {other} is not this server's ({served.base})",
    ]


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no browser: {CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_two_visitors_never_see_each_others_games(tmp_path: Path) -> None:
    """Two browsers, two visitors: one saves a game; the other's Open does not list it, and
    refuses it by its name (outside that tab's folder), in the dialog."""
    data = tmp_path / "data"
    with (
        serving(data) as served,
        browser_pages(tmp_path / "first", tmp_path / "second") as (first, second),
    ):
        first.goto(served.url, wait_until="domcontentloaded")
        start_a_game(first)
        play(first, "e1-e3", "1. e1-e3")
        first.keyboard.press("s")
        wait_for_text(first, "Save the game as")
        first.keyboard.press("Enter")
        wait_for_text(first, "Saved to")
        [saved] = (data / "web").glob("*/saved/*.txt")
        assert "1. e1-e3" in saved.read_text()

        second.goto(served.url, wait_until="domcontentloaded")
        start_a_game(second)
        second.keyboard.press("o")
        listed = wait_for_text(second, "Open a game", "No games kept in")
        assert saved.name not in listed
        folders = sorted((data / "web").iterdir())
        assert len(folders) == 2 and saved.is_relative_to(folders[0]) != saved.is_relative_to(
            folders[1]
        )
        # Ctrl+U clears the entry (the cursor ends the folder offered). Typing waits for it:
        # a key bound to an action (Ctrl+U, Home) may be acted on after characters typed
        # behind it are already in, and on a loaded machine it then ate them (twice in CI).
        [entry] = [line for line in listed.splitlines() if "█ ▊  " in line]
        offered = entry.split("▊", 1)[1].strip(" ▎█")
        second.keyboard.press("Control+u")
        wait_until_gone(second, offered)
        second.keyboard.type(str(saved))
        wait_for_text(second, saved.name)
        second.keyboard.press("Enter")
        refused = wait_for_text(second, "outside", "folder;")
        assert "Open a game" in refused  # said in the dialog, to be mended there
        assert "Black to move" not in refused  # not opened
