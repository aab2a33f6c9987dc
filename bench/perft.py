"""Perft speed of the Dipole move generator: the number the bots' search strength rests on.

    python bench/perft.py            # perft(5) on 8x8 from the start, best of 5 runs
    python bench/perft.py --depth 4 --variant 10x10 --runs 3

Bulk counting at the last ply (`count_moves`), make/undo in place above it.
"""

from __future__ import annotations

import argparse
import time

from dipole_tui.games import BUILD
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.perft import perft


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="8x8", choices=DIPOLE.variants)
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"dipole-tui, {BUILD}")  # which build the figures are of
    state = DIPOLE.new(args.variant)
    times = []
    for _ in range(args.runs):
        started = time.perf_counter()
        leaves = perft(state, args.depth)
        times.append(time.perf_counter() - started)
    best, median = min(times), sorted(times)[len(times) // 2]
    print(f"perft({args.depth}) {args.variant} = {leaves} leaves")
    print(f"best {best:.3f} s, median {median:.3f} s over {args.runs} runs")
    print(f"{leaves / best:,.0f} leaves per second (best run)")


if __name__ == "__main__":
    main()
