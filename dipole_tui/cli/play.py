"""`play` (the default command) and `learn`: the commands that open the app."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import learn as learning
from ..clock import DAYS, TimeControl
from ..control.choice import GameChoice, OnlineChoice
from ..games.base import GameError, shown
from ..online.names import name_problem
from ..online.protocol import SIDES, invitation_text, room_or_invitation
from ..orphans import end_with_parent
from ..records import load_record
from ..registry import REGISTRY, describe_level, game_named, levels
from ..saves import data_dir
from ..session import HUMAN, PLAYERS, Seat, Session
from ..session import players as players_of
from .arguments import ASCII_HELP, PROG, add_game_option, positive_seconds

if TYPE_CHECKING:
    from .arguments import Commands


def _levels_help() -> str:
    """Each game's levels with their numbers and ratings (Elo over random, measured by
    bench/ladder.py), for `play --help`. A level is never split across lines."""
    lines = ["levels, weakest first, with their Elo ratings over random (hard at 0.2 s a move):"]
    for key, entry in REGISTRY.items():
        shown = ", ".join(describe_level(key, level).replace(" ", "\xa0") for level in levels(key))
        wrapped = textwrap.wrap(
            shown, 78, initial_indent=f"  {entry.game.name}: ", subsequent_indent="    "
        )
        lines.extend(line.replace("\xa0", " ") for line in wrapped)
    return "\n".join(lines)


def add_play(commands: Commands) -> None:
    play = commands.add_parser(
        "play",
        help="play in the terminal (the default command)",
        description="Open the game. With --new, start a fresh game at once, no questions asked;\n"
        "with a RECORD, play on from that saved game.",
        epilog=_levels_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument(
        "record",
        nargs="?",
        type=Path,
        metavar="RECORD",
        help="a saved game (a record file) to open and play on, as o opens one in the app; its "
        "game, variant and clocks are the record's (an unfinished game in the autosave is kept)",
    )
    add_game_option(play, default=None)  # None: not given, Dipole (or the record's game)
    seat = "human, a level of the game (below), or adaptive (a level that follows you)"
    play.add_argument(
        "--white",
        choices=PLAYERS,
        metavar="PLAYER",
        help=f"who moves first (White, Red, First): {seat}; with a RECORD, the record's player "
        "unless given (default: human)",
    )
    play.add_argument(
        "--black",
        choices=PLAYERS,
        metavar="PLAYER",
        help="who moves second (Black, Second)",
    )
    play.add_argument(
        "--clock",
        type=time_control,
        metavar="MINUTES+SECONDS",
        help="play the new game with clocks: minutes each (a fraction too, as 0.5) and seconds "
        "added after each move, like 5+3 (default: no clocks; days a move: --days)",
    )
    play.add_argument("--new", action="store_true", help="start a new game, ignoring the autosave")
    add_online_options(play)
    # SUPPRESS: 'dipole-tui --ascii play' keeps the flag given before the command
    play.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=ASCII_HELP)
    # A tab of `dipole-tui web` (web.py gives it): in a session of its own, so that the
    # terminal's Ctrl+C is the web server's alone, and ending with that server however it ends.
    play.add_argument("--web-tab", action="store_true", help=argparse.SUPPRESS)
    play.add_argument(
        "--think",
        type=positive_seconds,
        default=1.0,
        metavar="SECONDS",
        help="how long the hard bot thinks per move (default: 1)",
    )


def add_online_options(play: argparse.ArgumentParser) -> None:
    online = play.add_argument_group(
        "online play", "a game against a friend elsewhere, through a server (dipole-tui serve)"
    )
    online.add_argument("--server", metavar="URL", help="the game server, like ws://127.0.0.1:8765")
    room = online.add_mutually_exclusive_group()
    room.add_argument(
        "--new-room",
        action="store_true",
        help="open a new room for this game (--game, --variant, --clock); the screen shows the "
        "command a friend types to join",
    )
    room.add_argument(
        "--join",
        type=room_arg,
        metavar="INVITATION",
        help="take the free seat of a room with the invitation its creator passed on "
        "(CODE-KEY), or come back to your own seat in room CODE",
    )
    room.add_argument("--watch", type=room_arg, metavar="CODE", help="watch a room's game")
    room.add_argument(
        "--seek",
        action="store_true",
        help="wait in the lobby for a game of --game, --variant and --clock (--rated or not): "
        "it starts when someone takes it, or at once when a seek that fits is there",
    )
    room.add_argument(
        "--accept",
        type=room_arg,
        metavar="SEEK",
        help="take a seek of the lobby (its code, as 'dipole-tui lobby' lists it)",
    )
    online.add_argument(
        "--name",
        type=player_name,
        help="the name you play under on that server (kept with its key in the data folder: "
        "the server's first game under a new name claims it for you)",
    )
    online.add_argument(
        "--days",
        type=days_a_move,
        metavar="N",
        help="with --new-room or --seek, instead of --clock: a correspondence game of N days a "
        "move (1, 2, 3, 5, 7 or 14), the time left set back to N days after each move; the "
        "server flags a side whose days run out, connected or not",
    )
    kind = online.add_mutually_exclusive_group()
    kind.add_argument(
        "--rated",
        action="store_true",
        help="with --new-room or --seek: a rated game (it needs --name and --clock; both "
        "players' ratings change at its end)",
    )
    kind.add_argument("--casual", action="store_true", help="not rated (the default)")
    online.add_argument(
        "--range",
        type=rating_range,
        metavar="POINTS",
        help="with --seek: the most the other player's rating may differ from yours",
    )
    online.add_argument(
        "--invite",
        type=player_name,
        metavar="NAME",
        help="with --seek: a seek only that player sees (and takes)",
    )
    online.add_argument(
        "--side",
        choices=SIDES,
        default="random",
        help="with --new-room: the side you play (default: random)",
    )


def room_arg(text: str) -> str:
    """argparse type: a room code (any case) or an invitation (CODE-KEY), as the server keeps
    them."""
    found = room_or_invitation(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            f"'{shown(text)}' is not a room code or an invitation: expected 4 to 12 letters "
            "and digits, or the CODE-KEY the room's creator was given"
        )
    code, key = found
    return code if key is None else invitation_text(code, key)


def days_a_move(text: str) -> int:
    """argparse type: `--days`, one of lichess's days a move."""
    if not (text.isascii() and text.isdigit() and len(text) <= 2 and int(text) in DAYS):
        raise argparse.ArgumentTypeError(
            f"'{shown(text, 20)}' is not a number of days a move: 1, 2, 3, 5, 7 or 14"
        )
    return int(text)


