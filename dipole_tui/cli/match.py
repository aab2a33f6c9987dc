"""`match`: bots against each other, a line a game, then the score with an Elo estimate."""

from __future__ import annotations

import argparse
import random
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from .. import match as matches
from .. import storage
from ..bots import BOT_NAMES
from ..games.base import AnyGame, GameError, shown
from ..orphans import END_SIGNALS
from ..registry import game_named
from .arguments import add_game_option, depth, game_count, job_count, positive_seconds, seed_number

if TYPE_CHECKING:
    from .arguments import Commands


def add_match(commands: Commands) -> None:
    match = commands.add_parser(
        "match",
        help="play bots against each other and print the score with an Elo estimate",
        description="Play GAMES games between bots A and B: each random opening twice, with "
        "colours swapped; print one line per game, then A's score and Elo difference.",
    )
    add_game_option(match)
    match.add_argument("a", choices=BOT_NAMES, metavar="A", help=f"a bot: {', '.join(BOT_NAMES)}")
    match.add_argument("b", choices=BOT_NAMES, metavar="B", help="its opponent")
    match.add_argument(
        "--games",
        type=game_count,
        default=matches.DEFAULT_GAMES,
        help=f"how many games (default: {matches.DEFAULT_GAMES})",
    )
    match.add_argument(
        "--movetime",
        type=positive_seconds,
        metavar="S",
        help=f"seconds a move (default: {matches.DEFAULT_MOVETIME} unless --depth)",
    )
    match.add_argument("--depth", type=depth, metavar="D", help="plies of search a move")
    match.add_argument(
        "--seed",
        type=seed_number,
        metavar="K",
        help="seed of the openings and bots (default: random, printed)",
    )
    match.add_argument(
        "--jobs",
        type=job_count,
        default=1,
        metavar="J",
        help="games played at once, in worker processes (default: 1)",
    )
    match.add_argument("--save-dir", metavar="DIR", help="save each game as DIR/game-NNN.txt")


def run_match(args: argparse.Namespace, factory: matches.BotFactory | None = None) -> None:
    """The `match` subcommand: print each game, then the score; on Ctrl+C, the score so far."""
    game = game_named(args.game)
    variant = args.variant or game.variants[0]
    if variant not in game.variants:
        raise GameError(
            f"{game.name} has no variant '{shown(variant)}'; expected {', '.join(game.variants)}"
        )
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    match = matches.Match(
        game_key=args.game,
        variant=variant,
        bot_a=args.a,
        bot_b=args.b,
        games=args.games,
        budget=matches.budget_of(args.movetime, args.depth),
        seed=seed,
    )
    save_dir = Path(args.save_dir) if args.save_dir else None
    if save_dir is not None:
        _check_save_dir(save_dir)
    matches.check_bots(match, factory)
    jobs = args.jobs
    print(
        f"match: {match.bot_a} (A) v {match.bot_b} (B), {game.name} {variant}, "
        f"{match.games} games, {matches.describe_budget(match.budget)} a move, seed {seed}"
        + (f", {jobs} jobs" if jobs > 1 else ""),
        flush=True,
    )
    results: list[matches.GameResult] = []
    try:
        played = matches.play_match(match, jobs, factory, want_records=save_dir is not None)
        for result in _ending_on_signals(played):
            if save_dir is not None and result.record is not None:
                target = save_dir / f"game-{result.index + 1:03d}.txt"
                try:
                    storage.write_text(target, result.record)
                except OSError as error:
                    raise GameError(f"cannot save {target}: {error.strerror or error}") from None
            results.append(result)
            print(matches.format_game_line(game, result), flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {len(results)} of {match.games} games", flush=True)
        _print_summary(game, match, results)
        raise
    except _Ended as ended:
        name = signal.Signals(ended.signum).name
        raise GameError(f"stopped by {name} after {len(results)} of {match.games} games") from None
    _print_summary(game, match, results)


def _check_save_dir(path: Path) -> None:
    """Fail before the first game, not after it, if the records cannot be written there."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".probe-"):
            pass
    except OSError as error:
        raise GameError(f"cannot write to {path}: {error.strerror or error}") from None


class _Ended(BaseException):
    """SIGTERM or SIGHUP during a match. Not an Exception, as KeyboardInterrupt is not, so that
    nothing on its way swallows it before the workers are stopped."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _end(signum: int, frame: object) -> None:
    raise _Ended(signum)


def _ending_on_signals(
    results: Iterator[matches.GameResult],
) -> Iterator[matches.GameResult]:
    """While the match runs, SIGTERM and SIGHUP stop it as Ctrl+C does: the workers are ended
    (`play_match` abandons its pool) and the command says so in one line."""
    previous = {signum: signal.signal(signum, _end) for signum in END_SIGNALS}
    try:
        yield from results
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


def _print_summary(game: AnyGame, match: matches.Match, results: list[matches.GameResult]) -> None:
    print(matches.format_colours(game, results))
    print(matches.format_summary(match, results), flush=True)
