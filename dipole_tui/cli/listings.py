"""`players`, `lobby` and `games`: what a game server lists, printed for people (aligned
columns on a terminal) and for scripts (tab-separated otherwise), and a player's finished games
downloaded as records. docs/protocol.md, Ratings, The lobby and Archive."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .. import storage
from ..games.base import GameError, shown
from ..online.client import ask_games, ask_lobby, ask_players
from ..online.protocol import PLAYER_NAME, Archive, ArchivedGame, Player, ProtocolError
from ..online.ratings import SPEEDS
from ..records import RECORD_LIMIT
from ..session import Session
from .arguments import add_game_option

if TYPE_CHECKING:
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


def add_games(commands: Commands) -> None:
    games = commands.add_parser(
        "games",
        help="a player's finished games on a game server, or their records downloaded",
        description="Print a player's finished games on a game server, newest first: date, "
        "game, white, black, result, rated or casual, and room. With -o, write each one's "
        "record into the folder DIR instead (the app opens them, as 'replay' and 'analyse' "
        "read them); a game whose file is there already is not written again.",
    )
    _add_server(games)
    games.add_argument("name", metavar="NAME", type=_player_name, help="the player's name there")
    add_game_option(games, variant=False, said="only this game's", default=None)
    games.add_argument("-o", "--output", metavar="DIR", help="write the records into DIR")


def _player_name(text: str) -> str:
    if PLAYER_NAME.fullmatch(text):
        return text
    raise argparse.ArgumentTypeError(
        f"'{shown(text)}' is no player's name: 3 to 20 letters (a-z, A-Z), digits, _ or -"
    )


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


def run_games(args: argparse.Namespace) -> None:
    """The table of the player's games, or (-o) their records written into DIR, with a bar
    on a terminal while the pages come; what was written is said however the download ends
    (Ctrl+C, a server gone), since each record is written whole as it comes."""
    from rich.console import Console

    from .progress_bar import progress_bar

    folder = None if args.output is None else _Folder(_archive_folder(args.output))
    listed: list[ArchivedGame] = []
    try:
        with progress_bar(Console(stderr=True), "games") as bar:
            task = bar.add_task(f"{args.name}'s games", total=None)

            def arrived(page: Archive) -> None:
                bar.update(task, total=page.total, advance=len(page.games))
                if folder is None:
                    listed.extend(page.games)
                else:
                    for game in page.games:
                        folder.keep(game)

            _asked(args.server, lambda: ask_games(args.server, args.name, args.game, arrived))
    except BaseException:
        if folder is not None and folder.looked:
            print(folder.summary())
        raise
    if folder is not None:
        print(folder.summary())
    elif not listed:
        print(f"No finished games of {args.name} on {shown(args.server)}.")
    else:
        _print(
            ("date", "game", "white", "black", "result", "rated", "room"),
            [
                (
                    g.date,
                    f"{g.game} {g.variant}".strip(),
                    g.white or "-",
                    g.black or "-",
                    g.result,
                    "rated" if g.rated else "casual",
                    g.room,
                )
                for g in listed
            ],
        )


def _archive_folder(given: str) -> Path:
    """The folder -o names, refused in one line before anything is asked of the server."""
    folder = Path(given)
    if not folder.is_dir():
        said = "is not a folder" if os.path.lexists(folder) else "does not exist"
        raise GameError(f"{storage.named(folder)} {said}: -o names the folder to write into")
    return folder


class _Folder:
    """The records written into a folder: each game once, under a name of safe characters; a
    record that does not read back (the server's word is not trusted) and a file there
    already are left as they are, each said in a line."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.looked = self.written = self.there = 0

    def keep(self, game: ArchivedGame) -> None:
        self.looked += 1
        try:
            Session.from_text(game.record)
        except GameError as error:
            _warn(f"the record of room {game.room} does not read ({error}): skipped")
            return
        path = self.folder / record_name(game)
        if os.path.lexists(path):
            self.there += 1
            try:
                same = storage.read_text(path, RECORD_LIMIT, "a game record") == game.record
            except storage.UnreadableFile:
                same = False
            if not same:
                _warn(f"{storage.named(path)} is there already, not this record: left as it is")
            return
        storage.write_text(path, game.record)
        self.written += 1

    def summary(self) -> str:
        wrote = f"{self.written} game{'s' * (self.written != 1)}"
        there = f" ({self.there} there already)" if self.there else ""
        return f"Wrote {wrote} into {storage.named(self.folder)}{there}."


def record_name(game: ArchivedGame) -> str:
    """The file a game's record is written to: its date, players and room, in safe characters
    only whatever the server says (`2025-06-01_Alice-v-Bob_K7QMWD.txt`)."""
    date = re.sub(r"[^0-9]+", "-", game.date).strip("-")[:10] or "undated"
    white, black = (_safe(name or "anonymous") for name in (game.white, game.black))
    return f"{date}_{white}-v-{black}_{_safe(game.room)}.txt"


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)[:20] or "_"


def _warn(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


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


__all__ = [
    "add_games",
    "add_lobby",
    "add_players",
    "record_name",
    "run_games",
    "run_lobby",
    "run_players",
]
