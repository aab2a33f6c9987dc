"""Make a game's puzzles ("win in N") from the bots' games, each proved by the exact solver.

    python scripts/make_puzzles.py                  # Dipole, seed 1, 40 puzzles, into the data
    python scripts/make_puzzles.py --game bipod     # Bi-Pod's, into learn/data/bipod-puzzles.txt
    python scripts/make_puzzles.py --seed 7 --count 50 --out /tmp/puzzles.txt
    python scripts/make_puzzles.py --game death-stacks --minutes 60   # what an hour finds
    python scripts/make_puzzles.py --check          # prove every puzzle of every file again

The bots play each other (depth budgets, seeded: the same seed gives the same file). From the end
of each game backwards, every position the solver may reach is solved, as a player is given it
(its position string: no history, so no repetition behind it); one where the side to move wins in
the game's shortest to longest plies becomes a puzzle if it is unique: at each of the winner's
turns on the line exactly one legal move wins within the plies that remain (every move is
checked), the defender always holding out as long as it can (the solver's defence first, then
any other as long: one may leave the winner a single way where the first left two). A first
turn with a single legal move is no puzzle. The puzzles are then chosen spread over the lengths,
graded, and written easiest first; `tests/engine/test_puzzles.py` proves them again. A file
made with `--minutes` names the games it played in its header's `--games`, which makes it
again.
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from rich.console import Console

from dipole_tui import storage
from dipole_tui.analysis import solve, within
from dipole_tui.bots import Budget
from dipole_tui.cli.progress_bar import progress_bar
from dipole_tui.games.base import State
from dipole_tui.games.dipole import DipoleState
from dipole_tui.learn import Item, items
from dipole_tui.match import Match, derive_seed, play_game, schedule
from dipole_tui.orphans import abandon, end_with_parent
from dipole_tui.registry import REGISTRY

DATA = Path(__file__).resolve().parent.parent / "dipole_tui" / "learn" / "data"
PAIRS = (("hard", "medium"), ("medium", "easy"), ("hard", "easy"), ("medium", "medium"))
BUDGET = Budget(movetime=None, depth=3)  # a depth, not a time: the same games on any machine
MAX_GAMES = 1000


def _any(state: State[Any]) -> bool:
    return True


def _few_checkers(state: State[Any]) -> bool:
    """More than 12 Dipole checkers on the board are seldom proved within the budget."""
    assert isinstance(state, DipoleState)
    return sum(state.checkers) <= 12


@dataclass(frozen=True)
class Source:
    """Where a game's puzzles come from: its bots' games, the lengths wanted, and how far back
    from a game's end the solver is asked."""

    variant: str
    min_plies: int
    max_plies: int
    solvable: Callable[[State[Any]], bool] = _any  # from the end back, the first False stops
    patience: int | None = None  # positions the solver cannot decide in a row that stop it
    solve_nodes: int = 20_000  # for the first questions of a position: does it win, how fast
    proof_nodes: int = 150_000  # for the whole proof of a puzzle (the check spends as much again)
    step: int = 1  # the lengths a win takes go by this: Death Stacks' winner moves last, so 2


SOURCES = {
    "dipole": Source("8x8", 2, 15, _few_checkers),
    "death-stacks": Source("standard", 1, 9, step=2, patience=3),
    "bipod": Source("", 1, 9, patience=3, solve_nodes=40_000),
}


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
    """The proof ran out of nodes."""


class Undecided(Exception):
    """The solver could not decide the position within its nodes."""


