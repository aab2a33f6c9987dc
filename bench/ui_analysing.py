"""Key-to-screen latency while the analysis mode analyses: the screen must stay live.

    python bench/ui_analysing.py                  # 6 positions, 4 s each, arrow keys every 40 ms
    python bench/ui_analysing.py --bot            # hard thinks as Black meanwhile (2 processes)
    python bench/ui_analysing.py --positions 3 --seconds 2 --gap-ms 20

A Dipole game is analysed (`a`) as it is played by keys: after each move, while the analysis
process deepens on the new position and its depths arrive and are drawn, arrow keys are sent the
way the terminal driver sends them, and each is timed from hand-over to the first frame drawn
once the cursor has moved (a frame drawn for an analysis update alone does not count: the clock
of bench/ui_latency.py). Target: p95 under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from textual import events

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ui_latency import FrameClock, percentile, tick_timing

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.control.choice import GameChoice
from dipole_tui.games.dipole import DIPOLE, DipoleState
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Seat

KEY_NAMES = {":": "colon", "-": "minus", "\r": "enter"}


async def measure(args: argparse.Namespace) -> tuple[list[float], int]:
    """The latencies, and how many analysis updates were seen meanwhile."""
    rng = random.Random(args.seed)
    samples: list[float] = []
    depths = 0
    with tempfile.TemporaryDirectory() as folder, tick_timing():
        players = (HUMAN, Seat("hard") if args.bot else HUMAN)
        app = GameApp(
            choice=GameChoice("dipole", "8x8", players),
            new=True,
            autosave=Autosave(Path(folder)),
            think_time=args.seconds,
        )
        async with app.run_test(size=(100, 30)) as pilot:
            clock = FrameClock(app)
            driver = app._driver
            assert driver is not None
            board = app.board
            assert isinstance(board, DipoleBoard)

            def send(key: str, character: str | None) -> None:
                event = events.Key(key, character)
                event.set_sender(app)
                driver.send_message(event)

            send("a", "a")
            for _ in range(args.positions):
                state = app.session.state
                assert isinstance(state, DipoleState)
                if state.outcome() is not None:
                    break
                while app.bots.thinking:  # the bot's move first (--bot)
                    await asyncio.sleep(0.01)
                await pilot.pause()
                state = app.session.state
                assert isinstance(state, DipoleState)
                side = state.to_move
                moves = [m for m in state.legal_moves() if m.count < state.checkers[side]]
                text = DIPOLE.format_move(rng.choice(moves or state.legal_moves()))
                for char in f":{text}\r":
                    send(KEY_NAMES.get(char, char), char)
                send("escape", None)
                await pilot.pause()
                direction = "left"
                ends = time.perf_counter() + args.seconds
                seen = None
                while time.perf_counter() < ends:
                    await asyncio.sleep(args.gap_ms / 1000)
                    found = app.analysis.latest
                    if found is not None and found is not seen:
                        seen, depths = found, depths + 1
                    before, index = board.cursor, len(clock.times)
                    started = time.perf_counter()
                    send(direction, None)
                    while True:
                        drawn = await clock.wait_for_frame(index, timeout=2.0)
                        if drawn is None or board.cursor != before:
                            break
                        index += 1  # an analysis update's frame: the key is still on its way
                    if drawn is not None and app.analysis.searching:
                        samples.append(drawn - started)
                    direction = "right" if direction == "left" else "left"
    return samples, depths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--gap-ms", type=float, default=40.0)
    parser.add_argument("--bot", action="store_true", help="hard plays Black, thinking meanwhile")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    samples, depths = asyncio.run(measure(args))
    samples = [s * 1000 for s in samples]
    if not samples:
        print("no samples: the analysis never ran")
        return
    p95 = percentile(samples, 0.95)
    print(
        f"keys while analysing: {len(samples)} ({depths} analysis updates seen); median "
        f"{statistics.median(samples):.1f} ms, p95 {p95:.1f} ms, max {max(samples):.1f} ms"
    )
    print(
        f"{'PASS' if p95 < 50 else 'FAIL'}  p95 key to first frame while analysing (target < 50 ms)"
    )


if __name__ == "__main__":
    main()
