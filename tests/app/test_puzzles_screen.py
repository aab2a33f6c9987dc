"""A puzzle as a player meets it, keys delivered as a terminal sends them: a wrong move is
answered with the line after it and who plays each move, the defence's replies are said and
marked, the panel lists the moves so far, and `i` hints in steps before the whole line."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_steps import AppFactory, HandAnalyst, press, screen_text, type_move, until
from test_app_bursts import SLOW_REPLY
from test_app_learning import PUZZLE
from textual.pilot import Pilot
from textual.widgets import Static

from dipole_tui.analysis import Analysis
from dipole_tui.app.app import GameApp
from dipole_tui.app.screens import learning
from dipole_tui.app.screens.puzzle import PuzzleScreen
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.learn import Item, Progress, item_named
from dipole_tui.registry import REGISTRY

DIPOLE = REGISTRY["dipole"].game


async def opened(app: GameApp, pilot: Pilot[None], item: Item, tmp_path: Path) -> PuzzleScreen:
    screen = PuzzleScreen(item, Progress(tmp_path), False, app.analyst)
    await app.push_screen(screen)
    await pilot.pause()
    return screen


def moves_shown(puzzle: PuzzleScreen) -> str:
    return str(puzzle.query_one("#exercise-moves", Static).render())


async def test_a_refusal_waits_for_the_whole_line_and_names_who_plays_each_move(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """The solver proves the first move before the line: a refusal said at once quoted one
    move of a six-ply line, with no word of who plays it."""
    item = item_named("dipole-puzzle-036")  # White, win in 8: d8-off:2 lets Black win in 6
    line = ("c1-off:1", "d8-off:1", "e1-off:1", "d8-off:1", "e1-off:1", "d8-off:1")
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await opened(app, pilot, item, tmp_path)
        await type_move(pilot, "d8-off:2", leave=False)
        assert puzzle.message == "d8-off:2 is not the fastest win. Looking at why..."
        black_wins = PovScore(Score.win(6), 1)  # Black, to move
        analyst.tell(Analysis(0, black_wins, line[:1], 10))  # proved, the line still to come
        await pilot.pause(0.1)
        assert puzzle.message == "d8-off:2 is not the fastest win. Looking at why..."
        analyst.tell(Analysis(0, black_wins, line, 10))
        await until(lambda: "Try again" in puzzle.message)
        assert puzzle.message == (
            "d8-off:2 loses: after it Black wins in 6 plies:\n"
            "Black c1-off:1\nWhite d8-off:1\nBlack e1-off:1\n"
            "White d8-off:1\nBlack e1-off:1\nWhite d8-off:1\n"
            "Try again, or i for a hint."
        )
        assert puzzle.state.position() == item.position  # not played
        # A proof's line is kept when its first move alone is told again, then the end.
        await type_move(pilot, "d8-off:3", leave=False)
        black_wins = PovScore(Score.win(4), 1)
        analyst.tell(Analysis(0, black_wins, line[:3], 10))
        analyst.tell(Analysis(0, black_wins, line[:1], 10))
        analyst.tell(None)
        await until(lambda: "Try again" in puzzle.message)
        assert puzzle.message.startswith(
            "d8-off:3 loses: after it Black wins in 4 plies:\n"
            "Black c1-off:1\nWhite d8-off:1\nBlack e1-off:1\n...\n"
        )


async def test_a_slower_win_is_told_as_such_and_an_early_end_says_what_came(
    make_app: AppFactory, tmp_path: Path
) -> None:
    item = item_named("dipole-puzzle-024")  # Black, win in 6: d4xe5 wins only in 8
    line = ("c7xe5", "d4-c3", "e5-c7", "d8-a5", "c7-b8", "a5xc7", "b8-off:1")
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=(100, 32)) as pilot:
        puzzle = await opened(app, pilot, item, tmp_path)
        await type_move(pilot, "d4xe5", leave=False)
        analyst.tell(
            Analysis(0, PovScore(Score.loss(7), 0), line, 10)
        )  # White, to move, loses in 7
        await until(lambda: "Try again" in puzzle.message)
        assert puzzle.message.startswith(
            "d4xe5 wins too, but in 8 plies, not 6 plies: the puzzle asks for the fastest win. "
            "Best play after it:\nWhite c7xe5\nBlack d4-c3\nWhite e5-c7\n"
            "Black d8-a5\nWhite c7-b8\nBlack a5xc7\n...\n"
        )
        # The analysis ends (None) before it proves anything: what it found is said.
        await type_move(pilot, "d8-e7", leave=False)
        analyst.tell(Analysis(4, PovScore(Score(300), 0), ("c7xe7", "d4-c3"), 100))
        analyst.tell(None)
        await until(lambda: "Try again" in puzzle.message)
        assert puzzle.message.startswith(
            "d8-e7 lets White hold out longer than 6 plies:\nWhite c7xe7\nBlack d4-c3\n"
        )


async def test_the_defence_s_reply_is_said_marked_and_the_turn_told(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(learning, "REPLY_DELAY", SLOW_REPLY)  # time to read what comes first
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await opened(app, pilot, PUZZLE, tmp_path)  # Black, win in 6
        assert moves_shown(puzzle) == "Moves: none yet. Black to move (you)."
        await type_move(pilot, "e7-e5", leave=False)
        assert puzzle.message == "Right. White answers..."
        assert moves_shown(puzzle) == "Moves:\n1... e7-e5\nWhite to move."
        await until(lambda: puzzle.step == 2)
        await pilot.pause()
        assert puzzle.message == "White answers f6-d8.\nYour move (Black): win in 4 more plies."
        assert DIPOLE.format_move(puzzle.board.last_move) == "f6-d8"
        assert moves_shown(puzzle) == "Moves:\n1... e7-e5\n2. f6-d8\nBlack to move (you)."
        assert "White answers f6-d8." in screen_text(app)


async def test_the_defence_s_last_reply_that_ends_the_puzzle_is_said_and_marked(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """Puzzle 1 ends with the defence's forced removal of its own last checker."""
    item = item_named("dipole-puzzle-001")  # Black: f4xd4, then White must play d8-off:1
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await opened(app, pilot, item, tmp_path)
        await type_move(pilot, "f4xd4", leave=False)
        await until(lambda: puzzle.done)
        await pilot.pause()
        assert puzzle.message.startswith(
            "White answers d8-off:1. White has no checkers left.\nSolved at the first try"
        )
        assert DIPOLE.format_move(puzzle.board.last_move) == "d8-off:1"
        assert moves_shown(puzzle) == "Moves:\n1... f4xd4\n2. d8-off:1"


