"""`best`: the search of a level on positions, depth by depth, as the app's bots play.

One line per depth the search completes, `depth D score S nodes N time T pv M1 M2 ...`, in the
spirit of UCI's `info`, then `bestmove M`. S is from the side to move's view, in the unit its
game registers (Dipole's checkers), or `win N` / `loss N` for a result the search proved N
plies away (`Score.format`). The level plays as it does in the app: the same bot, made the same
way, with the same budget and seed, so the move said is the move it would play.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..bots import LEVELS, Budget, RandomBot
from ..bots.levels import SearchBot
from ..bots.search import Search, SearchResult, as_score
from ..games.base import GameError, M, State
from ..registry import REGISTRY, create_bot, game_named
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


def think(
    game_key: str,
    state: State[M],
    level: str,
    budget: Budget,
    seed: int | None,
    say: Callable[[str], None],
) -> M:
    """The move `level` plays in `state` (a position where the game goes on), saying its lines
    as they come. A level that deepens says each depth it completes, none if the move is the
    only one or the time runs out before depth 1 is done; a level that looks a fixed depth and
    picks among the nearly best moves (easy, medium) says one line: that depth and the score of
    the move it chose, which may trail the best."""
    entry = REGISTRY[game_key]
    game = entry.game
    try:
        bot = create_bot(level, game_key, seed)
    except ValueError as error:  # a level the game has no style for
        raise GameError(str(error)) from None
    if not isinstance(bot, SearchBot):
        raise GameError(f"the {level} level weighs no moves, so it has no score to give")
    search: Search[Any, M] = bot.search

    def line(result: SearchResult[M]) -> str:
        pv = search.principal_variation(state, result.move, result.depth)
        return (
            f"depth {result.depth} score {result.score.format(entry.unit)} "
            f"nodes {result.nodes} time {result.seconds:.3f} "
            f"pv {' '.join(game.format_move(move) for move in pv)}"
        )

    depths: list[int] = []

    def completed(result: SearchResult[M]) -> None:
        depths.append(result.depth)
        say(line(result))

    search.on_depth = completed
    started = time.perf_counter()
    move = bot.choose(state, budget)
    looked = bot.style.depth
    if not depths and looked is not None:
        seconds, nodes = time.perf_counter() - started, search.nodes
        # The depth SearchBot.choose gives such a level: its own, or the budget's if less.
        depth = min(looked, budget.depth or looked)
        after = state.copy()
        after.play(move)
        score = as_score(-search.score(after, depth - 1))  # exact: the window is left open
        say(line(SearchResult(move, score, depth, nodes, seconds)))
    say(f"bestmove {game.format_move(move)}")
    return move
