"""Several builds measured in one run, interleaved: each round runs every build in turn, so a
busy machine slows them all alike, and the best round of each is compared with the first.

    python bench/builds.py main-pure=python:/tmp/base-pure \\
        main-compiled=/tmp/cw/venv/bin/python branch-compiled=/tmp/speed-venv/bin/python

A build is NAME=PYTHON[:PYTHONPATH] (a PYTHONPATH for a pure tree, none for an installed
wheel). The benches run from a scratch directory, so an installed package is the one imported.
Node counts and best moves must agree between builds: they do not depend on the load.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def run(python: str, path: str, script: str, *args: str) -> str:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if path:
        env["PYTHONPATH"] = path
    done = subprocess.run(
        [python, str(BENCH / script), *args],
        cwd=tempfile.gettempdir(),
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("builds", nargs="+", help="NAME=PYTHON[:PYTHONPATH]")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--depth", type=int, default=7, help="bench/search.py's depth")
    parser.add_argument("--perft", type=int, default=6, help="bench/perft.py's depth")
    args = parser.parse_args()
    builds = []
    for text in args.builds:
        name, _, rest = text.partition("=")
        python, _, path = rest.partition(":")
        builds.append((name, python, path))
    seconds: dict[str, list[float]] = {name: [] for name, _, _ in builds}
    rates: dict[str, list[float]] = {name: [] for name, _, _ in builds}
    lines: dict[str, list[str]] = {}
    for round_ in range(1, args.rounds + 1):
        for name, python, path in builds:
            out = run(python, path, "search.py", "--depth", str(args.depth))
            found = re.findall(r"depth +\d+ +(\d+) nodes .* best (\S+)", out)
            lines[name] = [f"{nodes} {best}" for nodes, best in found]
            total = re.search(r"([\d.]+) s to search", out)
            assert total is not None, out
            seconds[name].append(float(total[1]))
            out = run(python, path, "perft.py", "--depth", str(args.perft), "--runs", "1")
            rate = re.search(r"([\d,]+) leaves per second", out)
            assert rate is not None, out
            rates[name].append(float(rate[1].replace(",", "")))
            print(f"round {round_} {name}: {seconds[name][-1]:.2f} s, {rate[1]} leaves/s")
            sys.stdout.flush()
    first = builds[0][0]
    nodes = sum(int(line.split()[0]) for line in lines[first])
    print(f"\nsearch --depth {args.depth}: {nodes} nodes (best of {args.rounds} rounds)")
    for name, _, _ in builds:
        same = "same nodes and moves" if lines[name] == lines[first] else "DIFFERENT nodes/moves"
        best, leaves = min(seconds[name]), max(rates[name])
        print(
            f"{name:<18} search {best:6.2f} s {nodes / best:>9,.0f} nodes/s "
            f"x{min(seconds[first]) / best:5.2f}   perft({args.perft}) {leaves:>11,.0f} "
            f"leaves/s x{leaves / max(rates[first]):5.2f}   {same}"
        )


if __name__ == "__main__":
    main()
