"""Make the Dipole puzzles ("win in N") from the bots' games, each proved by the exact solver.

    python scripts/make_puzzles.py                  # seed 1, 40 puzzles, into the package's data
    python scripts/make_puzzles.py --seed 7 --count 50 --out /tmp/puzzles.txt

The bots play each other (depth budgets, seeded: the same seed gives the same file). From the end
of each game backwards, every position with few enough checkers is solved; one where the side to
move wins in MIN_PLIES to MAX_PLIES plies becomes a puzzle if it is unique: at each of the
winner's turns on the line exactly one legal move wins within the plies that remain (every move is
checked), the defender always holding out as long as it can (the solver's move for the loser).
A first turn with a single legal move is no puzzle. The puzzles are then chosen spread over the
lengths, graded, and written easiest first; `tests/test_puzzles.py` proves them all again.
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dipole_tui import storage
from dipole_tui.bots import Budget
from dipole_tui.games.dipole import DIPOLE, DipoleState, Move
from dipole_tui.match import Match, derive_seed, play_game, schedule
from dipole_tui.orphans import end_with_parent
from dipole_tui.solver import solve, within

OUT = (
    Path(__file__).resolve().parent.parent / "dipole_tui" / "learn" / "data" / "dipole-puzzles.txt"
)
PAIRS = (("hard", "medium"), ("medium", "easy"), ("hard", "easy"), ("medium", "medium"))
BUDGET = Budget(movetime=None, depth=3)  # a depth, not a time: the same games on any machine
MIN_PLIES, MAX_PLIES = 2, 15
MAX_CHECKERS = 12  # more on the board is seldom proved within the budget
SOLVE_NODES = 20_000  # for the first solve of a position
PROOF_NODES = 150_000  # for the whole proof of a puzzle (the tests spend as much again)
MAX_GAMES = 1000


@dataclass(frozen=True)
class Puzzle:
    position: str
    side: str  # the winner's name
    line: tuple[str, ...]  # the winning line to the end of the game
    choices: float  # legal moves at the winner's turns, on average
    nodes: int  # what the proof cost

    @property
    def plies(self) -> int:
        return len(self.line)

    @property
    def difficulty(self) -> int:
        """Mostly the length; many moves to choose among make a puzzle a step harder."""
        score = self.plies + (self.choices >= 15)
        return 1 if score <= 3 else 2 if score <= 5 else 3 if score <= 7 else 4 if score <= 9 else 5


class Unproved(Exception):
    """The proof ran out of nodes, or the line is not unique."""


def prove(state: DipoleState) -> Puzzle | None:
    """The puzzle of a position the side to move wins, or None if it is not a unique one."""
    first = solve(DIPOLE, state, max_nodes=SOLVE_NODES)
    if first.result != "win" or not MIN_PLIES <= first.plies <= MAX_PLIES:
        return None
    if len(state.legal_moves()) == 1:
        return None
    winner = state.to_move
    work = state.copy()
    spent = [first.nodes]
    line: list[str] = []
    choices: list[int] = []
    try:
        while work.outcome() is None:
            remaining = first.plies - len(line)
            if work.to_move == winner:
                moves = work.legal_moves()
                choices.append(len(moves))
                move = the_only_win(work, moves, remaining, spent)
            else:
                answer = solve(DIPOLE, work, max_nodes=budget_left(spent))
                spent.append(answer.nodes)
                if answer.result != "loss" or answer.plies != remaining or answer.move is None:
                    raise Unproved
                move = answer.move
            line.append(DIPOLE.format_move(move))
            work.play(move)
    except Unproved:
        return None
    return Puzzle(
        state.position(),
        DIPOLE.side_names[winner],
        tuple(line),
        sum(choices) / len(choices),
        sum(spent),
    )


def budget_left(spent: list[int]) -> int:
    left = PROOF_NODES - sum(spent)
    if left <= 0:
        raise Unproved
    return left


def the_only_win(state: DipoleState, moves: list[Move], remaining: int, spent: list[int]) -> Move:
    """The one move that wins within `remaining` plies; Unproved if there are more or none."""
    winning: list[Move] = []
    for move in moves:
        state.play(move)
        try:
            verdict = within(DIPOLE, state, "loss", remaining - 1, max_nodes=budget_left(spent))
            spent.append(verdict.nodes)
            found = verdict.holds
        finally:
            state.undo()
        if found is None:
            raise Unproved
        if found:
            winning.append(move)
            if len(winning) > 1:
                raise Unproved
    if len(winning) != 1:
        raise Unproved
    return winning[0]


def game(seed: int, index: int) -> tuple[str, ...]:
    """Game `index` of a run: the pairs in turn, each bot White and Black in turn."""
    white, black = PAIRS[index % len(PAIRS)]
    if index // len(PAIRS) % 2:
        white, black = black, white
    match = Match("dipole", "8x8", white, black, 1, BUDGET, derive_seed(seed, index))
    return play_game(match, schedule(match)[0]).moves


def puzzles_of(seed: int, index: int) -> list[Puzzle]:
    """The puzzles of one game, from its end backwards while the solver reaches; of two on one
    line only the longer is kept (the shorter is a part of it)."""
    state = DIPOLE.new("8x8")
    positions = []
    for text in game(seed, index):
        positions.append(state.copy())
        state.play(DIPOLE.parse_move(text, state))
    found: dict[str, Puzzle] = {}
    for position in reversed(positions):
        if sum(position.checkers) > MAX_CHECKERS:
            break
        puzzle = prove(position)
        if puzzle is None:
            continue
        work = position.copy()
        for move in puzzle.line:
            work.play(DIPOLE.parse_move(move, work))
            found.pop(work.position(), None)
        found[puzzle.position] = puzzle
    return list(found.values())


def _start_worker() -> None:
    """Ctrl+C is the parent's to handle: a worker finishes its game and is ended with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent()