def prove(key: str, state: State[Any]) -> Puzzle | None:
    """The puzzle of a position the side to move wins, or None if it is not a unique one;
    Undecided when the solver cannot tell within its nodes."""
    game, source = REGISTRY[key].game, SOURCES[key]
    length, spent = fastest_win(key, state)
    if length is None or length < source.min_plies or len(state.legal_moves()) == 1:
        return None
    winner = state.to_move
    try:
        line = unique_line(key, state.copy(), winner, length, spent)
    except Unproved:
        return None
    if line is None:
        return None
    work, choices = state.copy(), []
    for move in line:
        if work.to_move == winner:
            choices.append(len(work.legal_moves()))
        work.play(move)
    return Puzzle(
        state.position(),
        game.side_names[winner],
        tuple(game.format_move(move) for move in line),
        sum(choices) / len(choices),
        sum(spent),
    )


def unique_line(
    key: str, state: State[Any], winner: int, remaining: int, spent: list[int]
) -> list[Any] | None:
    """The moves to the end from `state`, which `winner` wins in exactly `remaining` plies,
    with one winning move at each of its turns; None if there is no such line. At the loser's
    turns the solver's longest defence is tried first, then the other defences as long, one
    of which may leave the winner a single way where the first left two."""
    if state.outcome() is not None:
        return []
    if state.to_move == winner:
        move = the_only_win(key, state, state.legal_moves(), remaining, spent)
        defences: Iterable[Any] = [] if move is None else [move]
    else:
        defences = longest_defences(key, state, remaining, spent)
    for move in defences:
        state.play(move)
        try:
            rest = unique_line(key, state, winner, remaining - 1, spent)
        finally:
            state.undo()
        if rest is not None:
            return [move, *rest]
    return None


def longest_defences(
    key: str, state: State[Any], remaining: int, spent: list[int]
) -> Iterator[Any]:
    """The loser's moves that hold out `remaining` plies, the solver's first; lazily, as the
    first is most often all the line needs."""
    game = REGISTRY[key].game
    answer = solve(game, state, max_nodes=budget_left(key, spent))
    spent.append(answer.nodes)
    if answer.result != "loss" or answer.plies != remaining or answer.move is None:
        raise Unproved
    yield answer.move
    for move in state.legal_moves():
        if move == answer.move:
            continue
        state.play(move)
        try:
            held = not holds(key, state, "win", remaining - 2, spent)
        finally:
            state.undo()
        if held:
            yield move


def holds(
    key: str, state: State[Any], result: Literal["win", "loss"], plies: int, spent: list[int]
) -> bool:
    """Whether the side to move wins (or loses) within `plies` (0: the game is over so), from
    the proof's budget."""
    game = REGISTRY[key].game
    verdict = within(game, state, result, plies, max_nodes=budget_left(key, spent))
    spent.append(verdict.nodes)
    if verdict.holds is None:
        raise Unproved
    return verdict.holds


def fastest_win(key: str, state: State[Any]) -> tuple[int | None, list[int]]:
    """The plies the side to move wins in, if it wins in at most the longest length wanted,
    and the nodes each question cost; Undecided when the solver cannot tell within its nodes.
    A null window a length is far cheaper than `solve`, which must also tell a loss or a draw."""
    game, source = REGISTRY[key].game, SOURCES[key]
    spent: list[int] = []
    for plies in range(1, source.max_plies + 1, source.step):
        left = source.solve_nodes - sum(spent)
        verdict = within(game, state, "win", plies, max_nodes=left) if left > 0 else None
        if verdict is None or verdict.holds is None:
            raise Undecided
        spent.append(verdict.nodes)
        if verdict.holds:
            return plies, spent
    return None, spent


def budget_left(key: str, spent: list[int]) -> int:
    left = SOURCES[key].proof_nodes - sum(spent)
    if left <= 0:
        raise Unproved
    return left


def the_only_win(
    key: str, state: State[Any], moves: list[Any], remaining: int, spent: list[int]
) -> Any | None:
    """The one move that wins within `remaining` plies; None if there are more or none."""
    winning: list[Any] = []
    for move in moves:
        state.play(move)
        try:
            found = holds(key, state, "loss", remaining - 1, spent)
        finally:
            state.undo()
        if found:
            winning.append(move)
            if len(winning) > 1:
                return None
    return winning[0] if winning else None


