"""How far the exact solver reaches: random Dipole positions with k checkers in all, k = 2, 3, ...

    python bench/solver.py                            # k = 2..10, 10 positions each, 1 s limit
    python bench/solver.py --limit 60 --positions 10 --kmin 6 --kmax 14     # the minute run

For each k it prints how many positions were solved within 1 s and within the limit, the median
time (over all positions, an unsolved one counting as the limit) and the nodes per second. A
position is k checkers split at random between the sides (each at least one), stacked at random
on random dark squares of the 8x8 board, either side to move; the same seed gives the same
positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dipole_tui.games.dipole import DIPOLE, DipoleState, dark_squares, square_name
from dipole_tui.solver import solve


def random_position(rng: random.Random, checkers: int, size: int = 8) -> DipoleState:
    """k checkers in all, each side at least one, in stacks of random heights."""
    free = dark_squares(size)
    rng.shuffle(free)
    white = rng.randint(max(1, checkers - 12), min(12, checkers - 1))  # 12 a side at most
    sides = []
    for count in (white, checkers - white):
        stacks = []
        while count:
            height = rng.randint(1, count)
            stacks.append(f"{square_name(free.pop())}={height}")
            count -= height
        sides.append(",".join(stacks))
    side = rng.choice("WB")
    return DIPOLE.parse_position(f"{size}:{side}:W{sides[0]}:B{sides[1]}")


class Deadline:
    """A stop that is set once the time is up."""

    def __init__(self, seconds: float) -> None:
        self.end = time.perf_counter() + seconds

    def is_set(self) -> bool:
        return time.perf_counter() > self.end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kmin", type=int, default=2)
    parser.add_argument("--kmax", type=int, default=10)
    parser.add_argument("--positions", type=int, default=10, help="positions per k")
    parser.add_argument("--limit", type=float, default=1.0, help="seconds per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="a line per position")
    args = parser.parse_args()
    print(f"k   solved<=1s  solved<={args.limit:g}s  median s  nodes/s   (of {args.positions})")
    for checkers in range(args.kmin, args.kmax + 1):
        rng = random.Random(f"{args.seed}:{checkers}")
        times, nodes = [], 0
        for _ in range(args.positions):
            state = random_position(rng, checkers)
            started = time.perf_counter()
            solution = solve(DIPOLE, state, stop=Deadline(args.limit))
            seconds = time.perf_counter() - started
            nodes += solution.nodes
            times.append(seconds if solution.result else float("inf"))
            if args.verbose:
                found = f"{solution.result} in {solution.plies}" if solution.result else "unknown"
                print(
                    f"    {state.position():<44} {found:<12} {seconds:7.2f} s {solution.nodes:>9}"
                )
        within_one = sum(t <= 1.0 for t in times)
        within = sum(t <= args.limit for t in times)
        spent = sum(min(t, args.limit) for t in times)
        median = statistics.median(min(t, args.limit) for t in times)
        print(
            f"{checkers:<3} {within_one:>10}  {within:>11}  {median:>8.3f}  "
            f"{nodes / max(spent, 1e-9):>9,.0f}"
        )


if __name__ == "__main__":
    main()
