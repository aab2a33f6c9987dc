"""Lessons and puzzles in the app: the menu, a lesson completed with a wrong try first (one per
game), a puzzle solved after a wrong move the analysis explains, and the progress kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from app_steps import AppFactory, HandAnalyst, noticed, type_move, until
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button, OptionList

from dipole_tui.analysis import Analysis
from dipole_tui.app.app import GameApp
from dipole_tui.app.screens.learn_menu import LearnMenu
from dipole_tui.app.screens.learning import LessonScreen
from dipole_tui.app.screens.puzzle import PuzzleScreen
from dipole_tui.app.widgets.side_panel import MoveEntry
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.games.bipod import BipodState
from dipole_tui.learn import Item, Progress, items, parse
from dipole_tui.registry import REGISTRY

# Black wins in 6 plies with e7-e5; e7-d6 loses (White takes it, f6xd6, and wins in 3).
PUZZLE = parse(
    """
id: test-puzzle
game: dipole
kind: puzzle
title: Black to play and win in 6 plies
position: 8:B:Wf6=2:Be7=2
solution: e7-e5 f6-d8 e5-d4 d8-off:1 d4-c3 d8-off:1
difficulty: 2
"""
)[0]

# The games with puzzles in the data (tests/engine/test_puzzles.py's GAMES checks the list).
PUZZLE_GAMES = sorted({item.game for item in items(kind="puzzle")})


def first_lessons() -> list[Item]:
    """Each game's first lesson."""
    found: dict[str, Item] = {}
    for item in items(kind="lesson"):
        found.setdefault(item.game, item)
    return list(found.values())


async def opened(pilot: Pilot[None], app: GameApp, item: Item) -> tuple[LearnMenu, Screen[Any]]:
    """The lessons' menu the app opened with, and `item` opened from it."""
    await pilot.pause()
    menu = app.screen
    assert isinstance(menu, LearnMenu)
    menu.open(menu.items.index(item))
    await pilot.pause()
    return menu, app.screen


def wrong_move(item: Item) -> str:
    """A legal move of the lesson's position that does not fulfil its task."""
    game = REGISTRY[item.game].game
    state = item.start()
    texts = [game.format_move(move) for move in state.legal_moves()]
    return next(text for text in texts if text not in item.accept)


async def test_learn_opens_the_menu_and_the_first_lesson(make_app: AppFactory) -> None:
    app = make_app(learn="")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, LearnMenu)
        assert menu.items == items()
        await pilot.press("enter")
        await pilot.pause()
        lesson = app.screen
        assert isinstance(lesson, LessonScreen) and lesson.item == items()[0]


@pytest.mark.parametrize("item", first_lessons(), ids=lambda item: item.id)
async def test_a_lesson_of_every_game_is_learned_after_a_wrong_try(
    make_app: AppFactory, tmp_path: Path, item: Item
) -> None:
    app = make_app(item.game, learn=item.game)
    async with app.run_test(size=(100, 32)) as pilot:
        menu, lesson = await opened(pilot, app, item)
        assert isinstance(lesson, LessonScreen)
        start = item.start().position()
        if len(item.start().legal_moves()) > 1:
            wrong = wrong_move(item)
            await type_move(pilot, wrong, leave=False)
            assert lesson.message.startswith(f"{wrong} is a legal move, but not what the task")
            assert item.hint in lesson.message
            assert lesson.state.position() == start and not lesson.done
            # As in the game, a move tried gives the board its keys back: i is the hint.
            assert lesson.focused is lesson.board
            await pilot.press("i")
            assert lesson.message == item.hint
        await type_move(pilot, "zz9", leave=False)  # the rules' own reason, and the hint
        assert "zz9" in lesson.message and item.hint in lesson.message
        await pilot.press("escape")  # back to this board (not the game's behind), keys work
        await pilot.pause()
        assert lesson.focused is lesson.board and app.screen is lesson
        await pilot.press("i")
        assert lesson.message == item.hint
        await type_move(pilot, item.accept[0], leave=False)
        await until(lambda: lesson.done)
        assert item.summary in lesson.message
        # The entry is left as it was before ':' (n, r and m are keys again, not letters).
        assert lesson.focused is lesson.board and lesson.entry.placeholder == MoveEntry.PLACEHOLDER
        assert len(lesson.state.moves_played) == len(item.before) + len(item.solution)
        await pilot.press("m")
        await pilot.pause()
        assert app.screen_stack[-1] is menu
        label = str(menu.query_one(OptionList).get_option(f"item-{menu.items.index(item)}").prompt)
        assert label.startswith("✓")
    saved = json.loads((tmp_path / "learned.json").read_text())
    assert item.id in saved["done"]


