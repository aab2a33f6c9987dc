"""The scenes the README's screenshots show, defined once: `scripts/screenshots.py` writes them to
screenshots/<name>.svg and `test_screenshots.py` checks each file still equals its scene.

A scene is a new app (a game, its variant, its start and a terminal size) and the steps that drive
it with a Pilot, as a player would: keys and the board's public geometry, nothing private. Where
a screen shows what a search found (analysis, review), the scene's worker searches to a fixed
depth rather than for a time, so that the screen is the same on every machine.
"""

from __future__ import annotations

import asyncio
import random
import re
import tempfile
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app_steps import StandIn
from paths import ROOT
from textual.pilot import Pilot
from textual.widgets import Select, Static

from dipole_tui.analysis import Analysis, analyse_position, analysis_search, evaluation_of_end
from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.square_grid import SquareBoard
from dipole_tui.app.screens.learn_menu import LearnMenu
from dipole_tui.app.screens.learning import ExerciseScreen
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.bots.search import Search
from dipole_tui.clock import TimeControl
from dipole_tui.control.choice import GameChoice, OnlineChoice
from dipole_tui.games.base import State
from dipole_tui.games.bipod import BipodState
from dipole_tui.games.death_stacks import parse_square as death_stacks_square
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.learn import Item
from dipole_tui.online.client import Link
from dipole_tui.online.protocol import ClientMessage, Move, Moved, Seated, Seats, WholeGame
from dipole_tui.records import load_record, parse_record, start_of
from dipole_tui.registry import REGISTRY, rating
from dipole_tui.results import Result
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.protocol import AnalysisRequest, Evaluated, Reply, Request, ReviewRequest
from dipole_tui.workers.tracker import Connect

SHOTS = ROOT / "screenshots"
DATA = ROOT / "tests" / "data"

Steps = Callable[[Pilot[None], GameApp], Awaitable[None]]


async def nothing(pilot: Pilot[None], app: GameApp) -> None:
    """The app as it starts."""


# -- workers that search to a depth ----------------------------------------------------------


def analyse_to(
    game_key: str,
    state: State[Any],
    search: Search[Any, Any],
    depth: int,
    say: Callable[[Analysis], None],
) -> None:
    """The analysis mode's own analysis of `state`, each step told to `say`, cut after `depth`
    (a proved result, depth 0, is told as it comes)."""
    stop = threading.Event()

    def report(analysis: Analysis) -> None:
        if not stop.is_set():
            say(analysis)
            if analysis.depth >= depth:
                stop.set()

    analyse_position(REGISTRY[game_key].game, state, search, report, stop)


def evaluate_to(game_key: str, state: State[Any], search: Search[Any, Any], depth: int) -> Analysis:
    """What the review says of `state` (`analysis.Evaluator`), from the analysis cut after
    `depth`; `search` is kept from one position to the next, as the review's is."""
    ended = evaluation_of_end(state)
    if ended is not None:
        return ended
    said: list[Analysis] = []
    analyse_to(game_key, state, search, depth, said.append)
    return said[-1]


