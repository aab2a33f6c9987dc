"""How long each Death Stacks level takes a move, and how deep `hard` gets, in real positions.

    python bench/death_stacks_levels.py                  # 12 positions, hard at 1 s
    python bench/death_stacks_levels.py --movetime 0.2 --positions 6

Positions are reached by seeded play of `medium` against itself (plies 6-60), so they look like
real games; the same seed gives the same positions. The ladder's strength is measured with
`dipole-tui match ... --game death-stacks`, not here.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dipole_tui.bots import Budget
from dipole_tui.bots.levels import SearchBot
from dipole_tui.games.death_stacks import DEATH_STACKS, DeathStacksState, parse_position
from dipole_tui.registry import create_bot


def positions(count: int, seed: int) -> list[DeathStacksState]:
    rng = random.Random(seed)
    found: list[DeathStacksState] = []
    while len(found) < count:
        state = DEATH_STACKS.new()
        bots = [create_bot("medium", "death-stacks", rng.randrange(1 << 30)) for _ in range(2)]
        plies = rng.randrange(6, 61)
        while state.outcome() is None and len(state.moves_played) < plies:
            state.play(bots[state.to_move].choose(state, Budget(movetime=None)))
        if state.outcome() is None and len(state.legal_moves()) > 1:
            found.append(parse_position(state.position()))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=float, default=1.0, help="hard's seconds a move")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = positions(args.positions, args.seed)
    print(
        f"{len(states)} positions, {statistics.mean(len(s.legal_moves()) for s in states):.0f} "
        "legal moves on average"
    )
    for name in ("easy", "medium", "hard"):
        seconds, depths = [], []
        for index, state in enumerate(states):
            bot = create_bot(name, "death-stacks", seed=index)
            started = time.perf_counter()
            bot.choose(state, Budget(movetime=args.movetime))
            seconds.append(time.perf_counter() - started)
            if isinstance(bot, SearchBot) and name == "hard":
                depths.append(bot.last_depth)
        line = (
            f"{name:<7} median {statistics.median(seconds) * 1000:7.1f} ms, "
            f"max {max(seconds) * 1000:7.1f} ms a move"
        )
        if depths:
            line += f"; depth median {statistics.median(depths)} (min {min(depths)})"
        print(line)


if __name__ == "__main__":
    main()
