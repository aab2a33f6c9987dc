"""`solve`: who wins a position with best play, proved by the exact solver."""

from __future__ import annotations

import argparse
import functools
from typing import TYPE_CHECKING, Any

from ..analysis import proof_knowledge, solve
from ..bots.proof import MEMORY_MB, Table
from ..games.base import GameError
from ..registry import game_named
from .arguments import (
    MEMORY_LEAST,
    MEMORY_MOST,
    add_game_option,
    add_positions,
    megabytes,
    node_count,
)
from .positions import Batch, position_to_search

if TYPE_CHECKING:
    from .arguments import Commands


def add_solve(commands: Commands) -> None:
    solving = commands.add_parser(
        "solve",
        help="prove who wins a position with best play, and in how many plies",
        description="For each position, print 'win in N plies: M' or 'loss in N plies: M' for "
        "the side to move (the winner ends the game as fast as it can, the loser holds out as "
        "long as it can; N counts every ply to the end, passes included; M keeps that result), "
        "'draw: M' where neither side can force a win (Death Stacks: a repetition ends it "
        "drawn; Bi-Pod: the board fills), or 'unknown after N nodes' when --max-nodes runs out.",
    )
    add_game_option(solving, variant=False)
    solving.add_argument(
        "--max-nodes",
        type=node_count,
        metavar="N",
        help="give up after N positions searched (default: no limit; Ctrl+C stops)",
    )
    solving.add_argument(
        "--memory",
        type=megabytes,
        default=MEMORY_MB,
        metavar="MB",
        help=f"the solver's table takes at most MB megabytes, {MEMORY_LEAST} to {MEMORY_MOST} "
        f"(default: {MEMORY_MB}); less is slower, never less exact",
    )
    add_positions(solving)


def run_solve(args: argparse.Namespace) -> int:
    """The `solve` subcommand: each position proved in turn; a spinner with the nodes searched
    on stderr while it works, when stderr is a terminal."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn

    game = game_named(args.game)
    proof_knowledge(game)  # a game the solver cannot solve is refused before any input is read
    try:  # and so is a table the system will not give (reserved, not yet written: no cost)
        Table(args.memory << 20).close()
    except MemoryError as error:
        raise GameError(str(error)) from None
    console = Console(stderr=True)
    batch = Batch(args.positions)
    for where, text in batch:
        try:
            state = position_to_search(game, text)
        except GameError as error:
            batch.fail(where, error)
            continue
        with Progress(
            SpinnerColumn(),
            TextColumn("solving: {task.fields[nodes]:,} nodes"),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        ) as progress:
            task = progress.add_task("solve", nodes=0)
            solution = solve(
                game,
                state,
                max_nodes=args.max_nodes,
                progress=functools.partial(_show_nodes, progress, task),
                memory=args.memory << 20,
            )
        if solution.result is None or solution.move is None:
            print(f"unknown after {solution.nodes} nodes", flush=True)
        elif solution.result == "draw":
            print(f"draw: {game.format_move(solution.move)}", flush=True)
        else:
            move = game.format_move(solution.move)
            print(f"{solution.result} in {solution.plies} plies: {move}", flush=True)
    return batch.status


def _show_nodes(progress: Any, task: Any, nodes: int) -> None:
    progress.update(task, nodes=nodes)
