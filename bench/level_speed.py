"""How long each level takes to answer, and how often it errs: the weaker levels must not keep a
person waiting, and each should err less than the one below it.

    python bench/level_speed.py                     # every game, 30 positions each
    python bench/level_speed.py --game dipole --positions 100

Positions are taken from games of `easy` against itself (4 to 60 plies from the start, the same
for every level with the same seed). Each level chooses a move with the app's budget: 1 s for the
levels that think to a time, their own depth for the others. Prints the median, the 95th
percentile and the slowest answer per level, and checks every level below the top two against
0.3 s. Its errors are judged by a referee (the game's evaluation two plies deep, captures played
out): a move that scores a whole unit (a checker, a stack, a stone) or more below the best drops
material or misses a capture, and one three units below is a blunder.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from dipole_tui.bots import Budget
from dipole_tui.bots.levels import SearchBot
from dipole_tui.games.base import State
from dipole_tui.registry import REGISTRY, create_bot, levels

TARGET = 0.3  # seconds a move, at the slowest, for every level below the top two


def positions(game_key: str, count: int, seed: int) -> list[State[Any]]:
    """Positions of games as people play them (`easy` against `easy`), still going on: random
    moves would empty a Dipole board within a few plies."""
    rng = random.Random(seed)
    game = REGISTRY[game_key].game
    found: list[State[Any]] = []
    while len(found) < count:
        players = [create_bot("easy", game_key, rng.randrange(1 << 30)) for _ in range(2)]
        state: State[Any] = game.new()
        for _ in range(rng.randint(4, 60)):
            if state.outcome() is not None:
                break
            state.play(players[state.to_move].choose(state, Budget(movetime=None)))
        if state.outcome() is None:
            found.append(state)
    return found


def loss(referee: SearchBot, state: State[Any], chosen: Any) -> int:
    """How far `chosen` trails the referee's best move in `state`, in evaluation units."""
    search = referee.search
    moves = {*search.knowledge.candidates(state), chosen}
    scores = {}
    for move in moves:
        state.play(move)
        scores[move] = -search.score(state, 1)
        state.undo()
    return max(scores.values()) - scores[chosen]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*REGISTRY, "all"], default="all")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    keys = list(REGISTRY) if args.game == "all" else [args.game]
    failed = False
    for key in keys:
        ladder = levels(key)
        top_two = ladder[-2:]
        unit = REGISTRY[key].unit
        referee = create_bot("hard", key, args.seed)
        assert isinstance(referee, SearchBot)
        print(f"{REGISTRY[key].game.name}: {args.positions} positions")
        for level in ladder:
            bot = create_bot(level, key, args.seed)
            times, losses = [], []
            for state in positions(key, args.positions, args.seed):
                started = time.perf_counter()
                move = bot.choose(state, Budget(movetime=1.0))
                times.append(time.perf_counter() - started)
                losses.append(loss(referee, state, move))
            times.sort()
            p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
            verdict = ""
            if level not in top_two:
                ok = times[-1] < TARGET
                failed |= not ok
                verdict = f"  {'PASS' if ok else 'FAIL'} (slowest under {TARGET} s)"
            drops = sum(lost >= unit.size for lost in losses) / len(losses)
            blunders = sum(lost >= 3 * unit.size for lost in losses) / len(losses)
            print(
                f"  {level:8} median {statistics.median(times) * 1000:7.1f} ms"
                f"  p95 {p95 * 1000:7.1f} ms  slowest {times[-1] * 1000:7.1f} ms"
                f"  errs {drops:4.0%}  blunders {blunders:4.0%}{verdict}"
            )
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
