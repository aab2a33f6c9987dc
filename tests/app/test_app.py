"""The app played as a person would: keys, clicks and typed moves, through Textual's Pilot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from app_steps import (
    AppFactory,
    ScriptedBots,
    ask_hint,
    board_of,
    drawn_offset,
    drawn_text,
    hinted,
    message,
    noticed,
    open_record,
    press,
    state_of,
    type_ahead,
    type_move,
    until,
    walk_to,
)
from textual.pilot import Pilot
from textual.widgets import Input, Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.file import FileScreen
from dipole_tui.app.dialogs.help import HelpScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.app.dialogs.open import OpenScreen
from dipole_tui.games.dipole import DIPOLE, OFF, PASS, DipoleState, Move, parse_square
from dipole_tui.session import HUMAN, Session

# A small position whose game, played below, has every kind of move: basic moves, a capture, a
# removal, a merge, a forced pass, and an end. (Found by a seeded search of random games.)
SMALL = "8:W:Wc3=1,e1=3,g1=2:Bb4=2,d4=2,f8=3"
SIZE = (100, 30)


def sq(name: str) -> int:
    return parse_square(name, 8)


def last_played(app: GameApp) -> str:
    """The last move played, as the notation writes it."""
    move = app.session.last_move
    assert move is not None, "no move was played"
    return DIPOLE.format_move(move)


async def click_square(pilot: Pilot[None], board: DipoleBoard, name: str) -> None:
    await pilot.click(DipoleBoard, offset=drawn_offset(board, "square", sq(name)))
    await pilot.pause()


async def test_a_whole_game_by_keys_clicks_and_typing(make_app: AppFactory, tmp_path: Path) -> None:
    app = make_app(position=SMALL)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DipoleBoard)
        # 1. e1-h4 by keys: walk to e1, select, walk to h4, confirm.
        await walk_to(pilot, board, sq("e1"))
        await pilot.press("enter")
        assert board.selected == sq("e1")
        assert set(board.targets) >= {sq("h4"), sq("d2"), sq("f2")}
        await walk_to(pilot, board, sq("h4"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.moves_played[-1] == (sq("e1"), sq("h4"), 3, False)
        assert board.last_move == app.session.last_move
        # 1... f8-c5 by mouse.
        await click_square(pilot, board, "f8")
        assert board.selected == sq("f8")
        await click_square(pilot, board, "c5")
        assert last_played(app) == "f8-c5"
        # 2. an illegal typed move is refused with the engine's reason, and nothing changes.
        before = app.session.state.position()
        await type_move(pilot, "g1-g2")
        assert "g2 is a light square" in message(app)
        assert app.session.state.position() == before
        await pilot.press("escape")
        await type_move(pilot, "c3xd4")
        assert "a 1-checker part cannot capture a stack of 2" in message(app)
        await pilot.press("escape")
        # 2. g1-e3 typed; 2... c5xe3 by mouse: a capture, marked as one before it is played.
        await type_move(pilot, "g1-e3")
        await click_square(pilot, board, "c5")
        assert board.targets[sq("e3")].capture
        await click_square(pilot, board, "e3")
        assert app.session.last_move == (sq("c5"), sq("e3"), 2, True)
        # Undo and redo on the way: the capture goes and comes back.
        await pilot.press("u")
        await pilot.pause()
        assert state_of(app, DipoleState).cells[sq("e3")] == 2
        turn = " ".join(str(app.query_one("#turn", Static).render()).split())
        assert "1 ply taken back: U replays" in turn  # not "reviewing: ply 3 of 4"
        await pilot.press("U")
        await pilot.pause()
        assert state_of(app, DipoleState).cells[sq("e3")] == -2
        # 3. h4-off:3 by keys, on the removal strip above the board.
        await walk_to(pilot, board, sq("h4"))
        await pilot.press("enter")
        assert [m.count for m in board.removals] == [1, 2, 3]
        for _ in range(8):
            await pilot.press("up")
        assert board.removal_cursor == 1
        await pilot.press("right", "right", "enter")
        await pilot.pause()
        assert app.session.state.moves_played[-1] == (sq("h4"), OFF, 3, False)
        # 3... c5-b4, a merge by mouse; White then has no legal move, and passes.
        await click_square(pilot, board, "c5")
        await click_square(pilot, board, "b4")
        assert state_of(app, DipoleState).cells[sq("b4")] == -3
        assert app.session.state.moves_played[-1] == PASS
        assert "White has no legal move and passes." in message(app)
        assert app.session.state.to_move == 1
        # 4... d4xc3 ends the game: the game-over dialog says who won and how.
        await type_move(pilot, "d4xc3", leave=False)
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.title_text == "Black wins"
        assert "White has no checkers left" in app.screen.text
        await pilot.press("escape")  # back to the board (Review evaluates the moves)
        await pilot.pause()
        # On the board, undo steps back through the finished game, redo steps forward again.
        await pilot.press("u")
        await pilot.pause()
        assert app.session.outcome is None
        assert app.session.state.moves_played[-1] == PASS
        assert "taken back: U replays" in str(app.query_one("#turn", Static).render())
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.session.outcome is not None
    assert len(list((tmp_path / "finished").iterdir())) >= 1


async def test_escape_cancels_and_other_stacks_switch_the_selection(make_app: AppFactory) -> None:
    app = make_app(position=SMALL)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DipoleBoard)
        await click_square(pilot, board, "e1")
        await click_square(pilot, board, "g1")
        assert board.selected == sq("g1")
        await pilot.press("escape")
        assert board.selected is None and not board.targets
        await click_square(pilot, board, "d4")  # Black's stack: not White's to select
        assert board.selected is None


async def test_a_hint_is_marked_on_the_board_until_escape_or_a_move(make_app: AppFactory) -> None:
    app = make_app(thinker=ScriptedBots("e1-g3", "e1-off:12"))
    async with app.run_test(size=(80, 24)) as pilot:
        board = board_of(app, DipoleBoard)
        await ask_hint(pilot, app)
        assert message(app) == "Hint: hard would play e1-g3."
        assert hinted(board, "square", sq("e1")) and hinted(board, "square", sq("g3"))
        assert drawn_text(board, "square", sq("g3")) == "→2"  # how many go, as a target says
        assert not hinted(board, "square", sq("c3"))
        await pilot.press("escape")  # the marks go; the words stay
        assert not hinted(board, "square", sq("e1")) and not hinted(board, "square", sq("g3"))
        assert drawn_text(board, "square", sq("g3")) == "·"
        assert message(app) == "Hint: hard would play e1-g3."
        # A removal: its chip shows in the strip before the stack is picked.
        await ask_hint(pilot, app)
        assert drawn_text(board, "removal", 12) == "12" and hinted(board, "removal", 12)
        assert hinted(board, "square", sq("e1"))
        await type_move(pilot, "e1-c3")  # a move ends the hint
        assert drawn_text(board, "removal", 12) == ""
        assert not hinted(board, "square", sq("e1"))


async def test_in_hot_seat_the_cursor_goes_to_the_next_players_nearest_stack(
    make_app: AppFactory,
) -> None:
    app = make_app(position=SMALL)  # White c3, e1, g1; Black b4, d4, f8
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DipoleBoard)
        await walk_to(pilot, board, sq("g1"))
        await pilot.press("enter")
        await walk_to(pilot, board, sq("h2"))
        await pilot.press("enter")

        def played() -> list[str]:
            return [DIPOLE.format_move(move) for move in app.session.state.moves_played]

        assert played() == ["g1-h2"]
        assert board.cursor == sq("d4")  # Black's stack nearest h2: not b4, not f8
        await walk_to(pilot, board, sq("b4"))
        await pilot.press("enter")
        await walk_to(pilot, board, sq("a3"))
        await pilot.press("enter")
        assert played() == ["g1-h2", "b4-a3"]
        assert board.cursor == sq("c3")  # White's stack nearest a3: not e1, not h2


async def test_flip_turns_the_board_and_the_keys_with_it(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DipoleBoard)
        top_left = drawn_offset(board, "square", sq("b8"))
        await pilot.press("f")
        await pilot.pause()
        assert board.flipped
        assert drawn_offset(board, "square", sq("g1")) == top_left
        board.cursor = sq("e1")
        await pilot.press("down")  # on a flipped board, down goes toward White's far side
        assert board.cursor // 10 == 1


async def test_save_and_load_a_record(make_app: AppFactory, tmp_path: Path) -> None:
    app = make_app()
    path = tmp_path / "saved.txt"
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await type_move(pilot, "d8-c7")
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, FileScreen)
        entry = app.screen.query_one(Input)
        entry.value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert path.exists()
        saved = app.session.state.position()
        await type_move(pilot, "g3-h4")
        await open_record(pilot, app, path)
        assert app.session.state.position() == saved
        # A bad file is reported, and the game in play is kept.
        path.write_text('[Game "Dipole"]\n1. e1-e2\n')
        await open_record(pilot, app, path)
        assert app.session.state.position() == saved
        assert noticed(app, "light square")


async def test_a_game_saved_under_the_offered_name_is_listed_by_open(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, FileScreen)
        offered = Path(app.screen.query_one(Input).value)
        assert offered.parent == tmp_path / "saved"  # in the data folder, beside the kept games
        await pilot.press("enter")  # the name offered
        await pilot.pause()
        assert offered.exists() and noticed(app, "Saved to")
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OpenScreen)
        listed = [(game.kept, game.path) for game in app.screen.games]
        assert ("saved", offered) in listed


async def test_a_terminal_too_small_says_so_and_the_game_resumes(make_app: AppFactory) -> None:
    app = make_app(variant="10x10")
    async with app.run_test(size=(80, 24)) as pilot:
        await type_move(pilot, "e1-h4")
        assert not app.screen.has_class("too-small")
        await pilot.resize_terminal(50, 12)
        await pilot.pause()
        assert app.screen.has_class("too-small")
        notice = str(app.query_one("#too-small", Static).render())
        assert "Enlarge it to at least 60x14" in notice and "50x12" in notice
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.screen.has_class("too-small")
        assert last_played(app) == "e1-h4"
        assert board_of(app, DipoleBoard).cell_size() == (5, 2)


async def test_the_autosave_is_offered_and_resumed(make_app: AppFactory, tmp_path: Path) -> None:
    first = make_app()
    async with first.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await type_move(pilot, "d8-c7")
        await pilot.press("q")
    played = first.session.state.position()
    assert (tmp_path / "autosave.txt").exists()

    second = make_app(new=False)
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, ChoiceScreen)
        await pilot.press("enter")  # Resume is the first answer
        await pilot.pause()
        assert second.session.state.position() == played
        assert second.session.players == (HUMAN, HUMAN)


async def test_a_corrupt_autosave_is_kept_aside_and_the_app_starts(
    make_app: AppFactory, tmp_path: Path
) -> None:
    (tmp_path / "autosave.txt").write_text('[Game "Dipole"]\n\n1. e1-e9\n')
    app = make_app(new=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        assert noticed(app, "the autosave could not be read")
    kept = list(tmp_path.glob("autosave-unreadable-*.txt"))
    assert len(kept) == 1 and "e1-e9" in kept[0].read_text()


async def test_new_game_dialog_starts_a_10x10_game(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.click("#variant")  # the board: 8x8, then 10x10 below it
        await pilot.press("down", "enter")
        await pilot.click("#start")
        await pilot.pause()
        assert app.session.state.variant == "10x10"
        assert app.session.state.moves_played == []
        assert board_of(app, DipoleBoard).state.size == 10


async def test_help_opens_and_closes(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


@pytest.mark.parametrize(
    ("ascii_glyphs", "white", "black"), [(False, "◎◎○○", "◉◉●●"), (True, "OOoo", "XXxx")]
)
async def test_stacks_show_coins_and_checkers(
    make_app: AppFactory, ascii_glyphs: bool, white: str, black: str
) -> None:
    app = make_app(ascii_glyphs=ascii_glyphs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = [app.board.render_line(y).text for y in range(app.board.size.height)]
        assert any(white in line for line in lines)  # 12 = two coins and two checkers
        assert any(black in line for line in lines)


async def test_quitting_keeps_the_autosave(make_app: AppFactory, tmp_path: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await pilot.press("q")
    record = (tmp_path / "autosave.txt").read_text()
    assert "1. e1-g3" in record and '[Result "*"]' in record


async def test_a_removal_is_chosen_by_mouse_from_the_strip(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DipoleBoard)
        await click_square(pilot, board, "e1")
        assert [m.count for m in board.removals] == list(range(4, 13))
        await pilot.click(DipoleBoard, offset=drawn_offset(board, "removal", 5))
        await pilot.pause()
        assert app.session.state.moves_played == [(sq("e1"), OFF, 5, False)]
        assert state_of(app, DipoleState).cells[sq("e1")] == 7
        # Black's removals are offered at Black's far edge: the bottom of an unflipped board.
        await click_square(pilot, board, "d8")
        top = drawn_offset(board, "square", sq("d8"))[1]
        assert drawn_offset(board, "removal", 4)[1] > top


async def test_the_command_palette_offers_the_game_commands(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE):
        titles = {command.title for command in app.get_system_commands(app.screen)}
    assert {"New game", "Flip the board", "Undo", "Save game", "Load game", "Help"} <= titles


async def test_moves_typed_ahead_quickly_all_arrive_in_order(make_app: AppFactory) -> None:
    """Keys sent as a terminal sends them, with no pause: Enter must not race the next move."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        type_ahead(app, ":e1-e3\r:d8-c7\re3-g5\r")
        await until(lambda: len(app.session.state.moves_played) == 3)
        await pilot.pause()
        played = [DIPOLE.format_move(m) for m in app.session.state.moves_played]
        assert played == ["e1-e3", "d8-c7", "e3-g5"]
        # The last move typed, the board has its keys back.
        assert app.board.has_focus
        assert app.query_one("#move-input", Input).value == ""


