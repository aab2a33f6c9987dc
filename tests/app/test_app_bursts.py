"""A confirm pressed twice at once plays one move, in every game and every way (issue 26).

A terminal delivers a double press or a double click in one burst: every key of it reaches the
board before the app has played the first move, so the second confirm is read in the position the
first was chosen in. `pilot.press` waits between keys and would never show it; these tests post
each burst whole (`app_steps.burst`, `app_steps.clicks`), then check that exactly one move
was played, that the board dropped its selection, and that the autosave reads back as the game.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import pytest
from app_steps import (
    AppFactory,
    HandAnalyst,
    ScriptedBots,
    Walkable,
    board_of,
    burst,
    clicks,
    drawn_offset,
    message,
    settle,
    until,
    walk_to,
)
from game_samples import board_samples
from test_app_learning import PUZZLE
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Label, Select

from dipole_tui import app as app_package
from dipole_tui.analysis import Analysis
from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.app.boards.game_board import GameBoard
from dipole_tui.app.boards.registered import board_class
from dipole_tui.app.closing import ClosingScreen
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.app.screens import learning
from dipole_tui.app.screens.learning import LessonScreen
from dipole_tui.app.screens.puzzle import PuzzleScreen
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.games import death_stacks, dipole
from dipole_tui.games.base import State
from dipole_tui.learn import Progress, items
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session

SIZE = (100, 32)
SLOW_REPLY = 3.0  # seconds: the exercises' reply delay where a test must act before it (1.5 was
# too short on a machine loaded by two other test runs: the defence came before the check)
CONFIRMS = [("enter", "enter"), ("enter", "space"), ("space", "enter"), ("space", "space")]


def played(app: GameApp) -> list[str]:
    game = app.session.game
    return [game.format_move(move) for move in app.session.state.moves_played]


def assert_kept(app: GameApp) -> None:
    """The game is a replay of its moves from the start, each legal where it was played, and
    the autosave reads back as it."""
    session = app.session
    replay: State[Any] = session.game.new(session.state.variant)
    for move in session.state.moves_played:
        assert replay.is_legal(move), f"{session.game.format_move(move)} was not legal there"
        replay.play(move)
    assert replay == session.state
    saved = Session.from_text(app.autosave.path.read_text())
    assert saved.state == session.state
    assert saved.state.moves_played == session.state.moves_played


def play(app: GameApp, text: str) -> None:
    """A move played behind the app's back: the game moves on and nothing is stopped or asked
    again, as if an answer had been on its way all along."""
    session = app.session
    session.play(session.game.parse_move(text, session.state))


def assert_one_move(app: GameApp, move: str) -> None:
    assert played(app) == [move]
    assert message(app).count("played") == 1
    assert_kept(app)


# -- each game's move, up to its last confirm ------------------------------------------------


@runtime_checkable
class Selecting(Protocol):
    """A board on which a move starts with a selection (Dipole's, Death Stacks'): what is
    selected, and the squares it may go to."""

    selected: object
    targets: Mapping[int, object]


async def up_to_confirm(pilot: Pilot[None], app: GameApp) -> tuple[str, str, int]:
    """The game's sample move (`Confirm` in tests/support/game_samples.py) made with the keys up
    to its last confirm: its squares walked to, each with its key pressed there (e1 selected in
    Dipole, both of a1's pieces in Death Stacks), then the cursor on its last square (e5, a3, or
    Bi-Pod's g1, where Enter places a blocking stone): the confirm is next. The move, and the
    meta data that square is drawn with."""
    key = app.session.game.key
    kind, samples = board_class(key), board_samples(key)
    assert kind is not None
    board = board_of(app, kind)
    assert isinstance(board, Walkable)
    for name, press in samples.confirm.picks:
        await walk_to(pilot, board, samples.square(name)[1])
        await pilot.press(press)
    meta, last = samples.square(samples.confirm.last)
    await walk_to(pilot, board, last)
    if samples.confirm.picks:
        assert isinstance(board, Selecting)
        assert board.selected is not None and last in board.targets
    return samples.confirm.move, meta, last


def selection_of(app: GameApp) -> object:
    """What the board holds selected or marked for the next move (None or empty: nothing)."""
    return getattr(app.board, board_samples(app.session.game.key).selection)


@pytest.mark.parametrize("game", list(REGISTRY))
@pytest.mark.parametrize("confirms", CONFIRMS, ids="-".join)
async def test_a_double_confirm_plays_one_move(
    make_app: AppFactory, game: str, confirms: tuple[str, str]
) -> None:
    app = make_app(game)
    async with app.run_test(size=SIZE) as pilot:
        move, _, _ = await up_to_confirm(pilot, app)
        burst(app, *confirms)
        await settle(pilot)
        assert_one_move(app, move)
        assert not selection_of(app)
        assert not app.board.awaiting  # the next position is shown: it takes choices again


@pytest.mark.parametrize("game", list(REGISTRY))
async def test_a_double_click_on_the_destination_plays_one_move(
    make_app: AppFactory, game: str
) -> None:
    app = make_app(game)
    async with app.run_test(size=SIZE) as pilot:
        move, key, value = await up_to_confirm(pilot, app)
        clicks(app, app.board, key, value, times=2)
        await settle(pilot)
        assert_one_move(app, move)
        assert not selection_of(app)


async def test_the_issue_s_burst_plays_e1_e5_once(make_app: AppFactory) -> None:
    """`play --new`, then Enter Up Up Up Up Enter Enter arriving together."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "enter", "up", "up", "up", "up", "enter", "enter")
        await settle(pilot)
        assert_one_move(app, "e1-e5")
        assert message(app) == "White played e1-e5."
        assert board_of(app, DipoleBoard).selected is None


async def test_keys_after_a_confirm_in_the_same_burst_choose_nothing(
    make_app: AppFactory,
) -> None:
    """Keys typed ahead of a move not played yet would select, and choose, in the position it
    leaves: here a1-2-a3, then back to a1 (still drawn full), 1, a2 and Enter: a1-1-a2."""
    app = make_app("death-stacks")
    async with app.run_test(size=SIZE) as pilot:
        move, _, _ = await up_to_confirm(pilot, app)
        burst(app, "enter", "down", "down", "1", "up", "enter")
        await settle(pilot)
        assert_one_move(app, move)
        board = board_of(app, DeathStacksBoard)
        assert board.selected is None and not board.notice  # nothing refused, no bell's cause


async def test_number_keys_keep_their_place_in_a_burst(make_app: AppFactory) -> None:
    """Enter (a1, both pieces), 1 (one of them), Up, Enter: a1-1-a2, in the order typed."""
    app = make_app("death-stacks")
    async with app.run_test(size=SIZE) as pilot:
        await walk_to(pilot, board_of(app, DeathStacksBoard), death_stacks.parse_square("a1"))
        burst(app, "enter", "1", "up", "enter")
        await settle(pilot)
        assert_one_move(app, "a1-1-a2")


async def test_a_removal_chip_double_clicked_removes_once(make_app: AppFactory) -> None:
    app = make_app(position="8:W:Wg7=2:Bb2=1")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DipoleBoard)
        g7 = dipole.parse_square("g7", 8)
        await pilot.click(DipoleBoard, offset=drawn_offset(board, "square", g7))
        await pilot.pause()
        assert [m.count for m in board.removals] == [2]
        clicks(app, board, "removal", 2, times=2)
        await settle(pilot)
        assert played(app) == ["g7-off:2"] and message(app).count("played") == 1


