"""`moves`, `perft` and `replay`: the rules engine on the command line, for scripts and study."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..games.base import AnyGame, GameError, State, title
from ..perft import perft
from ..records import load_record, numbered_moves, start_of
from .arguments import add_game_option, add_positions, depth
from .positions import Batch, check_variant

if TYPE_CHECKING:
    from rich.console import Console

    from .arguments import Commands


def add_moves(commands: Commands) -> None:
    moves = commands.add_parser(
        "moves",
        help="list the legal moves of positions",
        description="Print one line per position: its legal moves in canonical notation, "
        "'pass' when forced, an empty line when the game is over.",
    )
    add_game_option(moves, variant=False)  # positions carry their variant
    add_positions(moves)


def add_perft(commands: Commands) -> None:
    count = commands.add_parser(
        "perft",
        help="count the positions reached after each number of plies",
        description="Print 'depth nodes' for each depth 1..DEPTH, then the time taken.",
    )
    add_game_option(count)
    count.add_argument("--position", help="start from this position string instead")
    count.add_argument("depth", type=depth, metavar="DEPTH", help="the deepest ply to count")


def add_replay(commands: Commands) -> None:
    replay = commands.add_parser(
        "replay",
        help="replay a saved game and print its moves and final position",
        description="Load a record through the rules engine; the last line printed is the "
        "final position string.",
    )
    replay.add_argument("file", metavar="FILE", help="a game record")
    add_game_option(replay, variant=False, said="the game of a record with no Game tag")


def run_moves(game: AnyGame, given: Sequence[str]) -> int:
    batch = Batch(given)
    for where, text in batch:
        try:
            state = game.parse_position(text)
        except GameError as error:
            batch.fail(where, error)
            continue
        print(" ".join(game.format_move(move) for move in state.legal_moves()), flush=not given)
    return batch.status


def run_perft(game: AnyGame, variant: str | None, position: str | None, plies: int) -> None:
    from rich.console import Console

    state: State[Any] = game.parse_position(position) if position else game.new(variant)
    if position:
        check_variant(game, variant, state)
    console = Console(stderr=True)  # the bar, on a terminal only: stdout's lines are for scripts
    started = time.perf_counter()
    for ply in range(1, plies + 1):
        print(f"{ply} {_counted_with_a_bar(console, state, ply)}", flush=True)
    print(f"time {time.perf_counter() - started:.3f} s")


def _counted_with_a_bar(console: Console, state: State[Any], ply: int) -> int:
    """perft to `ply`, with a bar of its own over the first moves: gone before the depth's line
    is printed, so that the line goes to stdout whatever that is, and never under the bar."""
    from .progress_bar import progress_bar

    with progress_bar(console, "first moves") as bar:
        task = bar.add_task(f"depth {ply}", total=None)
        return perft(state, ply, lambda done, total: bar.update(task, completed=done, total=total))


def run_replay(path: str, default: AnyGame) -> None:
    record = load_record(path, default)
    game, state = record.game, record.state
    first, second = game.side_names  # the White and Black tags name the first and second side
    print(
        f"{title(game, state.variant)}: {record.tags.get('White', '?')} ({first}) "
        f"v {record.tags.get('Black', '?')} ({second}), result {record.result}"
    )
    for line in numbered_moves(game, start_of(state).to_move, state.moves_played):
        print(line)
    print(state.diagram())
    outcome = state.outcome() or record.ending  # a resignation, a flag, a draw agreed
    if outcome is not None:
        winner = "drawn" if outcome.winner is None else f"{game.side_names[outcome.winner]} wins"
        print(f"Game over: {winner} ({outcome.reason})")
    else:
        print(f"{game.side_names[state.to_move]} to move")
    print(state.position())