def game_clock(args: argparse.Namespace) -> TimeControl | None:
    """The new game's time control: `--clock`'s, or `--days`' for a room or a seek; GameError
    in one line for both, or days without a server's game."""
    clock, days = getattr(args, "clock", None), getattr(args, "days", None)
    if days is None:
        return clock
    if clock is not None:
        raise GameError(
            "--clock and --days: one or the other (minutes and seconds, or days a move)"
        )
    if not (getattr(args, "new_room", False) or getattr(args, "seek", False)):
        raise GameError(
            "--days goes with --new-room or --seek: a game of days is played on a server"
        )
    return TimeControl.per_move(days)


def rating_range(text: str) -> int:
    """argparse type: `--range`, rating points from 0 to 4000."""
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and int(text) <= 4000):
        raise argparse.ArgumentTypeError(f"'{shown(text, 20)}' is not a range: 0 to 4000 points")
    return int(text)


def player_name(text: str) -> str:
    """argparse type: `--name`, refused in one line unless it may be a player's name."""
    if problem := name_problem(text):
        raise argparse.ArgumentTypeError(problem)
    return text


def online_choice(args: argparse.Namespace, game: GameChoice) -> OnlineChoice | None:
    """The room the command line asks for (None: a game here); GameError when half asked."""
    server = getattr(args, "server", None)
    join, watch = getattr(args, "join", None), getattr(args, "watch", None)
    new_room = getattr(args, "new_room", False)
    name = getattr(args, "name", None)
    seek, accept = getattr(args, "seek", False), getattr(args, "accept", None)
    if server is None:
        if new_room or join or watch or name or seek or accept:
            raise GameError(
                "--new-room, --seek, --accept, --join, --watch and --name need --server URL"
            )
        return None
    if not server.startswith(("ws://", "wss://")):
        raise GameError(f"'{shown(server)}' is not a server address: expected ws://HOST:PORT")
    rated = getattr(args, "rated", False)
    if rated and not (new_room or seek):
        raise GameError("--rated goes with --new-room or --seek: the game's maker says so")
    if rated and game.time_control is None:
        raise GameError("a rated game needs a clock: add --clock 5+3 or --days 3, say")
    most, invite = getattr(args, "range", None), getattr(args, "invite", None)
    if (most is not None or invite) and not seek:
        raise GameError("--range and --invite go with --seek")
    if new_room or seek:
        kind = "seek" if seek else "create"
        return OnlineChoice(server, kind, game=game, side=args.side, name=name, rated=rated,
                            range=most, invite=invite)  # fmt: skip
    if accept:
        return OnlineChoice(server, "accept", room=str(accept), name=name)
    if join or watch:
        kind, room = "join" if join else "watch", str(join or watch)
        return OnlineChoice(server, kind, room=room, name=name)
    raise GameError(
        "with --server, say --new-room, --seek, --accept SEEK, --join CODE or --watch CODE"
    )


def time_control(text: str) -> TimeControl:
    """argparse type: `--clock 5+3`; a bad one is a usage error in one line, and so are days a
    move (`--days`: a game of days is played on a server, never here)."""
    try:
        control = TimeControl.parse(text)
    except GameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if control.days is not None:
        raise argparse.ArgumentTypeError(
            f"days a move are --days {control.days}, with --new-room or --seek"
        )
    return control


