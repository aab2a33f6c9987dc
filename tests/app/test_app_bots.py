"""Bots in the app: they answer, they can be watched, paused and stepped, and undo or a new game
stops them at once. The screen stays live while they think."""

from __future__ import annotations

from pathlib import Path

from app_steps import AppFactory, ScriptedBots, board_of, type_move, until
from textual.widgets import Static

from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.session import HUMAN

SIZE = (100, 30)


async def test_a_bot_answers_and_undo_returns_to_the_human(make_app: AppFactory) -> None:
    app = make_app(players=(HUMAN, "easy"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"e1-g3", "enter", "escape")
        await until(lambda: len(app.session.state.moves_played) == 2)
        await pilot.pause()
        assert app.session.state.to_move == 0 and app.board.interactive
        await pilot.press("u")
        await pilot.pause()
        assert app.session.state.moves_played == []  # the bot's reply and the human's move
        assert app.session.state.to_move == 0


async def test_undo_stops_a_thinking_bot_at_once(make_app: AppFactory) -> None:
    app = make_app(players=(HUMAN, "hard"), think_time=30.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"e1-g3", "enter", "escape")
        await until(lambda: app.bots.thinking)
        assert "hard is thinking" in str(app.query_one("#turn", Static).render())
        # The screen stays live while the bot thinks: the cursor moves.
        board = board_of(app, DipoleBoard)
        before = board.cursor
        await pilot.press("left")
        assert board.cursor != before
        await pilot.press("u")
        await pilot.pause()
        assert not app.bots.thinking and app.session.state.moves_played == []
        await until(lambda: app.bots.unanswered == 0)  # the stopped search's answer came...
        await pilot.pause()
        assert app.session.state.moves_played == []  # ...and was dropped


async def test_bots_can_be_watched_paused_and_stepped(make_app: AppFactory) -> None:
    app = make_app(players=("hard", "hard"), think_time=0.3)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: len(app.session.state.moves_played) >= 2)
        await pilot.press("p")
        await pilot.pause()
        assert app.bots.paused and not app.bots.thinking
        assert "paused" in str(app.query_one("#turn", Static).render())
        frozen = len(app.session.state.moves_played)
        await until(lambda: app.bots.unanswered == 0)
        await pilot.pause()
        assert len(app.session.state.moves_played) == frozen  # a stopped search's move is dropped
        await pilot.press("full_stop")
        await until(lambda: len(app.session.state.moves_played) > frozen)
        await pilot.pause()
        assert not app.bots.thinking and app.bots.unanswered == 0  # nobody asked again:
        assert len(app.session.state.moves_played) == frozen + 1  # one step, then it waits
        await pilot.press("p")
        await until(lambda: len(app.session.state.moves_played) > frozen + 1)


async def test_a_hint_names_a_legal_move_without_playing_it(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        await until(lambda: "Hint:" in str(app.query_one("#message", Static).render()))
        text = str(app.query_one("#message", Static).render())
        suggested = text.split("play ")[1].split(".")[0]
        assert suggested in {DIPOLE.format_move(m) for m in DIPOLE.new().legal_moves()}
        assert app.session.state.moves_played == []


async def test_a_move_typed_on_the_bots_turn_is_refused_and_the_bot_still_moves(
    make_app: AppFactory,
) -> None:
    app = make_app(players=(HUMAN, "hard"), think_time=3.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"e1-g3", "enter")
        await until(lambda: app.bots.thinking)
        await pilot.press("colon", *"d8-c7", "enter")
        await pilot.pause()
        assert "bot's turn" in str(app.query_one("#message", Static).render())
        assert len(app.session.state.moves_played) == 1
        await until(lambda: len(app.session.state.moves_played) == 2, seconds=15)
        assert app.session.players[app.session.state.to_move] == HUMAN


async def test_a_stopped_bot_is_asked_again_and_its_process_survives(make_app: AppFactory) -> None:
    app = make_app(players=(HUMAN, "hard"), think_time=30.0)  # long enough never to answer here
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"e1-g3", "enter", "escape")
        await until(lambda: app.bots.thinking)
        await pilot.press("U")  # nothing to redo: the bot must go on thinking
        assert app.bots.thinking
        await pilot.press("u")  # stops the search in the middle
        assert not app.bots.thinking and app.session.state.moves_played == []
        app.bots.think_time = 0.3  # the next question is answered soon
        await pilot.press("colon", *"e1-c3", "enter", "escape")
        await until(lambda: len(app.session.state.moves_played) == 2)
        assert app.bots.worker_alive


async def test_redo_in_a_game_against_a_bot_does_not_pause_it(make_app: AppFactory) -> None:
    app = make_app(players=(HUMAN, "easy"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("colon", *"e1-g3", "enter", "escape")
        await until(lambda: len(app.session.state.moves_played) == 2)
        await pilot.press("u")
        await pilot.pause()
        assert app.session.state.moves_played == []
        await pilot.press("U")  # the move and the bot's reply come back together
        await pilot.pause()
        assert len(app.session.state.moves_played) == 2 and not app.bots.paused
        await pilot.press("colon", *"e1-c3", "enter", "escape")
        await until(lambda: len(app.session.state.moves_played) == 4)


async def test_cancelling_the_first_dialog_starts_the_bots(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(players=("random", HUMAN), new=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await until(lambda: len(app.session.state.moves_played) == 1)
    # The game is kept: in the autosave, or filed as finished when random's first move took
    # White's whole stack off the board (a loss: that is one of its 19 choices).
    assert (tmp_path / "autosave.txt").exists() or list((tmp_path / "finished").glob("*.txt"))


async def test_a_bot_plays_death_stacks_in_the_app(make_app: AppFactory) -> None:
    app = make_app("death-stacks", players=(HUMAN, "easy"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("colon", *"a1-2-a3", "enter", "escape")
        await until(lambda: len(app.session.state.moves_played) == 2)
        await pilot.pause()
        reply = app.session.state.moves_played[1]
        assert app.session.state.to_move == 0 and app.board.interactive
        assert f"Black played {DEATH_STACKS.format_move(reply)}" in str(
            app.query_one("#message", Static).render()
        )


async def test_a_bot_that_fails_says_so_instead_of_thinking_forever(make_app: AppFactory) -> None:
    bots = ScriptedBots(None)  # the search fails: no move
    app = make_app(players=(HUMAN, "easy"), thinker=bots)
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-g3")
        await until(lambda: app.bots.unanswered == 0)
        await pilot.pause()
        assert bots.asked == ["easy"] and not app.bots.thinking
        said = str(app.query_one("#message", Static).render())
        assert "the bot found no move" in said
        assert str(app.error_log) in "".join(said.split())  # wrapped to the panel: where to look
        assert app.session.state.to_move == 1 and not app.board.interactive
