"""`serve`: the game server other players' apps connect to (docs/protocol.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import logging
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from .. import storage
from ..games.base import GameError, shown
from ..online.limits import Limits
from ..online.server import STORE_NAME, GameServer, serve_forever
from ..registry import games
from ..saves import data_dir
from .arguments import PROG, port_number, whole_number

if TYPE_CHECKING:
    from .arguments import Commands

LOOPBACK = ("127.0.0.1", "localhost", "::1")
LOCK_NAME = "serve.lock"  # in --data: one server a data folder


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
    serve.add_argument(
        "--expire-days",
        type=days,
        default=Limits.unjoined_days,
        metavar="DAYS",
        help="remove a room whose second seat was not taken in DAYS days (default: 7)",
    )
    serve.add_argument(
        "--log-file",
        metavar="PATH",
        help="log each connection, refusal and game end there too (they go to stderr always)",
    )
    serve.add_argument(
        "--bench",
        action="store_true",
        help="do not count this machine's own (loopback) connections against the limits of an "
        "address: for bench/online.py, which plays thousands of games from here",
    )


def days(text: str) -> int:
    """argparse type: --expire-days, a whole number of days from 1 to 3650."""
    return whole_number(text, 1, 3650, "DAYS must be a whole number from 1 to 3650")


def run_serve(args: argparse.Namespace) -> None:
    folder = Path(args.data) if args.data else data_dir() / "server"
    limits = Limits(loopback_exempt=args.bench, unjoined_days=args.expire_days)
    try:
        with _held(folder), _logging(Path(args.log_file) if args.log_file else None):
            ready = _ready(args.host, folder)
            asyncio.run(serve_forever(args.host, args.port, folder, ready, limits))
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


@contextlib.contextmanager
def _held(folder: Path) -> Iterator[None]:
    """The data folder's lock, held while serving: a second server on it would hand out the
    same rooms twice."""
    lock_path = folder / LOCK_NAME
    try:
        storage.make_folder(folder)
        held = storage.lock(lock_path)
    except OSError as error:
        raise GameError(
            f"cannot lock {storage.named(lock_path)}: {error.strerror or error}"
        ) from None
    if held is None:
        raise GameError(
            f"another dipole-tui serve keeps its rooms in {storage.named(folder)} (it holds "
            f"{LOCK_NAME}): stop it, or give this one another --data"
        )
    try:
        yield
    finally:
        os.close(held)


class _OneLine(logging.Formatter):
    """A log entry in one line: the time, then the message (an error's name and text, never
    its traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        said = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            said += f" ({type(error).__name__}: {error})"
        stamp = datetime.fromtimestamp(record.created).isoformat(sep=" ", timespec="seconds")
        return f"{stamp} {shown(said, 1000)}"


class _FileLog(logging.Handler):
    """Each entry appended to `--log-file` (storage's log: never through a link, rotated past
    a megabyte); a file that cannot be written is said once on stderr."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.failed = False

    def emit(self, record: logging.LogRecord) -> None:
        try:
            storage.append_log(self.path, self.format(record) + "\n")
        except (OSError, ValueError) as error:
            if not self.failed:
                self.failed = True
                said = error.strerror if isinstance(error, OSError) else None
                print(f"{PROG} serve: cannot log to {self.path}: {said or error}", file=sys.stderr)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    def handleError(self, record: logging.LogRecord) -> None:
        """stderr is gone (a closed pipe): the server goes on without it."""


@contextlib.contextmanager
def _logging(path: Path | None) -> Iterator[None]:
    """The server's log, one line an entry, to stderr and to `path`; websockets' own chatter
    only when it is a warning."""
    handlers: list[logging.Handler] = [_Stderr(sys.stderr)]
    if path is not None:
        handlers.append(_FileLog(path))
    online = logging.getLogger("dipole_tui.online")
    logging.getLogger("dipole_tui.online.websockets").setLevel(logging.WARNING)
    for handler in handlers:
        handler.setFormatter(_OneLine())
        online.addHandler(handler)
    online.setLevel(logging.INFO)
    online.propagate = False
    try:
        yield
    finally:
        for handler in handlers:
            online.removeHandler(handler)
