"""`players`: a game server's leaderboard, as its rated games left it (docs/protocol.md,
Ratings)."""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..games.base import GameError, shown
from ..online.client import ask_players
from ..online.protocol import ProtocolError
from ..online.ratings import SPEEDS
from .arguments import add_game_option

if TYPE_CHECKING:
    import argparse

    from .arguments import Commands


def add_players(commands: Commands) -> None:
    players = commands.add_parser(
        "players",
        help="a game server's leaderboard",
        description="Print the best rated players of a game on a game server: rank, name, "
        "rating (? while provisional: fewer than 10 rated games), speed and games. Tab-separated "
        "when the output is not a terminal.",
    )
    players.add_argument("--server", metavar="URL", required=True, help="like ws://HOST:8765")
    add_game_option(players, variant=False, said="whose ratings")
    players.add_argument("--speed", choices=SPEEDS, help="one speed (default: every speed)")


def run_players(args: argparse.Namespace) -> None:
    server = args.server
    if not server.startswith(("ws://", "wss://")):
        raise GameError(f"'{shown(server)}' is not a server address: expected ws://HOST:PORT")
    try:
        standings = asyncio.run(ask_players(server, args.game, args.speed))
    except ProtocolError as error:
        raise GameError(f"{shown(server)} refused: {error}") from None
    except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, InvalidURI) as error:
        why = getattr(error, "strerror", None) or str(error) or "it did not answer in time"
        raise GameError(f"cannot ask {shown(server)}: {why}") from None
    rows = [
        (str(rank), s.name, f"{s.rating}{'?' if s.provisional else ''}", s.speed, str(s.games))
        for rank, s in enumerate(standings, 1)
    ]
    if not rows:
        print(f"No rated {args.game} games on {shown(server)} yet.")
        return
    if not sys.stdout.isatty():
        for row in rows:
            print("\t".join(row))
        return
    heads = ("#", "name", "rating", "speed", "games")
    widths = [max(len(cell) for cell in column) for column in zip(heads, *rows, strict=True)]
    for row in (heads, *rows):
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )


__all__ = ["add_players", "run_players"]
