"""How long the Open dialog takes to appear with many kept games.

    python bench/open_dialog.py                    # 10,000 games, 80x24, best and median of 5
    python bench/open_dialog.py --games 2000 --size 120x40 --runs 3

A temporary data folder (`DIPOLE_TUI_DATA_DIR`) is filled with small records under finished/
(one of every 50 damaged, as a folder kept for years has some), a minute apart. The app runs
headless (`app.run_test()`); the `o` key is handed to the driver as a terminal's input thread
hands it, and the clock stops at the first frame that shows the Open dialog with its first rows
("shown"), and at the first frame whose rows are all read, each with its game, players and
plies ("its rows read"). Frames are the calls of `App._display`, where Textual hands a changed
screen to the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from textual import events
from textual.screen import Screen

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.open import GameList, OpenScreen
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import format_record
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN

TIMEOUT = 60.0  # seconds: a dialog not read by then is reported as such


def fill(folder: Path, count: int) -> None:
    """`count` small records under folder/finished, a minute apart, one in 50 damaged."""
    state = DIPOLE.new("8x8")
    for move in ("e1-g3", "d8-e7", "g3-h4"):
        state.play(DIPOLE.parse_move(move, state))
    text = format_record(DIPOLE, state, {"White": HUMAN, "Black": "hard"})
    finished = folder / "finished"
    finished.mkdir(parents=True)
    start = time.time() - 60 * count
    for number in range(count):
        path = finished / f"dipole-{number:06d}.txt"
        path.write_text('[Game "Dipole"\n' if number % 50 == 7 else text, encoding="utf-8")
        os.utime(path, (start + 60 * number, start + 60 * number))


def listed(screen: OpenScreen) -> tuple[bool, bool]:
    """Whether the dialog shows rows, and whether the rows it shows are all read."""
    games = screen.query_one(GameList)
    rows = games.shown_rows()
    read = all(screen.games[row].is_read for row in rows)
    return games.size.width > 0 and bool(rows), bool(rows) and read


async def once(size: tuple[int, int]) -> tuple[float, float]:
    """Seconds from the key to the dialog shown with rows, and to its rows shown all read."""
    app = GameApp(new=True, autosave=Autosave())
    shown: list[float] = []
    read: list[float] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        original = app._display

        def display(screen: Screen[Any], renderable: Any) -> None:
            original(screen, renderable)
            if renderable is None or not isinstance(screen, OpenScreen) or not screen.is_mounted:
                return
            now = time.perf_counter()
            has_rows, all_read = listed(screen)
            if has_rows and not shown:
                shown.append(now)
            if all_read and not read:
                read.append(now)

        app._display = display  # type: ignore[method-assign]
        driver = app._driver
        assert driver is not None
        key = events.Key("o", "o")
        key.set_sender(app)
        started = time.perf_counter()
        driver.send_message(key)
        while not read and time.perf_counter() - started < TIMEOUT:
            await asyncio.sleep(0.001)
        assert read, "the Open dialog was not shown with its rows read"
        app._display = original  # type: ignore[method-assign]
        await pilot.press("escape")
    return shown[0] - started, read[0] - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--size", default="80x24", help="the terminal, COLUMNSxROWS")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    columns, rows = (int(n) for n in args.size.split("x"))
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DIPOLE_TUI_DATA_DIR"] = folder
        fill(Path(folder), args.games)
        figures = [asyncio.run(once((columns, rows))) for _ in range(args.runs)]
    print(f"{args.games:,} kept games, {args.size}, {args.runs} runs (seconds from the o key)")
    for name, column in zip(("shown", "its rows read"), zip(*figures, strict=True), strict=True):
        print(f"  {name:18} best {min(column):.3f}  median {statistics.median(column):.3f}")


if __name__ == "__main__":
    main()
