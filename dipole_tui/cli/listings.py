"""`players` and `lobby`: what a game server lists, printed for people (aligned columns on a
terminal) and for scripts (tab-separated otherwise). docs/protocol.md, Ratings and The lobby."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..games.base import GameError, shown
from ..online.client import ask_lobby, ask_players
from ..online.protocol import Player, ProtocolError
from ..online.ratings import SPEEDS
from .arguments import add_game_option

if TYPE_CHECKING:
    import argparse

    from .arguments import Commands

T = TypeVar("T")


def add_players(commands: Commands) -> None:
    players = commands.add_parser(
        "players",
        help="a game server's leaderboard",
        description="Print the best rated players of a game on a game server: rank, name, "
        "rating (? while provisional: fewer than 10 rated games), speed and games.",
    )
    _add_server(players)
    add_game_option(players, variant=False, said="whose ratings")
    players.add_argument("--speed", choices=SPEEDS, help="one speed (default: every speed)")


def add_lobby(commands: Commands) -> None:
    lobby = commands.add_parser(
        "lobby",
        help="a game server's open seeks and games going on",
        description="Print the seeks waiting in a game server's lobby (take one with 'play "
        "--server URL --accept SEEK') and the games going on (watch one with 'play --server URL "
        "--watch ROOM').",
    )
    _add_server(lobby)
    add_game_option(lobby, variant=False, said="only this game's", default=None)


def _add_server(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", metavar="URL", required=True, help="like ws://HOST:8765")


def run_players(args: argparse.Namespace) -> None:
    ranked = _asked(args.server, lambda: ask_players(args.server, args.game, args.speed))
    if not ranked:
        print(f"No rated {args.game} games on {shown(args.server)} yet.")
        return
    _print(
        ("#", "name", "rating", "speed", "games"),
        [
            (str(n), r.name, _rating(r.rating, r.provisional), r.speed, str(r.games))
            for n, r in enumerate(ranked, 1)
        ],
    )


def run_lobby(args: argparse.Namespace) -> None:
    lobby = _asked(args.server, lambda: ask_lobby(args.server, args.game))
    if lobby.seeks:
        _print(
            ("seek", "name", "rating", "game", "clock", "rated", "side"),
            [
                (
                    s.seek,
                    s.name,
                    _rating(s.rating, s.provisional),
                    f"{s.game} {s.variant}".strip(),
                    s.clock or "-",
                    "rated" if s.rated else "casual",
                    s.side or "random",
                )
                for s in lobby.seeks
            ],
        )
    else:
        print("No seeks in the lobby: 'play --server URL --seek' posts one.")
    if lobby.games:
        print()
        _print(
            ("room", "white", "black", "game", "clock", "rated", "plies", "watchers"),
            [
                (
                    g.room,
                    *(_player(p) for p in g.players or (None, None)),
                    f"{g.game} {g.variant}".strip(),
                    g.clock or "-",
                    "rated" if g.rated else "casual",
                    str(g.plies),
                    str(g.watchers),
                )
                for g in lobby.games
            ],
        )


def _asked(server: str, question: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """The server's answer; GameError in one line when it cannot say."""
    if not server.startswith(("ws://", "wss://")):
        raise GameError(f"'{shown(server)}' is not a server address: expected ws://HOST:PORT")
    try:
        return asyncio.run(question())
    except ProtocolError as error:
        raise GameError(f"{shown(server)} refused: {error}") from None
    except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake, InvalidURI) as error:
        why = getattr(error, "strerror", None) or str(error) or "it did not answer in time"
        raise GameError(f"cannot ask {shown(server)}: {why}") from None


def _rating(rating: int | None, provisional: bool | None) -> str:
    return "-" if rating is None else f"{rating}{'?' if provisional else ''}"


def _player(player: Player | None) -> str:
    return "-" if player is None else f"{player.name} {_rating(player.rating, player.provisional)}"


def _print(heads: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Rows under their heads, aligned on a terminal; tab-separated, without heads, else."""
    if not sys.stdout.isatty():
        for row in rows:
            print("\t".join(row))
        return
    widths = [max(len(cell) for cell in column) for column in zip(heads, *rows, strict=True)]
    for row in (heads, *rows):
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )


__all__ = ["add_lobby", "add_players", "run_lobby", "run_players"]
