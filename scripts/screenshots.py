"""Regenerate screenshots/*.svg from scripted games, so the README never shows a stale screen.

python scripts/screenshots.py            # all of them
python scripts/screenshots.py opening    # just the named ones
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Select

from dipole_tui.app.app import GameApp
from dipole_tui.app.choice import GameChoice
from dipole_tui.app.death_stacks_board import DeathStacksBoard
from dipole_tui.app.dipole_board import DipoleBoard
from dipole_tui.app.learning import ExerciseScreen, LearnMenu
from dipole_tui.app.review import ReviewScreen
from dipole_tui.games.bipod import BIPOD
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.death_stacks import parse_square as death_stacks_square
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.learn import Item
from dipole_tui.records import load_record
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Session

OUT = Path(__file__).resolve().parent.parent / "screenshots"
# A middle game from the sample record's opening, with tall stacks (coins) on both sides.
MIDDLE = "8:W:Wc1=2,b2=1,g3=5,h4=1,e5=2:Bd8=5,g7=1,b6=3,f6=2,e3=1"

Scene = Callable[[Pilot[None]], Awaitable[None]]


async def walk_to(pilot: Pilot[None], app: GameApp, square: int) -> None:
    """The cursor to a square by the arrow keys, as a player moves it."""
    board = app.board
    assert isinstance(board, DipoleBoard | DeathStacksBoard)  # the boards walked here
    for _ in range(40):
        if board.cursor == square:
            return
        column, row = board._screen(board.cursor)
        goal_column, goal_row = board._screen(square)
        if row != goal_row:
            await pilot.press("up" if goal_row < row else "down")
        else:
            await pilot.press("left" if goal_column < column else "right")
    raise AssertionError(f"the cursor did not reach square {square}")


async def opening(pilot: Pilot[None]) -> None:
    await pilot.pause()


async def selected(pilot: Pilot[None]) -> None:
    await pilot.press("enter")  # the cursor starts on White's 12-stack
    await pilot.pause()


async def middle_game(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    app._start(Session(DIPOLE, DIPOLE.parse_position(MIDDLE), (HUMAN, HUMAN)))
    await pilot.pause()
    for key in ("colon", *"g3-e5", "enter", "escape"):
        await pilot.press(key)
    await pilot.pause()
    await walk_to(pilot, app, 73)  # Black's 5-stack on d8: select it
    await pilot.press("enter")
    await pilot.pause()


async def analysis(pilot: Pilot[None]) -> None:
    """The middle game analysed, frozen at depth 7 (a second before depth 8 comes)."""
    app = pilot.app
    assert isinstance(app, GameApp)
    app._start(Session(DIPOLE, DIPOLE.parse_position(MIDDLE), (HUMAN, HUMAN)))
    await pilot.pause()
    for key in ("colon", *"g3-e5", "enter", "escape", "a"):
        await pilot.press(key)
    for _ in range(3000):
        if app.analysis.latest is not None and app.analysis.latest.depth >= 7:
            break
        await asyncio.sleep(0.01)
    app.analysis.stop()
    await pilot.pause()


async def threats(pilot: Pilot[None]) -> None:
    """The middle game with the threat overlay on: each stack either side could capture next
    move carries the glyph of the side that can take it."""
    app = pilot.app
    assert isinstance(app, GameApp)
    app._start(Session(DIPOLE, DIPOLE.parse_position(MIDDLE), (HUMAN, HUMAN)))
    await pilot.pause()
    await pilot.press("t")
    await pilot.pause()
    assert app.board.threats, "the threats scene must show threats"


async def big_board(pilot: Pilot[None]) -> None:
    for key in ("colon", *"e1-h4", "enter", "colon", *"f10-c7", "enter"):
        await pilot.press(key)
    await pilot.pause()


async def help_screen(pilot: Pilot[None]) -> None:
    await pilot.press("question_mark")
    await pilot.pause()


async def game_over(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    app._start(Session(DIPOLE, DIPOLE.parse_position("8:B:Wc5=2,g1=4:Be7=1,a3=1"), (HUMAN, HUMAN)))
    await pilot.pause()
    # Black walks a3-b2, White captures on e7, Black takes b2 to c1, White captures it: 1-0.
    for move in ("a3-b2", "c5xe7", "b2-c1", "g1xc1"):
        for key in ("colon", *move, "enter"):
            await pilot.press(key)
    await pilot.pause()
    assert app.session.outcome is not None, "the game-over scene must end the game"


async def new_game(pilot: Pilot[None]) -> None:
    """The new-game dialog with Black's list open: every level of the ladder, with its rating."""
    await pilot.press("n")
    await pilot.pause()
    pilot.app.screen.query_one("#player-1", Select).focus()
    await pilot.press("enter")
    await pilot.pause()


# Death Stacks: Red's b5 holds r r b r; Black's c4 holds six pieces.
STACKS_MIDDLE = "bb,b,rbb,,,/,rrbr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/r,,,,, r"


async def stacks_opening(pilot: Pilot[None]) -> None:
    for move in ("b1-2-b3", "e6-1-e5", "b3-1-c4"):
        for key in ("colon", *move, "enter"):
            await pilot.press(key)
    await pilot.press("escape", "2")  # Black picks both pieces of its tallest stack
    await pilot.pause()


