"""Coming back to a game: the resume question over the saved game's own board, and the Open
dialog's list of the games kept in the data folder, played as a person would."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from app_steps import AnyBoard, AppFactory, ScriptedBots, noticed, press, until
from game_files import kept, played
from paths import DATA
from seats import seated
from textual.pilot import Pilot
from textual.widgets import Input, Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.bipod import BipodBoard
from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.app.boards.game_board import GameBoard
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.app.dialogs.open import GameList, OpenScreen
from dipole_tui.control.choice import GameChoice
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import format_record, load_record
from dipole_tui.registry import REGISTRY
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Session

SMALL = (80, 24)


def the_board(app: GameApp) -> AnyBoard:
    """The one board on the game screen, under whatever dialog is open."""
    boards = list(app.screen_stack[0].query("GameBoard"))  # (an abstract class's CSS type)
    assert len(boards) == 1 and isinstance(boards[0], GameBoard)
    return boards[0]


def side_title(app: GameApp) -> str:
    return str(app.screen_stack[0].query_one("#title", Static).render())


def listed(app: GameApp) -> list[list[str]]:
    """The Open dialog's rows as shown."""
    games = app.screen.query_one(GameList)
    return [games.row_text(row) for row in range(games.row_count)]


async def open_dialog(pilot: Pilot[None], app: GameApp) -> OpenScreen:
    """The Open dialog, once the rows it shows are read (a thread reads their headers)."""
    await pilot.press("o")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, OpenScreen)
    if screen.games:
        games = screen.query_one(GameList)
        await until(lambda: all(screen.games[row].is_read for row in games.shown_rows()))
        await pilot.pause()
    return screen


SAVES = [
    ("death-stacks", "standard", ["a1-2-a3", "f6-1-f5"], DeathStacksBoard, "Death Stacks"),
    ("dipole", "10x10", ["e1-g3"], DipoleBoard, "Dipole 10x10"),
    ("bipod", "multi", ["e13f2", "su3"], BipodBoard, "Bi-Pod multi"),
]


