"""`serve`: the game server other players' apps connect to (docs/protocol.md)."""

from __future__ import annotations

import argparse
import asyncio
import errno
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..games.base import GameError
from ..online.server import STORE_NAME, GameServer, serve_forever
from ..registry import games
from ..saves import data_dir
from .arguments import port_number

if TYPE_CHECKING:
    from .arguments import Commands

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def add_serve(commands: Commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="run the game server for online play",
        description="Run the game server: rooms where two players play and others watch, every "
        "move kept in DIR before it is relayed. It listens on loopback unless --host says "
        "otherwise.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=port_number, default=8765, help="default: 8765")
    serve.add_argument(
        "--data",
        metavar="DIR",
        help="where the rooms are kept (default: the app's data folder/server)",
    )


def run_serve(args: argparse.Namespace) -> None:
    folder = Path(args.data) if args.data else data_dir() / "server"
    try:
        asyncio.run(serve_forever(args.host, args.port, folder, _ready(args.host, folder)))
    except OSError as error:
        said = "the port is in use" if error.errno == errno.EADDRINUSE else error.strerror
        raise GameError(f"cannot serve on {args.host}:{args.port}: {said or error}") from None
    except sqlite3.Error as error:
        raise GameError(f"cannot keep rooms in {folder / STORE_NAME}: {error}") from None


def _ready(host: str, folder: Path) -> Callable[[GameServer], None]:
    def say(server: GameServer) -> None:
        names = [game.name for game in games()]
        listed = ", ".join(names[:-1]) + " and " + names[-1]
        shown = f"[{host}]" if ":" in host else host
        print(
            f"Serving {listed} at ws://{shown}:{server.port} (rooms in {folder / STORE_NAME}); "
            "ctrl+c stops",
            flush=True,
        )
        if host not in LOOPBACK:
            print(
                f"Listening on {host}, as you chose: other machines can reach this server.",
                flush=True,
            )

    return say
