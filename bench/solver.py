"""How far the exact solver reaches: random positions of a game by material, k = 2, 3, ...

    python bench/solver.py                            # Dipole, k = 2..10, 10 positions each, 1 s
    python bench/solver.py --limit 60 --kmin 16 --kmax 16           # Dipole's minute run
    python bench/solver.py --game death-stacks        # k pieces on the board
    python bench/solver.py --game bipod --kmin 10 --kmax 50 --kstep 5   # k empty cells left

For each k it prints how many positions were solved within 1 s and within the limit, the median
time (over all positions, an unsolved one counting as the limit) and the nodes per second; the
same seed gives the same positions. What k counts, by game:

- Dipole: k checkers, split at random between the sides (each at least one), stacked at random
  on random dark squares of the 8x8 board, either side to move.
- Death Stacks: k pieces of random colours (each side on top of at least one stack), stacked at
  random on random squares, either side to move.
- Bi-Pod: k empty cells left, after random legal moves from the start (a game that ends before
  is played again); most have a Runner by then.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from dipole_tui.analysis import solve
from dipole_tui.games.base import State
from dipole_tui.games.bipod import BIPOD
from dipole_tui.games.death_stacks import DEATH_STACKS, SIZE
from dipole_tui.games.dipole import DIPOLE, DipoleState, dark_squares, square_name
from dipole_tui.registry import REGISTRY


def random_dipole(rng: random.Random, checkers: int) -> DipoleState:
    """k checkers in all, each side at least one, in stacks of random heights."""
    size = 8
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


def random_death_stacks(rng: random.Random, pieces: int) -> State[Any]:
    """k pieces of random colours in stacks of random heights, each side on top somewhere."""
    while True:
        cells = [""] * (SIZE * SIZE)
        squares = list(range(SIZE * SIZE))
        rng.shuffle(squares)
        count = pieces
        while count:
            height = rng.randint(1, count)
            cells[squares.pop()] = "".join(rng.choice("rb") for _ in range(height))
            count -= height
        if {stack[-1] for stack in cells if stack} == {"r", "b"}:
            break
    ranks = [",".join(cells[rank * SIZE : rank * SIZE + SIZE]) for rank in reversed(range(SIZE))]
    return DEATH_STACKS.parse_position(f"{'/'.join(ranks)} {rng.choice('rb')}")


def random_bipod(rng: random.Random, empty: int) -> State[Any]:
    """k empty cells left after random legal moves from the start, the game still going; each
    turn before adoption adopts one time in ten (one move of some sixty, were it drawn alike)."""
    while True:
        state = BIPOD.new("")
        while state.outcome() is None and state.position().count(".") > empty:
            moves = state.legal_moves()
            adopt = [move for move in moves if move.kind == "adopt"]
            state.play(adopt[0] if adopt and rng.random() < 0.1 else rng.choice(moves))
        if state.outcome() is None:
            return state


POSITIONS: dict[str, Callable[[random.Random, int], State[Any]]] = {
    "dipole": random_dipole,
    "death-stacks": random_death_stacks,
    "bipod": random_bipod,
}


class Deadline:
    """A stop that is set once the time is up."""

    def __init__(self, seconds: float) -> None:
        self.end = time.perf_counter() + seconds

    def is_set(self) -> bool:
        return time.perf_counter() > self.end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(POSITIONS), default="dipole")
    parser.add_argument("--kmin", type=int, default=2)
    parser.add_argument("--kmax", type=int, default=10)
    parser.add_argument("--kstep", type=int, default=1)
    parser.add_argument("--positions", type=int, default=10, help="positions per k")
    parser.add_argument("--limit", type=float, default=1.0, help="seconds per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="a line per position")
    args = parser.parse_args()
    game = REGISTRY[args.game].game
    seed = str(args.seed) if args.game == "dipole" else f"{args.game}:{args.seed}"
    print(f"k   solved<=1s  solved<={args.limit:g}s  median s  nodes/s   (of {args.positions})")
    for k in range(args.kmin, args.kmax + 1, args.kstep):
        rng = random.Random(f"{seed}:{k}")
        times, nodes = [], 0
        for _ in range(args.positions):
            state = POSITIONS[args.game](rng, k)
            started = time.perf_counter()
            solution = solve(game, state, stop=Deadline(args.limit))
            seconds = time.perf_counter() - started
            nodes += solution.nodes
            times.append(seconds if solution.result else float("inf"))
            if args.verbose:
                found: str = solution.result or "unknown"
                if solution.result in ("win", "loss"):
                    found += f" in {solution.plies}"
                print(
                    f"    {state.position():<44} {found:<12} {seconds:7.2f} s {solution.nodes:>9}"
                )
        within_one = sum(t <= 1.0 for t in times)
        within = sum(t <= args.limit for t in times)
        spent = sum(min(t, args.limit) for t in times)
        median = statistics.median(min(t, args.limit) for t in times)
        print(
            f"{k:<3} {within_one:>10}  {within:>11}  {median:>8.3f}  "
            f"{nodes / max(spent, 1e-9):>9,.0f}"
        )


if __name__ == "__main__":
    main()
