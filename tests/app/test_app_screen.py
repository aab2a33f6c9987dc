"""The play screen as a new player meets it at 80x24: moves typed as documented, every message
whole, Help and Quit in view, and a way on after the game ends."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_steps import AppFactory, message, screen_text, type_move, until
from textual.widgets import Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.widgets.footer import GameFooter
from dipole_tui.app.widgets.side_panel import MoveEntry
from dipole_tui.app.widgets.wrapping import wrap
from dipole_tui.registry import REGISTRY
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Session

SMALL = (80, 24)


def shown_whole(app: GameApp, selector: str) -> list[str]:
    """The lines of a panel part, checked to be all on screen: none cut at the side or below."""
    widget = app.query_one(selector, Static)
    lines = str(widget.render()).splitlines()
    assert widget.region.height >= len(lines), f"{selector} shows {widget.region.height} lines"
    assert widget.region.bottom <= app.query_one("#move-input").region.y
    assert all(len(line) <= widget.region.width for line in lines), lines
    return lines


async def test_a_removal_typed_with_its_colon_is_played(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, "e1-off:5")
        assert app.session.game.format_move(app.session.last_move) == "e1-off:5"


async def test_a_leading_colon_typed_into_the_entry_is_ignored(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("colon", "colon", *"e1-g3")
        assert app.query_one(MoveEntry).value == "e1-g3"
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.game.format_move(app.session.last_move) == "e1-g3"


async def test_a_removal_without_a_count_is_refused_with_the_counts(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, "e1-off", leave=False)
        assert app.session.state.moves_played == []
        assert message(app) == "e1-off needs a count: 4 to 12, e.g. e1-off:4"
        shown_whole(app, "#message")


async def test_a_refused_move_is_selected_so_typing_replaces_it(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, "a1-b2", leave=False)
        entry = app.query_one(MoveEntry)
        assert entry.value == "a1-b2"
        assert entry.selected_text == "a1-b2"
        await pilot.press(*"e1-g3")
        assert entry.value == "e1-g3"
        await pilot.press("enter")
        await pilot.pause()
        assert app.session.game.format_move(app.session.last_move) == "e1-g3"


async def test_the_footer_shows_the_entry_keys_while_typing(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("colon")
        await pilot.pause()
        shown = footer_keys(app)
        assert {"Play", "Board", "Help", "Quit"} <= set(shown), shown
        assert "Type a move: e1-g3, e1xg3, g7-off:2." in message(app)


def footer_keys(app: GameApp) -> dict[str, str]:
    """Description -> key of every footer key seen whole on the screen's last row, where the
    footer says it drew it."""
    footer = app.query_one(GameFooter)
    row = screen_text(app).splitlines()[-1]
    return {
        drawn.key.description: drawn.key.shown
        for drawn in footer.drawn()
        if row[drawn.x : drawn.x + drawn.width] == footer.text(drawn.key)
    }


async def test_a_footer_key_is_pressed_by_a_click_and_says_what_it_does(
    make_app: AppFactory,
) -> None:
    """As Textual's footer keys: the key under the mouse is lit and its tooltip says what it
    does; a click presses it; a click between keys does nothing."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, "e1-g3")
        footer = app.query_one(GameFooter)
        undo = next(drawn for drawn in footer.drawn() if drawn.key.description == "Undo")
        plain = footer.render().spans
        await pilot.hover(footer, offset=(undo.x + 1, 0))
        assert footer.hovered == undo.key and footer.tooltip == undo.key.tooltip
        assert "Take back the last move" in str(footer.tooltip)
        assert footer.render().spans != plain  # lit
        await pilot.click(footer, offset=(undo.x + undo.width - 1, 0))  # the margin
        assert len(app.session.state.moves_played) == 1
        await pilot.click(footer, offset=(undo.x, 0))
        await pilot.pause()
        assert app.session.state.moves_played == []
        await pilot.hover(app.board)
        assert footer.hovered is None and footer.tooltip is None


@pytest.mark.parametrize("game", list(REGISTRY))
async def test_help_and_quit_are_in_the_footer_at_80x24(make_app: AppFactory, game: str) -> None:
    app = make_app(game)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.pause()
        shown = footer_keys(app)
        assert shown.get("Help") == "?" and shown.get("Quit") == "q", shown
        assert "Undo" in shown


async def test_a_long_reason_is_shown_whole_at_80x24(make_app: AppFactory) -> None:
    app = make_app("death-stacks")
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, "a1-1-a3", leave=False)
        lines = shown_whole(app, "#message")
        assert len(lines) >= 4
        assert message(app).endswith("(they can end on b1, a2, b2)")


