"""The ladder measured: each pair of neighbouring levels of a game plays a match (`random` against
the lowest level first), and each level's rating follows, Elo relative to `random` = 0.

    python bench/ladder.py                                # Dipole, 200 games a pair
    python bench/ladder.py --game bipod --games 200 --jobs 2
    python bench/ladder.py --game all --games 40          # a quick look at every game
    python bench/ladder.py --from expert                  # the top step alone: hard v expert

Each match is `dipole-tui match`'s: paired random openings, colours alternating, the levels
thinking as in the app (the fixed-depth levels at their depth; `hard` for --movetime seconds). A
step no game went against is shown with the bound of its 95% interval (`> +690`). With --from,
only the steps above that level are played, from its rating as the ladder keeps it.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from dipole_tui.bots import Budget
from dipole_tui.cli.progress_bar import progress_bar
from dipole_tui.match import Match, elo_summary, play_match, tally
from dipole_tui.registry import REGISTRY, levels


def signed(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    return f"{elo:+.0f}"


def measure(
    game_key: str,
    games: int,
    jobs: int,
    seed: int,
    movetime: float,
    progress: Progress,
    start: str | None = None,
) -> Table:
    offered = levels(game_key)
    entry = REGISTRY[game_key]
    if start is not None:
        if start not in offered:
            raise SystemExit(f"ladder: {entry.game.name} has no level {start!r}")
        offered = offered[offered.index(start) :]
    game = entry.game
    table = Table(title=f"{game.name}: {games} games a pair, hard at {movetime:g} s a move")
    for column in ("pair", "score", "Elo step (95%)", "rating"):
        table.add_column(column)
    rating = float(entry.ladder[offered[0]].rating or 0) if start else 0.0
    table.add_row("", "", "", f"{offered[0]} {rating:+.0f}" if start else f"{offered[0]} 0")
    for lower, upper in itertools.pairwise(offered):
        match = Match(
            game_key,
            game.variants[0],
            upper,
            lower,
            games=games,
            budget=Budget(movetime=movetime),
            seed=seed,
        )
        task = progress.add_task(f"{game.name}: {upper} v {lower}", total=games)
        results = []
        for result in play_match(match, jobs=jobs):
            results.append(result)
            progress.advance(task)
        wins, draws, losses = tally(results)
        score, elo, low, high = elo_summary(wins, draws, losses)
        step = f"{signed(elo)} [{signed(low)}, {signed(high)}]"
        if math.isinf(elo):  # every game one way: the step is at least the interval's bound
            step = f"> {signed(low)}"
            rating += low
            shown = f"> {rating:+.0f}"
        else:
            rating += elo
            shown = f"{rating:+.0f}"
        table.add_row(
            f"{upper} v {lower}",
            f"{wins}-{draws}-{losses} ({score:.0%})",
            step,
            f"{upper} {shown}",
        )
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=[*REGISTRY, "all"], default="dipole")
    parser.add_argument("--games", type=int, default=200, help="games a pair (even)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=float, default=0.2, help="hard's seconds a move")
    parser.add_argument("--from", dest="start", help="play only the steps above this level")
    args = parser.parse_args()
    keys = list(REGISTRY) if args.game == "all" else [args.game]
    console = Console()
    started = time.perf_counter()
    try:
        with progress_bar(console) as progress:
            for key in keys:  # each game's table as soon as its matches are done
                table = measure(
                    key, args.games, args.jobs, args.seed, args.movetime, progress, args.start
                )
                console.print(table)
    except KeyboardInterrupt:
        print("ladder: interrupted", file=sys.stderr)
        sys.exit(130)
    console.print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
