"""Issue 28 points 13, 14 and 18 in the app: resigning, draw offers, clocks, the position
editor's key, and positions copied and pasted."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from app_steps import AppFactory, ScriptedBots, StandIn, message, noticed, press, until
from seats import seated
from textual import events
from textual.content import Content
from textual.widgets import Button, Select, Static

from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.app.screens.editor import EditorScreen
from dipole_tui.app.screens.game import GameScreen
from dipole_tui.clock import Clock, TimeControl
from dipole_tui.games.base import Termination
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.protocol import DrawRequest, Request

DIPOLE = REGISTRY["dipole"].game
DEATH_STACKS = REGISTRY["death-stacks"].game


async def answer(pilot: object, app: object, button: str) -> None:
    """Press a dialog's button. Its answer is taken after the dialog has gone (the callback
    runs on the next turn of the screen that asked), so callers wait for its effect."""
    from textual.app import App

    assert isinstance(app, App)
    await until(lambda: isinstance(app.screen, ChoiceScreen))
    dialog = app.screen
    dialog.query_one(f"#{button}", Button).press()
    await until(lambda: dialog not in app.screen_stack)


def opened(session: Session[Any]) -> Session[Any]:
    """The session past each side's first move (`OPENING`): no longer abortable."""
    for text in OPENING:
        session.play(session.game.parse_move(text, session.state))
    return session


OPENING = ("e1-e3", "d8-d6")


async def test_before_each_side_has_moved_r_aborts_the_game(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """As lichess: a game of fewer than two moves is called off, no result, nothing filed."""
    bots = ScriptedBots("e1-e3", "e1-e3", "e3-e5")
    app = make_app(players=("beginner", HUMAN), thinker=bots)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.session.state.plies == 1)  # the bot's first move
        await press(pilot, "R")
        assert isinstance(app.screen, ChoiceScreen) and app.screen.title_text == "Abort this game?"
        await answer(pilot, app, "yes")
        await until(lambda: noticed(app, "No result, and nothing of it is kept."))
        assert app.session.outcome is None and not app.session.redo_moves
        await until(lambda: app.session.state.plies == 1)  # a fresh start: the bot opens again
        assert not (tmp_path / "finished").exists() and not (tmp_path / "unfinished").exists()
        await press(pilot, *":d8-d6", "enter", "R")
        assert (
            isinstance(app.screen, ChoiceScreen) and app.screen.title_text == "Resign this game?"
        )  # too late to abort


async def test_moves_taken_back_to_the_start_can_be_aborted(make_app: AppFactory) -> None:
    app = make_app(session=opened(Session.new(DIPOLE)))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "u", "u", "R")  # hot-seat: each u takes one ply back
        assert isinstance(app.screen, ChoiceScreen) and app.screen.title_text == "Abort this game?"
        await answer(pilot, app, "yes")
        await until(lambda: not app.session.redo_moves)
        assert app.session.outcome is None and app.session.state.plies == 0


async def test_resigning_is_asked_once_and_ends_the_game(make_app: AppFactory) -> None:
    app = make_app(session=opened(Session.new(DIPOLE)))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "R")
        assert isinstance(app.screen, ChoiceScreen)
        await press(pilot, "escape")  # keep playing
        assert app.session.outcome is None
        await press(pilot, "R")
        await answer(pilot, app, "yes")
        await until(lambda: app.session.outcome is not None)
        outcome = app.session.outcome
        assert outcome is not None and outcome.winner == 1
        assert outcome.termination is Termination.RESIGNED
        await until(lambda: isinstance(app.screen, ChoiceScreen))  # the game over question
        assert "White resigned" in app.screen.text