def _stacks_position(pilot: Pilot[None], position: str) -> None:
    app = pilot.app
    assert isinstance(app, GameApp)
    app._start(Session(DEATH_STACKS, DEATH_STACKS.parse_position(position), (HUMAN, HUMAN)))


async def stacks_path(pilot: Pilot[None]) -> None:
    _stacks_position(pilot, STACKS_MIDDLE)
    await pilot.pause()
    # The top three of b5, and the path to e4: north-east off the top wall.
    app = pilot.app
    assert isinstance(app, GameApp)
    await walk_to(pilot, app, death_stacks_square("b5"))
    await pilot.press("3", "right", "right", "right", "down")


async def stacks_too_tall(pilot: Pilot[None]) -> None:
    _stacks_position(pilot, STACKS_MIDDLE[:-1] + "b")
    await pilot.pause()
    await pilot.press("2", "down")


async def bipod_sample(pilot: Pilot[None]) -> None:
    """The sheet's sample game, up to its last diagram (before First resigns)."""
    app = pilot.app
    assert isinstance(app, GameApp)
    record = load_record(Path(__file__).resolve().parent.parent / "tests/data/sample-bipod.txt")
    record.state.undo()
    app._start(Session(BIPOD, record.state, (HUMAN, HUMAN)))
    await pilot.pause()
    await pilot.press("down", "down", "right")  # the cursor shows the stone Enter would place


async def bipod_marking(pilot: Pilot[None]) -> None:
    await pilot.press("left", "left", "space", "down", "space", "right")


async def review(pilot: Pilot[None]) -> None:
    """A game of medium against easy reviewed, on its first blunder (12. e3xg5??)."""
    app = pilot.app
    assert isinstance(app, GameApp)
    record = load_record(Path(__file__).resolve().parent.parent / "tests/data/review-dipole.txt")
    app._start(Session.from_record(record))
    await pilot.pause()
    await pilot.press("r")
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    while not screen.complete:
        await asyncio.sleep(0.1)
    await pilot.press("home", *["right"] * 23)
    await pilot.pause()


async def wrong_try(pilot: Pilot[None], pick: Callable[[Item], bool]) -> ExerciseScreen:
    """The first Dipole lesson or puzzle `pick` takes, opened from the menu, and a legal move
    typed that its line does not start with."""
    app = pilot.app
    assert isinstance(app, GameApp)
    app.action_learn("dipole")
    await pilot.pause()
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


async def lesson(pilot: Pilot[None]) -> None:
    """Dipole's capture lesson after a wrong try: the rules' reason and the lesson's hint."""
    await wrong_try(pilot, lambda item: item.id == "dipole-capturing")
    await pilot.pause(0.3)  # the footer follows the focus back to the board


async def puzzle(pilot: Pilot[None]) -> None:
    """A Dipole puzzle after a wrong move, explained by the analysis."""
    screen = await wrong_try(pilot, lambda item: item.kind == "puzzle" and item.plies >= 5)
    for _ in range(100):
        if "Try again" in screen.message:
            break
        await asyncio.sleep(0.1)
    await pilot.pause(0.3)


SCENES: dict[str, tuple[Scene, str, str, tuple[int, int]]] = {
    "opening": (opening, "dipole", "8x8", (100, 30)),
    "selected": (selected, "dipole", "8x8", (100, 30)),
    "middle-game": (middle_game, "dipole", "8x8", (100, 30)),
    "analysis": (analysis, "dipole", "8x8", (100, 30)),
    "10x10": (big_board, "dipole", "10x10", (100, 30)),
    "threats": (threats, "dipole", "8x8", (100, 30)),
    "help": (help_screen, "dipole", "8x8", (100, 30)),
    "game-over": (game_over, "dipole", "8x8", (100, 30)),
    "new-game": (new_game, "dipole", "8x8", (100, 30)),
    "review": (review, "dipole", "8x8", (100, 30)),
    "lesson": (lesson, "dipole", "8x8", (100, 30)),
    "puzzle": (puzzle, "dipole", "8x8", (100, 30)),
    "small-80x24": (selected, "dipole", "10x10", (80, 24)),
    "death-stacks": (stacks_opening, "death-stacks", "standard", (100, 32)),
    "death-stacks-path": (stacks_path, "death-stacks", "standard", (100, 32)),
    "death-stacks-too-tall": (stacks_too_tall, "death-stacks", "standard", (80, 24)),
    "death-stacks-help": (help_screen, "death-stacks", "standard", (100, 32)),
    "bipod": (bipod_sample, "bipod", "multi", (100, 32)),
    "bipod-multi": (bipod_marking, "bipod", "multi", (100, 32)),
    "bipod-small-80x24": (bipod_marking, "bipod", "multi", (80, 24)),
    "bipod-help": (help_screen, "bipod", "", (100, 32)),
}


async def shoot(name: str, folder: Path) -> Path:
    scene, game_key, variant, size = SCENES[name]
    choice = GameChoice(game_key, variant, (HUMAN, HUMAN))
    app = GameApp(choice=choice, new=True, autosave=Autosave(folder))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await scene(pilot)
        await pilot.pause()
        path = OUT / f"{name}.svg"
        app.save_screenshot(filename=path.name, path=str(OUT))
    return path


async def main(names: list[str]) -> None:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        for name in names or list(SCENES):
            print(await shoot(name, Path(folder)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