def game_moves(key: str, seed: int, index: int) -> tuple[str, ...]:
    """Game `index` of a run: the pairs in turn, each bot first and second in turn."""
    first, second = PAIRS[index % len(PAIRS)]
    if index // len(PAIRS) % 2:
        first, second = second, first
    match = Match(key, SOURCES[key].variant, first, second, 1, BUDGET, derive_seed(seed, index))
    return play_game(match, schedule(match)[0]).moves


def puzzles_of(key: str, seed: int, index: int) -> list[Puzzle]:
    """The puzzles of one game, from its end backwards while the solver reaches; of two on one
    line only the longer is kept (the shorter is a part of it)."""
    game, source = REGISTRY[key].game, SOURCES[key]
    state = game.new(source.variant)
    positions = []
    for text in game_moves(key, seed, index):
        positions.append(game.parse_position(state.position()))  # as a player is given it
        state.play(game.parse_move(text, state))
    found: dict[str, Puzzle] = {}
    undecided = 0
    for position in reversed(positions):
        if not source.solvable(position):
            break
        try:
            puzzle = prove(key, position)
        except Undecided:
            undecided += 1
            if source.patience is not None and undecided >= source.patience:
                break
            continue
        undecided = 0
        if puzzle is None:
            continue
        work = position.copy()
        for move in puzzle.line:
            work.play(game.parse_move(move, work))
            found.pop(work.position(), None)
        found[puzzle.position] = puzzle
    return list(found.values())


def _start_worker() -> None:
    """Ctrl+C is the parent's to handle: it ends the workers, mid-game, itself."""
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


