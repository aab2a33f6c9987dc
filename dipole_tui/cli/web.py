"""`web`: the app in a browser, served by textual-serve (web_tabs.py). Each browser tab that opens
the page runs `dipole-tui play` in a process of its own (this interpreter, this environment), as
a terminal would, its files in its visitor's folder under `web/` in the data folder; from there a
player can join an online room like any other."""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import sys
from typing import TYPE_CHECKING

from ..games.base import GameError
from ..saves import data_dir
from .arguments import ASCII_HELP, PROG, Parser, port_number, whole_number
from .play import add_play, opened_record

if TYPE_CHECKING:
    from .arguments import Commands

LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_TABS = 4  # each tab's app is a process of about 49 MiB: the cap bounds the memory
MOST_TABS = 1000


def add_web(commands: Commands) -> None:
    serving = commands.add_parser(
        "web",
        help="serve the game to web browsers: each tab plays in an app of its own",
        description="Serve the app over HTTP for web browsers: every tab that opens the address "
        "printed (with its token) runs 'dipole-tui play' on this machine with the PLAY_ARGUMENTs "
        "given after '--' (for example -- --game death-stacks). Each browser is a visitor with "
        "its own folder of games, and its tab starts where that visitor left off. Ctrl+C stops "
        "the server and every tab's app.",
    )
    serving.add_argument(
        "--host",
        default=LOOPBACK,
        help=f"the address to listen on (default: {LOOPBACK}, this machine only; another, "
        "such as 0.0.0.0, lets other machines in: whoever has the address printed, token and all, "
        "runs the app)",
    )
    serving.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"the port to listen on (default: {DEFAULT_PORT})",
    )
    serving.add_argument(
        "--max-tabs",
        type=tab_count,
        default=DEFAULT_TABS,
        metavar="N",
        help=f"the most tabs served at once, each an app of about 50 MiB (default: {DEFAULT_TABS})",
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
    parsed = commands.choices["play"].parse_args(play)
    if parsed.new:
        raise GameError(
            "--new cannot go with web: each tab starts with its visitor's own game "
            "(a new one is a key away)"
        )
    opened_record(parsed)  # a bad RECORD too, said once
    # --web-tab: the app leaves the terminal's process group (its Ctrl+C is the server's, which
    # tells each tab to quit in order) and ends with the server, even a killed one.
    return [sys.executable, "-m", "dipole_tui", "play", "--web-tab", *play]


def run_web(args: argparse.Namespace) -> None:
    """Serve until Ctrl+C (or SIGTERM, or SIGHUP: its terminal closed); a port in use or an
    unknown host is one line."""
    from .web_tabs import TabServer  # aiohttp loads only when the web is served

    def announce(url: str) -> None:
        where = "this machine only" if loopback(args.host) else "--host, as you chose"
        print(f"{PROG} web: serving the game on {url} ({where})")
        print("Open that address in a web browser; Ctrl+C stops.", flush=True)
        if not loopback(args.host):
            print(
                f"{PROG} web: warning: listening on {args.host}, not this machine only: whoever "
                f"reaches it with the address above runs the app here ({args.max_tabs} tabs at "
                "most)",
                file=sys.stderr,
                flush=True,
            )

    server = TabServer(
        app_command(args),
        host=args.host,
        port=args.port,
        data=data_dir(),
        max_tabs=args.max_tabs,
        announce=announce,
    )
    try:
        server.serve()
    except OSError as error:  # the port taken, the host unknown or not this machine's
        raise GameError(f"cannot serve on {args.host} port {args.port}: {why(error)}") from None
    print(f"{PROG} web: stopped", flush=True)


def tab_count(text: str) -> int:
    return whole_number(text, 1, MOST_TABS, f"N must be a whole number from 1 to {MOST_TABS}")


def loopback(host: str) -> bool:
    """Whether an address to listen on is this machine's alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name
        return False


def why(error: OSError) -> str:
    """An error of the bind in a few words: asyncio's wraps the system's in a sentence."""
    if error.errno == errno.EADDRINUSE:
        return "the port is in use (choose another with --port)"
    if error.errno is not None and error.errno > 0:  # a resolver's error numbers are negative
        return os.strerror(error.errno).lower()
    return (error.strerror or str(error)).lower()
