"""`best`: the search of a level on positions, depth by depth, as the app's bots play."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ..bots import LEVELS, Budget, RandomBot
from ..engine import think
from ..games.base import GameError
from ..registry import REGISTRY, game_named
from .arguments import add_game_option, add_positions, depth, positive_seconds, seed_number
from .positions import Batch, position_to_search

if TYPE_CHECKING:
    from .arguments import Commands

# Seconds `best` thinks when given no limit: what the app's hard thinks unless --think says.
BEST_MOVETIME = 1.0


def add_best(commands: Commands) -> None:
    units = ", ".join(f"{entry.unit.name} ({entry.game.name})" for entry in REGISTRY.values())
    best = commands.add_parser(
        "best",
        help="search positions and print the best move, depth by depth",
        description="For each position, print 'depth D score S nodes N time T pv MOVES' for "
        "each depth searched, then 'bestmove M'. S is the side to move's, in "
        f"{units}, or 'win N' / 'loss N' plies away.",
    )
    add_game_option(best)
    searching = [name for name in LEVELS if name != RandomBot.name]
    best.add_argument(
        "--level",
        choices=searching,
        default="hard",
        help="play as this level plays in the app (default: hard)",
    )
    limit = best.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=depth, metavar="D", help="search D plies deep")
    limit.add_argument(
        "--movetime",
        type=positive_seconds,
        metavar="S",
        help=f"think S seconds (default: {BEST_MOVETIME:g} unless --depth)",
    )
    best.add_argument(
        "--seed",
        type=seed_number,
        metavar="N",
        help="seed of easy's and medium's choice (default: random)",
    )
    add_positions(best)


def run_best(args: argparse.Namespace) -> int:
    """The `best` subcommand: each position answered in turn by a fresh bot, so an answer does
    not depend on the positions before it."""
    game = game_named(args.game)
    if args.variant:
        game.new(args.variant)  # a variant the game lacks is refused before any input is read
    budget = (
        Budget(movetime=None, depth=args.depth)
        if args.depth
        else Budget(movetime=args.movetime or BEST_MOVETIME)
    )
    batch = Batch(args.positions)
    for where, text in batch:
        try:
            state = position_to_search(game, text, args.variant)
        except GameError as error:
            batch.fail(where, error)
            continue
        think(args.game, state, args.level, budget, args.seed, lambda line: print(line, flush=True))
    return batch.status
