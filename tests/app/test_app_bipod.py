"""Bi-Pod in the app, played as a person would: placing by keys and clicks, marking several
stones in the multi variant, adopting, choosing the runner colour, resigning; the sample game's
board as the sheet draws it."""

from __future__ import annotations

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
    state_of,
    status_lines,
    type_move,
    until,
    walk_to,
)
from paths import DATA
from rich.style import Style
from textual.geometry import Region
from textual.widgets import Button, Markdown, Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.bipod import BipodBoard
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.help import HelpScreen
from dipole_tui.games.bipod import (
    ADOPT,
    BIPOD,
    LABELS,
    NEIGHBOURS,
    RESIGN,
    BipodState,
    Move,
    parse_cell,
)
from dipole_tui.session import HUMAN, Session

SIZE = (100, 32)
SAMPLE = DATA / "sample-bipod.txt"


def cell(name: str) -> int:
    return parse_cell(name)


def drawn_text(board: BipodBoard, name: str) -> str:
    return steps.drawn_text(board, "cell", cell(name))


async def test_blocking_adopting_and_running_by_keys(make_app: AppFactory) -> None:
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, BipodBoard)
        assert board.cursor in NEIGHBOURS[cell("i1")]  # beside the start stone, free
        await walk_to(pilot, board, cell("i1"))
        await pilot.press("enter")  # the start stone's cell is taken
        assert "i1 is taken" in board.status() and not app.session.state.moves_played
        await walk_to(pilot, board, cell("k3"))
        await pilot.press("enter")  # First blocks
        assert app.session.state.moves_played == [Move("x", (cell("k3"),))]
        await pilot.press("a")  # Second adopts: Second blocks, First runs and moves next
        state = state_of(app, BipodState)
        assert state.moves_played[-1] == ADOPT and state.runner == 0 and state.to_move == 0
        assert "Enter places ○ · c switches to ●" in board.status()  # as the board draws them
        await walk_to(pilot, board, cell("h2"))
        assert drawn_text(board, "h2") == "[○]"  # the cursor shows what Enter would place
        await pilot.press("enter")
        assert state.moves_played[-1] == Move("o", (cell("h2"),))
        await walk_to(pilot, board, cell("u3"))  # Second, the Blocker
        await pilot.press("space")  # not the multi variant: Space places too
        assert state.moves_played[-1] == Move("x", (cell("u3"),))
        await pilot.press("c")  # First switches to O
        await walk_to(pilot, board, cell("r2"))
        await pilot.press("enter")
        assert state.moves_played[-1] == Move("O", (cell("r2"),))
        await pilot.press("a")  # adopting twice is refused
        assert "adopt only before anyone has adopted" in board.status()
        await type_move(pilot, "j4")  # Second types
        assert state.moves_played[-1] == Move("x", (cell("j4"),))
        figures = str(app.query_one("#tally", Static).render())
        assert "○ First   Runner" in figures and "✕ Second Blocker" in figures
        assert "i1 chain: 4 more stones\ns1 chain: 4 more stones" in figures
        assert board.side_glyph(state.runner) == "○"


def panel_lines(app: GameApp) -> list[str]:
    """The side panel's figures as shown: each line must fit the panel, or it would wrap."""
    tally = app.query_one("#tally", Static)
    lines = str(tally.render()).splitlines()
    assert len(lines) == tally.size.height
    assert max(map(len, lines)) <= tally.size.width
    return [line.rstrip() for line in lines]


async def test_the_panel_names_the_roles_and_what_each_number_means(make_app: AppFactory) -> None:
    app = make_app("bipod")
    async with app.run_test(size=(80, 24)) as pilot:
        assert panel_lines(app) == [
            "         placed",
            "1 First       0",
            "2 Second      0",
            "No roles yet. Adopting",
            "makes you the Blocker,",
            "the other the Runner.",
            "i1 chain: 5 more stones",
            "s1 chain: 5 more stones",
        ]
        await type_move(pilot, "k3")
        await pilot.press("a")  # Second adopts: Second blocks, First runs
        await pilot.pause()
        assert panel_lines(app) == [
            "            role placed",
            "○ First   Runner      1",
            "✕ Second Blocker      0",
            "i1 chain: 5 more stones",
            "s1 chain: 5 more stones",
        ]


