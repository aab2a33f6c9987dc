"""Dipole positions from `hard`'s own games, labelled by the exact solver: what the evaluation's
weights are fitted to (`bench/fit_eval.py`).

    python bench/label_positions.py                      # 600 games, into bench/data/
    python bench/label_positions.py --games 40 --jobs 2 --out /tmp/few.txt

Each game is `hard` against itself from a random opening like `dipole-tui match`'s but longer
(4 to 10 plies, seeded by the game's number, so that games part early), searching --depth plies
a move, so the same command makes the same file. Its
positions with 10 to 17 checkers on the board are then proved, from the last back: won or lost
for the side to move (Dipole has no draws), by one null window of the solver ("a win within 1000
plies?"), which proves the result without its length. A game's proving stops at the first
position not proved within --max-nodes: the earlier ones, with more checkers, are harder still.
Positions the evaluation never sees are left out: those `hard`'s knowledge decides at once (a
race past every capture) and those with a capture to play (the search plays captures out before
it evaluates). Each game's positions are appended to the file as it ends, so a run cut short by
Ctrl+C goes on where it stopped when the same command is run again.
"""

from __future__ import annotations

import argparse
import signal
import sys
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from rich.console import Console

from dipole_tui.analysis import within
from dipole_tui.bots import Budget
from dipole_tui.cli.progress_bar import progress_bar
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.match import derive_seed, random_opening
from dipole_tui.orphans import abandon
from dipole_tui.registry import REGISTRY, create_bot

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "bench" / "data" / "dipole-labelled.txt"
FEWEST, MOST = 10, 17  # checkers on the board
OPENING = (4, 10)  # random plies at the start, at least and at most: games apart from the start


def label_game(number: int, seed: int, depth: int, max_nodes: int) -> tuple[int, list[str]]:
    """Play game `number` and prove its positions: lines of `number position result nodes`."""
    game = DIPOLE
    state = game.new("8x8")
    for text in random_opening(game, "8x8", seed, number, length=OPENING):
        state.play(game.parse_move(text, state))
    bots = [
        create_bot("hard", "dipole", derive_seed(seed, "label", number, side)) for side in (0, 1)
    ]
    while state.outcome() is None:
        state.play(bots[state.to_move].choose(state, Budget(movetime=None, depth=depth)))
    knowledge = REGISTRY["dipole"].ladder["hard"].knowledge()
    lines: list[str] = []
    while state.plies:
        state.undo()
        if not FEWEST <= sum(state.checkers) <= MOST:
            continue
        if knowledge.decided(state) is not None or state.captures():
            continue
        verdict = within(game, state, "win", 1000, max_nodes=max_nodes)
        if verdict.holds is None:
            break
        result = "win" if verdict.holds else "loss"
        lines.append(f"{number} {state.position()} {result} {verdict.nodes}")
    return number, lines[::-1]


def done_games(path: Path) -> set[int]:
    """The games a file already holds: each ends with its `# game N` line."""
    if not path.exists():
        return set()
    return {
        int(line.split()[2]) for line in path.read_text().splitlines() if line.startswith("# game ")
    }


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--depth", type=int, default=4, help="hard's plies a move")
    parser.add_argument("--max-nodes", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    done = done_games(args.out)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not args.out.exists():
        args.out.write_text(
            "# Dipole positions from hard's games, proved by the solver for the side to move:\n"
            f"# python bench/label_positions.py --games {args.games} --depth {args.depth} "
            f"--max-nodes {args.max_nodes} --seed {args.seed}\n"
            "# game position result nodes\n"
        )
    console = Console()
    with (
        args.out.open("a") as out,
        progress_bar(console, "{task.fields[found]} positions", transient=False) as progress,
    ):
        task = progress.add_task("games", total=args.games, completed=len(done), found=0)
        executor = ProcessPoolExecutor(max_workers=args.jobs, initializer=_ignore_interrupts)
        pending: set[Future[tuple[int, list[str]]]] = {
            executor.submit(label_game, number, args.seed, args.depth, args.max_nodes)
            for number in range(args.games)
            if number not in done
        }
        found = 0
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    number, lines = future.result()
                    out.write("".join(line + "\n" for line in lines) + f"# game {number}\n")
                    out.flush()
                    found += len(lines)
                    progress.update(task, advance=1, found=found)
        except KeyboardInterrupt:
            abandon(executor)
            console.print("stopped: run the same command again to go on")
            sys.exit(130)
        executor.shutdown()
    console.print(f"{found} positions this run; in {args.out}")


if __name__ == "__main__":
    main()