async def open_puzzle(app: GameApp, pilot: Pilot[None], tmp_path: Path) -> PuzzleScreen:
    screen = PuzzleScreen(PUZZLE, Progress(tmp_path), False, app.analyst)
    await app.push_screen(screen)
    await pilot.pause()
    return screen


async def solve(pilot: Pilot[None], puzzle: PuzzleScreen) -> None:
    """The puzzle's line played to its end, the defence answering each move."""
    for move in PUZZLE.solution[::2]:
        await play_and_wait(pilot, puzzle, move)
    await until(lambda: puzzle.done)


async def play_and_wait(pilot: Pilot[None], puzzle: PuzzleScreen, move: str) -> None:
    """The player's move of the line, and the defence's reply (or the end)."""
    before = puzzle.step
    await type_move(pilot, move, leave=False)
    await until(lambda: puzzle.step >= before + 2 or puzzle.done)


async def test_a_puzzle_explains_a_wrong_move_then_is_solved(
    make_app: AppFactory, tmp_path: Path
) -> None:
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=(100, 32)) as pilot:
        puzzle = await open_puzzle(app, pilot, tmp_path)
        assert "Play Black: win in 6 plies" in puzzle.task_text()
        assert puzzle.board.flipped  # Black, the solver, nearest, as a player sits
        await type_move(pilot, "e7-d6", leave=False)
        assert puzzle.state.position() == PUZZLE.position  # not played
        assert "e7-d6 is not the fastest win" in puzzle.message
        assert puzzle.focused is puzzle.board  # s and i are the board's keys again
        assert analyst.records and "e7-d6" in analyst.records[-1]
        # The analysis of the position after it: White, to move, wins in 1 ply (f6xd6).
        analyst.tell(Analysis(0, PovScore(Score.win(1), 0), ("f6xd6",), 10))
        await until(lambda: "loses" in puzzle.message)
        assert "e7-d6 loses: after it White wins in 1 ply:\nWhite f6xd6\n" in puzzle.message
        for move in ("e7-e5", "e5-d4", "d4-c3"):
            await play_and_wait(pilot, puzzle, move)
        await until(lambda: puzzle.done)
        assert puzzle.state.outcome() is not None
        assert "Solved (not at the first try" in puzzle.message
    saved = json.loads((tmp_path / "learned.json").read_text())
    assert saved["done"] == [PUZZLE.id] and saved["streak"] == 0


async def test_a_puzzle_solved_at_the_first_try_adds_to_the_streak(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(100, 32)) as pilot:
        puzzle = await open_puzzle(app, pilot, tmp_path)
        await solve(pilot, puzzle)
        assert "Solved at the first try: streak 1, best 1" in puzzle.message


async def test_the_solution_is_shown_and_marked(make_app: AppFactory, tmp_path: Path) -> None:
    """The third hint (the first two are smaller: tests/app/test_puzzles_screen.py)."""
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(100, 32)) as pilot:
        puzzle = await open_puzzle(app, pilot, tmp_path)
        await pilot.press("i", "i", "i")
        await pilot.pause()
        sides = ("Black", "White") * 3
        line = "\n".join(
            f"{side} {move}" for side, move in zip(sides, PUZZLE.solution, strict=True)
        )
        assert line in puzzle.message
        assert puzzle.shown_solution and puzzle.board.hint is not None


async def test_the_new_game_dialog_offers_the_lessons(make_app: AppFactory) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#learn")
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, LearnMenu)
        assert {item.game for item in menu.items} == {"death-stacks"} or not menu.items
        assert not app.screen.query(Button)  # the dialog is gone


async def test_a_damaged_progress_file_is_set_aside(make_app: AppFactory, tmp_path: Path) -> None:
    (tmp_path / "learned.json").write_text("{not json")
    app = make_app(learn="")
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await pilot.pause()
        assert noticed(app, "learned.json is not a progress file")
    [aside] = tmp_path.glob("learned.json.damaged-*")
    assert aside.read_text() == "{not json"


