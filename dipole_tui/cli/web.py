"""`web`: the app in a browser, served by textual-serve. Each browser tab that opens the page runs
`dipole-tui play` in a process of its own (this interpreter, this environment, so the same data
folder), as a terminal would; from there a player can join an online room like any other."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import shlex
import signal
import sys
import time
from typing import TYPE_CHECKING, Any

from ..games.base import GameError
from .arguments import ASCII_HELP, PROG, Parser, port_number
from .play import add_play, opened_record

if TYPE_CHECKING:
    from aiohttp import web

    from .arguments import Commands

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8000
# Seconds the tabs' apps have to quit when the server stops, before their pages are cut off.
GOODBYE = 5.0


def add_web(commands: Commands) -> None:
    serving = commands.add_parser(
        "web",
        help="serve the game to web browsers: each tab plays in an app of its own",
        description="Serve the app over HTTP for web browsers: every tab that opens the address "
        "runs 'dipole-tui play' on this machine with the PLAY_ARGUMENTs given after '--' (for "
        "example -- --new --game death-stacks). Ctrl+C stops the server and every tab's app.",
    )
    serving.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"the address to listen on (default: {LOOPBACK}, this machine only; another, "
        "such as 0.0.0.0, lets other machines in, and runs the app for whoever connects)",
    )
    serving.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"the port to listen on (default: {DEFAULT_PORT})",
    )
    serving.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=ASCII_HELP)
    serving.add_argument(
        "play", nargs="*", metavar="PLAY_ARGUMENT", help="what each tab's 'play' is given"
    )


def app_command(args: argparse.Namespace) -> list[str]:
    """The command a tab runs, its arguments checked by `play`'s own parser now, so that a
    mistake is said once here and not in every tab."""
    play = [*(["--ascii"] if getattr(args, "ascii", False) else []), *args.play]
    commands = Parser(prog=PROG).add_subparsers(parser_class=Parser)
    add_play(commands)
    opened_record(commands.choices["play"].parse_args(play))  # a bad RECORD too, said once
    # --web-tab: the app leaves the terminal's process group (its Ctrl+C is the server's, which
    # tells each tab to quit in order) and ends with the server, even a killed one.
    return [sys.executable, "-m", "dipole_tui", "play", "--web-tab", *play]


def run_web(args: argparse.Namespace) -> None:
    """Serve until Ctrl+C (or SIGTERM, or SIGHUP: its terminal closed); a port in use or an
    unknown host is one line."""
    from textual_serve.server import Server  # aiohttp loads only when the web is served

    class TabServer(Server):
        """textual-serve's server, saying only what a player needs: the address, once it is
        bound, and that the server stopped; every tab's app told to quit when it stops."""

        def __init__(self, command: list[str]) -> None:
            # exec: textual-serve starts the command through a shell, which would stay between
            # the server and the app, and keep the app from seeing the server gone.
            shell = f"exec {shlex.join(command)}"
            super().__init__(shell, host=args.host, port=args.port, title=PROG)
            self.tabs: set[asyncio.Task[Any]] = set()

        def initialize_logging(self) -> None:
            logging.basicConfig(level=logging.WARNING, format=f"{PROG} web: %(message)s")

        async def on_startup(self, app: web.Application) -> None:
            """Nothing: the banner is printed once the port is ours (`announce`)."""

        async def handle_index(self, request: web.Request) -> web.StreamResponse:
            """The page, its links to the address the browser used: with --host 0.0.0.0 a
            friend's browser reaches this machine by a name only it knows."""
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            tab = asyncio.current_task()
            assert tab is not None
            self.tabs.add(tab)
            try:
                return await super().handle_websocket(request)
            finally:
                self.tabs.discard(tab)

        async def on_shutdown(self, app: web.Application) -> None:
            """Cancel every tab: textual-serve then tells its app to quit and waits for the
            end of its output; and here for the end of its process, which asyncio watches
            until the loop closes (a traceback at exit, were it closed first)."""
            for tab in self.tabs:
                tab.cancel()
            if self.tabs:
                await asyncio.wait(self.tabs, timeout=GOODBYE)
            await apps_ended()

        def announce(self, *_: object) -> None:
            host = f"[{args.host}]" if ":" in args.host else args.host
            where = "this machine only" if args.host == LOOPBACK else "--host, as you chose"
            print(f"{PROG} web: serving the game on http://{host}:{args.port} ({where})")
            print("Open that address in a web browser; Ctrl+C stops.", flush=True)

        def serve(self, debug: bool = False) -> None:
            """As textual-serve's, with `announce` once bound and no access log."""
            from aiohttp import web

            self.initialize_logging()
            loop = asyncio.new_event_loop()
            for ending in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                loop.add_signal_handler(ending, self.request_exit)
            web.run_app(
                self._make_app(),
                host=args.host,
                port=args.port,
                handle_signals=False,
                loop=loop,
                print=self.announce,
                access_log=None,
                shutdown_timeout=GOODBYE,
            )

    server = TabServer(app_command(args))
    try:
        server.serve()
    except OSError as error:  # the port taken, the host unknown or not this machine's
        raise GameError(f"cannot serve on {args.host} port {args.port}: {why(error)}") from None
    print(f"{PROG} web: stopped", flush=True)


async def apps_ended() -> None:
    """Wait until every child process has ended and asyncio has heard of it, or GOODBYE."""
    deadline = time.monotonic() + GOODBYE
    while hasattr(os, "waitid") and time.monotonic() < deadline:  # POSIX, not every system
        try:  # WNOWAIT: only look; asyncio's watcher reaps them
            os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            break  # none left
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.05)  # its watcher's thread hands the loop the news


def why(error: OSError) -> str:
    """An error of the bind in a few words: asyncio's wraps the system's in a sentence."""
    if error.errno == errno.EADDRINUSE:
        return "the port is in use (choose another with --port)"
    if error.errno is not None and error.errno > 0:  # a resolver's error numbers are negative
        return os.strerror(error.errno).lower()
    return (error.strerror or str(error)).lower()
