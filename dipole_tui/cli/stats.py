"""`dipole-tui stats [--game G]`: your statistics against the bots, as the app's `S` shows them,
printed as tables: per game, your rating and record, the record against each level, and your
last games with the rating after each. Read from the data folder's `results.json` (a damaged
one is set aside with one line on standard error, as the app does)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.table import Table

from ..app.widgets.stats_table import levels_table
from ..games.base import shown
from ..registry import REGISTRY
from ..results import GameStats, Results, games_played, rating_words, stats, summary
from ..saves import data_dir
from .arguments import ASCII_HELP

if TYPE_CHECKING:
    from .arguments import Commands

LAST_GAMES = 10  # the last games listed, each with the rating after it


def add_stats(commands: Commands) -> None:
    parser = commands.add_parser(
        "stats",
        help="print your rating and record against the bots",
        description="Print your statistics against the bots' levels, per game: your Glicko-2 "
        "rating ('?' while provisional), your games, wins, losses and draws against each "
        "level, your longest winning streak and your last games. Games count from the app: "
        "a person against a level, from the start, to a result.",
    )
    parser.add_argument("--game", choices=sorted(REGISTRY), help="only this game's")
    parser.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=ASCII_HELP)


def run_stats(args: argparse.Namespace) -> None:
    results = Results(data_dir())
    if results.problem:
        print(results.problem, file=sys.stderr)
    console = Console(highlight=False, soft_wrap=False)
    frame = box.ASCII2 if args.ascii else box.SIMPLE_HEAD
    played = games_played(results.entries)
    wanted = [args.game] if args.game else played
    if not played or not stats(results.entries, wanted[0]).total.games:
        where = f" of {REGISTRY[args.game].game.name}" if args.game else ""
        play = f"dipole-tui play{f' --game {args.game}' if args.game else ''} --black easy"
        console.print(f"No games{where} against the bots yet: play one ({play})", soft_wrap=True)
        return
    for number, game in enumerate(wanted):
        found = results.stats(game)
        name = REGISTRY[game].game.name if game in REGISTRY else shown(game)
        said = f"{name}: {summary(found)}"
        said = said.replace("±", "+/-") if args.ascii else said
        console.print(("\n" if number else "") + said, soft_wrap=True)  # a line for scripts
        console.print(levels_table(found, frame))
        console.print(_last_games(results, found, frame))


def _last_games(results: Results, found: GameStats, frame: box.Box) -> Table:
    """The last games, oldest first, each with the rating it left you."""
    table = Table(box=frame, show_edge=False, pad_edge=False, header_style="bold")
    for heading in ("date", "board", "against", "result", "plies", "rating"):
        table.add_column(heading, justify="right" if heading in ("plies", "rating") else "left")
    entries = [entry for entry in results.entries if entry.game == found.game]
    after = found.ratings[1:]  # the rating after each game
    for entry, rating in list(zip(entries, after, strict=True))[-LAST_GAMES:]:
        row = (entry.date, shown(entry.variant, 12) or "-", entry.level, entry.result)
        table.add_row(*row, str(entry.plies), rating_words(rating))
    return table