async def test_resigning_twice_at_once_asks_once_and_declined_gives_the_board_back(
    make_app: AppFactory,
) -> None:
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "R", "R")
        await settle(pilot)
        dialogs = [screen for screen in app.screen_stack if isinstance(screen, ChoiceScreen)]
        assert len(dialogs) == 1
        await pilot.press("escape")  # keep playing
        await settle(pilot)
        assert not app.board.awaiting and not app.session.state.moves_played
        await up_to_confirm(pilot, app)
        burst(app, "enter", "enter")
        await settle(pilot)
        assert_one_move(app, "g1")


@pytest.mark.parametrize("game", list(REGISTRY))
async def test_a_question_answered_and_escaped_in_one_burst_closes_once(
    make_app: AppFactory, game: str
) -> None:
    """R, Enter, Escape at once: Escape closes the question before the press of its first
    button (Enter's) has come up from the button; that press then closed the screen on top,
    the game's own, and the app stopped (ScreenStackError, the hypothesis machine's find).
    Escape's harmless answer stands and the game goes on."""
    app = make_app(game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        burst(app, "R", "enter", "escape")
        await settle(pilot)
        assert app.is_running and len(app.screen_stack) == 1
        assert app.session.outcome is None and not app.board.awaiting
        assert app.focused is app.board


# The hypothesis machine's find, in Death Stacks: each string one burst, the app let settle after
# it. The last burst changes the new-game dialog's game, and its late keys change the replaced
# list again: that stale change built the form anew without end (the app never settled, nothing
# had the focus) or asked for a list the rebuilt form no longer had (NoMatches).
STALE_GAME_CHANGE = [
    "3 escape down minus enter o",
    "escape u",
    "s u",
    "2 up right question_mark",
    "U plus escape a escape 3",
    "left n plus enter a right",
    "right left",
    "D space R right",
    "space minus n enter down enter enter",
]


async def test_a_game_changed_in_a_burst_rebuilds_the_new_game_form_once(
    make_app: AppFactory,
) -> None:
    app = make_app("death-stacks", thinker=ScriptedBots(), analyst=HandAnalyst())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for keys in STALE_GAME_CHANGE:
            burst(app, *keys.split())
            await settle(pilot)
        assert app.is_running
        dialog = app.screen
        assert isinstance(dialog, NewGameScreen)
        chosen = dialog.query_one("#game", Select)
        assert app.focused is chosen and chosen.value == dialog.current.game_key
        # the form is the chosen game's: its sides are named as that game names them
        names = REGISTRY[dialog.current.game_key].game.side_names
        labels = [str(label.content) for label in dialog.query(Label)]
        assert all(name in labels for name in names)


def test_every_screen_that_dismisses_itself_closes_only_itself() -> None:
    """A screen built on Textual's own `Screen` or `ModalScreen` that dismisses itself would let
    the answer of a burst's first key close the screen under it (the test above)."""
    for module in pkgutil.iter_modules(app_package.__path__):
        importlib.import_module(f"{app_package.__name__}.{module.name}")
    screens: list[type[Screen[Any]]] = []
    kinds: list[type[Screen[Any]]] = [Screen]
    while kinds:
        kind = kinds.pop()
        if kind.__module__.startswith(app_package.__name__):
            screens.append(kind)
        kinds.extend(kind.__subclasses__())
    dismissing = [kind for kind in screens if "self.dismiss(" in inspect.getsource(kind)]
    assert len(dismissing) >= 10, "the screens that dismiss themselves were not found"
    assert [kind for kind in dismissing if not issubclass(kind, ClosingScreen)] == []


async def test_a_move_chosen_for_a_position_gone_is_dropped_quietly(make_app: AppFactory) -> None:
    """However it arrives late (an old board's message, a burst the board did not stop)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = (0, app.session.state.position())
        e1_e5 = app.session.game.parse_move("e1-e5", app.session.state)
        app.board.post_message(GameBoard.MoveChosen(e1_e5, start))
        app.board.post_message(GameBoard.MoveChosen(e1_e5, start))
        await settle(pilot)
        assert_one_move(app, "e1-e5")


async def test_a_move_the_session_refuses_is_said_and_changes_nothing(
    make_app: AppFactory,
) -> None:
    """`Session.play` is the last guard; the app says what it refused and goes on."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        here = (0, app.session.state.position())
        black_move = dipole.Move(dipole.parse_square("d8", 8), dipole.parse_square("d6", 8), 2)
        app.board.post_message(GameBoard.MoveChosen(black_move, here))
        await settle(pilot)
        assert app.is_running and not app.session.state.moves_played
        assert message(app).startswith("Not played:")
        assert not app.board.awaiting
        assert_kept(app)


# -- bots and analysis: answers about another position ----------------------------------------


async def test_a_bot_answer_arriving_after_a_burst_of_moves_plays_once(
    make_app: AppFactory,
) -> None:
    """Against a bot: the double confirm plays the human's move once, and the bot's reply
    (asked once) is played for the bot's side."""
    bots = ScriptedBots("d8-c7")
    app = make_app(players=(HUMAN, "easy"), thinker=bots)
    async with app.run_test(size=SIZE) as pilot:
        await up_to_confirm(pilot, app)
        burst(app, "enter", "enter")
        await until(lambda: len(app.session.state.moves_played) == 2)
        await settle(pilot)
        assert played(app) == ["e1-e5", "d8-c7"] and bots.asked == ["easy"]
        assert_kept(app)


async def test_a_late_bot_answer_for_another_position_is_dropped_and_asked_again(
    make_app: AppFactory,
) -> None:
    """A bot's answer is played only in the position it was asked about: if the game moved on
    and nothing stopped the search, the answer is dropped and the bot asked again."""
    bots = ScriptedBots("e1-e3", "e1-e5", held=True)
    app = make_app(players=("easy", HUMAN), thinker=bots)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: len(bots.waiting) == 1)
        # Its answer is about a game gone, though the bot is to move again.
        play(app, "e1-g3")
        play(app, "d8-c7")
        bots.release()
        await until(lambda: len(bots.waiting) == 1)
        await settle(pilot)
        assert played(app) == ["e1-g3", "d8-c7"] and bots.asked == ["easy", "easy"]
        bots.release()
        await until(lambda: len(app.session.state.moves_played) == 3)
        await settle(pilot)
        assert played(app) == ["e1-g3", "d8-c7", "e1-e5"]
        assert_kept(app)