async def test_a_person_resigns_while_the_bot_thinks(make_app: AppFactory) -> None:
    bots = ScriptedBots("e3-e5", held=True)
    app = make_app(
        session=opened(Session.new(DIPOLE, None, seated("beginner", HUMAN))), thinker=bots
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await until(lambda: app.bots.thinking)
        await press(pilot, "R")
        await answer(pilot, app, "yes")
        await until(lambda: app.session.outcome is not None)
        outcome = app.session.outcome
        assert outcome is not None and outcome.winner == 0  # Black, the person, resigned


async def test_dipole_has_no_draw_to_offer(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "D")
        assert "has no draws" in message(app)
        assert not isinstance(app.screen, ChoiceScreen)


async def test_a_draw_offered_at_one_keyboard_is_answered_by_the_other(
    make_app: AppFactory,
) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "D")
        await answer(pilot, app, "no")
        await until(lambda: "declined" in message(app))
        assert app.session.outcome is None
        await press(pilot, "D")
        await answer(pilot, app, "yes")
        await until(lambda: app.session.outcome is not None)
        outcome = app.session.outcome
        assert outcome is not None and outcome.winner is None
        assert outcome.termination is Termination.AGREED


async def test_a_bot_declines_a_draw_when_it_stands_better(make_app: AppFactory) -> None:
    # Black (the bot) controls three stacks to Red's one: it stands better.
    position = "rr,,,,,/,,,,,/,,,,,/,,,,,/,,,,,/bb,bb,bb,,, r"
    # The bots' real process weighs it.
    app = make_app("death-stacks", players=(HUMAN, "beginner"), position=position)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "D")
        await until(lambda: "declines" in message(app), seconds=15)
        assert app.session.outcome is None


async def test_a_bot_accepts_a_draw_when_it_stands_worse(make_app: AppFactory) -> None:
    position = "rr,rr,rr,,,/,,,,,/,,,,,/,,,,,/,,,,,/bb,,,,, r"
    app = make_app("death-stacks", players=(HUMAN, "beginner"), position=position)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "D")
        await until(lambda: app.session.outcome is not None, seconds=15)
        outcome = app.session.outcome
        assert outcome is not None and outcome.termination is Termination.AGREED


class Pondering(StandIn):
    """The bots' process, weighing every draw offer for ever: the requests are kept."""

    def __init__(self) -> None:
        self.requests: list[Request] = []

    def send(self, number: int, request: Request) -> None:
        self.requests.append(request)


async def test_an_offer_made_again_while_the_bot_weighs_it_is_refused(
    make_app: AppFactory,
) -> None:
    bots = Pondering()
    app = make_app("death-stacks", players=(HUMAN, "beginner"), thinker=bots)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "D")
        assert "Black considers your offer" in message(app)
        await press(pilot, "D")
        assert "Black is still considering your offer" in message(app)
        assert [type(request) for request in bots.requests] == [DrawRequest]


def clocks(app: object) -> str:
    from textual.app import App

    assert isinstance(app, App)
    return " ".join(str(app.query_one("#clocks", Static).render()).split())


async def test_the_clocks_run_and_a_flag_ends_the_game(make_app: AppFactory) -> None:
    # 3 s each: White's move is typed well within its time even on a machine loaded by other
    # jobs (at 1.2 s, White's flag sometimes fell first there), then Black's time runs out.
    session = Session.new(DIPOLE, None, (HUMAN, HUMAN), TimeControl(0.05, 0))
    app = make_app(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.query_one("#clocks", Static).display
        assert re.search(r"0:0[23]\.\d", clocks(app)), clocks(app)
        await press(pilot, *":e1-e3", "enter", *":d8-d6", "enter")  # untimed, both
        assert "● 0:03.0" in clocks(app)
        await press(pilot, *":e3-e5", "enter")
        assert app.session.state.plies == 3
        await until(lambda: app.session.outcome is not None, seconds=15)
        outcome = app.session.outcome
        assert outcome is not None and outcome.termination is Termination.TIME
        assert outcome.winner == 0  # Black ran out of time
        assert "0:00.0" in clocks(app)


async def test_a_game_without_a_clock_shows_none(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)):
        assert not app.query_one("#clocks", Static).display


async def test_the_new_game_dialog_sets_a_clock(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "n")
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#clock", Select).value = "5+3"
        app.screen.query_one("#start", Button).press()
        await until(lambda: app.session.clock is not None)
        clock = app.session.clock
        assert clock is not None and str(clock.control) == "5+3"
        await pilot.pause()
        assert "5:00" in clocks(app) and "5+3" not in clocks(app)  # nothing runs, so not lit
        drawn = app.query_one("#clocks", Static).render()
        assert isinstance(drawn, Content) and "reverse" not in str(drawn.spans)
        await press(pilot, *":e1-e3", "enter", *":d8-d6", "enter")
        assert "5+3" in clocks(app)