async def test_a_game_between_named_people_says_their_names(
    make_app: AppFactory, tmp_path: Path
) -> None:
    text = '[Game "Dipole"]\n[White "Ann"]\n[Black "easy"]\n\n1. e1-g3\n'
    Autosave(tmp_path).write(Session.from_text(text))
    app = make_app(new=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("escape")  # resumed
        await until(lambda: "Ann v easy" in side_title(app))
        assert app.session.players == (HUMAN, "easy")


@pytest.mark.parametrize(("key", "variant", "moves", "board_type", "name"), SAVES)
async def test_the_resume_question_stands_over_the_saved_game(
    make_app: AppFactory,
    tmp_path: Path,
    key: str,
    variant: str,
    moves: list[str],
    board_type: type[DipoleBoard | DeathStacksBoard | BipodBoard],
    name: str,
) -> None:
    saved = played(key, moves, variant, (HUMAN, "easy"))
    Autosave(tmp_path).write(saved)
    app = make_app(new=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        board = the_board(app)
        assert isinstance(board, board_type)
        assert board.state.position() == saved.state.position()
        assert board.state.variant == variant
        assert side_title(app).startswith(name) and "human v easy" in side_title(app)
        # Still: even when the bot is to move (Dipole's), it waits for the answer.
        assert app.session.state.moves_played == saved.state.moves_played
        assert not app.bots.thinking
        await pilot.press("escape")  # Escape resumes
        await pilot.pause()
        resumed = app.session.state.moves_played
        assert resumed[: len(moves)] == saved.state.moves_played
        assert the_board(app) is board
    assert not (tmp_path / "unfinished").exists()


async def test_the_move_list_behind_the_question_ends_with_the_last_move(
    make_app: AppFactory, tmp_path: Path
) -> None:
    stacks = REGISTRY["death-stacks"].game
    saved = Session.new(stacks, None, (HUMAN, HUMAN))
    rng = random.Random(7)
    while len(saved.state.moves_played) < 60:
        saved.play(rng.choice(saved.state.legal_moves()))
    assert saved.outcome is None  # a long game still going: this seed's random moves
    Autosave(tmp_path).write(saved)
    app = make_app(new=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        move_list = app.screen_stack[0].query_one("#move-list", Static)
        shown = str(move_list.render()).splitlines()
        assert shown[-1].endswith(stacks.format_move(saved.state.moves_played[-1]))
        assert len(shown) == move_list.size.height


async def test_new_game_from_the_question_is_offered_like_the_saved_one_and_keeps_it(
    make_app: AppFactory, tmp_path: Path
) -> None:
    saved = played("dipole", ["e1-g3", "f10-f8"], "10x10", (HUMAN, "medium"))
    Autosave(tmp_path).write(saved)
    app = make_app(new=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.click("#new")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert app.screen.current == GameChoice("dipole", "10x10", seated(HUMAN, "medium"))
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
    assert len(shelved) == 1 and "1. e1-g3 f10-f8" in shelved[0].read_text()


async def test_a_game_chosen_on_the_command_line_starts_with_its_bot_at_once(
    make_app: AppFactory,
) -> None:
    """`play --white easy` with nothing saved: no dialog, the bot moves first."""
    bots = ScriptedBots("e1-g3")
    app = make_app(players=("easy", HUMAN), new=False, chosen=True, thinker=bots)
    async with app.run_test(size=SMALL):
        await until(lambda: app.session.state.plies == 1)
        assert app.screen is app.game_screen
        assert bots.asked == ["easy"]


async def test_a_game_chosen_on_the_command_line_still_offers_the_saved_one(
    make_app: AppFactory, tmp_path: Path
) -> None:
    saved = played("dipole", ["e1-g3", "f10-f8"], "10x10", (HUMAN, "medium"))
    Autosave(tmp_path).write(saved)
    app = make_app(players=(HUMAN, "hard"), new=False, chosen=True)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.click("#resume")
        await pilot.pause()
        assert app.session.state.moves_played == saved.state.moves_played


async def test_a_saved_game_with_no_moves_is_not_offered(
    make_app: AppFactory, tmp_path: Path
) -> None:
    Autosave(tmp_path).write(played("dipole", [], "10x10", (HUMAN, HUMAN)))
    app = make_app(new=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)  # no question: straight to a new game
        await pilot.click("#start")
        await pilot.pause()
    assert not (tmp_path / "unfinished").exists()  # nothing in it to keep


async def test_a_new_game_over_a_saved_game_with_no_moves_keeps_nothing(
    make_app: AppFactory, tmp_path: Path
) -> None:
    Autosave(tmp_path).write(played("death-stacks", [], "standard", (HUMAN, HUMAN)))
    app = make_app()  # as `play --new`
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert not noticed(app, "kept as")
    assert not (tmp_path / "unfinished").exists()
    assert '[Game "Dipole"]' in (tmp_path / "autosave.txt").read_text()


def a_folder_of_games(tmp_path: Path) -> dict[str, Path]:
    """Three games kept in the data folder, one of each game, a day apart."""
    return {
        "stacks": kept(
            tmp_path / "finished" / "death-stacks-20260301-100000.txt",
            played("death-stacks", ["a1-2-a3"], "standard", ("easy", "hard")).record_text(),
            "2026-03-01 10:00",
        ),
        "dipole": kept(
            tmp_path / "unfinished" / "game-20260302-100000.txt",
            played("dipole", ["e1-g3", "f10-e9"], "10x10", (HUMAN, "hard")).record_text(),
            "2026-03-02 10:00",
        ),
        "bipod": kept(
            tmp_path / "finished" / "bipod-20260303-100000.txt",
            (DATA / "sample-bipod.txt").read_text(),
            "2026-03-03 10:00",
        ),
    }


async def test_open_lists_the_kept_games_newest_first(make_app: AppFactory, tmp_path: Path) -> None:
    games = a_folder_of_games(tmp_path)
    bipod_plies = len(load_record(games["bipod"]).state.moves_played)
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await open_dialog(pilot, app)
        rows = listed(app)
        assert [row[:3] for row in rows] == [
            ["finished", "Bi-Pod", "multi"],
            ["unfinished", "Dipole", "10x10"],
            ["finished", "Death Stacks", "standard"],
        ]
        assert rows[0][3:] == ["? v ?", "2026-03-03 10:00", str(bipod_plies), "Second won"]
        assert rows[1][3:] == ["human v hard", "2026-03-02 10:00", "2", "-"]
        assert rows[2][3:] == ["easy v hard", "2026-03-01 10:00", "1", "-"]
        await pilot.press("escape")  # Escape cancels: the game on screen stays
        await pilot.pause()
        assert not isinstance(app.screen, OpenScreen)
        assert app.session.game.key == "dipole" and app.session.state.moves_played == []


async def test_open_fits_80x24_with_the_game_and_variant_in_one_column(
    make_app: AppFactory, tmp_path: Path
) -> None:
    a_folder_of_games(tmp_path)
    session = played("dipole", ["e1-g3"], "8x8", (HUMAN, HUMAN))
    names = {"White": "Anastasia Petrovna", "Black": "Bartholomew Higginbottom"}
    kept(
        tmp_path / "finished" / "long.txt",
        format_record(DIPOLE, session.state, names),
        "2026-01-01",
    )
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_dialog(pilot, app)
        table = app.screen.query_one(GameList)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        rows = listed(app)
        titles = [row[1] for row in rows]
        assert titles == ["Bi-Pod multi", "Dipole 10x10", "Death Stacks", "Dipole 8x8"]
        assert rows[-1][2].startswith("Anastasia") and rows[-1][2].endswith(
            "\N{HORIZONTAL ELLIPSIS}"
        )
        entry = app.screen.query_one(Input)
        assert entry.region.bottom <= 24 and entry.value == str(Path.cwd()) + "/"


async def test_choosing_a_row_opens_that_game(make_app: AppFactory, tmp_path: Path) -> None:
    games = a_folder_of_games(tmp_path)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_dialog(pilot, app)
        await pilot.press("down")  # the second newest: the unfinished Dipole 10x10
        await pilot.pause()
        about = str(app.screen.query_one("#about", Static).render())
        assert "unfinished/game-20260302-100000.txt" in about
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, OpenScreen)
        assert app.session.game.key == "dipole" and app.session.state.variant == "10x10"
        assert len(app.session.state.moves_played) == 2
        assert app.session.players == (HUMAN, "hard")
        assert isinstance(app.board, DipoleBoard)
        assert noticed(app, str(games["dipole"]))


async def test_a_typed_file_name_opens_that_file(make_app: AppFactory, tmp_path: Path) -> None:
    a_folder_of_games(tmp_path)
    elsewhere = tmp_path / "elsewhere.txt"
    game = played("death-stacks", ["a1-2-a3", "f6-1-f5"], "standard", (HUMAN, HUMAN))
    elsewhere.write_text(game.record_text())
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        assert screen.query_one(GameList).has_focus  # the list first; Tab goes to the name
        await pilot.press("tab")
        entry = screen.query_one(Input)
        assert entry.has_focus
        entry.value = ""
        await press(pilot, *str(elsewhere))  # a long name: typed without pausing for time
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.game.key == "death-stacks"
        assert len(app.session.state.moves_played) == 2
        assert isinstance(app.board, DeathStacksBoard)


async def test_a_damaged_file_is_listed_as_damaged_and_the_rest_still_open(
    make_app: AppFactory, tmp_path: Path
) -> None:
    a_folder_of_games(tmp_path)
    kept(tmp_path / "finished" / "broken.txt", '[Game "Dipole"\n\n1. e1-g3\n', "2026-03-04 10:00")
    binary = tmp_path / "unfinished" / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x80")
    os.utime(binary, (0, 0))  # the oldest
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        rows = listed(app)
        assert len(rows) == 5
        assert rows[0][:2] == ["finished", "damaged"] and rows[-1][:2] == ["unfinished", "damaged"]
        about = str(screen.query_one("#about", Static).render())
        assert "finished/broken.txt" in about and "damaged: line 1: expected a tag" in about
        await pilot.press("enter")  # opening it says why, and keeps the game in play
        await pilot.pause()
        assert app.session.state.moves_played == []
        assert noticed(app, "expected a tag")
        await open_dialog(pilot, app)
        await pilot.press("down", "enter")  # the newest good one still opens
        await pilot.pause()
        assert app.session.game.key == "bipod"
