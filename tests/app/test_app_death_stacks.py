"""Death Stacks in the app, played as a person would: keys, number keys, clicks on pieces, typed
moves; the too-tall rule and the reflected path as the board shows them; switching games."""

from __future__ import annotations

from pathlib import Path

import app_steps as steps
import pytest
from app_steps import (
    AppFactory,
    ScriptedBots,
    ask_hint,
    board_of,
    drawn_offset,
    hinted,
    message,
    open_record,
    status_lines,
    type_move,
    walk_to,
)
from rich.style import Style
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Button, Label, Markdown, OptionList, Select

from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.help import HelpScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.games.death_stacks import DEATH_STACKS, Move, parse_square
from dipole_tui.games.dipole import DIPOLE

SIZE = (100, 32)
# Red to move; Red's tallest stack is b5 (r r b r); Black's c4 has six pieces.
MIDDLE = "bb,b,rbb,,,/,rrbr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/r,,,,, r"
TOO_TALL = MIDDLE[:-1] + "b"  # the same with Black to move: c4 must be cut down


def sq(name: str) -> int:
    return parse_square(name)


def drawn_text(board: DeathStacksBoard, name: str) -> str:
    return steps.drawn_text(board, "square", sq(name))


async def click(pilot: Pilot[None], board: DeathStacksBoard, key: str, value: int) -> None:
    await pilot.click(DeathStacksBoard, offset=drawn_offset(board, key, value))
    await pilot.pause()