class DepthWorker(StandIn):
    """Stands in for the analysis's or the review's process (`workers.process.Process`): the same
    analysis, cut at `depth`, answered from a thread of its own as the process answers. An
    analysis is left running (no end is told), as a screenshot taken while it thinks."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def send(self, number: int, request: Request) -> None:
        threading.Thread(target=self._answer, args=(number, request), daemon=True).start()

    def _answer(self, number: int, request: Request) -> None:
        assert self.on_reply is not None
        tell = self.on_reply
        game_key, state = request.game_key, parse_record(request.record).state
        search = analysis_search(game_key)
        if isinstance(request, AnalysisRequest):
            analyse_to(game_key, state, search, self.depth, lambda a: tell(Reply(number, a)))
        elif isinstance(request, ReviewRequest):
            work = start_of(state)
            moves = state.moves_played
            for ply in range(len(moves) + 1):
                evaluation = evaluate_to(game_key, work, search, self.depth)
                tell(Reply(number, Evaluated(ply, evaluation)))
                if ply < len(moves):
                    work.play(moves[ply])
            tell(Reply(number, None))


# -- the scenes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scene:
    """A new game (`position` or `session` its start, else the variant's) in a terminal of
    `size`, driven by `steps`; `analyst`/`reviewer` stand in for those workers if given."""

    steps: Steps = nothing
    game: str = "dipole"
    variant: str = ""
    size: tuple[int, int] = (100, 30)
    position: str | None = None
    session: Callable[[], Session[Any]] | None = None
    analyst: Callable[[], Connect] | None = None
    reviewer: Callable[[], Connect] | None = None
    learn: str | None = None  # the lessons of this game open first

    def app(self, folder: Path) -> GameApp:
        """The app as `play --new` starts it, its files in `folder`."""
        rules = REGISTRY[self.game].game
        session = self.session() if self.session else None
        if self.position is not None:
            session = Session(rules, rules.parse_position(self.position), (HUMAN, HUMAN))
        return GameApp(
            choice=GameChoice(self.game, self.variant or rules.variants[0], (HUMAN, HUMAN)),
            session=session,
            new=True,
            autosave=Autosave(folder),
            analyst=self.analyst() if self.analyst else None,
            reviewer=self.reviewer() if self.reviewer else None,
            learn=self.learn,
        )


async def walk_to(pilot: Pilot[None], app: GameApp, square: int) -> None:
    """The cursor to a square by the arrow keys, as a player moves it."""
    board = app.board
    assert isinstance(board, SquareBoard)  # the boards walked here
    for _ in range(40):
        if board.cursor == square:
            return
        column, row = board.screen_cell(board.cursor)
        goal_column, goal_row = board.screen_cell(square)
        if row != goal_row:
            await pilot.press("up" if goal_row < row else "down")
        else:
            await pilot.press("left" if goal_column < column else "right")
    raise AssertionError(f"the cursor did not reach square {square}")


async def type_moves(pilot: Pilot[None], *moves: str) -> None:
    for move in moves:
        await pilot.press("colon", *move, "enter")


# A middle game from the sample record's opening, with tall stacks (coins) on both sides.
MIDDLE = "8:W:Wc1=2,b2=1,g3=5,h4=1,e5=2:Bd8=5,g7=1,b6=3,f6=2,e3=1"
# Death Stacks: Red's b5 holds r r b r; Black's c4 holds six pieces.
STACKS_MIDDLE = "bb,b,rbb,,,/,rrbr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/r,,,,, r"


async def selected(pilot: Pilot[None], app: GameApp) -> None:
    await pilot.press("enter")  # the cursor starts on White's 12-stack


async def middle_game(pilot: Pilot[None], app: GameApp) -> None:
    await type_moves(pilot, "g3-e5")
    await pilot.press("escape")
    await pilot.pause()
    await walk_to(pilot, app, 73)  # Black's 5-stack on d8: select it
    await pilot.press("enter")


ANALYSIS_DEPTH = 7


async def analysis(pilot: Pilot[None], app: GameApp) -> None:
    """The middle game analysed, up to depth 7."""
    await type_moves(pilot, "g3-e5")
    await pilot.press("escape", "a")
    await until(lambda: f"depth {ANALYSIS_DEPTH}" in analysis_text(app), "the analysis's depth 7")


async def threats(pilot: Pilot[None], app: GameApp) -> None:
    """Each stack either side could capture next move carries the glyph of the side that can
    take it."""
    await pilot.press("t")
    await pilot.pause()
    assert app.board.threats, "the threats scene must show threats"


async def big_board(pilot: Pilot[None], app: GameApp) -> None:
    await type_moves(pilot, "e1-h4", "f10-c7")


async def help_screen(pilot: Pilot[None], app: GameApp) -> None:
    await pilot.press("question_mark")


async def game_over(pilot: Pilot[None], app: GameApp) -> None:
    # Black walks a3-b2, White captures on e7, Black takes b2 to c1, White captures it: 1-0.
    await type_moves(pilot, "a3-b2", "c5xe7", "b2-c1", "g1xc1")
    await pilot.pause()
    assert app.session.outcome is not None, "the game-over scene must end the game"


async def new_game(pilot: Pilot[None], app: GameApp) -> None:
    """Black's list open: every level of the ladder, with its rating."""
    await pilot.press("n")
    await pilot.pause()
    app.screen.query_one("#player-1", Select).focus()
    await pilot.press("enter")


def bipod_sample() -> Session[Any]:
    """The sheet's sample game, up to its last diagram (before First resigns)."""
    record = load_record(DATA / "sample-bipod.txt")
    return Session(REGISTRY["bipod"].game, record.state, (HUMAN, HUMAN))


async def bipod_cursor(pilot: Pilot[None], app: GameApp) -> None:
    await pilot.press(*["down"] * 5, *["right"] * 6)  # the stone Enter would place, bracketed
    state = app.board.state
    assert isinstance(state, BipodState) and state.stone(app.board.cursor) == ".", (
        "the bipod scene's cursor must stand on an empty cell, to show a stone to place"
    )


async def bipod_marking(pilot: Pilot[None], app: GameApp) -> None:
    await pilot.press("left", "left", "space", "down", "space", "right")


async def review(pilot: Pilot[None], app: GameApp) -> None:
    """A game of medium against easy reviewed (each position to depth 4), on 12. e3xg5?."""
    await pilot.press("r")
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await until(lambda: screen.complete, "the review")
    await pilot.press("home", *["right"] * 23)


async def wrong_try(
    pilot: Pilot[None], app: GameApp, pick: Callable[[Item], bool]
) -> ExerciseScreen:
    """The first Dipole lesson or puzzle `pick` takes, opened from the menu, and a legal move
    typed that its line does not start with."""
    menu = app.screen
    assert isinstance(menu, LearnMenu)
    menu.open(next(i for i, item in enumerate(menu.items) if pick(item)))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ExerciseScreen)
    moves = (DIPOLE.format_move(move) for move in screen.item.start().legal_moves())
    wrong = next(text for text in moves if text != screen.item.solution[0])
    await pilot.press("colon", *wrong, "enter", "escape")
    return screen


