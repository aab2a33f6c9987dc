"""The `dipole-tui` command: the game with no subcommand, engine tools for scripts and study.

Every error is one line on stderr and exit status 2, never a traceback: output that cannot be
written too (a full disk, a closed pipe or standard output).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import sys
import textwrap
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__, storage
from . import learn as learning
from . import match as matches
from .analysis import analyse, annotated_record
from .bots import BOT_NAMES, LEVELS, Budget, RandomBot
from .engine import think
from .games.base import AnyGame, GameError, State, title
from .perft import perft
from .records import load_record, numbered_moves, start_of
from .registry import REGISTRY, describe_level, game_named, levels
from .session import HUMAN, PLAYERS
from .session import players as players_of
from .solver import MEMORY_MB, Table, solvable, solve

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

PROG = "dipole-tui"
# Seconds `best` thinks when given no limit: what the app's hard thinks unless --think says.
BEST_MOVETIME = 1.0
ANALYSE_MOVETIME = 1.0
# The longest line `moves` reads from stdin: a position is a few hundred characters at most.
LONGEST_LINE = 10_000
# A longer line is passed over to its end, unless it has none this far: /dev/zero, a binary file.
ENDLESS_LINE = 1_000_000


class UsageError(Exception):
    """Bad command-line arguments: reported in one line like any other error."""


class _Parser(argparse.ArgumentParser):
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


def _add_game_option(
    parser: argparse.ArgumentParser,
    variant: bool = True,
    said: str = "which game's rules to use",
) -> None:
    """--game, and --variant where a command starts from a game's opening. Dipole when nothing
    is said: here only, never in the layers below."""
    parser.add_argument(
        "--game", choices=sorted(REGISTRY), default="dipole", help=f"{said} (default: dipole)"
    )
    if variant:
        parser.add_argument(
            "--variant",
            help="e.g. 8x8 or 10x10 (Dipole), multi (Bi-Pod) (default: the game's first)",
        )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Dipole, Death Stacks and Bi-Pod in the terminal.",
        epilog="With no command, the game starts (as 'play' with its defaults).",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    ascii_help = "draw with ASCII only, for limited terminals"
    parser.add_argument("--ascii", action="store_true", help=ascii_help)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = commands.add_parser(
        "play",
        help="play in the terminal (the default command)",
        description="Open the game. With --new, start a fresh game at once, no questions asked.",
        epilog=_levels_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_game_option(play)
    seat = "human, a level of the game (below), or adaptive (a level that follows you)"
    play.add_argument(
        "--white",
        default=HUMAN,
        choices=PLAYERS,
        metavar="PLAYER",
        help=f"who moves first (White, Red, First): {seat}",
    )
    play.add_argument(
        "--black",
        default=HUMAN,
        choices=PLAYERS,
        metavar="PLAYER",
        help="who moves second (Black, Second)",
    )
    play.add_argument("--new", action="store_true", help="start a new game, ignoring the autosave")
    # SUPPRESS: 'dipole-tui --ascii play' keeps the flag given before the command
    play.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS, help=ascii_help)
    play.add_argument(
        "--think",
        type=matches.positive_seconds,
        default=1.0,
        metavar="SECONDS",
        help="how long the hard bot thinks per move (default: 1)",
    )

    moves = commands.add_parser(
        "moves",
        help="list the legal moves of positions",
        description="Print one line per position: its legal moves in canonical notation, "
        "'pass' when forced, an empty line when the game is over.",
    )
    _add_game_option(moves, variant=False)  # positions carry their variant
    moves.add_argument(
        "positions",
        nargs="*",
        metavar="POSITION",
        help="position strings (default: one per line on stdin)",
    )

    count = commands.add_parser(
        "perft",
        help="count the positions reached after each number of plies",
        description="Print 'depth nodes' for each depth 1..DEPTH, then the time taken.",
    )
    _add_game_option(count)
    count.add_argument("--position", help="start from this position string instead")
    count.add_argument("depth", type=_depth, metavar="DEPTH", help="the deepest ply to count")

    replay = commands.add_parser(
        "replay",
        help="replay a saved game and print its moves and final position",
        description="Load a record through the rules engine; the last line printed is the "
        "final position string.",
    )
    replay.add_argument("file", metavar="FILE", help="a game record")
    _add_game_option(replay, variant=False, said="the game of a record with no Game tag")

    match = commands.add_parser(
        "match",
        help="play bots against each other and print the score with an Elo estimate",
        description="Play GAMES games between bots A and B: each random opening twice, with "
        "colours swapped; print one line per game, then A's score and Elo difference.",
    )
    _add_game_option(match)
    match.add_argument("a", choices=BOT_NAMES, metavar="A", help=f"a bot: {', '.join(BOT_NAMES)}")
    match.add_argument("b", choices=BOT_NAMES, metavar="B", help="its opponent")
    match.add_argument(
        "--games",
        type=matches.game_count,
        default=matches.DEFAULT_GAMES,
        help=f"how many games (default: {matches.DEFAULT_GAMES})",
    )
    match.add_argument(
        "--movetime",
        type=matches.positive_seconds,
        metavar="S",
        help=f"seconds a move (default: {matches.DEFAULT_MOVETIME} unless --depth)",
    )
    match.add_argument("--depth", type=_depth, metavar="D", help="plies of search a move")
    match.add_argument(
        "--seed",
        type=matches.seed_number,
        metavar="K",
        help="seed of the openings and bots (default: random, printed)",
    )
    match.add_argument(
        "--jobs",
        type=matches.job_count,
        default=1,
        metavar="J",
        help="games played at once, in worker processes (default: 1)",
    )
    match.add_argument("--save-dir", metavar="DIR", help="save each game as DIR/game-NNN.txt")

    units = ", ".join(f"{entry.unit.name} ({entry.game.name})" for entry in REGISTRY.values())
    best = commands.add_parser(
        "best",
        help="search positions and print the best move, depth by depth",
        description="For each position, print 'depth D score S nodes N time T pv MOVES' for "
        "each depth searched, then 'bestmove M'. S is the side to move's, in "
        f"{units}, or 'win N' / 'loss N' plies away.",
    )
    _add_game_option(best)
    searching = [name for name in LEVELS if name != RandomBot.name]
    best.add_argument(
        "--level",
        choices=searching,
        default="hard",
        help="play as this level plays in the app (default: hard)",
    )
    limit = best.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=_depth, metavar="D", help="search D plies deep")
    limit.add_argument(
        "--movetime",
        type=matches.positive_seconds,
        metavar="S",
        help=f"think S seconds (default: {BEST_MOVETIME:g} unless --depth)",
    )
    best.add_argument(
        "--seed",
        type=matches.seed_number,
        metavar="N",
        help="seed of easy's and medium's choice (default: random)",
    )
    best.add_argument(
        "positions",
        nargs="*",
        metavar="POSITION",
        help="position strings (default: one per line on stdin)",
    )

    solving = commands.add_parser(
        "solve",
        help="prove who wins a position with best play, and in how many plies",
        description="For each position, print 'win in N plies: M' or 'loss in N plies: M' for "
        "the side to move (the winner ends the game as fast as it can, the loser holds out as "
        "long as it can; N counts every ply to the end, passes included; M keeps that result), "
        "or 'unknown after N nodes' when --max-nodes runs out.",
    )
    _add_game_option(solving, variant=False)
    solving.add_argument(
        "--max-nodes",
        type=_node_count,
        metavar="N",
        help="give up after N positions searched (default: no limit; Ctrl+C stops)",
    )
    solving.add_argument(
        "--memory",
        type=_megabytes,
        default=MEMORY_MB,
        metavar="MB",
        help=f"the solver's table takes at most MB megabytes, {MEMORY_LEAST} to {MEMORY_MOST} "
        f"(default: {MEMORY_MB}); less is slower, never less exact",
    )
    solving.add_argument(
        "positions",
        nargs="*",
        metavar="POSITION",
        help="position strings (default: one per line on stdin)",
    )
    learning = commands.add_parser(
        "learn",
        help="learn a game: lessons for every rule, and puzzles",
        description="Open the lessons and puzzles of a game in the app; with --list, print one "
        "line per lesson and puzzle, tab-separated: id, game, kind, position, solution, title.",
    )
    learning.add_argument(
        "--game", choices=sorted(REGISTRY), help="only this game's (default: every game's)"
    )
    learning.add_argument("--list", action="store_true", help="print them instead")
    learning.add_argument(
        "--ascii", action="store_true", default=argparse.SUPPRESS, help=ascii_help
    )

    analysing = commands.add_parser(
        "analyse",
        help="annotate a record: an evaluation after each move, and the mistakes marked",
        description="Evaluate every position of a record with the hard level's search (and, "
        "where it reaches, the exact solver) and write the record back with a comment after "
        "each move: the evaluation from the first side's view, and for a move that lost enough "
        "against the best, the best move and a mark (?! inaccuracy, ? mistake, ?? blunder).",
    )
    analysing.add_argument("file", metavar="RECORD", help="a game record")
    _add_game_option(analysing, variant=False, said="the game of a record with no Game tag")
    analysing.add_argument(
        "--movetime",
        type=matches.positive_seconds,
        default=ANALYSE_MOVETIME,
        metavar="S",
        help=f"think S seconds a position (default: {ANALYSE_MOVETIME:g})",
    )
    analysing.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="write the record to OUT, which may be RECORD itself (default: standard output)",
    )
    return parser


def _node_count(text: str) -> int:
    expected = "N must be a whole number of 1 or more, at most 15 digits"
    return matches.whole_number(text, 1, 10**15 - 1, expected)


def _depth(text: str) -> int:
    return matches.whole_number(text, 1, 20, "DEPTH must be a whole number from 1 to 20")


class _Batch:
    """The positions of `moves`, `best` and `solve`, from the arguments or from stdin (one a
    line, blank lines skipped), each named for messages ("position 2", "line 3"). A bad one is
    said on stderr and counted (`fail`), and the batch goes on: one typo in a thousand lines
    costs that line's answer, not the 999 others'."""

    def __init__(self, given: Sequence[str]) -> None:
        if not given and sys.stdin is None:  # started with <&-
            raise GameError("no POSITION given, and standard input is closed")
        self.given = given
        self.failed = 0

    def __iter__(self) -> Iterator[tuple[str, str]]:
        if self.given:
            for index, text in enumerate(self.given, 1):
                yield f"position {index}", text
            return
        if isinstance(sys.stdin, io.TextIOWrapper):  # a byte that is not UTF-8 fails its line
            sys.stdin.reconfigure(errors="surrogateescape")
        index = 0
        while line := sys.stdin.readline(LONGEST_LINE + 2):  # room for CRLF; a stream may end
            index += 1
            if len(line.rstrip("\r\n")) <= LONGEST_LINE:
                if line.strip():
                    yield f"line {index}", line
                continue
            length = len(line)
            while not line.endswith("\n") and length <= ENDLESS_LINE:
                line = sys.stdin.readline(LONGEST_LINE + 2) or "\n"
                length += len(line)
            if length > ENDLESS_LINE:
                said = f"no line break in {ENDLESS_LINE:,} characters, where one position a line"
                self.fail(f"line {index}", f"{said} was expected; the rest is not read")
                return  # /dev/zero, a binary file: no list of positions, and maybe no end
            self.fail(f"line {index}", f"longer than any position ({LONGEST_LINE} characters)")

    def fail(self, where: str, error: GameError | str) -> None:
        self.failed += 1
        print(f"{PROG}: {where}: {error}", file=sys.stderr, flush=True)

    @property
    def status(self) -> int:
        """The exit status: 2 if any position failed."""
        return 2 if self.failed else 0


def run_moves(game: AnyGame, given: Sequence[str]) -> int:
    batch = _Batch(given)
    for where, text in batch:
        try:
            state = game.parse_position(text)
        except GameError as error:
            batch.fail(where, error)
            continue
        print(" ".join(game.format_move(move) for move in state.legal_moves()), flush=not given)
    return batch.status


def _check_variant(game: AnyGame, variant: str | None, state: State[Any]) -> None:
    """A position of another variant than --variant says is refused."""
    if variant and game.new(variant).variant != state.variant:  # names normalised
        raise GameError(
            f"--variant {variant} disagrees with the position, which is "
            f"{state.variant or 'the default variant'}"
        )


def run_perft(game: AnyGame, variant: str | None, position: str | None, depth: int) -> None:
    state: State[Any] = game.parse_position(position) if position else game.new(variant)
    if position:
        _check_variant(game, variant, state)
    started = time.perf_counter()
    for ply in range(1, depth + 1):
        print(f"{ply} {perft(state, ply)}", flush=True)
    print(f"time {time.perf_counter() - started:.3f} s")


def run_best(args: argparse.Namespace) -> int:
    """The `best` subcommand: each position answered in turn by a fresh bot, so an answer does
    not depend on the positions before it."""
    game = game_named(args.game)
    if args.variant:
        game.new(args.variant)  # a variant the game lacks is refused before any input is read
    budget = (
        Budget(movetime=None, depth=args.depth)
        if args.depth
        else Budget(movetime=args.movetime or BEST_MOVETIME)
    )
    batch = _Batch(args.positions)
    for where, text in batch:
        try:
            state = game.parse_position(text)
            _check_variant(game, args.variant, state)
            outcome = state.outcome()
            if outcome is not None:
                raise GameError(f"the game is over ({outcome.reason})")
        except GameError as error:
            batch.fail(where, error)
            continue
        think(args.game, state, args.level, budget, args.seed, lambda line: print(line, flush=True))
    return batch.status


MEMORY_LEAST, MEMORY_MOST = 16, 65536  # solve --memory, in MB


def _megabytes(text: str) -> int:
    expected = f"MB must be a whole number from {MEMORY_LEAST} to {MEMORY_MOST}"
    return matches.whole_number(text, MEMORY_LEAST, MEMORY_MOST, expected)


def run_solve(args: argparse.Namespace) -> int:
    """The `solve` subcommand: each position proved in turn; a spinner with the nodes searched
    on stderr while it works, when stderr is a terminal."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn

    game = game_named(args.game)
    solvable(game)  # a game the solver cannot solve is refused before any input is read
    try:  # and so is a table the system will not give (reserved, not yet written: no cost)
        Table(args.memory << 20).close()
    except MemoryError as error:
        raise GameError(str(error)) from None
    console = Console(stderr=True)
    batch = _Batch(args.positions)
    for where, text in batch:
        try:
            state = game.parse_position(text)
            outcome = state.outcome()
            if outcome is not None:
                raise GameError(f"the game is over ({outcome.reason})")
        except GameError as error:
            batch.fail(where, error)
            continue
        with Progress(
            SpinnerColumn(),
            TextColumn("solving: {task.fields[nodes]:,} nodes"),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        ) as progress:
            task = progress.add_task("solve", nodes=0)
            solution = solve(
                game,
                state,
                max_nodes=args.max_nodes,
                progress=functools.partial(_show_nodes, progress, task),
                memory=args.memory << 20,
            )
        if solution.result is None or solution.move is None:
            print(f"unknown after {solution.nodes} nodes", flush=True)
        else:
            move = game.format_move(solution.move)
            print(f"{solution.result} in {solution.plies} plies: {move}", flush=True)
    return batch.status


