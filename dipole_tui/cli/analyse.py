"""`analyse`: a record annotated with an evaluation after each move and its mistakes marked, and
each side's accuracy and marks summed up on standard error (standard output stays a record)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from .. import storage
from ..analysis import analyse, annotated_record, summary
from ..games.base import GameError
from ..records import load_record
from ..registry import game_named
from .arguments import add_game_option, positive_seconds

if TYPE_CHECKING:
    from collections.abc import Callable

    from .arguments import Commands

ANALYSE_MOVETIME = 1.0


def add_analyse(commands: Commands) -> None:
    analysing = commands.add_parser(
        "analyse",
        help="annotate a record: an evaluation after each move, the mistakes marked, and each "
        "side's accuracy",
        description="Evaluate every position of a record with the hard level's search (and, "
        "where it reaches, the exact solver) and write the record back with a comment after "
        "each move: the evaluation from the first side's view, and for a move that lost enough "
        "against the best, the best move and a mark (?! inaccuracy, ? mistake, ?? blunder). "
        "Each side's accuracy (lichess's, from the winning chances each move kept) and marks "
        "are said on standard error.",
    )
    analysing.add_argument("file", metavar="RECORD", help="a game record")
    add_game_option(analysing, variant=False, said="the game of a record with no Game tag")
    analysing.add_argument(
        "--movetime",
        type=positive_seconds,
        default=ANALYSE_MOVETIME,
        metavar="S",
        help=f"think S seconds a position (default: {ANALYSE_MOVETIME:g})",
    )
    analysing.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write the record to OUT, which may be RECORD itself (default: standard output)",
    )


def run_analyse(args: argparse.Namespace) -> None:
    """The `analyse` subcommand: a progress bar on stderr while the positions are evaluated;
    the annotated record on stdout or, whole or not at all, in OUT (which may be the record
    itself: its own tags and comments are kept, an earlier analysis's comments replaced); then
    each side's accuracy and marks on stderr."""
    from rich.console import Console

    from .progress_bar import progress_bar

    record = load_record(args.file, game_named(args.game))
    if args.output is not None:
        _writable(args.output, storage.check_output)
    game_key = record.game.key
    console = Console(stderr=True)
    with progress_bar(console, "positions") as progress:
        task = progress.add_task("analysing", total=record.state.plies + 1)
        judged = analyse(
            game_key,
            record.state,
            args.movetime,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    text = annotated_record(
        game_key, record.state, judged, record.tags, args.movetime, record.comments
    )
    if args.output is None:
        sys.stdout.write(text)
    else:
        _writable(args.output, lambda path: storage.write_output(path, text))
    for line in summary(record.game, judged):
        console.print(line, highlight=False, markup=False)


def _writable(path: str, write: Callable[[str], object]) -> None:
    """`write` (or its check) to OUT, an OSError said as the one line of a GameError."""
    try:
        write(path)
    except OSError as error:
        raise GameError(f"cannot write {path}: {error.strerror or error}") from None