async def lesson(pilot: Pilot[None], app: GameApp) -> None:
    """Dipole's capture lesson after a wrong try: the rules' reason and the lesson's hint."""
    await wrong_try(pilot, app, lambda item: item.id == "dipole-capturing")
    await pilot.pause(0.3)  # the footer follows the focus back to the board


async def puzzle(pilot: Pilot[None], app: GameApp) -> None:
    """A Dipole puzzle after a wrong move, explained by the analysis."""
    screen = await wrong_try(pilot, app, lambda item: item.kind == "puzzle" and item.plies >= 5)
    await until(lambda: "Try again" in screen.message, "the puzzle's refutation")
    await pilot.pause(0.3)


async def stacks_opening(pilot: Pilot[None], app: GameApp) -> None:
    await type_moves(pilot, "b1-2-b3", "e6-1-e5", "b3-1-c4")
    await pilot.press("escape", "2")  # Black picks both pieces of its tallest stack


async def stacks_path(pilot: Pilot[None], app: GameApp) -> None:
    """The top three of b5, and the path to e4: north-east off the top wall."""
    await walk_to(pilot, app, death_stacks_square("b5"))
    await pilot.press("3", "right", "right", "right", "down")


async def stacks_too_tall(pilot: Pilot[None], app: GameApp) -> None:
    await pilot.press("2", "down")


async def looking_back(pilot: Pilot[None], app: GameApp) -> None:
    """Four moves played, two undone, then `[`: the position after the first, marked in the list."""
    await type_moves(pilot, "g3-e5", "d8-c7", "e5-g7", "c7-d6")
    await pilot.press("u", "u", "left_square_bracket")
    await pilot.pause()


