"""--ascii means the whole screen is ASCII: not only the boards' glyphs but every border, key,
scrollbar, dialog, drop-down, notice, help page and palette the app shows, in every game."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from app_steps import AppFactory, screen_text, type_move, until, walk_to
from game_samples import SAMPLES
from textual.pilot import Pilot
from textual.widgets import Input, Select

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.app.dialogs.chat import ChatScreen
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.cli import main
from dipole_tui.registry import REGISTRY
from dipole_tui.saves import DATA_DIR_VARIABLE

SIZES = [(80, 24), (160, 50)]  # each screen is looked at in both; each app starts in the first


class Screens:
    """The screens looked at on the way, and any character on them that is not ASCII."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    async def look(
        self, pilot: Pilot[None], name: str, sizes: Sequence[tuple[int, int]] = SIZES
    ) -> list[str]:
        """Look at the screen in each of `sizes`, the one it is in first; the screen's text in
        each. The walk goes on in the last size looked at: one walk sees every screen in every
        size, as a terminal resized to a size shows what one started in it does, and neither
        walking again for each size nor resizing back after each look added a screen."""
        texts = []
        for size in sorted(sizes, key=lambda size: size != pilot.app.size):
            if pilot.app.size != size:
                await pilot.resize_terminal(*size)
            await pilot.pause()
            text = screen_text(pilot.app)
            assert text.count("\n") >= pilot.app.size.height - 1  # the whole screen was captured
            texts.append(text)
            bad = sorted({char for char in text if not char.isascii()})
            if bad:
                lines = [line for line in text.splitlines() if not line.isascii()]
                shown = "\n    ".join(lines)
                width, height = size
                self.failures.append(f"{name} in {width}x{height}: {' '.join(bad)} in\n    {shown}")
        return texts

    def check(self) -> None:
        assert not self.failures, "\n".join(self.failures)


async def pick(pilot: Pilot[None], app: GameApp) -> None:
    """Pick the stack of the side to move's first legal move: its targets are marked. Bi-Pod has
    no stacks: its cursor shows the stone Enter would place."""
    if app.session.game.key == "bipod":
        await pilot.press("right")
        return
    origin = app.session.state.legal_moves()[0][0]
    board = app.board
    assert isinstance(board, DipoleBoard | DeathStacksBoard)
    await walk_to(pilot, board, origin)
    await pilot.press("enter")
    assert board.selected == origin


@pytest.mark.long
@pytest.mark.parametrize("game_key", list(REGISTRY))
async def test_every_screen_is_ascii(make_app: AppFactory, tmp_path: Path, game_key: str) -> None:
    game = REGISTRY[game_key].game
    size = SIZES[0]
    screens = Screens()
    first = make_app(game_key, ascii_glyphs=True)
    async with first.run_test(size=size) as pilot:
        opening = game.format_move(first.session.state.legal_moves()[0])
        await type_move(pilot, opening)
        assert len(first.session.state.moves_played) == 1
    app = make_app(new=False, ascii_glyphs=True)
    async with app.run_test(size=size, notifications=True) as pilot:
        await screens.look(pilot, "the resume question")
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("enter")  # resume
        await pilot.pause()
        await pick(pilot, app)
        await screens.look(pilot, "the board with a stack picked")
        await pilot.press("colon", *"a1-b2")
        assert app.query_one("#move-input", Input).has_focus
        await screens.look(pilot, "the move entry with text typed")
        await pilot.press("escape")

        await pilot.press("n")
        await pilot.pause()
        for text in await screens.look(pilot, "the new-game dialog"):
            # The compact choices each still look like a drop-down: a `v` at their right end.
            assert len(re.findall(r" v   \|", text)) == 5, text
        app.screen.query_one("#game", Select).focus()
        await pilot.press("enter")
        assert app.screen.query_one("#game", Select).expanded
        for text in await screens.look(pilot, "the new-game dialog, a drop-down open"):
            # The open list is framed in ASCII, its choices in it.
            assert "+-----" in text and "Death Stacks" in text and "Bi-Pod" in text
        await pilot.press("escape", "escape")

        await pilot.press("s")
        await screens.look(pilot, "the save dialog")
        app.screen.query_one(Input).value = str(tmp_path / "saved.txt")
        await pilot.press("enter")
        await screens.look(pilot, "a notification")
        assert (tmp_path / "saved.txt").exists()

        await pilot.press("o")
        await screens.look(pilot, "the open dialog")
        await pilot.press("escape")

        await pilot.press("question_mark")
        await screens.look(pilot, "the help")
        await pilot.press("end")
        await screens.look(pilot, "the end of the help")
        await pilot.press("escape")

        chat = ChatScreen("Chat in room K7QMWD", [], lambda text: "")
        await app.push_screen(chat)
        await screens.look(pilot, "the room's chat, empty")
        app.screen.query_one(Input).value = "good luck"
        await pilot.press("enter")  # said back by the dialog's stand-in: nothing shown
        chat.add(["Ann: good luck"])
        await screens.look(pilot, "the room's chat, a line in it")
        await pilot.press("escape")

        await pilot.press("ctrl+p")
        await screens.look(pilot, "the command palette")
        await pilot.press(*"game")
        await screens.look(pilot, "the command palette's matches")
        await pilot.press("escape", "ctrl+p", *"theme", "enter")
        await screens.look(pilot, "the themes' palette")
        await pilot.press("escape")

        app.action_learn(game_key)
        await pilot.pause()
        await screens.look(pilot, "the lessons' menu")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("colon", *"zz9", "enter")
        await screens.look(pilot, "a lesson after a refused move")
        await pilot.press("escape", "m", "escape")
        await pilot.pause()

        await screens.look(pilot, "the too-small notice", sizes=[(30, 10)])

    position, last = SAMPLES[game_key].ending
    ending = make_app(game_key, position=position, ascii_glyphs=True)
    async with ending.run_test(size=size) as pilot:
        await type_move(pilot, last, leave=False)
        assert ending.session.outcome is not None and isinstance(ending.screen, ChoiceScreen)
        await screens.look(pilot, "the game-over dialog")
        await pilot.click("#review")
        review = ending.screen
        assert isinstance(review, ReviewScreen)
        await screens.look(pilot, "the review, evaluating")
        await until(lambda: review.complete)
        await screens.look(pilot, "the review, done")

    screens.check()


@pytest.mark.parametrize(
    ("argv", "ascii_glyphs"),
    [([], False), (["--ascii"], True), (["play", "--ascii"], True), (["--ascii", "play"], True)],
)
def test_the_ascii_flag_reaches_the_app(
    argv: list[str], ascii_glyphs: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    started: list[GameApp] = []
    monkeypatch.setattr(GameApp, "run", lambda app: started.append(app))
    assert main(argv) == 0
    assert [app.ascii_glyphs for app in started] == [ascii_glyphs]
    assert started[0].has_class("-ascii") == ascii_glyphs