async def test_a_game_by_keys_number_keys_clicks_on_pieces_and_typing(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        assert board.cursor == sq("a1")  # the side to move's tallest stack, a1 first
        # Red: one piece from a1, chosen by the number key, then +/- change the count.
        await pilot.press("1")
        assert board.selected == sq("a1") and board.count == 1
        legal = app.session.state.legal_moves()
        expected = {m.target for m in legal if m.origin == sq("a1") and m.count == 1}
        assert set(board.targets) == expected == {sq("a2"), sq("b2"), sq("b1")}
        assert "a1: moving 1 of 2" in board.status()
        await pilot.press("plus")
        assert board.count == 2
        await pilot.press("minus")
        assert board.count == 1
        assert drawn_text(board, "b1") == "+1◆◆"  # a restack onto Red's own b1
        await walk_to(pilot, board, sq("b2"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.state.moves_played == [Move(sq("a1"), 1, sq("b2"))]
        assert "Red played a1-1-b2" in message(app)
        # Black by mouse: a click on f6's top piece picks that one piece, then where it lands.
        await click(pilot, board, "level", 1)  # the first top piece drawn: a6's, top left
        assert board.selected == sq("a6") and board.count == 1
        await click(pilot, board, "square", sq("a5"))
        assert app.session.state.moves_played[-1] == Move(sq("a6"), 1, sq("a5"))
        # Red types a move.
        await type_move(pilot, "c1-2-c3")
        assert app.session.state.moves_played[-1] == Move(sq("c1"), 2, sq("c3"))
        await pilot.press("u")
        await pilot.pause()
        assert len(app.session.state.moves_played) == 2
        await pilot.press("U")
        await pilot.pause()
        assert len(app.session.state.moves_played) == 3
        saved = (tmp_path / "autosave.txt").read_text()
        assert '[Game "Death Stacks"]' in saved and "a1-1-b2 a6-1-a5" in saved


async def test_clicking_a_buried_piece_moves_it_with_everything_above(make_app: AppFactory) -> None:
    app = make_app("death-stacks", position=MIDDLE)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        # b5 holds r r b r (bottom to top): the second piece up takes three with it.
        offset = None
        for y in range(board.size.height):
            x = 0
            for segment in board.render_line(y):
                meta = segment.style.meta if segment.style else {}
                if meta.get("square") == sq("b5") and meta.get("level") == 1:
                    offset = (x, y)
                x += segment.cell_length
        assert offset is not None
        await pilot.click(DeathStacksBoard, offset=offset)
        await pilot.pause()
        assert board.selected == sq("b5") and board.count == 3
        assert set(board.targets) == {
            m.target
            for m in app.session.state.legal_moves()
            if m.origin == sq("b5") and m.count == 3
        }


async def test_the_path_to_the_cursor_is_drawn_with_its_reflections(make_app: AppFactory) -> None:
    app = make_app("death-stacks", position=MIDDLE)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        assert board.cursor == sq("b5")
        await pilot.press("enter")  # the whole stack: four pieces
        assert board.count == 4
        # North-west into the corner and straight back: a6, b5 (its own square), c4, d3.
        board.cursor = sq("d3")
        board.refresh()
        await pilot.pause()
        assert board.path_to_cursor() == [(sq("a6"), sq("b5"), sq("c4"), sq("d3"))]
        assert "path a6 b5 c4 d3" in board.status()
        # East to capture on f5: the empty squares on the way are numbered by step.
        await walk_to(pilot, board, sq("f5"))
        assert board.path_to_cursor() == [(sq("c5"), sq("d5"), sq("e5"), sq("f5"))]
        assert drawn_text(board, "c5") == "1"
        assert drawn_text(board, "d5") == "→4"  # a landing square too: its mark shows
        assert drawn_text(board, "e5") == "3"
        assert drawn_text(board, "f5") == "x4◆●"
        assert drawn_text(board, "d4") == "·"  # not on the way


@pytest.mark.parametrize(
    ("size", "four_ways"),
    [
        (
            (80, 24),
            "b1: 2 of 2 (+/-) · 4 ways to b3: N, or S off the wall (via b2); SW, NW off the"
            " walls (via a2)",
        ),
        (
            (100, 30),
            "b1: moving 2 of 2 (1-2, +/-) · 4 ways to b3: north, or south off the wall (via"
            " b2); south-west, north-west off the walls (via a2)",
        ),
    ],
)
async def test_several_ways_to_a_square_are_said_in_full_under_the_board(
    make_app: AppFactory, size: tuple[int, int], four_ways: str
) -> None:
    """One piece from c1 to c2 goes north, or south into the wall and back: the status says
    so whole, wrapped into the lines under the board, in shorter words only where needed."""
    app = make_app("death-stacks")
    async with app.run_test(size=size) as pilot:
        board = board_of(app, DeathStacksBoard)
        await walk_to(pilot, board, sq("c1"))
        await pilot.press("1")
        await walk_to(pilot, board, sq("c2"))
        assert status_lines(board, "abcdef") == [
            "c1: moving 1 of 2 (1-2, +/-)",
            "2 ways to c2: north, or south bouncing off the wall",
        ]
        # b1-2-b3 four ways, by two different squares.
        await pilot.press("escape")
        await walk_to(pilot, board, sq("b1"))
        await pilot.press("2")
        await walk_to(pilot, board, sq("b3"))
        lines = status_lines(board, "abcdef")
        assert " ".join(lines) == four_ways and len(lines) == 2


async def test_a_hint_is_marked_with_the_pieces_that_land(make_app: AppFactory) -> None:
    app = make_app("death-stacks", position=MIDDLE, thinker=ScriptedBots("b5-3-e4", "b5-3-e4"))
    async with app.run_test(size=(80, 24)) as pilot:
        board = board_of(app, DeathStacksBoard)
        await ask_hint(pilot, app)
        assert hinted(board, "square", sq("b5")) and hinted(board, "square", sq("e4"))
        assert drawn_text(board, "e4") == "→3"  # three pieces land there
        assert not hinted(board, "square", sq("c4"))
        await pilot.press("escape")
        assert not hinted(board, "square", sq("b5")) and drawn_text(board, "e4") == "·"
        await ask_hint(pilot, app)
        await type_move(pilot, "b5-1-b6")  # another move: the hint is gone
        assert not hinted(board, "square", sq("e4")) and drawn_text(board, "e4") == "·"


async def test_in_hot_seat_the_cursor_goes_to_the_next_players_nearest_stack(
    make_app: AppFactory,
) -> None:
    app = make_app("death-stacks", position=",,,,,bbb/,,,,,/,,,,,/,b,,,,/,,,,,/r,,,,, r")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        await pilot.press("1")
        await walk_to(pilot, board, sq("a2"))
        await pilot.press("enter")
        assert app.session.state.moves_played == [Move(sq("a1"), 1, sq("a2"))]
        assert board.cursor == sq("b3")  # Black's stack nearest a2, not its tallest (f6)


async def test_a_too_tall_stack_is_marked_and_only_its_legal_parts_offered(
    make_app: AppFactory,
) -> None:
    app = make_app("death-stacks", position=TOO_TALL)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        assert board.cursor == sq("c4")
        assert "Too tall: c4 must move" in board.status()
        assert drawn_text(board, "c4").startswith("6!")
        assert board.selection.counts_from(sq("c4")) == [2, 3, 4, 5, 6]
        await pilot.press("1")  # leaving five would still be too tall
        assert "1 of 6 cannot move from c4" in board.status()
        await pilot.press("2")
        assert board.selected == sq("c4") and board.count == 2
        await walk_to(pilot, board, sq("a3"))  # another Black stack: not this turn
        await pilot.press("enter")
        assert board.selected is None
        assert "too tall: Black's stack on c4 has more than 4 pieces" in board.status()
        await type_move(pilot, "a3-1-a4")
        assert "too tall" in message(app) and not app.session.state.moves_played


async def test_capturing_the_last_enemy_stack_wins(make_app: AppFactory) -> None:
    app = make_app("death-stacks", position=",,,,,/,,,,,/,,,,,/,,,,,/b,,,,,/r,,,,, r")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        await pilot.press("enter")
        assert board.targets[sq("a2")]  # a capture: marked as one
        assert drawn_text(board, "a2").startswith("x1")
        await walk_to(pilot, board, sq("a2"))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert "Red wins" in str(app.screen.query_one(".dialog-title", Label).render())
        assert not board.interactive


async def test_the_new_game_dialog_switches_games_and_boards(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.board, DipoleBoard)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#game", Select).value = "death-stacks"
        await pilot.pause()
        await pilot.pause()
        variants = app.screen.query_one("#variant", Select)
        offered = variants.query_one(OptionList)
        prompts = [offered.get_option_at_index(i).prompt for i in range(offered.option_count)]
        assert variants.value == "standard" and [str(prompt) for prompt in prompts] == ["standard"]
        sides = [str(label.render()) for label in app.screen.query(Label)]
        assert "Red" in sides and "White" not in sides
        app.screen.query_one("#start", Button).press()
        await pilot.pause()
        await pilot.pause()
        assert app.session.game is DEATH_STACKS
        board = board_of(app, DeathStacksBoard)
        assert board.has_focus and len(app.query(DeathStacksBoard)) == 1
        await pilot.press("2")  # the board answers keys at once
        assert board.selected == sq("a1") and board.count == 2


async def test_records_of_either_game_load_into_their_own_board(
    make_app: AppFactory, tmp_path: Path
) -> None:
    stacks = tmp_path / "stacks.txt"
    stacks.write_text('[Game "Death Stacks"]\n\n1. a1-2-a3 f6-1-f5\n')
    dipole = tmp_path / "dipole.txt"
    dipole.write_text('[Game "Dipole"]\n\n1. e1-g3\n')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_record(pilot, app, stacks)
        await pilot.pause()
        loaded = app.session  # read after each load, which replaces the session
        assert loaded.game is DEATH_STACKS and len(loaded.state.moves_played) == 2
        assert board_of(app, DeathStacksBoard).last_move == Move(sq("f6"), 1, sq("f5"))
        await open_record(pilot, app, dipole)
        await pilot.pause()
        loaded = app.session
        assert loaded.game is DIPOLE and isinstance(app.board, DipoleBoard)


async def test_help_explains_the_game_on_screen(make_app: AppFactory) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        assert "# Death Stacks" in text and "Too tall" in text and "Keys in every game" in text


async def test_ascii_pieces_and_the_smallest_board(make_app: AppFactory) -> None:
    app = make_app("death-stacks", ascii_glyphs=True)
    async with app.run_test(size=(60, 14)) as pilot:
        await pilot.pause()
        board = board_of(app, DeathStacksBoard)
        assert board.cell_size() == (4, 1)
        assert drawn_text(board, "a1") == "r2" and drawn_text(board, "a6") == "b2"
        assert "rr" not in drawn_text(board, "a1")  # no room for the pieces: owner and height
    app = make_app("death-stacks", ascii_glyphs=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert drawn_text(board_of(app, DeathStacksBoard), "a1") == "2rr"


async def test_a_terminal_too_small_for_the_board_says_so(make_app: AppFactory) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=(50, 10)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("too-small")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.screen.has_class("too-small")
        assert board_of(app, DeathStacksBoard).cell_size() == (7, 3)


def drawn_look(board: DeathStacksBoard) -> list[tuple[str, list[Style | None]]]:
    """The board as the screen has it: lines refreshed since the last frame are drawn anew,
    the rest come from the widget's line cache."""
    lines = board.render_lines(Region(0, 0, board.size.width, board.size.height))
    return [(line.text, [segment.style for segment in line]) for line in lines]


async def test_partial_redraws_leave_nothing_stale(make_app: AppFactory) -> None:
    """Keys and moves redraw only the squares they change: what is on screen must be what a
    full redraw gives."""
    app = make_app("death-stacks", position=MIDDLE)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        # b5-3-e4 after a look at four pieces; Black: c4-2-c2 after cancelling; undo.
        keys = ["3", "right", "right", "right", "down", "plus", "minus", "enter"]
        keys += ["1", "escape", "2", "down", "down", "enter", "left", "u"]
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
            shown = drawn_look(board)
            board.refresh()
            await pilot.pause()
            assert drawn_look(board) == shown, f"stale squares after {key!r}"
        assert app.session.state.moves_played == [Move(sq("b5"), 3, sq("e4"))]
        assert app.session.redo_moves == [Move(sq("c4"), 2, sq("c2"))]


async def test_a_new_theme_reaches_every_square(make_app: AppFactory) -> None:
    app = make_app("death-stacks", position=MIDDLE)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        before = drawn_look(board)
        app.theme = "nord" if app.theme != "nord" else "textual-dark"
        await pilot.pause()
        after = drawn_look(board)
        board._blocks.clear()  # what a board drawn from scratch in the new theme looks like
        board.refresh()
        await pilot.pause()
        assert drawn_look(board) == after != before


async def test_nothing_to_undo_keeps_the_picked_stack(make_app: AppFactory) -> None:
    app = make_app("death-stacks", position=MIDDLE)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, DeathStacksBoard)
        await pilot.press("3")
        await pilot.press("u")
        assert "Nothing to undo" in message(app)
        assert board.selected == sq("b5") and board.count == 3


async def test_a_death_stacks_game_is_offered_and_resumed(make_app: AppFactory) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "a1-2-a3")
    resumed = make_app(new=False)
    async with resumed.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(resumed.screen, ChoiceScreen)
        assert "Death Stacks, 1 ply played" in str(
            resumed.screen.query_one(".dialog-text", Label).render()
        )
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(resumed.board, DeathStacksBoard)
        assert resumed.session.state.moves_played == [Move(sq("a1"), 2, sq("a3"))]
