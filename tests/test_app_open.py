"""Coming back to a game: the resume question over the saved game's own board, and the Open
dialog's list of the games kept in the data folder, played as a person would."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from dipole_tui.app.app import DipoleApp
from dipole_tui.app.board import DipoleBoard
from dipole_tui.app.game_board import GameBoard
from dipole_tui.app.hex_board import BipodBoard
from dipole_tui.app.screens import ChoiceScreen, GameChoice, NewGameScreen
from dipole_tui.app.stacks_board import DeathStacksBoard
from dipole_tui.games import GAMES
from dipole_tui.session import HUMAN, Autosave, Session

SMALL = (80, 24)


def played(game_key: str, variant: str, moves: list[str], players: tuple[str, str]) -> Session:
    game = GAMES[game_key]
    session = Session.new(game, variant, players)
    for text in moves:
        session.play(game.parse_move(text, session.state))
    return session


def the_board(app: DipoleApp) -> GameBoard:
    """The one board on the game screen, under whatever dialog is open."""
    boards = list(app.screen_stack[0].query(GameBoard))
    assert len(boards) == 1
    return boards[0]


def side_title(app: DipoleApp) -> str:
    return str(app.screen_stack[0].query_one("#title", Static).render())


SAVES = [
    ("death-stacks", "standard", ["a1-2-a3", "f6-1-f5"], DeathStacksBoard, "Death Stacks"),
    ("dipole", "10x10", ["e1-g3"], DipoleBoard, "Dipole 10x10"),
    ("bipod", "multi", ["e13f2", "su3"], BipodBoard, "Bi-Pod multi"),
]


@pytest.mark.parametrize(("key", "variant", "moves", "board_type", "name"), SAVES)
async def test_the_resume_question_stands_over_the_saved_game(
    tmp_path: Path, key: str, variant: str, moves: list[str], board_type: type, name: str
) -> None:
    saved = played(key, variant, moves, (HUMAN, "easy"))
    Autosave(tmp_path).write(saved)
    app = DipoleApp(autosave=Autosave(tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        board = the_board(app)
        assert isinstance(board, board_type)
        assert board.state.position() == saved.state.position()  # type: ignore[attr-defined]
        assert board.state.variant == variant  # type: ignore[attr-defined]
        assert side_title(app).startswith(name) and "human v easy" in side_title(app)
        # Still: even when the bot is to move (Dipole's), it waits for the answer.
        assert app.session.state.moves_played == saved.state.moves_played
        assert not app._thinking
        await pilot.press("escape")  # Escape resumes
        await pilot.pause()
        resumed = app.session.state.moves_played
        assert resumed[: len(moves)] == saved.state.moves_played
        assert the_board(app) is board
    assert not (tmp_path / "unfinished").exists()


async def test_new_game_from_the_question_is_offered_like_the_saved_one_and_keeps_it(
    tmp_path: Path,
) -> None:
    saved = played("dipole", "10x10", ["e1-g3"], ("medium", HUMAN))
    Autosave(tmp_path).write(saved)
    app = DipoleApp(autosave=Autosave(tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.click("#new")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.current == GameChoice("dipole", "10x10", ("medium", HUMAN))
        await pilot.press("escape")  # no new game after all: the saved one goes on
        await pilot.pause()
        assert app.session.state.moves_played == saved.state.moves_played
        assert not (tmp_path / "unfinished").exists()
        resumed = app.session
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        assert app.session is not resumed
    shelved = list((tmp_path / "unfinished").glob("*.txt"))
    assert len(shelved) == 1 and "1. e1-g3" in shelved[0].read_text()


async def test_a_saved_game_with_no_moves_is_not_offered(tmp_path: Path) -> None:
    Autosave(tmp_path).write(played("dipole", "10x10", [], (HUMAN, HUMAN)))
    app = DipoleApp(autosave=Autosave(tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)  # no question: straight to a new game
        await pilot.click("#start")
        await pilot.pause()
    assert not (tmp_path / "unfinished").exists()  # nothing in it to keep


async def test_a_new_game_over_a_saved_game_with_no_moves_keeps_nothing(tmp_path: Path) -> None:
    Autosave(tmp_path).write(played("death-stacks", "standard", [], (HUMAN, HUMAN)))
    app = DipoleApp(new=True, autosave=Autosave(tmp_path))  # as `play --new`
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert not any("kept as" in str(n.message) for n in app._notifications)
    assert not (tmp_path / "unfinished").exists()
    assert '[Game "Dipole"]' in (tmp_path / "autosave.txt").read_text()
