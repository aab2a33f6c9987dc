"""`dipole-tui web` in a real browser (tests/browser.py): the page loads, the board appears, a
move typed on the keyboard is played, and Ctrl+C stops the server and every tab's app."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from browser import (
    CHROMIUM,
    WAIT,
    browser_page,
    descendants,
    play,
    running,
    serving,
    square,
    wait_for_text,
)
from cli_steps import Cli

from dipole_tui.cli import build_parser
from dipole_tui.cli.web import app_command
from dipole_tui.saves import DATA_DIR_VARIABLE


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no browser: {CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_a_move_typed_in_a_browser_tab(tmp_path: Path) -> None:
    with serving(tmp_path / "data", "--new") as served, browser_page(tmp_path / "chromium") as page:
        page.goto(served.url, wait_until="domcontentloaded")
        start = wait_for_text(page, "Dipole 8x8", "White to move", "no moves yet")
        assert (square(start, "e1"), square(start, "e3")) == ("12", "·")
        apps = descendants(served.process.pid)
        assert apps  # the tab's

        after = play(page, "e1-e3", "1. e1-e3")
        assert "Black to move" in after
        assert (square(after, "e1"), square(after, "e3")) == ("10", "2")

        os.killpg(served.process.pid, signal.SIGINT)  # as Ctrl+C in its terminal: to every process
        out, err = served.process.communicate(timeout=WAIT)
        page.get_by_text("Session ended.").wait_for(timeout=WAIT * 1000)  # the tab was told

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


def test_a_record_the_tabs_cannot_open_is_said_before_serving(cli: Cli, tmp_path: Path) -> None:
    missing = tmp_path / "missing.txt"
    with socket.socket() as taken:  # were it not said first, the port in use would be
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        said = cli("web", "--port", str(taken.getsockname()[1]), "--", str(missing))
    assert said.status == 2 and said.out == ""
    assert said.err == f"dipole-tui: cannot read {missing}: No such file or directory\n"


def test_each_tab_runs_play_with_the_arguments_after_the_dashes() -> None:
    args = build_parser().parse_args(["--ascii", "web", "--", "--new", "--game", "bipod"])
    command = app_command(args)
    tab = [sys.executable, "-m", "dipole_tui", "play", "--web-tab", "--ascii", "--new", "--game"]
    assert command == [*tab, "bipod"]


@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no browser: {CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)",
)
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_a_tabs_app_ends_with_a_killed_server(tmp_path: Path) -> None:
    """SIGKILL gives the server no time to tell its tabs: each tab's app sees it gone and ends
    (its game is in the autosave), none is left running."""
    with serving(tmp_path / "data", "--new") as served, browser_page(tmp_path / "chromium") as page:
        page.goto(served.url, wait_until="domcontentloaded")
        wait_for_text(page, "Dipole 8x8", "White to move")
        apps = descendants(served.process.pid)
        assert apps
        served.process.kill()
        served.process.communicate(timeout=WAIT)
    deadline = time.monotonic() + WAIT
    while left := {pid for pid in apps if running(pid)}:
        assert time.monotonic() < deadline, f"left running: {left}"
        time.sleep(0.1)
