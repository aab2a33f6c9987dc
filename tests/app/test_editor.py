"""The position editor through the UI: stacks and stones put on squares by keys and by mouse, the
side to move switched, a position the rules refuse said in the panel, and the screen dismissed
with the position, in every game, at 80x24, in colour, with NO_COLOR and under --ascii."""

from __future__ import annotations

from typing import Any

import pytest
from app_steps import AppFactory, press, settle, type_ahead
from textual import events
from textual.pilot import Pilot
from textual.widgets import Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.screens.editor import EditorScreen
from dipole_tui.app.widgets.editor_grid import EditGrid, Layout
from dipole_tui.games.base import State
from dipole_tui.games.bipod import NAME_INDEX, BipodState
from dipole_tui.registry import REGISTRY

Result = list[State[Any] | None]


async def open_editor(pilot: Pilot[None], app: GameApp, position: str | None = None) -> Result:
    """The editor pushed over the game as the game screen pushes it, on the game's position
    (or `position`); the list gets what it is dismissed with."""
    game = app.session.game
    state = game.parse_position(position) if position else app.session.state
    dismissed: Result = []
    app.push_screen(EditorScreen(game, state, app.ascii_glyphs), dismissed.append)
    await settle(pilot)
    assert isinstance(app.screen, EditorScreen)
    return dismissed


def grid(app: GameApp) -> EditGrid:
    return app.screen.query_one(EditGrid)


def said(app: GameApp) -> str:
    """The panel's verdict line, its wrapped lines joined."""
    return " ".join(str(app.screen.query_one("#editor-verdict", Static).render()).split())


async def walk(pilot: Pilot[None], app: GameApp, name: str) -> None:
    """The arrow keys to square `name`, as a player walks there."""
    board = grid(app)
    goal = next(square for square in board.squares if square.name == name)
    for _ in range(60):
        here = board.square
        if here == goal:
            return
        if here.row != goal.row:
            await press(pilot, "down" if goal.row > here.row else "up")
        else:
            await press(pilot, "right" if goal.column > here.column else "left")
    raise AssertionError(f"the cursor did not reach {name}")


async def click(pilot: Pilot[None], app: GameApp, name: str) -> None:
    """A click where the grid drew the square, found by what it drew there, as a terminal sends
    it (a press and a release)."""
    board = grid(app)
    index = next(i for i, square in enumerate(board.squares) if square.name == name)
    for y in range(board.size.height):
        x = 0
        for segment in board.render_line(y):
            if segment.style and segment.style.meta.get("square") == index:
                at = board.region.offset
                sx, sy = at.x + x + segment.cell_length // 2, at.y + y
                for kind in (events.MouseDown, events.MouseUp):
                    app.post_message(kind(None, sx, sy, 0, 0, 1, False, False, False, sx, sy))
                await settle(pilot)
                return
            x += segment.cell_length
    raise AssertionError(f"{name} is not drawn")


async def test_dipole_stacks_by_keys_and_mouse_the_side_switched_then_played(
    make_app: AppFactory,
) -> None:
    app = make_app("dipole")
    async with app.run_test(size=(80, 24)) as pilot:
        dismissed = await open_editor(pilot, app)
        await press(pilot, "c")
        assert grid(app).contents == {}
        assert said(app).startswith("Board cleared. Not yet: White has no stack")
        await walk(pilot, app, "e1")
        await press(pilot, "w", "3", "enter")
        await click(pilot, app, "d8")
        assert grid(app).square.name == "d8"
        await press(pilot, "b", "enter", "plus", "plus")
        await click(pilot, app, "c3")
        await press(pilot, "w", "enter", "minus")
        assert grid(app).contents == {"e1": "W3", "d8": "B3"}
        assert said(app) == "Ready to play."
        await press(pilot, "tab")
        await press(pilot, "p")
        assert [state.position() for state in dismissed if state] == ["8:B:We1=3:Bd8=3"]


async def test_dipole_refusals_are_said_in_the_panel(make_app: AppFactory) -> None:
    app = make_app("dipole", "10x10")
    async with app.run_test(size=(80, 24)) as pilot:
        dismissed = await open_editor(pilot, app)
        await walk(pilot, app, "c3")
        await press(pilot, "w", "2", "1", "enter")
        assert "'w21' is not a stack of this board; expected W1 to W20" in said(app)
        assert "c3" not in grid(app).contents
        await walk(pilot, app, "f10")
        await press(pilot, "delete")
        await press(pilot, "ctrl+s")
        assert said(app).startswith("Cannot play this: Black has no stack")
        assert dismissed == [] and isinstance(app.screen, EditorScreen)
        await press(pilot, "s")
        assert grid(app).contents == {"e1": "W20", "f10": "B20"}
        await press(pilot, "escape")
        assert dismissed == [None]