async def test_a_hint_for_another_position_is_not_marked(make_app: AppFactory) -> None:
    bots = ScriptedBots("e1-e3", held=True)
    app = make_app(thinker=bots)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        await until(lambda: len(bots.waiting) == 1)
        play(app, "e1-g3")  # no drop_questions
        bots.release()
        await settle(pilot)
        assert board_of(app, DipoleBoard).hint is None
        assert "Hint" not in message(app)


async def test_an_analysis_for_another_position_is_dropped(make_app: AppFactory) -> None:
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await pilot.pause()
        assert app.analysis.searching
        play(app, "e1-g3")  # no follow
        analyst.tell(Analysis(3, PovScore(Score(250), 0), ("d8-c7",), 1000))
        await settle(pilot)
        assert app.analysis.latest is None


# -- lessons and puzzles ----------------------------------------------------------------------


async def test_a_lesson_s_move_confirmed_twice_is_played_once(make_app: AppFactory) -> None:
    """Bi-Pod's adopting lesson: `a` twice at once adopts once, and the reply follows."""
    item = next(item for item in items(kind="lesson") if item.id == "bipod-adopting")
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        lesson = LessonScreen(item, Progress(app.autosave.folder), False)
        await app.push_screen(lesson)
        await pilot.pause()
        burst(app, "a", "a")
        await until(lambda: lesson.done)
        game = lesson.game
        assert [game.format_move(m) for m in lesson.state.moves_played] == list(item.solution)
        assert app.is_running


