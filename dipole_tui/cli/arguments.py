"""What every subcommand's arguments share: the parser that reports in one line, --game and
--variant, and the checks of numbers (plain ASCII digits within sane ranges, where Python's
int() and float() also take `٣`, `1_0`, `1e308` and `inf`)."""

from __future__ import annotations

import argparse
import io
import re
import sys
from typing import TYPE_CHECKING, NoReturn

from ..games.base import shown
from ..registry import REGISTRY

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

PROG = "dipole-tui"
ASCII_HELP = "draw with ASCII only, for limited terminals"
# What the command line takes: seconds a move or a position, games a match, worker processes,
# seeds (the program picks its own seeds below 2**32), the solver's table in MB.
SECONDS = (0.01, 3600.0)
MOST_GAMES = 100_000
MOST_JOBS = 256
MOST_SEED = 2**32 - 1
MEMORY_LEAST, MEMORY_MOST = 16, 65536


class UsageError(Exception):
    """Bad command-line arguments: reported in one line like any other error."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """As argparse's, but a failed write (--help to a full disk, or a closed pipe) is
        reported, not ignored: flushed before argparse exits, so main() sees it."""
        if message:
            stream = file or sys.stderr
            stream.write(message)
            if isinstance(stream, io.IOBase):
                stream.flush()


if TYPE_CHECKING:
    Commands = argparse._SubParsersAction[Parser]


def add_positions(parser: argparse.ArgumentParser) -> None:
    """The positions a command reads: given, or one per line on stdin (`positions.Batch`)."""
    parser.add_argument(
        "positions",
        nargs="*",
        metavar="POSITION",
        help="position strings (default: one per line on stdin)",
    )


def add_game_option(
    parser: argparse.ArgumentParser,
    variant: bool = True,
    said: str = "which game's rules to use",
    default: str | None = "dipole",
) -> None:
    """--game, and --variant where a command starts from a game's opening. Dipole when nothing
    is said: here only, never in the layers below (`play` says it itself, for a --game given
    is to be told from none)."""
    parser.add_argument(
        "--game",
        choices=sorted(REGISTRY),
        default=default,
        help=f"{said} (default: {default or 'every game'})",
    )
    if variant:
        parser.add_argument(
            "--variant",
            help="e.g. 8x8 or 10x10 (Dipole), multi (Bi-Pod) (default: the game's first)",
        )


def whole_number(text: str, least: int, most: int, expected: str) -> int:
    """argparse's check of every whole number: plain ASCII digits from `least` to `most`, as
    int() alone also takes `٣`, `1_0`, ` 7` and `+7`; else `expected` is said."""
    plain = text.isascii() and text.isdigit() and len(text) <= len(str(most))
    if plain and least <= int(text) <= most:
        return int(text)
    raise argparse.ArgumentTypeError(f"{expected}, not '{shown(text)}'")


def game_count(text: str) -> int:
    return whole_number(text, 1, MOST_GAMES, f"expected a whole number from 1 to {MOST_GAMES}")


def job_count(text: str) -> int:
    return whole_number(text, 1, MOST_JOBS, f"expected a whole number from 1 to {MOST_JOBS}")


def seed_number(text: str) -> int:
    return whole_number(text, 0, MOST_SEED, f"expected a whole number from 0 to {MOST_SEED}")


def depth(text: str) -> int:
    return whole_number(text, 1, 20, "DEPTH must be a whole number from 1 to 20")


def node_count(text: str) -> int:
    expected = "N must be a whole number of 1 or more, at most 15 digits"
    return whole_number(text, 1, 10**15 - 1, expected)


def megabytes(text: str) -> int:
    expected = f"MB must be a whole number from {MEMORY_LEAST} to {MEMORY_MOST}"
    return whole_number(text, MEMORY_LEAST, MEMORY_MOST, expected)


def port_number(text: str) -> int:
    """A TCP port to listen on (0: any free one)."""
    return whole_number(text, 0, 65535, "PORT must be a whole number from 0 to 65535")


def positive_seconds(text: str) -> float:
    """argparse type: seconds as plain digits (float() alone also takes `1e308`, `inf`, `nan`,
    `1_0` and `٣`), from a hundredth to an hour."""
    least, most = SECONDS
    if re.fullmatch(r"[0-9]*\.?[0-9]+", text) and least <= float(text) <= most:
        return float(text)
    raise argparse.ArgumentTypeError(
        f"expected seconds greater than 0 ({least:g} to {most:g}, in plain digits as 0.5 or 10), "
        f"not '{shown(text)}'"
    )
