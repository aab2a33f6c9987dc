"""How long each Bi-Pod level takes a move, and how its games go, in real games.

    python bench/bipod_levels.py                          # 4 games a level, hard at 1 s
    python bench/bipod_levels.py --movetime 0.2 --games 6 --variant multi
    python bench/bipod_levels.py --summary /tmp/bp_hard_medium.log   # endings of a match log

Each level plays `medium` from the start (taking both seats in turn), timing every move it makes;
`hard` also reports the depth it reached. With --summary it reads the lines `dipole-tui match`
printed instead and counts plies and endings. Strength is measured with `dipole-tui match`.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import Counter
from pathlib import Path

from dipole_tui.bots import Budget
from dipole_tui.bots.levels import SearchBot
from dipole_tui.games.bipod import ADOPT, BIPOD
from dipole_tui.registry import create_bot

GAME_LINE = re.compile(r"^game \d+: .*: (\S+) in (\d+) plies \((.*)\) \[opening")


def ending(reason: str) -> str:
    """The kind of ending a match line's reason names."""
    if "both reach" in reason:
        return "Runner connects"
    if "no longer reach" in reason or "does not reach" in reason or "do not reach" in reason:
        return "chain cut"
    if "nobody adopted" in reason:
        return "board full before adoption (draw)"
    if "adjudicated" in reason:
        return "ply cap (draw)"
    return reason


def summary(path: Path) -> None:
    plies: list[int] = []
    endings: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        found = GAME_LINE.match(line)
        if found:
            plies.append(int(found.group(2)))
            endings[ending(found.group(3))] += 1
    print(f"{len(plies)} games, {statistics.mean(plies):.1f} plies on average")
    for kind, count in endings.most_common():
        print(f"  {kind}: {count}")


def timings(games: int, movetime: float, variant: str) -> None:
    for name in ("random", "easy", "medium", "hard"):
        seconds, depths, adopted = [], [], []
        for game in range(games):
            state = BIPOD.new(variant)
            seat = game % 2
            bots = [create_bot("medium", "bipod", 100 + game), create_bot(name, "bipod", game)]
            if seat == 0:
                bots.reverse()
            while state.outcome() is None:
                bot = bots[state.to_move]
                started = time.perf_counter()
                move = bot.choose(state, Budget(movetime=movetime))
                if state.to_move == seat:
                    seconds.append(time.perf_counter() - started)
                    if isinstance(bot, SearchBot) and name == "hard":
                        depths.append(bot.last_depth)
                if move == ADOPT:
                    adopted.append(len(state.moves_played))
                state.play(move)
        line = (
            f"{name:<7} median {statistics.median(seconds) * 1000:7.1f} ms, "
            f"max {max(seconds) * 1000:7.1f} ms a move ({len(seconds)} moves)"
        )
        if depths:
            line += f"; depth median {statistics.median(depths)} (min {min(depths)})"
        if adopted:
            line += f"; adoption at ply {statistics.median(adopted)} (median)"
        print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--movetime", type=float, default=1.0, help="hard's seconds a move")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--variant", default="")
    parser.add_argument("--summary", type=Path, help="a `dipole-tui match` log to summarise")
    args = parser.parse_args()
    if args.summary:
        summary(args.summary)
    else:
        timings(args.games, args.movetime, args.variant)


if __name__ == "__main__":
    main()
