"""Key-to-screen latency while `hard` thinks: the screen must stay live during a search.

    python bench/ui_thinking.py                 # 6 searches of 3 s, arrow keys every 40 ms
    python bench/ui_thinking.py --searches 3 --think 2 --gap-ms 20

White is played by keys, Black by `hard`. After each White move, while Black's search runs in
its thread, arrow keys are sent the way the terminal driver sends them and each is timed from
hand-over to the first frame drawn after it (the clock of bench/ui_latency.py). Target: p95 under
50 ms.
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
from dipole_tui.control.choice import GameChoice
from dipole_tui.games.dipole import DIPOLE, DipoleState
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Seat

KEY_NAMES = {":": "colon", "-": "minus", "\r": "enter"}


async def measure(args: argparse.Namespace) -> list[float]:
    rng = random.Random(args.seed)
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as folder, tick_timing():
        app = GameApp(
            choice=GameChoice("dipole", "8x8", (HUMAN, Seat("hard"))),
            new=True,
            autosave=Autosave(Path(folder)),
            think_time=args.think,
        )
        async with app.run_test(size=(100, 30)) as pilot:
            clock = FrameClock(app)
            driver = app._driver
            assert driver is not None

            def send(key: str, character: str | None) -> None:
                event = events.Key(key, character)
                event.set_sender(app)
                driver.send_message(event)

            for _ in range(args.searches):
                state = app.session.state
                assert isinstance(state, DipoleState)
                if state.outcome() is not None:
                    break
                moves = [m for m in state.legal_moves() if m.count < state.checkers[0]]
                text = DIPOLE.format_move(rng.choice(moves or state.legal_moves()))
                for char in f":{text}\r":
                    send(KEY_NAMES.get(char, char), char)
                send("escape", None)
                for _ in range(200):
                    if app.bots.thinking:
                        break
                    await asyncio.sleep(0.01)
                direction = "left"
                while app.bots.thinking:
                    await asyncio.sleep(args.gap_ms / 1000)
                    before = len(clock.times)
                    started = time.perf_counter()
                    send(direction, None)
                    first = await clock.wait_for_frame(before, timeout=2.0)
                    if first is not None and app.bots.thinking:
                        samples.append(first - started)
                    direction = "right" if direction == "left" else "left"
                await pilot.pause()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=6)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--gap-ms", type=float, default=40.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    samples = [s * 1000 for s in asyncio.run(measure(args))]
    if not samples:
        print("no samples: hard never thought long enough")
        return
    p95 = percentile(samples, 0.95)
    print(
        f"keys while hard thinks: {len(samples)}; median {statistics.median(samples):.1f} ms, "
        f"p95 {p95:.1f} ms, max {max(samples):.1f} ms"
    )
    print(
        f"{'PASS' if p95 < 50 else 'FAIL'}  p95 key to first frame while thinking (target < 50 ms)"
    )


if __name__ == "__main__":
    main()
