"""Issue 41 point 8: a toast never covers a dialog. What the end of a game says is said in
its dialog; a dialog opening clears the toasts; a notice said while one is open waits for it
to close."""

from __future__ import annotations

from app_steps import AppFactory, press, until

from dipole_tui.app.dialogs.help import HelpScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen


def toasts(app: object) -> list[str]:
    from textual.app import App

    assert isinstance(app, App)
    return [str(toast.message) for toast in app._notifications]


async def test_a_dialog_opening_clears_the_toasts(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("Said before the dialog")
        await pilot.pause()
        assert toasts(app) == ["Said before the dialog"]
        await press(pilot, "n")
        assert isinstance(app.screen, NewGameScreen)
        assert toasts(app) == []


async def test_a_notice_said_over_a_dialog_waits_for_it_to_close(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        app.notify("Said while the help is open")
        await pilot.pause()
        assert toasts(app) == []
        await press(pilot, "escape")
        await until(lambda: toasts(app) == ["Said while the help is open"])
        assert not isinstance(app.screen, HelpScreen)


async def test_a_dialogs_words_reach_the_terminal_escaped(make_app: AppFactory) -> None:
    """The end of a game says its notices in its dialog: one may quote a server's or a file's
    text, and passes the one sanitizer there, as it would in a toast."""
    from textual.widgets import Label

    from dipole_tui.app.dialogs.choice import ChoiceScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        hostile = "room \x1b]52;c;eA==\x07 gone\x1b[2J"
        app.push_screen(ChoiceScreen("Over\x1b]2;x\x07", hostile, [("OK", "ok")], "ok"))
        await until(lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.pause()
        words = [str(label.render()) for label in app.screen.query(Label)]
        assert not any("\x1b" in text or "\x07" in text for text in words)
        assert any("\\x1b]52" in text for text in words)