def choose(found: list[Puzzle], count: int) -> list[Puzzle]:
    """`count` puzzles spread over the lengths: the first of each length, then the second..."""
    by_length: dict[int, list[Puzzle]] = {}
    for puzzle in found:
        by_length.setdefault(puzzle.plies, []).append(puzzle)
    chosen: list[Puzzle] = []
    for rank in itertools.count():
        row = [group[rank] for _, group in sorted(by_length.items()) if rank < len(group)]
        if not row:
            break
        chosen.extend(row[: count - len(chosen)])
        if len(chosen) == count:
            break
    return sorted(chosen, key=lambda puzzle: (puzzle.difficulty, puzzle.plies, puzzle.position))


def enough(found: list[Puzzle], count: int) -> bool:
    """Every length has its share of `count`."""
    lengths = range(MIN_PLIES, MAX_PLIES + 1)
    share = -(-count // len(lengths))
    return all(sum(p.plies == n for p in found) >= share for n in lengths)


def format_file(chosen: list[Puzzle], seed: int, count: int, games: int) -> str:
    lines = [
        "# Dipole puzzles: win in N plies. Made by the bots' games and proved by the exact solver:",
        f"#   python scripts/make_puzzles.py --seed {seed} --count {count} --games {games}",
        "# Do not edit by hand: run it again (tests/test_puzzles.py proves every puzzle).",
        "",
    ]
    for number, puzzle in enumerate(chosen, 1):
        lines += [
            f"id: dipole-puzzle-{number:03}",
            "game: dipole",
            "kind: puzzle",
            f"title: {puzzle.side} to play and win in {puzzle.plies} plies",
            f"position: {puzzle.position}",
            f"solution: {' '.join(puzzle.line)}",
            f"difficulty: {puzzle.difficulty}",
            "---",
        ]
    return "\n".join(lines[:-1]) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40, help="puzzles to write (default 40)")
    parser.add_argument("--out", type=Path, default=OUT, help="the file to write")
    parser.add_argument("--games", type=int, default=MAX_GAMES, help="games to play at most")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    args = parser.parse_args()
    if min(args.count, args.games, args.jobs) < 1:
        parser.error("--count, --games and --jobs must be at least 1")
    found: list[Puzzle] = []
    seen: set[str] = set()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    pool = ProcessPoolExecutor(args.jobs, initializer=_start_worker)
    try:
        with Progress(*columns, TimeElapsedColumn()) as progress:
            task = progress.add_task("games", total=args.games)
            results = pool.map(puzzles_of, itertools.repeat(args.seed), range(args.games))
            for new in results:  # in the games' order, whatever the workers' speed
                found += [puzzle for puzzle in new if puzzle.position not in seen]
                seen.update(puzzle.position for puzzle in new)
                lengths = len({puzzle.plies for puzzle in found})
                description = f"games: {len(found)} puzzles of {lengths} lengths"
                progress.update(task, advance=1, description=description)
                if enough(found, args.count):
                    break
    except KeyboardInterrupt:
        print("stopped: nothing written", file=sys.stderr)
        return 130
    finally:
        pool.shutdown(cancel_futures=True)
    chosen = choose(found, args.count)
    storage.write_text(args.out, format_file(chosen, args.seed, args.count, args.games))
    tally = ", ".join(
        f"{n}: {sum(p.plies == n for p in chosen)}" for n in sorted({p.plies for p in chosen})
    )
    print(f"{len(chosen)} puzzles of {len(found)} found, by length {tally}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