async def test_a_message_that_no_longer_applies_gives_way(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, "e1-g3")
        assert message(app) == "White played e1-g3."
        await pilot.press("U")
        assert message(app) == "Nothing to redo."
        await pilot.press("left")  # the player moves on
        assert message(app) == "White played e1-g3."


async def test_the_title_is_not_cut_at_80x24(make_app: AppFactory) -> None:
    app = make_app("bipod", "multi,adopter-runs", ("medium", "hard"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        text = " ".join(" ".join(shown_whole(app, "#title")).split())
        assert re.search(r"medium \(\+\d+\) v hard \(\+\d+\)", text) and "Bi-Pod" in text


async def test_after_the_game_over_dialog_the_panel_says_what_next(make_app: AppFactory) -> None:
    app = make_app("dipole", position="8:W:Wb8=1:Ba1=3")
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, "b8-off", leave=False)
        assert isinstance(app.screen, ChoiceScreen)
        text = " ".join(str(label.render()) for label in app.screen.query(".dialog-text"))
        assert "The game is saved as" in text
        await pilot.press("escape")
        await pilot.pause()
        turn = " ".join(shown_whole(app, "#turn"))
        assert "Black wins" in turn
        assert "n new game" in turn and "r review" in turn and "q quit" in turn


async def test_a_path_in_the_game_over_dialog_breaks_after_a_slash(
    make_app: AppFactory, tmp_path: Path
) -> None:
    deep = tmp_path / "a-folder-with-a-long-name" / "and-another-one-below-it"
    app = make_app(position="8:W:Wb8=1:Ba1=3", folder=deep)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("colon", *"b8-off", "enter")
        await pilot.pause()
        label = app.screen.query_one(".dialog-text", Static)
        lines = str(label.render()).splitlines()
        path_lines = [line for line in lines if "/" in line and " " not in line]
        assert len(path_lines) >= 2
        assert all(line.endswith("/") for line in path_lines[:-1]), lines
        assert all(len(line) <= label.region.width for line in lines)


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        ("White played e1-g3.", 30, ["White played e1-g3."]),
        (
            "saved as /home/someone/games/dipole.txt",
            16,
            ["saved as", "/home/someone/", "games/dipole.txt"],
        ),
        ("a\n\nb", 5, ["a", "", "b"]),
        (
            "kept as dipole-20261124-0130-white.txt",
            12,
            ["kept as", "dipole-", "20261124-", "0130-", "white.txt"],
        ),
    ],
)
def test_wrapping_breaks_long_words_after_a_slash(text: str, width: int, lines: list[str]) -> None:
    assert wrap(text, width) == lines


@pytest.mark.parametrize("game", list(REGISTRY))
async def test_no_footer_key_is_cut_in_half(
    make_app: AppFactory, tmp_path: Path, game: str
) -> None:
    """Keys that do not fit before the pinned ones are left out whole, behind a dialog too."""
    rules = REGISTRY[game].game
    state = rules.new()
    state.play(state.legal_moves()[0])
    Autosave(tmp_path).write(Session(rules, state, (HUMAN, HUMAN)))
    app = make_app(new=False)  # the resume question over the saved game
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(2):
            await pilot.pause()
            await until(lambda: "Help" in footer_keys(app))  # laid out again (slow when loaded)
            footer = app.query_one(GameFooter)
            drawn = footer.drawn()
            pinned = min(key.x for key in drawn if key.key.pinned)
            for key in drawn:
                if not key.key.pinned:
                    assert key.x + key.width <= pinned, f"{key.key.description} runs under Help"
            row = list(screen_text(app).splitlines()[-1])
            for key in drawn:
                row[key.x : key.x + key.width] = " " * key.width
            assert not "".join(row).strip(), f"a key cut short in the footer: {''.join(row)!r}"
            assert footer_keys(app).get("Help") == "?"
            await pilot.press("escape")  # resumed: the game screen's own keys


@pytest.mark.parametrize(
    ("game", "text"), [("bipod", "e²"), ("dipole", "e1-g٣"), ("death-stacks", "a1-\uff12-a3")]
)
async def test_a_move_with_other_digits_is_refused_in_one_line(
    make_app: AppFactory, game: str, text: str
) -> None:
    """Typing `e²` once ended the app with a traceback (int() reads other scripts' digits)."""
    app = make_app(game)
    async with app.run_test(size=SMALL) as pilot:
        await type_move(pilot, text, leave=False)
        assert app.session.state.moves_played == []
        said = message(app)
        assert said.startswith(f"{text}: ") and "Error" not in said, said
        await type_move(pilot, "", leave=True)  # the app goes on
        assert app.is_running
