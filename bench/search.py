"""Speed of the `hard` search: nodes per second and the depth it completes in a fixed time.

    python bench/search.py                 # 12 middle-game positions, 1 s each
    python bench/search.py --movetime 0.5 --positions 6
    python bench/search.py --depth 7       # the time each takes to search 7 plies deep
    python bench/search.py --bot hard-fit  # another level of the ladder (or a baseline)

Middle games are reached by seeded play of the `medium` bot from the start (plies 10-30), so
they look like real games; the same seed gives the same positions.
"""

from __future__ import annotations

import argparse
import random
import statistics

from dipole_tui.bots import Budget
from dipole_tui.bots.levels import SearchBot
from dipole_tui.games import BUILD
from dipole_tui.games.dipole import DIPOLE, DipoleState
from dipole_tui.registry import create_bot


def middle_games(count: int, seed: int) -> list[DipoleState]:
    rng = random.Random(seed)
    positions: list[DipoleState] = []
    while len(positions) < count:
        state = DIPOLE.new()
        bots = [create_bot("medium", "dipole", seed=rng.randrange(1 << 30)) for _ in range(2)]
        plies = rng.randrange(10, 31)
        while state.outcome() is None and len(state.moves_played) < plies:
            state.play(bots[state.to_move].choose(state, Budget(movetime=None)))
        if state.outcome() is None and len(state.legal_moves()) > 1:
            positions.append(DIPOLE.parse_position(state.position()))
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--movetime", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, help="search to this depth, however long it takes")
    parser.add_argument("--bot", default="hard", help="the level searching (default hard)")
    args = parser.parse_args()
    print(f"dipole-tui, {BUILD}")  # which build the figures are of
    depths, rates, seconds = [], [], 0.0
    for index, state in enumerate(middle_games(args.positions, args.seed), 1):
        bot = create_bot(args.bot, "dipole", seed=index)
        assert isinstance(bot, SearchBot)
        if args.depth:
            result = bot.search.run(state, depth=args.depth)
        else:
            result = bot.search.run(state, movetime=args.movetime)
        seconds += result.seconds
        rate = result.nodes / max(result.seconds, 1e-9)
        depths.append(result.depth)
        rates.append(rate)
        print(
            f"{index:>2}. {state.position():<60} depth {result.depth:>2}  "
            f"{result.nodes:>7} nodes  {rate:>8,.0f} nodes/s  "
            f"best {DIPOLE.format_move(result.move)}"
        )
    if args.depth:
        print(f"{seconds:.2f} s to search all {len(depths)} positions {args.depth} plies deep")
        return
    print(
        f"median depth {statistics.median(depths)} (min {min(depths)}, max {max(depths)}) "
        f"in {args.movetime} s; median {statistics.median(rates):,.0f} nodes/s"
    )


if __name__ == "__main__":
    main()