async def test_after_a_typed_move_the_one_key_commands_work(make_app: AppFactory) -> None:
    """Issue 28, rough edge 5: `:e1-d2` Enter, then `u U U u` as a terminal sends them: the
    move is undone, redone, and undone again, and nothing is left in the entry."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *":e1-d2", "enter")
        await until(lambda: len(app.session.state.moves_played) == 1)
        await press(pilot, "u")
        assert app.session.state.moves_played == []
        await press(pilot, "U")
        assert len(app.session.state.moves_played) == 1
        await press(pilot, "U", "u")
        assert app.session.state.moves_played == []
        assert app.query_one("#move-input", Input).value == ""
        assert app.board.has_focus


async def test_a_refused_typed_move_stays_in_the_entry(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, *":e1-e4", "enter")
        await pilot.pause()
        entry = app.query_one("#move-input", Input)
        assert entry.has_focus and entry.value == "e1-e4"
        assert app.session.state.moves_played == []


def autosaved_moves(folder: Path) -> list[Move]:
    return Session.from_text((folder / "autosave.txt").read_text()).state.moves_played


@pytest.mark.parametrize("turns", range(8))
async def test_keys_still_queued_when_the_app_closes_are_dropped(
    make_app: AppFactory, tmp_path: Path, turns: int
) -> None:
    """Keys the app had not taken when it closed were once taken while its screen was being
    taken down, and failed there (no '#title' in the side panel, or no screen at all). The app
    closes after `turns` turns of the loop, so that the keys meet each stage of its closing."""
    app = make_app()
    async with app.run_test(size=SIZE):
        type_ahead(app, ":e1-e3\r:d8-c7\re3-g5\r")
        for _ in range(turns):
            await asyncio.sleep(0)
    # Nothing failed, and the moves taken before the app closed are all kept.
    assert autosaved_moves(tmp_path) == app.session.state.moves_played


@pytest.mark.parametrize("turns", range(4))
async def test_a_bots_answer_that_comes_as_the_app_closes_changes_nothing(
    make_app: AppFactory, tmp_path: Path, turns: int
) -> None:
    bots = ScriptedBots("d8-c7", held=True)
    app = make_app(players=(HUMAN, "easy"), thinker=bots)
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        assert bots.asked == ["easy"]
        bots.release()
        for _ in range(turns):
            await asyncio.sleep(0)
    assert autosaved_moves(tmp_path) == app.session.state.moves_played


async def test_review_of_a_finished_game_keeps_the_autosave_clear(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(position="8:W:Wc3=2:Be5=2")
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "c3xe5", leave=False)
        await pilot.press("escape")
        await pilot.pause()
        assert not (tmp_path / "autosave.txt").exists()
        await pilot.press("u")
        await pilot.pause()
        assert app.session.outcome is None
        assert not (tmp_path / "autosave.txt").exists()  # the game stays finished and filed
        await pilot.press("U")
        await pilot.pause()
    assert len(list((tmp_path / "finished").glob("*.txt"))) == 1


async def test_a_new_game_keeps_the_unfinished_one(make_app: AppFactory, tmp_path: Path) -> None:
    first = make_app()
    async with first.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await type_move(pilot, "d8-d6")
    second = make_app()  # --new: the autosave of the first game is set aside
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
    kept = list((tmp_path / "unfinished").glob("*.txt"))
    assert len(kept) == 1 and "1. e1-g3 d8-d6" in kept[0].read_text()


async def test_a_record_of_a_game_the_app_cannot_draw_is_refused(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As before a board joins:
    monkeypatch.setattr("dipole_tui.app.screens.game_menus.playable", lambda: ["dipole"])
    record = tmp_path / "death-stacks.txt"
    record.write_text('[Game "Death Stacks"]\n\n1. a1-2-a3\n')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_record(pilot, app, record)
        assert app.session.game is DIPOLE
        assert noticed(app, "not playable here yet")
