"""The `dipole-tui` command: the game with no subcommand, engine tools for scripts and study.

A module per subcommand (or pair of them) adds its arguments and runs it; here they are put
together, and every error is one line on stderr and exit status 2, never a traceback: output
that cannot be written too (a full disk, a closed pipe or standard output).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..games import BUILD
from ..games.base import GameError
from ..registry import game_named
from .analyse import add_analyse, run_analyse
from .arguments import ASCII_HELP, PROG, Parser, UsageError
from .best import add_best, run_best
from .listings import add_games, add_lobby, add_players, run_games, run_lobby, run_players
from .match import add_match, run_match
from .play import add_learn, add_play, run_learn, run_play
from .positions import LONGEST_LINE
from .rules import add_moves, add_perft, add_replay, run_moves, run_perft, run_replay
from .serve import add_serve, run_serve
from .solve import add_solve, run_solve
from .stats import add_stats, run_stats
from .web import add_web, run_web

__all__ = ["LONGEST_LINE", "PROG", "build_parser", "main"]

# The commands that print for scripts: they need standard output, the app does not.
ENGINE_TOOLS = (
    "moves", "perft", "replay", "match", "best", "solve", "analyse", "stats", "players", "lobby",
    "games",
)  # fmt: skip


def build_parser() -> argparse.ArgumentParser:
    """The whole command line, every subcommand's arguments, without running anything."""
    parser = Parser(
        prog=PROG,
        description="Dipole, Death Stacks and Bi-Pod in the terminal.",
        epilog="With no command, the game starts (as 'play' with its defaults).",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}, {BUILD}")
    parser.add_argument("--ascii", action="store_true", help=ASCII_HELP)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for add in (
        add_play,
        add_moves,
        add_perft,
        add_replay,
        add_match,
        add_best,
        add_solve,
        add_learn,
        add_analyse,
        add_stats,
        add_serve,
        add_players,
        add_lobby,
        add_games,
        add_web,
    ):
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        engine_tools = ENGINE_TOOLS + (("learn",) if args.command == "learn" and args.list else ())
        if args.command in engine_tools and sys.stdout is None:
            raise OSError("standard output is closed")  # started with >&-: print() would drop all
        status = 0  # or 2 when a position of a batch failed: said, and the others answered
        if args.command == "moves":
            status = run_moves(game_named(args.game), args.positions)
        elif args.command == "perft":
            run_perft(game_named(args.game), args.variant, args.position, args.depth)
        elif args.command == "replay":
            run_replay(args.file, game_named(args.game))
        elif args.command == "match":
            run_match(args)
        elif args.command == "best":
            status = run_best(args)
        elif args.command == "solve":
            status = run_solve(args)
        elif args.command == "analyse":
            run_analyse(args)
        elif args.command == "stats":
            run_stats(args)
        elif args.command == "web":
            run_web(args)
        elif args.command == "learn":
            run_learn(args)
        elif args.command == "serve":
            run_serve(args)
        elif args.command == "players":
            run_players(args)
        elif args.command == "lobby":
            run_lobby(args)
        elif args.command == "games":
            run_games(args)
        else:
            run_play(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # here, where a failure is reported, not at the interpreter's exit
    except (GameError, UsageError) as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except OSError as error:  # the commands report their files' errors as GameError
        return _output_lost(error)
    return status


def _output_lost(error: OSError) -> int:
    """Report output that could not be written, and send what is still buffered to the null
    device, so that the interpreter's own flush at exit does not fail again with a traceback."""
    print(f"{PROG}: cannot write the output: {error.strerror or error}", file=sys.stderr)
    if sys.stdout is not None:
        # OSError, ValueError: stdout is no file (a test's capture), so nothing is flushed at exit
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
    return 2
