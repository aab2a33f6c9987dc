"""A bot of this checkout against a bot of an earlier commit: how much a change gained, measured
against the code as it was, speed and all (a level kept in the code shares every later speed-up).

    python bench/versus.py --old 7c4383b                        # hard v hard, 400 games, 1 s
    python bench/versus.py --old 7c4383b --games 200 --movetime 0.2 --jobs 2
    python bench/versus.py --old HEAD~3 --bot expert --old-bot expert --game dipole
    python bench/versus.py --old HEAD~1 --depth 4      # both search 4 plies: judgement alone

The earlier commit is exported (`git archive`) into `.bench-cache/<commit>` and its bot thinks in
a process of its own, told the game so far move by move. The games are `dipole-tui match`'s
(paired random openings, colours alternating, the same seed, the same schedule). Each finished
game is appended to a results file (`--out`, by default named after the match), so a match cut
short, by Ctrl+C or otherwise, goes on where it stopped when the same command is run again.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tarfile
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from io import BytesIO
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

from dipole_tui.bots import Budget
from dipole_tui.cli.progress_bar import progress_bar
from dipole_tui.match import GameResult, Match, elo_summary, play_game, schedule
from dipole_tui.orphans import abandon
from dipole_tui.registry import REGISTRY, create_bot, game_named

ROOT = Path(__file__).resolve().parent.parent
OLD_PREFIX = "old:"  # the earlier commit's bots are named so in the schedule

# Run with the earlier commit first on the path: `new NAME GAME SEED`, then `go MOVETIME DEPTH
# VARIANT MOVE...` for each move asked ("-" for no limit); it answers each line with one line.
SERVER = """
import signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
import dipole_tui
from dipole_tui.bots import Budget
from dipole_tui.registry import create_bot, game_named
bot = game = None
try:
    for line in sys.stdin:
        words = line.split()
        if words[0] == "new":
            game = game_named(words[2])
            bot = create_bot(words[1], words[2], int(words[3]))
            print("ready", dipole_tui.__file__, flush=True)
        else:
            state = game.new(words[3])
            for text in words[4:]:
                state.play(game.parse_move(text, state))
            movetime, depth = (None if w == "-" else w for w in words[1:3])
            budget = Budget(movetime and float(movetime), depth and int(depth))
            move = bot.choose(state, budget)
            print(game.format_move(move), flush=True)
except BrokenPipeError:  # the match was stopped while this bot thought
    pass
"""


def export(commit: str) -> Path:
    """The earlier commit's package, exported once into the cache."""
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{commit}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if sha.returncode:
        raise SystemExit(f"versus: no commit {commit!r} in {ROOT}; expected a commit name or hash")
    folder = ROOT / ".bench-cache" / sha.stdout.strip()
    if not (folder / "dipole_tui").is_dir():
        archive = subprocess.run(
            ["git", "archive", sha.stdout.strip(), "dipole_tui"], cwd=ROOT, capture_output=True
        ).stdout
        partial = folder.with_suffix(".partial")
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(partial, filter="data")
        partial.rename(folder)
    return folder


@dataclass
class OldBot:
    """A bot of the earlier commit, thinking in its own process."""

    server: subprocess.Popen[str]
    game_key: str

    def choose(self, state: Any, budget: Budget, stop: object = None) -> Any:
        game = game_named(self.game_key)
        moves = " ".join(game.format_move(move) for move in state.moves_played)
        assert self.server.stdin is not None and self.server.stdout is not None
        limits = " ".join(
            "-" if limit is None else str(limit) for limit in (budget.movetime, budget.depth)
        )
        self.server.stdin.write(f"go {limits} {state.variant} {moves}\n")
        self.server.stdin.flush()
        return game.parse_move(self.server.stdout.readline().strip(), state)


_server: subprocess.Popen[str] | None = None  # one per worker process, for all its games