def _show_nodes(progress: Any, task: Any, nodes: int) -> None:
    progress.update(task, nodes=nodes)


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
                item.position,
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


def run_analyse(args: argparse.Namespace) -> None:
    """The `analyse` subcommand: a progress bar on stderr while the positions are evaluated;
    the annotated record on stdout or, whole or not at all, in OUT (which may be the record
    itself: its own tags and comments are kept, an earlier analysis's comments replaced)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    record = load_record(args.file, game_named(args.game))
    game_key = record.game.key
    console = Console(stderr=True)
    with Progress(
        TextColumn("analysing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("positions"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as progress:
        task = progress.add_task("analyse", total=record.state.plies + 1)
        judged = analyse(
            game_key,
            record.state,
            args.movetime,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    text = annotated_record(
        game_key, record.state, judged, record.tags, args.movetime, record.comments
    )
    if args.output is None:
        sys.stdout.write(text)
        return
    try:
        storage.write_text(args.output, text)
    except OSError as error:
        raise GameError(f"cannot write {args.output}: {error.strerror or error}") from None


def run_replay(path: str, default: AnyGame) -> None:
    record = load_record(path, default)
    game, state = record.game, record.state
    first, second = game.side_names  # the White and Black tags name the first and second side
    print(
        f"{title(game, state.variant)}: {record.tags.get('White', '?')} ({first}) "
        f"v {record.tags.get('Black', '?')} ({second}), result {record.result}"
    )
    for line in numbered_moves(game, start_of(state).to_move, state.moves_played):
        print(line)
    print(state.diagram())
    outcome = state.outcome()
    if outcome is not None:
        winner = "drawn" if outcome.winner is None else f"{game.side_names[outcome.winner]} wins"
        print(f"Game over: {winner} ({outcome.reason})")
    else:
        print(f"{game.side_names[state.to_move]} to move")
    print(state.position())


def run_play(args: argparse.Namespace, learn: str | None = None) -> None:
    """Open the app; with no subcommand, with the defaults and the autosave offered."""
    from .app.app import GameApp  # Textual loads only when the game is played
    from .app.boards import playable
    from .app.choice import GameChoice

    key = getattr(args, "game", None) or "dipole"
    game = game_named(key)
    if key not in playable():
        raise GameError(f"{game.name} can be studied with moves, perft and replay, not played yet")
    variant = game.new(getattr(args, "variant", None)).variant  # the game checks and names it
    players = (getattr(args, "white", HUMAN), getattr(args, "black", HUMAN))
    for seat in players:
        if seat not in players_of(key):
            offered = ", ".join(levels(key))
            raise GameError(f"{game.name} has no level called {seat!r}; its levels are {offered}")
    choice = GameChoice(key, variant, players)
    app = GameApp(
        think_time=getattr(args, "think", 1.0),
        choice=choice,
        new=getattr(args, "new", False),
        ascii_glyphs=getattr(args, "ascii", False),
        learn=learn,
    )
    app.run()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        engine_tools: tuple[str, ...] = (
            "moves",
            "perft",
            "replay",
            "match",
            "best",
            "solve",
            "analyse",
        )
        if args.command == "learn" and args.list:
            engine_tools += ("learn",)
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
            matches.run_match(args)
        elif args.command == "best":
            status = run_best(args)
        elif args.command == "solve":
            status = run_solve(args)
        elif args.command == "analyse":
            run_analyse(args)
        elif args.command == "learn":
            run_learn(args)
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