@pytest.mark.parametrize("ascii_glyphs", [False, True], ids=["unicode", "ascii"])
async def test_before_adoption_the_sides_are_told_apart(
    make_app: AppFactory, ascii_glyphs: bool
) -> None:
    """Both sides place blocking stones until one adopts: each is its number until then (one
    glyph for both told nothing), its role's stone after."""
    app = make_app("bipod", ascii_glyphs=ascii_glyphs)
    async with app.run_test(size=(80, 24)) as pilot:
        board = board_of(app, BipodBoard)
        assert (board.side_glyph(0), board.side_glyph(1)) == ("1", "2")
        assert panel_lines(app)[1:3] == ["1 First       0", "2 Second      0"]
        await type_move(pilot, "k3")
        assert str(app.query_one("#turn", Static).render()).startswith("2 Second to move")
        await pilot.press("a")  # Second adopts: Second blocks, First runs
        await pilot.pause()
        runner, block = ("o", "x") if ascii_glyphs else ("○", "✕")
        assert (board.side_glyph(0), board.side_glyph(1)) == (runner, block)
        assert str(app.query_one("#turn", Static).render()).startswith(f"{runner} First to move")


Look = tuple[str, frozenset[tuple[object, ...]]]


def looks(board: BipodBoard) -> dict[int, Look]:
    """Each cell as the terminal receives it, through the app's line filters (NO_COLOR's among
    them): its text without spaces, and the colours and attributes it is drawn with."""
    drawn: dict[int, tuple[str, set[tuple[object, ...]]]] = {}
    for y in range(board.size.height):
        strip = board.render_line(y)
        metas = [segment.style.meta if segment.style else {} for segment in strip]
        for line_filter in board.get_line_filters():
            strip = strip.apply_filter(line_filter, board.background_colors[1])
        for segment, meta in zip(strip, metas, strict=True):
            if "cell" in meta:
                text, styles = drawn.setdefault(int(str(meta["cell"])), ("", set()))
                s = segment.style or Style()
                flags = (s.bold, s.dim, s.italic, s.underline, s.overline, s.reverse)
                styles.add((s.color, s.bgcolor, *flags))
                drawn[int(str(meta["cell"]))] = (text + segment.text.strip(), styles)
    return {key: (text, frozenset(styles)) for key, (text, styles) in drawn.items()}