async def test_hints_come_in_steps_before_the_whole_line(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await opened(app, pilot, PUZZLE, tmp_path)
        assert "i Hint" in screen_text(app).splitlines()[-1]  # the footer says the key
        first = DIPOLE.parse_move("e7-e5", puzzle.state.copy())
        await press(pilot, "i")
        assert puzzle.message == (
            "Hint 1 of 3: the stack on e7 moves, capturing nothing.\ni again: the move."
        )
        assert puzzle.board.hint is None and not puzzle.shown_solution
        await press(pilot, "i")
        assert puzzle.message == (
            "Hint 2 of 3: play e7-e5, marked on the board.\ni again: the whole line."
        )
        assert puzzle.board.hint == first and not puzzle.shown_solution
        await press(pilot, "i")
        assert puzzle.message == (
            "Hint 3 of 3: the whole line:\nBlack e7-e5\nWhite f6-d8\nBlack e5-d4\n"
            "White d8-off:1\nBlack d4-c3\nWhite d8-off:1\nThe next move is marked on the board."
        )
        assert puzzle.board.hint == first and puzzle.shown_solution
        await press(pilot, "i")  # no step further: the line again
        assert puzzle.message.startswith("Hint 3 of 3: the whole line:")
        # From then on each next move is marked, and the puzzle is not solved at the first try.
        await type_move(pilot, "e7-e5", leave=False)
        await until(lambda: puzzle.step == 2)
        await pilot.pause()
        assert puzzle.message.endswith("The next move is marked on the board.")
        assert puzzle.board.hint == DIPOLE.parse_move("e5-d4", puzzle.state.copy())
        for move in ("e5-d4", "d4-c3"):
            before = puzzle.step
            await type_move(pilot, move, leave=False)
            await until(lambda: puzzle.step >= before + 2)  # noqa: B023 (awaited here)
        assert puzzle.done and "Solved (not at the first try" in puzzle.message


async def test_a_hint_at_a_new_turn_starts_again_with_the_smallest(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Time enough, even on a loaded machine, to press i before the defence answers.
    monkeypatch.setattr(learning, "REPLY_DELAY", SLOW_REPLY)
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await opened(app, pilot, PUZZLE, tmp_path)
        await press(pilot, "i")
        await type_move(pilot, "e7-e5")
        await press(pilot, "i")  # the defence has not answered yet
        assert puzzle.message == "Not now: wait for the reply"
        await until(lambda: puzzle.step == 2)
        await press(pilot, "i")
        assert puzzle.message.startswith("Hint 1 of 3: the stack on e5 moves")


@pytest.mark.parametrize(
    ("position", "move", "words"),
    [
        ("8:W:We1=2:Bc3=1", "e1xc3", "a capture by the stack on e1"),
        ("8:W:We1=2:Bc3=1", "e1-e3", "the stack on e1 moves, capturing nothing"),
        ("8:W:We7=2:Bc3=1", "e7-off:2", "a removal: checkers of the stack on e7 go off the board"),
        ("8:W:Wc1=1:Bb2=2,d2=2", "pass", "a pass"),
    ],
)
def test_dipole_tells_a_move_in_words_that_leave_its_target_to_find(
    position: str, move: str, words: str
) -> None:
    state = DIPOLE.parse_position(position)
    assert DIPOLE.move_words(DIPOLE.parse_move(move, state)) == words


@pytest.mark.parametrize(
    ("game", "position", "move", "words"),
    [
        ("death-stacks", "", "b1-2-d3", "a move of 2 pieces from the stack on b1"),
        ("death-stacks", "", "a1-1-a2", "a move of 1 piece from the stack on a1"),
        ("bipod", "", "j2", "a blocking stone in row 2"),
        ("bipod", "multi", "j2j4", "blocking stones in rows 2 and 4"),
        ("bipod", "multi", "e1j2j4", "blocking stones in rows 1, 2 and 4"),
        ("bipod", "", "adopt", ""),  # no smaller than the move: the hint starts at it
    ],
)
def test_the_other_games_tell_a_move_in_words_that_leave_its_target_to_find(
    game: str, position: str, move: str, words: str
) -> None:
    rules = REGISTRY[game].game
    state = rules.new(position or None)
    assert rules.move_words(rules.parse_move(move, state)) == words


@pytest.mark.parametrize(("move", "start"), [("j2 o", "i1"), ("r2 O", "s1")])
def test_a_runner_stone_is_told_by_its_chain_not_by_its_letter(move: str, start: str) -> None:
    rules = REGISTRY["bipod"].game
    state = rules.new()
    state.play(rules.parse_move("adopt", state))
    words = rules.move_words(rules.parse_move(move, state))
    assert words == f"a stone of the chain from {start}, in row 2"