def add_learn(commands: Commands) -> None:
    learn = commands.add_parser(
        "learn",
        help="learn a game: lessons for every rule, and puzzles",
        description="Open the lessons and puzzles of a game in the app; with --list, print one "
        "line per lesson and puzzle, tab-separated: id, game, kind, position, solution, title.",
    )
    learn.add_argument(
        "--game", choices=sorted(REGISTRY), help="only this game's (default: every game's)"
    )
    learn.add_argument("--list", action="store_true", help="print them instead")
    learn.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=ASCII_HELP)


# Options that choose the game to play: given, it starts at once when no game is saved (the
# new-game dialog opens only for `dipole-tui` or `play` alone); --white and --black too.
CHOOSING = ("game", "variant", "clock")


def run_play(args: argparse.Namespace, learn: str | None = None) -> None:
    """Open the app; with no subcommand, with the defaults and the autosave offered."""
    from ..app.app import GameApp  # Textual loads only when the game is played
    from ..app.boards.registered import playable

    opened = opened_record(args)
    key = opened.game.key if opened else getattr(args, "game", None) or "dipole"
    game = game_named(key)
    if key not in playable():
        raise GameError(f"{game.name} can be studied with moves, perft and replay, not played yet")
    asked = getattr(args, "variant", None)  # the game checks and names it
    variant = opened.state.variant if opened else game.new(asked).variant
    given = (getattr(args, "white", None), getattr(args, "black", None))
    white, black = (  # a record's own seats where none is given; argparse's choices checked them
        Seat(text) if text else opened.players[side] if opened else HUMAN
        for side, text in enumerate(given)
    )
    players = (white, black)
    for seat in players:
        if seat not in players_of(key):
            offered = ", ".join(levels(key))
            raise GameError(f"{game.name} has no level called {seat!r}; its levels are {offered}")
    if opened:
        opened.players = players
    choice = GameChoice(key, variant, players, game_clock(args))
    online = online_choice(args, choice)
    if getattr(args, "web_tab", False):
        be_a_tab()
    if online is not None and not (white.is_person and black.is_person):
        raise GameError("an online game is played by people: leave out --white and --black")
    app = GameApp(
        online=online,
        think_time=getattr(args, "think", 1.0),
        choice=choice,
        session=opened,
        new=getattr(args, "new", False),
        chosen=any(given) or any(getattr(args, name, None) for name in CHOOSING),
        ascii_glyphs=getattr(args, "ascii", False),
        learn=learn,
        web_tab=getattr(args, "web_tab", False),
    )
    app.run()


def opened_record(args: argparse.Namespace) -> Session[Any] | None:
    """The game `play RECORD` plays on (None: no RECORD); GameError in one line for a file that
    is not a record, or options the record already answers."""
    path: Path | None = getattr(args, "record", None)
    if path is None:
        return None
    asked = [
        option
        for option, value in (
            ("--game", getattr(args, "game", None)),
            ("--variant", getattr(args, "variant", None)),
            ("--clock", getattr(args, "clock", None)),
            ("--days", getattr(args, "days", None)),
            ("--new", getattr(args, "new", False)),
            ("--server", getattr(args, "server", None)),
        )
        if value
    ]
    if asked:
        raise GameError(f"{', '.join(asked)} cannot go with a RECORD: the record says its game")
    return Session.from_record(load_record(path))


def be_a_tab() -> None:
    """A web tab's app: out of the terminal's process group (its Ctrl+C is the server's, which
    tells each tab to quit in order), and ended with the server, even a killed one (its game is
    in the autosave, written after every move). It works in its visitor's folder, which `web`
    gives it, so that a file name typed alone is saved there, and the server's own folder is
    not shown."""
    if hasattr(os, "setsid"):
        with contextlib.suppress(OSError):  # a session leader already
            os.setsid()
    end_with_parent()
    with contextlib.suppress(OSError):  # not made yet: the autosave says why when it cannot be
        os.chdir(data_dir())


def run_learn(args: argparse.Namespace) -> None:
    """`learn --list` prints the lessons and puzzles; `learn` opens them in the app. A file of
    them that cannot be used is one line on stderr (its items left out, the rest listed), and
    the status is 2."""
    if args.list:
        for item in learning.items(args.game):
            line = (
                item.id,
                item.game,
                item.kind,
                item.start().position(),  # where the solution starts: after `before`
                " ".join(item.solution),
                item.title,
            )
            print("\t".join(line))
        problems = learning.problems()
        for problem in problems[:-1]:
            print(f"{PROG}: {problem}", file=sys.stderr)
        if problems:  # the last one as main() says every error, with status 2
            raise learning.LearnError(problems[-1])
        return
    run_play(args, learn=args.game or "")