@pytest.mark.parametrize("mode", ["colour", "NO_COLOR", "ascii"])
async def test_the_stone_to_place_looks_like_no_placed_stone(
    make_app: AppFactory, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cursor's empty cell shows what Enter would place, as a preview: never drawn as any
    stone on the board is, with the cursor on it or not (a lesson read wrong with it)."""
    if mode == "NO_COLOR":
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    app = make_app("bipod", ascii_glyphs=mode == "ascii")
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.no_color == (mode == "NO_COLOR")
        board = board_of(app, BipodBoard)
        moves = ("k3", "adopt", "h2 o", "u3", "r2 O", "e5", "c5 o")
        for move in moves:
            await type_move(pilot, move)
        assert len(app.session.state.moves_played) == len(moves)
        stones = [cell(name) for name in ("k3", "u3", "e5", "h2", "r2", "c5", "i1", "s1")]
        placed: set[Look] = set()
        previews: dict[str, Look] = {}
        for kind in ("x", "o", "O"):  # Second blocks, then First runs in either colour
            if kind == "o":
                await type_move(pilot, "j4")
            elif kind == "O":
                await pilot.press("c")
            await walk_to(pilot, board, cell("m5"))
            assert board.placing() == kind
            drawn = looks(board)
            previews[kind] = drawn[cell("m5")]
            placed |= {drawn[stone] for stone in stones}
        for stone in stones:
            await walk_to(pilot, board, stone)
            placed.add(looks(board)[stone])
        for kind, look in previews.items():
            assert look not in placed, f"the {kind} to place looks placed: {look}"


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("variant", ["", "multi"])
async def test_the_keys_under_the_board_are_never_cut(
    make_app: AppFactory, size: tuple[int, int], variant: str
) -> None:
    app = make_app("bipod", variant)
    async with app.run_test(size=size) as pilot:
        board = board_of(app, BipodBoard)
        for step in ("start", "adopted", "runner"):
            shown = " · ".join(status_lines(board, LABELS))
            assert shown.replace(" · ", " ") == board.status().replace(" · ", " "), step
            assert "R resigns" in shown
            if step == "start":
                await type_move(pilot, "k3")
                await pilot.press("a")
            await pilot.pause()


async def test_a_hint_shows_the_stones_to_place_or_says_adopt(make_app: AppFactory) -> None:
    app = make_app("bipod", thinker=ScriptedBots("k3", "adopt"))
    async with app.run_test(size=(80, 24)) as pilot:
        board = board_of(app, BipodBoard)
        await ask_hint(pilot, app)
        assert drawn_text(board, "k3") == "✕" and hinted(board, "cell", cell("k3"))
        assert not hinted(board, "cell", cell("h2"))
        await pilot.press("escape")
        assert drawn_text(board, "k3") == "·" and not hinted(board, "cell", cell("k3"))
        await type_move(pilot, "m1")
        await ask_hint(pilot, app)
        assert "Hint: adopt (a)" in status_lines(board, LABELS)[0]
        await pilot.press("a")  # the move is played: the hint is gone
        await pilot.pause()
        assert "Hint" not in " ".join(status_lines(board, LABELS))


async def test_in_hot_seat_the_cursor_goes_beside_the_stone_just_placed(
    make_app: AppFactory,
) -> None:
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, BipodBoard)
        await type_move(pilot, "k3")  # typed: the cursor was elsewhere
        assert board.cursor in NEIGHBOURS[cell("k3")]  # Second answers near First's stone
        assert state_of(app, BipodState).stone(board.cursor) == "."  # where Enter can place


async def test_multi_marks_up_to_three_stones_then_places_them(make_app: AppFactory) -> None:
    app = make_app("bipod", "multi")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, BipodBoard)
        for name in ("e1", "e3", "f2"):
            await walk_to(pilot, board, cell(name))
            await pilot.press("space")
        assert sorted(board.marked) == sorted(cell(n) for n in ("e1", "e3", "f2"))
        assert "Marked e13f2 (3/3)" in board.status()
        assert drawn_text(board, "e3") == "✕"
        await walk_to(pilot, board, cell("g1"))
        await pilot.press("space")  # a fourth is one too many
        assert "at most 3" in board.status() and len(board.marked) == 3
        await pilot.press("enter")
        assert app.session.state.moves_played == [
            Move("x", tuple(sorted(cell(n) for n in ("e1", "e3", "f2"))))
        ]
        assert "First played e13f2" in message(app)
        # Second by mouse: a click marks, a double click places what is marked.
        await pilot.click(BipodBoard, offset=drawn_offset(board, "cell", cell("s3")))
        await pilot.pause()
        assert board.marked == [cell("s3")]
        await pilot.click(BipodBoard, offset=drawn_offset(board, "cell", cell("u3")), times=2)
        await pilot.pause()
        assert app.session.state.moves_played[-1] == Move("x", (cell("s3"), cell("u3")))


async def test_the_right_button_places_the_other_colour(make_app: AppFactory) -> None:
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "adopt")  # First adopts: Second runs
        board = board_of(app, BipodBoard)
        offset = drawn_offset(board, "cell", cell("t2"))
        await pilot.click(BipodBoard, offset=offset, button=3)
        await pilot.pause()
        assert app.session.state.moves_played[-1] == Move("O", (cell("t2"),))


async def test_resigning_is_asked_once_more(make_app: AppFactory) -> None:
    session = Session.new(BIPOD)
    for _ in range(2):  # past each side's first move: before it, R aborts
        session.play(session.state.legal_moves()[0])
    app = make_app(session=session)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("escape")  # keep playing
        await pilot.pause()
        assert app.session.outcome is None
        await pilot.press("R")
        await pilot.pause()
        app.screen.query_one("#yes", Button).press()
        await pilot.pause()
        await pilot.pause()
        assert len(app.session.state.moves_played) == 2  # an ending, as in every game
        assert app.session.outcome is not None and app.session.outcome.winner == 1
        assert '[Termination "resigned"]' in app.session.record_text()


async def test_the_sample_game_loads_as_the_sheet_draws_it(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_record(pilot, app, SAMPLE)
        await pilot.pause()
        board = board_of(app, BipodBoard)
        state = app.session.state
        assert app.session.game is BIPOD and RESIGN not in state.moves_played
        outcome = app.session.outcome  # the sheet's `12. resigns`, read as the ending it is
        assert outcome is not None and outcome.reason == "First resigned"
        # Cut off from both start stones: blank, as on the sheet.
        for name in ("=1", "a1", "c1", "`2", "b2", "d2"):
            assert drawn_text(board, name) == ""
        assert drawn_text(board, "i1") == "◎" and drawn_text(board, "s1") == "◉"
        assert drawn_text(board, "w3") == "●" and drawn_text(board, "g3") == "○"
        assert drawn_text(board, "h4") == "·"
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one(Markdown).source
        assert "# Bi-Pod" in text and "adopt" in text


async def test_ascii_stones_are_the_sheets_letters(make_app: AppFactory) -> None:
    app = make_app("bipod", ascii_glyphs=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_move(pilot, "e1")
        board = board_of(app, BipodBoard)
        assert drawn_text(board, "i1") == "@" and drawn_text(board, "s1") == "Q"
        assert drawn_text(board, "e1") == "x"
        assert board.scale() == (1, 1)  # 80 columns: the sheet's own size
        assert not app.screen.has_class("too-small")


async def test_flip_turns_the_board_round_and_the_keys_with_it(make_app: AppFactory) -> None:
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, BipodBoard)
        corner_x, corner_y = drawn_offset(board, "cell", cell("=1"))
        far_x, far_y = drawn_offset(board, "cell", cell(";1"))
        await pilot.press("f")
        await pilot.pause()
        # Turned round: the long side at the bottom, ;1 where =1 was in its row and back.
        turned_x, turned_y = drawn_offset(board, "cell", cell(";1"))
        assert turned_x == corner_x and turned_y > corner_y == far_y
        assert drawn_offset(board, "cell", cell("=1")) == (far_x, turned_y)
        assert drawn_text(board, "s1") == "◉"  # the stones go round with it
        await walk_to(pilot, board, cell("j2"))
        await pilot.press("up")  # on a turned board, up goes toward row 6
        assert board.cursor in (cell("i3"), cell("k3"))


async def test_no_marks_or_stones_while_a_bot_thinks_or_after_the_end(make_app: AppFactory) -> None:
    app = make_app("bipod", "multi", ("hard", HUMAN), think_time=30.0)
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, BipodBoard)
        await pilot.pause()
        assert app.bots.thinking and not board.interactive
        await pilot.press("space")
        await pilot.click(BipodBoard, offset=drawn_offset(board, "cell", cell("m3")))
        assert board.marked == [] and not app.session.state.moves_played
    app = make_app("bipod", "multi")
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "resign")
        await pilot.pause()
        await pilot.press("escape")  # the game-over dialog: review
        await pilot.press("space", "enter")
        board = board_of(app, BipodBoard)
        assert board.marked == [] and "taken" not in board.status()
        assert app.session.state.moves_played == [] and app.session.outcome is not None


async def test_a_bot_plays_bipod_in_the_app_and_the_game_resumes(make_app: AppFactory) -> None:
    app = make_app("bipod", players=(HUMAN, "easy"))
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "m3")
        await until(lambda: len(app.session.state.moves_played) == 2)
        played = list(app.session.state.moves_played)
    resumed = make_app(new=False)  # no --new: the autosave is offered
    async with resumed.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(resumed.screen, ChoiceScreen)
        assert "Bi-Pod, 2 plies played" in str(resumed.screen.query_one(".dialog-text").render())
        await pilot.press("enter")  # Resume
        await pilot.pause()
        assert isinstance(resumed.board, BipodBoard)
        assert resumed.session.state.moves_played == played
        assert resumed.session.players == (HUMAN, "easy")


async def test_cursor_steps_leave_nothing_stale(make_app: AppFactory) -> None:
    """A cursor step redraws only the rows it touches: the screen must match a full redraw."""
    app = make_app("bipod")
    async with app.run_test(size=SIZE) as pilot:
        board = board_of(app, BipodBoard)
        await pilot.press("a")  # Second will run: the cursor then shows a runner stone
        await walk_to(pilot, board, cell("i1"))
        # Enter on the start stone's cell: a notice, which the next step must clear.
        for key in ["enter", "down", "right", "down", "left", "up", "up", "enter", "left", "down"]:
            await pilot.press(key)
            await pilot.pause()
            lines = board.render_lines(Region(0, 0, board.size.width, board.size.height))
            shown = [(line.text, [segment.style for segment in line]) for line in lines]
            board.refresh()
            await pilot.pause()
            lines = board.render_lines(Region(0, 0, board.size.width, board.size.height))
            assert [(line.text, [segment.style for segment in line]) for line in lines] == shown
        assert len(app.session.state.moves_played) == 2