async def test_progress_that_cannot_be_saved_is_said(make_app: AppFactory, tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")  # the progress's folder is a file: nothing can be written in it
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        puzzle = PuzzleScreen(PUZZLE, Progress(blocked), False, app.analyst)
        await app.push_screen(puzzle)
        await pilot.pause()
        await solve(pilot, puzzle)
        assert noticed(app, "Your progress could not be saved")


async def test_next_goes_on_to_the_next_lesson(make_app: AppFactory) -> None:
    lessons = items("dipole", "lesson")
    app = make_app(learn="dipole")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        lesson = app.screen
        assert isinstance(lesson, LessonScreen) and lesson.item == lessons[0]
        await type_move(pilot, lessons[0].accept[0], leave=False)
        await until(lambda: lesson.done)
        await pilot.press("n")
        await pilot.pause()
        following = app.screen
        assert isinstance(following, LessonScreen) and following.item == lessons[1]


@pytest.mark.parametrize("game", PUZZLE_GAMES)
async def test_a_puzzle_of_the_data_is_solved_from_the_menu(
    make_app: AppFactory, game: str
) -> None:
    """In every game, on its own board and in its own notation."""
    puzzle_item = max(items(game, "puzzle"), key=lambda item: item.plies)
    app = make_app(learn=game, analyst=HandAnalyst())
    async with app.run_test(size=(100, 32)) as pilot:
        menu, puzzle = await opened(pilot, app, puzzle_item)
        assert isinstance(puzzle, PuzzleScreen)
        for move in puzzle_item.solution[::2]:
            await play_and_wait(pilot, puzzle, move)
        assert puzzle.done and puzzle.state.outcome() is not None
        await pilot.press("m")
        await pilot.pause()
        assert "streak 1 (best 1)" in str(menu.query_one("#learn-summary").render())


@pytest.mark.parametrize("game", PUZZLE_GAMES)
async def test_a_puzzle_s_hints_say_the_move_in_the_game_s_words_then_mark_it(
    make_app: AppFactory, game: str
) -> None:
    """The first hint is the game's `move_words`, the second marks the move on its board."""
    puzzle_item = items(game, "puzzle")[-1]
    rules = REGISTRY[game].game
    app = make_app(learn=game, analyst=HandAnalyst())
    async with app.run_test(size=(100, 32)) as pilot:
        _, puzzle = await opened(pilot, app, puzzle_item)
        assert isinstance(puzzle, PuzzleScreen)
        move = rules.parse_move(puzzle_item.solution[0], puzzle.state)
        words = rules.move_words(move)
        assert words, "every game of ours has words for a puzzle's first move"
        await pilot.press("i")
        await pilot.pause()
        assert puzzle.message.startswith(f"Hint 1 of 3: {words}.")
        assert puzzle.board.hint is None
        await pilot.press("i")
        await pilot.pause()
        assert puzzle.message.startswith(f"Hint 2 of 3: play {puzzle_item.solution[0]}")
        assert puzzle.board.hint is not None


async def test_a_bipod_puzzle_says_the_solvers_part_and_turns_the_board(
    make_app: AppFactory, tmp_path: Path
) -> None:
    def started(item: Item) -> BipodState:
        state = item.start()
        assert isinstance(state, BipodState)
        return state

    puzzles = [item for item in items("bipod", "puzzle") if started(item).runner is not None]
    assert puzzles
    app = make_app("bipod")
    async with app.run_test(size=(100, 32)) as pilot:
        for item in puzzles[:4]:
            screen = PuzzleScreen(item, Progress(tmp_path), False, app.analyst)
            await app.push_screen(screen)
            await pilot.pause()
            state = started(item)
            part = "the Runner" if state.to_move == state.runner else "the Blocker"
            assert f"({part})" in screen.task_text(), item.id
            assert screen.board.flipped == (state.to_move == 1)
            app.pop_screen()
            await pilot.pause()


@pytest.mark.parametrize(
    ("ascii_glyphs", "hollow", "filled"), [(False, "○", "●"), (True, "o", "O")]
)
async def test_a_lesson_names_the_stones_as_the_board_draws_them(
    make_app: AppFactory, ascii_glyphs: bool, hollow: str, filled: str
) -> None:
    """Issue 41: Bi-Pod's lesson said "typed o / O" while the board showed ○ ●; it says both,
    in the glyphs the board draws (under --ascii, its ASCII ones)."""
    from textual.widgets import Static

    item = next(item for item in items() if item.id == "bipod-runner")
    app = make_app("bipod", learn="bipod", ascii_glyphs=ascii_glyphs)
    async with app.run_test(size=(100, 32)) as pilot:
        _, lesson = await opened(pilot, app, item)
        text = " ".join(str(lesson.query_one("#exercise-text", Static).render()).split())
        assert f"(drawn {hollow}, typed o)" in text and f"(drawn {filled}, typed O)" in text
        assert text.isascii() == ascii_glyphs
