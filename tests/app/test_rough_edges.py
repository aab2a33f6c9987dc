"""Issue 28's rough edges 7, 11 and 12: what the figures mean, notices beside the board, and the
words of a move, a refusal and a resize."""

from __future__ import annotations

import pytest
from app_steps import AppFactory, ScriptedBots, message, press, until
from textual import events
from textual.geometry import Offset
from textual.widgets import Static
from textual.widgets._toast import Toast

from dipole_tui.app.app import GameApp
from dipole_tui.games.bipod import ADOPT, BIPOD
from dipole_tui.registry import REGISTRY, rating
from dipole_tui.session import HUMAN, Session

DIPOLE = REGISTRY["dipole"].game


def tally(app: GameApp) -> str:
    return str(app.query_one("#tally", Static).render())


async def test_dipole_figures_say_what_they_count(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)):
        shown = tally(app)
        assert "on lost off" in " ".join(shown.split())
        assert "lost to" in shown and "captures" in shown and "taken off" in shown


async def test_a_refusal_stays_up_when_the_terminal_is_resized(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *":e1-e4", "enter")
        refusal = message(app)
        assert refusal.startswith("e1-e4")
        await pilot.resize_terminal(120, 30)
        await pilot.pause()
        assert message(app) == refusal
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert message(app) == refusal


def test_adopting_is_said_as_an_act() -> None:
    assert BIPOD.move_sentence("Second", ADOPT) == "Second adopted."
    state = BIPOD.new()
    move = BIPOD.parse_move("h2", state)
    assert BIPOD.move_sentence("First", move) == "First played h2."


async def test_a_notice_at_80_columns_stands_over_the_panel_not_the_board(
    make_app: AppFactory,
) -> None:
    session = Session.new(DIPOLE, None, (HUMAN, HUMAN))
    app = make_app(session=session)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("The unfinished game is kept as unfinished/game-20261127-123108.txt")
        await until(lambda: any(toast.region.width for toast in app.screen.query(Toast)))
        await pilot.pause()
        toast = app.screen.query_one(Toast)
        panel = app.query_one("#side")
        entry = app.query_one("#move-input")
        assert toast.region.x >= panel.region.x  # beside the board, never on it
        assert toast.region.bottom <= entry.region.y  # and above the entry
        assert toast.region.y >= app.query_one("#moves-title").region.y


async def test_auto_flip_turns_a_hot_seat_board_to_the_side_to_move(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "F")
        assert not app.board.flipped  # White to move
        await press(pilot, *":e1-e3", "enter")
        assert app.board.flipped  # Black to move: seen from Black's side
        await press(pilot, "u")
        assert not app.board.flipped
        await press(pilot, "F", *":e1-e3", "enter")
        assert not app.board.flipped  # off again


async def test_the_title_gives_a_bots_rating(make_app: AppFactory) -> None:
    app = make_app(players=(HUMAN, "easy"), thinker=ScriptedBots(held=True))
    async with app.run_test(size=(80, 24)):
        title = " ".join(str(app.query_one("#title", Static).render()).split())
        assert f"human v easy ({rating('dipole', 'easy'):+d})" in title


async def test_a_click_on_a_toast_that_has_just_gone_does_not_end_the_app(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The mouse comes down on a notice in the moment its time is up: the compositor still
    maps the removed toast there (Textual issue 6643 ended the app with an AttributeError)."""
    app = GameApp(session=Session.new(REGISTRY["dipole"].game))
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        app.notify("a notice that goes away")
        await until(lambda: bool(app.screen.query(Toast)))
        toast = app.screen.query_one(Toast)
        x, y = toast.region.x + 2, toast.region.y + 1
        await toast.remove()
        with monkeypatch.context() as stale:  # the screen not redrawn yet, whatever the load
            stale.setattr(app.screen, "get_widget_and_offset_at", lambda *_: (toast, Offset()))
            app.post_message(events.MouseDown(None, x, y, 0, 0, 1, False, False, False, x, y))
            await pilot.pause()
            await pilot.pause()
        assert app.is_running and app._exception is None
        await pilot.click(offset=(x, y))  # and the next click, on what is there now, is taken
        assert app.is_running