async def test_e_opens_the_editor_and_its_position_is_played(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "e")
        assert isinstance(app.screen, EditorScreen)
        edited = DIPOLE.parse_position("8:B:Wc3=2:Be5=2")
        app.screen.dismiss(edited)
        await until(lambda: app.session.state.position() == edited.position())
        assert app.board.state.position() == edited.position()


async def test_y_copies_the_position_and_a_paste_opens_one(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *":e1-e3", "enter")
        await press(pilot, "y")
        assert app.clipboard == app.session.state.position()
        await press(pilot, "Y")
        assert app.clipboard.startswith('[Game "Dipole"]') and "1. e1-e3" in app.clipboard
        app.screen.post_message(events.Paste("8:B:Wc3=2:Be5=2"))
        await until(lambda: app.session.state.position() == "8:B:Wc3=2:Be5=2")
        app.screen.post_message(events.Paste("not a position"))
        await pilot.pause()
        assert app.session.state.position() == "8:B:Wc3=2:Be5=2"  # nothing changed


@pytest.mark.parametrize("line_end", ["\r", "\r\n", "\n"])
async def test_a_record_copied_and_pasted_back_opens_whatever_its_line_ends(
    make_app: AppFactory, line_end: str
) -> None:
    """Terminals (tmux, xterm) send a paste's line ends as CRs: the record still opens."""
    app = make_app(game="death-stacks", new=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *":a1-2-a3", "enter", "Y", "u")
        copied = app.clipboard
        assert app.session.state.plies == 0 and copied.count("\n") > 3
        app.screen.post_message(events.Paste(copied.replace("\n", line_end)))
        await until(lambda: app.session.state.plies == 1)
        assert app.session.game.key == "death-stacks"


async def test_a_clock_running_low_rings_the_bell_once(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under 20 s (or a tenth of the start, whichever comes first) the clock is low: drawn
    red, and the bell rings once, as lichess warns."""
    now = [100.0]
    session = Session.new(DIPOLE, None, (HUMAN, HUMAN), TimeControl(1, 0))  # 60 s: low at 20 s
    assert session.clock is not None
    session.clock = Clock(session.clock.control, session.clock.marks, lambda: now[0])
    app = make_app(session=opened(session))
    rang: list[int] = []
    monkeypatch.setattr(app, "bell", lambda: rang.append(1))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)

        def face() -> str:  # the running clock's style, as drawn
            drawn = app.query_one("#clocks", Static).render()
            assert isinstance(drawn, Content)
            return str(drawn.spans[0].style)

        now[0] += 39  # 21 s left
        screen.endings.tick()
        await pilot.pause()
        assert rang == []
        not_low = face()
        now[0] += 2  # 19 s left
        screen.endings.tick()
        screen.endings.tick()
        await pilot.pause()
        assert rang == [1] and face() != not_low  # red now


async def test_a_rematch_swaps_the_colours_and_keeps_the_clock_and_the_bot(
    make_app: AppFactory,
) -> None:
    bots = ScriptedBots("e1-e3")  # the bot's first move of the rematch, as White
    clock = TimeControl(3, 2)
    session = Session(DIPOLE, DIPOLE.parse_position("8:W:Wc3=2:Be5=2"), seated(HUMAN, "easy"))
    session.clock = Session.new(DIPOLE, None, seated(HUMAN, "easy"), clock).clock
    app = make_app(session=session, thinker=bots)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *":c3xe5", "enter")  # the person wins
        assert isinstance(app.screen, ChoiceScreen)
        app.screen.query_one("#rematch", Button).press()
        await until(lambda: app.session.players == ("easy", HUMAN))
        assert app.session.state.variant == "8x8" and app.session.outcome is None
        assert app.session.clock is not None and app.session.clock.control == clock
        await until(lambda: app.session.state.plies == 1)  # the bot, White now, moved
        assert bots.asked == ["easy"]