def make(old: Path, name: str, game_key: str, seed: int | None) -> Any:
    """This checkout's bot, or the earlier commit's for a name that says so."""
    global _server
    if not name.startswith(OLD_PREFIX):
        return create_bot(name, game_key, seed)
    if _server is None:
        _server = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=(old.parent / f"{old.name}.log").open("a"),
            text=True,
            env={**os.environ, "PYTHONPATH": str(old)},
            cwd=old,  # `python -c` looks in its folder first: never this checkout's package
        )
    assert _server.stdin is not None and _server.stdout is not None
    _server.stdin.write(f"new {name.removeprefix(OLD_PREFIX)} {game_key} {seed or 0}\n")
    _server.stdin.flush()
    answer = _server.stdout.readline().split()
    if answer[:1] != ["ready"] or not answer[1].startswith(str(old)):
        raise RuntimeError(f"the earlier commit's bot did not start: {answer}, see {old}.log")
    return OldBot(_server, game_key)


def _ignore_interrupts() -> None:
    """Ctrl+C is the parent's to handle: it ends the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def record(out: TextIO, result: GameResult) -> None:
    line = {"index": result.index, "score_a": result.score_a, "plies": result.plies}
    out.write(json.dumps({**line, "reason": result.reason}) + "\n")
    out.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the earlier commit")
    parser.add_argument("--bot", default="hard", help="this checkout's bot (default hard)")
    parser.add_argument("--old-bot", default="hard", help="the earlier commit's bot")
    parser.add_argument("--game", default="dipole", choices=sorted(REGISTRY))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--movetime", type=float, default=1.0)
    parser.add_argument(
        "--depth",
        type=int,
        help="both bots search this many plies, with no clock (--movetime ignored)",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="the results file (one game a line)")
    args = parser.parse_args()
    old = export(args.old)
    game = REGISTRY[args.game].game
    if args.depth:
        budget, pace, tag = Budget(None, args.depth), f"{args.depth} plies", f"{args.depth}plies"
    else:
        budget, pace, tag = (
            Budget(args.movetime),
            f"{args.movetime:g} s a move",
            f"{args.movetime:g}s",
        )
    match = Match(
        args.game,
        game.variants[0],
        args.bot,
        OLD_PREFIX + args.old_bot,
        games=args.games,
        budget=budget,
        seed=args.seed,
    )
    out_path = args.out or ROOT / ".bench-cache" / (
        f"versus-{args.game}-{args.bot}-{args.old}-{args.old_bot}-{tag}-seed{args.seed}.jsonl"
    )
    done = {}
    if out_path.exists():
        for line in out_path.read_text().splitlines():
            row = json.loads(line)
            done[row["index"]] = row["score_a"]
    console = Console()
    label = f"{args.bot} v {args.old_bot} of {args.old}, {pace}"
    with (
        out_path.open("a") as out,
        progress_bar(console, transient=False) as progress,
    ):
        task = progress.add_task(label, total=args.games, completed=len(done))
        executor = ProcessPoolExecutor(max_workers=args.jobs, initializer=_ignore_interrupts)
        pending: set[Future[GameResult]] = {
            executor.submit(play_game, match, spec, partial(make, old))
            for spec in schedule(match)
            if spec.index not in done
        }
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    result = future.result()
                    record(out, result)
                    done[result.index] = result.score_a
                    progress.advance(task)
        except KeyboardInterrupt:
            abandon(executor)
            console.print("stopped: run the same command again to go on")
        else:
            executor.shutdown()
    scores = list(done.values())
    wins, draws = scores.count(1.0), scores.count(0.5)
    if scores:
        score, elo, low, high = elo_summary(wins, draws, len(scores) - wins - draws)
        console.print(
            f"{label}: {wins} - {draws} - {len(scores) - wins - draws} in {len(scores)} games, "
            f"{100 * score:.1f}%, Elo {elo:+.0f} (95%: {low:+.0f} to {high:+.0f}); "
            f"results in {out_path}"
        )


if __name__ == "__main__":
    main()