def enough(key: str, found: list[Puzzle], count: int) -> bool:
    """Every length has its share of `count`."""
    source = SOURCES[key]
    lengths = range(source.min_plies, source.max_plies + 1, source.step)
    share = -(-count // len(lengths))
    return all(sum(p.plies == n for p in found) >= share for n in lengths)


def format_file(key: str, chosen: list[Puzzle], seed: int, count: int, games: int) -> str:
    name = REGISTRY[key].game.name
    named = "" if key == "dipole" else f" --game {key}"
    lines = [
        f"# {name} puzzles: win in N plies. Made by the bots' games and proved by the exact "
        "solver:",
        f"#   python scripts/make_puzzles.py{named} --seed {seed} --count {count} --games {games}",
        "# Do not edit by hand: run it again (tests/engine/test_puzzles.py proves every puzzle).",
        "",
    ]
    for number, puzzle in enumerate(chosen, 1):
        plies = "1 ply" if puzzle.plies == 1 else f"{puzzle.plies} plies"
        lines += [
            f"id: {key}-puzzle-{number:03}",
            f"game: {key}",
            "kind: puzzle",
            f"title: {puzzle.side} to play and win in {plies}",
            f"position: {puzzle.position}",
            f"solution: {REGISTRY[key].game.move_separator.join(puzzle.line)}",
            f"difficulty: {puzzle.difficulty}",
            "---",
        ]
    return "\n".join(lines[:-1]) + "\n"


def disproof(item: Item) -> str | None:
    """Why a puzzle is not the one fastest win, proved again from scratch; None when it is: its
    line is legal and ends the game with the side to move winning, the start is a win in
    exactly the line's length, every position on the line has the value the line gives it (so
    each defence holds out longest), and at each of the winner's turns the line's move is the
    only one that wins in time."""
    game = REGISTRY[item.game].game
    state = item.start()
    winner = state.to_move
    if len(state.legal_moves()) < 2:
        return "a single legal move is no puzzle"
    if not item.title.startswith(f"{game.side_names[winner]} to play"):
        return f"the title names the wrong side: {item.title}"
    plies = "1 ply" if item.plies == 1 else f"{item.plies} plies"
    if not item.title.endswith(f"win in {plies}"):
        return f"the title gives the wrong length: {item.title}"
    # Each claim is proved once: at the winner's turns the line's move wins in time because the
    # next turn is lost within the plies left (proved there) or the line ends the game (below),
    # so the win within `remaining` is not asked again, nor is the line's move among the others.
    for number, text in enumerate(item.solution):
        remaining = item.plies - number
        if state.outcome() is not None:
            return f"the game is over before {text}"
        move = game.parse_move(text, state)
        winners_turn = state.to_move == winner
        expected: Literal["win", "loss"] = "win" if winners_turn else "loss"
        exact = winners_turn or within(game, state, expected, remaining).holds
        sooner = remaining > 1 and within(game, state, expected, remaining - 1).holds
        if not exact or sooner:
            return f"ply {number + 1}: not a {expected} in exactly {remaining} plies"
        if winners_turn:
            winning = []
            for candidate in state.legal_moves():
                if candidate == move:
                    continue
                state.play(candidate)
                if within(game, state, "loss", remaining - 1).holds:
                    winning.append(game.format_move(candidate))
                state.undo()
            if winning:
                return f"ply {number + 1}: {', '.join(winning)} also win in time, not {text} alone"
        state.play(move)
    outcome = state.outcome()
    if outcome is None or outcome.winner != winner:
        return "the line does not end the game with the side to move winning"
    return None


def check(key: str | None) -> int:
    """Every puzzle (of one game or all) proved again; a line for each that is not."""
    failed = 0
    chosen = items(key, "puzzle")
    for item in chosen:
        why = disproof(item)
        if why is not None:
            failed += 1
            print(f"{item.id}: {why}", file=sys.stderr)
    print(f"{len(chosen) - failed} of {len(chosen)} puzzles proved")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(SOURCES), help="the game (default dipole)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=40, help="puzzles to write (default 40)")
    parser.add_argument("--out", type=Path, help="the file to write (default: the game's data)")
    parser.add_argument("--games", type=int, default=MAX_GAMES, help="games to play at most")
    parser.add_argument(
        "--minutes", type=float, help="stop playing after this long and write what was found"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument(
        "--check", action="store_true", help="prove the puzzles again (of --game if given, or all)"
    )
    args = parser.parse_args()
    if args.check:
        return check(args.game)
    if min(args.count, args.games, args.jobs) < 1:
        parser.error("--count, --games and --jobs must be at least 1")
    key = args.game or "dipole"
    out = args.out or DATA / f"{key}-puzzles.txt"
    found: list[Puzzle] = []
    seen: set[str] = set()
    played = 0
    end = None if args.minutes is None else time.monotonic() + 60 * args.minutes
    pool = ProcessPoolExecutor(args.jobs, initializer=_start_worker)
    try:
        with progress_bar(Console(), transient=False) as progress:
            task = progress.add_task("games", total=args.games)
            results = pool.map(
                puzzles_of, itertools.repeat(key), itertools.repeat(args.seed), range(args.games)
            )
            for new in results:  # in the games' order, whatever the workers' speed
                played += 1
                found += [puzzle for puzzle in new if puzzle.position not in seen]
                seen.update(puzzle.position for puzzle in new)
                lengths = len({puzzle.plies for puzzle in found})
                description = f"games: {len(found)} puzzles of {lengths} lengths"
                progress.update(task, advance=1, description=description)
                if enough(key, found, args.count) or (end is not None and time.monotonic() > end):
                    break
    except KeyboardInterrupt:
        print("stopped: nothing written", file=sys.stderr)
        return 130
    finally:  # the games still being played are not waited for
        abandon(pool)
    chosen = choose(found, args.count)
    storage.write_text(out, format_file(key, chosen, args.seed, args.count, played))
    tally = ", ".join(
        f"{n}: {sum(p.plies == n for p in chosen)}" for n in sorted({p.plies for p in chosen})
    )
    print(
        f"{len(chosen)} puzzles of {len(found)} found in {played} games, by length {tally}; "
        f"wrote {out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