async def test_death_stacks_a_stack_typed_in_a_burst_lands_where_it_was_typed(
    make_app: AppFactory,
) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=(80, 24)) as pilot:
        dismissed = await open_editor(pilot, app)
        await walk(pilot, app, "c3")
        type_ahead(app, "rbr\r")
        type_ahead(app, "l")  # after Enter: the cursor steps right (vim's l), no letter
        await settle(pilot)
        assert grid(app).contents["c3"] == "rbr"
        assert grid(app).square.name == "d3"
        assert "Red has 14 pieces" in said(app)
        await walk(pilot, app, "a1")
        await press(pilot, "delete")
        assert "Black has 13 pieces" in said(app)
        await walk(pilot, app, "b1")
        await press(pilot, "minus")
        assert grid(app).contents["b1"] == "r"
        await press(pilot, "plus")
        await click(pilot, app, "f6")
        await press(pilot, "delete")
        assert said(app) == "Ready to play."
        await press(pilot, "enter", "b", "enter")  # Enter: the square's token typed again
        await press(pilot, "enter", "backspace", "r", "escape")  # dropped, the editor stays
        assert grid(app).contents["f6"] == "b" and dismissed == []
        await press(pilot, "tab", "p")
        (state,) = dismissed
        assert state is not None and state.to_move == 1
        ranks = state.position().split("/")
        assert ranks[0] == "bb,bb,bb,bb,bb,b"
        assert ranks[3:] == [",,rbr,,,", ",,,,,", ",rr,rr,rr,rr,rr b"]


async def test_bipod_stones_the_runner_chosen_and_the_start_stones_kept(
    make_app: AppFactory,
) -> None:
    app = make_app("bipod", "multi")
    async with app.run_test(size=(80, 24)) as pilot:
        dismissed = await open_editor(pilot, app)
        await walk(pilot, app, "i1")
        await press(pilot, "delete")
        assert said(app) == "i1 holds the start stone @, which stays"
        await press(pilot, "c")
        assert grid(app).contents == {"i1": "@", "s1": "Q"}
        await click(pilot, app, "j2")
        await press(pilot, "o", "enter")
        assert "nobody has adopted" in said(app)
        await press(pilot, "a")
        assert said(app) == "Ready to play."
        await click(pilot, app, "k1")
        await press(pilot, "X", "enter", "m", "ctrl+s")
        (state,) = dismissed
        assert isinstance(state, BipodState)
        assert (state.runner, state.to_move, state.variant) == (0, 1, "multi")
        assert (state.stone(NAME_INDEX["j2"]), state.stone(NAME_INDEX["k1"])) == ("o", "x")


@pytest.mark.parametrize("ascii_glyphs", [False, True], ids=["unicode", "ascii"])
@pytest.mark.parametrize(
    ("game", "variant"),
    [(key, variant) for key, entry in REGISTRY.items() for variant in entry.game.variants[:2]],
)
async def test_every_board_fits_80x24_and_ascii_draws_ascii(
    make_app: AppFactory, game: str, variant: str, ascii_glyphs: bool
) -> None:
    app = make_app(game, variant, ascii_glyphs=ascii_glyphs)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(pilot, app)
        board = grid(app)
        layout = Layout(board.squares, board.size.width, board.size.height)
        assert layout.board_width <= board.size.width
        assert 1 + layout.rows * layout.height <= board.size.height
        drawn = [board.render_line(y).text for y in range(board.size.height)]
        legend = app.screen.query_one("#editor-legend", Static)
        assert legend.region.bottom <= app.screen.size.height - 1  # above the footer
        if ascii_glyphs:
            texts = [*drawn, *(str(s.render()) for s in app.screen.query(Static))]
            assert all(text.isascii() for text in texts)


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
async def test_the_cursor_stands_out_with_and_without_colour(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch, no_color: bool
) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    app = make_app("death-stacks")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_editor(pilot, app)
        board = grid(app)
        cursor = board.get_component_rich_style("editor--cursor")
        square = board.get_component_rich_style("editor--square")
        if no_color:
            assert cursor.reverse and not square.reverse
        else:
            assert cursor.bgcolor != square.bgcolor