async def test_a_puzzle_s_late_explanation_of_a_wrong_try_is_not_said_over_the_right_move(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The defence's reply waits longer than a loaded machine takes to read "Right.": this test
    # is about the explanation, and the reply would say its own words over it.
    monkeypatch.setattr(learning, "REPLY_DELAY", 30.0)
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        puzzle = PuzzleScreen(PUZZLE, Progress(app.autosave.folder), False, app.analyst)
        await app.push_screen(puzzle)
        await pilot.pause()
        await pilot.press("colon", *"e7-d6", "enter")  # wrong: explained by the analysis
        await pilot.pause()
        assert analyst.records
        await pilot.press("colon", *"e7-e5", "enter")  # right, before the explanation came
        await pilot.pause()
        assert puzzle.message.startswith("Right.")
        analyst.tell(Analysis(2, PovScore(Score(-250), 0), ("f6-d8",), 100))
        analyst.tell(None)
        await settle(pilot)
        assert "e7-d6" not in puzzle.message and "Try again" not in puzzle.message


async def test_a_lesson_s_reply_is_dropped_when_r_begins_it_again_meanwhile(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Adopt, then `r` before the reply comes: the reply was for the position left, and the
    lesson starts again untouched (it used to play t2 O at the start, or fail on it)."""
    monkeypatch.setattr(learning, "REPLY_DELAY", SLOW_REPLY)
    item = next(item for item in items(kind="lesson") if item.id == "bipod-adopting")
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        lesson = LessonScreen(item, Progress(app.autosave.folder), False)
        await app.push_screen(lesson)
        await pilot.pause()
        burst(app, "a")
        await settle(pilot)
        assert [lesson.game.format_move(m) for m in lesson.state.moves_played] == ["adopt"]
        burst(app, "r")
        await settle(pilot)
        await pilot.pause(SLOW_REPLY + 0.3)
        assert app.is_running and not lesson.state.moves_played and not lesson.done
        assert lesson.board.takes_choices


async def test_a_puzzle_s_defence_is_dropped_when_r_begins_it_again_meanwhile(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Time enough, even on a loaded machine, to read "Right." and press r before the defence.
    monkeypatch.setattr(learning, "REPLY_DELAY", SLOW_REPLY)
    analyst = HandAnalyst()
    app = make_app(analyst=analyst)
    async with app.run_test(size=SIZE) as pilot:
        puzzle = PuzzleScreen(PUZZLE, Progress(app.autosave.folder), False, app.analyst)
        await app.push_screen(puzzle)
        await pilot.pause()
        await pilot.press("colon", *"e7-e5", "enter", "escape")  # right: the defence follows
        assert puzzle.message.startswith("Right.")
        burst(app, "r")
        await settle(pilot)
        await pilot.pause(SLOW_REPLY + 0.3)
        assert not puzzle.state.moves_played and puzzle.step == 0
        assert puzzle.players_turn() and puzzle.board.takes_choices


async def black_plays(pilot: Pilot[None], app: GameApp, target: str, *confirms: str) -> None:
    """Black's d8 selected, the cursor walked to `target`, then `confirms` in one burst."""
    board = board_of(app, DipoleBoard)
    await walk_to(pilot, board, dipole.parse_square("d8", 8))
    await pilot.press("enter")
    await walk_to(pilot, board, dipole.parse_square(target, 8))
    burst(app, *confirms)
    await settle(pilot)


@pytest.mark.parametrize("key", ["u", "U"])
async def test_undo_or_redo_typed_right_after_a_confirm_is_dropped(
    make_app: AppFactory, key: str
) -> None:
    """Enter then u (or U) in one burst: the app takes the u before the move the Enter chose
    has come up from the board, so it would take back (or replay) a move before it, and then
    drop the move chosen as chosen elsewhere. The move is played; the u is dropped."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await up_to_confirm(pilot, app)
        burst(app, "enter")
        await settle(pilot)
        if key == "U":  # d8-c7 played and taken back: it waits to be replayed
            await black_plays(pilot, app, "c7", "enter")
            burst(app, "u")
            await settle(pilot)
            assert played(app) == ["e1-e5"] and app.session.redo_moves
        await black_plays(pilot, app, "e7", "enter", key)
        assert played(app) == ["e1-e5", "d8-e7"]
        assert not app.session.redo_moves
        assert_kept(app)