class ScriptedServer(Link):
    """A link to no server: it answers as `dipole-tui serve` would, from a script, with the
    clocks standing (a picture must be the same on every run). Room K7QMWD, the player White,
    a friend as Black who answers each move with the next of `REPLIES`, one watcher."""

    REPLIES = ("d8-d6", "d8-c7")
    CLOCKS = ((300.0, 300.0), (291.2, 300.0), (291.2, 296.1), (282.7, 296.1), (282.7, 289.9))

    async def run(self) -> None:
        self.connected = True
        self.on_status("")
        record = Session.new(DIPOLE, time_control=TimeControl(5, 3)).record_text()
        invite = "q8H3xu0r-cVj2LZ0ac5a1Ysk"
        self.on_message(Seated("K7QMWD", 0, "s" * 32, invite, "dipole", "8x8", "5+3", 0))
        alone, both = (True, False), (True, True)
        whole = WholeGame("K7QMWD", record, 0, self.CLOCKS[0], None, alone, alone, 0, None, 0)
        self.on_message(whole)
        self.on_message(Seats("K7QMWD", both, both, 1, self.CLOCKS[0], None))
        await asyncio.Event().wait()

    def send(self, message: ClientMessage) -> bool:
        """A move is acknowledged and answered after it was sent, as a server's would be."""
        if isinstance(message, Move):
            ply, side, reply = message.ply, message.ply % 2, self.REPLIES[message.ply // 2]
            loop = asyncio.get_running_loop()
            mine = Moved("K7QMWD", ply, message.move, side, self.CLOCKS[ply + 1], None, ply + 1)
            loop.call_soon(self.on_message, mine)
            theirs = Moved("K7QMWD", ply + 1, reply, 1 - side, self.CLOCKS[ply + 2], None, ply + 2)
            loop.call_soon(self.on_message, theirs)
        return True


async def online(pilot: Pilot[None], app: GameApp) -> None:
    """A room of a game server, played from here: its code, the seats, the clocks kept by the
    server, a friend's answers, and the command a friend types to join."""
    app.game_screen.link_class = ScriptedServer
    choice = GameChoice("dipole", "8x8", (HUMAN, HUMAN), TimeControl(5, 3))
    app.game_screen.go_online(OnlineChoice("ws://127.0.0.1:8765", "create", game=choice))
    await pilot.pause()
    for move in ("e1-e3", "e3-e5"):
        await type_moves(pilot, move)
        await pilot.pause()


async def statistics(pilot: Pilot[None], app: GameApp) -> None:
    """Your statistics after 24 games of Dipole against the ladder, climbing it (`S`)."""
    results, rng = app.keeper.ratings.results, random.Random(43)
    for number in range(24):
        level = ("novice", "easy", "steady", "club")[min(3, number // 6)]
        result = rng.choice(("win", "win", "loss", "draw" if number % 7 == 3 else "win"))
        entry = Result(f"2026-12-{1 + number:02d} 20:00", "dipole", "8x8", level, 0, result, 40)
        results.add(replace(entry, level_rating=rating("dipole", level)))
    await pilot.press("S")


async def editing(pilot: Pilot[None], app: GameApp) -> None:
    """The position editor: a stack typed on a square, bottom to top."""
    await pilot.press("e")
    await pilot.pause()
    await pilot.press("down", "down", "r", "r", "b", "enter")
    await pilot.pause()


SMALL = (80, 24)
STACKS_SIZE = (100, 32)

SCENES: dict[str, Scene] = {
    "opening": Scene(),
    "selected": Scene(selected),
    "middle-game": Scene(middle_game, position=MIDDLE),
    "analysis": Scene(analysis, position=MIDDLE, analyst=lambda: DepthWorker(ANALYSIS_DEPTH)),
    "10x10": Scene(big_board, variant="10x10"),
    "threats": Scene(threats, position=MIDDLE),
    "help": Scene(help_screen),
    "game-over": Scene(game_over, position="8:B:Wc5=2,g1=4:Be7=1,a3=1"),
    "new-game": Scene(new_game),
    "looking-back": Scene(looking_back, position=MIDDLE),
    "editor": Scene(editing, "death-stacks", size=SMALL),
    "online": Scene(online),
    "statistics": Scene(statistics),
    "review": Scene(
        review,
        session=lambda: Session.from_record(load_record(DATA / "review-dipole.txt")),
        reviewer=lambda: DepthWorker(4),
    ),
    "lesson": Scene(lesson, learn="dipole"),
    "puzzle": Scene(puzzle, learn="dipole"),
    "small-80x24": Scene(selected, variant="10x10", size=SMALL),
    "death-stacks": Scene(stacks_opening, "death-stacks", size=STACKS_SIZE),
    "death-stacks-path": Scene(
        stacks_path, "death-stacks", position=STACKS_MIDDLE, size=STACKS_SIZE
    ),
    "death-stacks-too-tall": Scene(
        stacks_too_tall, "death-stacks", position=STACKS_MIDDLE[:-1] + "b", size=SMALL
    ),
    "death-stacks-help": Scene(help_screen, "death-stacks", size=STACKS_SIZE),
    "bipod": Scene(bipod_cursor, "bipod", "multi", session=bipod_sample, size=STACKS_SIZE),
    "bipod-multi": Scene(bipod_marking, "bipod", "multi", size=STACKS_SIZE),
    "bipod-small-80x24": Scene(bipod_marking, "bipod", "multi", size=SMALL),
    "bipod-help": Scene(help_screen, "bipod", size=STACKS_SIZE),
}


# -- shooting ----------------------------------------------------------------------------------


def analysis_text(app: GameApp) -> str:
    """What the side panel says the analysis found."""
    return str(app.screen.query_one("#analysis", Static).render())


async def until(condition: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what} did not come in {seconds} s")


async def shoot(name: str, out: Path) -> Path:
    """Play scene `name` and save what it shows as out/<name>.svg. Its files go to a fresh
    folder named as `tempfile` names one in /tmp, so a path it shows wraps alike on every run."""
    scene = SCENES[name]
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:
        app = scene.app(Path(folder))
        async with app.run_test(size=scene.size) as pilot:
            await pilot.pause()
            await scene.steps(pilot, app)
            await pilot.pause()
            app.save_screenshot(filename=f"{name}.svg", path=str(out))
    return out / f"{name}.svg"


# What differs from run to run in a scene's SVG: the id Rich derives from the content (a hash),
# and in a game filed away, its temporary folder and the clock in its name.
RUN_TO_RUN = (
    (re.compile(r"terminal-\d+"), "terminal-ID"),
    (re.compile(r"/tmp/tmp\w{8}/"), "/tmp/tmpFOLDER/"),
    (re.compile(r"\b\d{8}-\d{6}\b"), "YYYYMMDD-HHMMSS"),
)


def normalised(svg: str) -> str:
    for pattern, same in RUN_TO_RUN:
        svg = pattern.sub(same, svg)
    return svg
