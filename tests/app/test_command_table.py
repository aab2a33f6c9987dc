"""One command table (issue 42): a screen's bindings are what the footer shows, what the
command palette offers and what the help's key table for that screen lists (the game's, the
review's, the mistakes', the lessons' and puzzles', the editor's). The help is checked against
them key by key and label by label, and a command from the palette is refused where its key is
(`check_action`), never run around it."""

from __future__ import annotations

import re
from pathlib import Path

from app_steps import AppFactory, HandAnalyst, type_move
from test_app_review import ScriptedReviewer, blundered_session, reviewed
from textual.app import SystemCommand
from textual.binding import Binding
from textual.keys import _character_to_key

import dipole_tui.app
from dipole_tui.app.app import GameApp
from dipole_tui.app.screens.editor import EditorScreen
from dipole_tui.app.screens.game import GameScreen
from dipole_tui.app.screens.learning import LessonScreen
from dipole_tui.app.screens.mistakes import MistakesScreen
from dipole_tui.app.screens.puzzle import PuzzleScreen
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.app.screens.stats import StatsScreen

KEYS_PAGE = Path(dipole_tui.app.__file__).parent / "help" / "keys.md"
SIZE = (100, 30)
PALETTE = "palette"  # the label Textual gives the palette's key (its footer says "^p palette")


# Each screen with keys of its own, and the heading of its table in the help. The game's table
# holds the app's keys too (quit, help, the palette), which every screen shares.
TABLES: dict[type, str] = {
    GameScreen: "Keys in every game",
    ReviewScreen: "Keys in the review",
    MistakesScreen: "Keys while learning from your mistakes",
    LessonScreen: "Keys in lessons and puzzles",
    PuzzleScreen: "Keys in lessons and puzzles",
    EditorScreen: "Keys in the position editor",
    StatsScreen: "Keys in the statistics",
}


def declared(screen: type = GameScreen) -> dict[str, str]:
    """Every key bound on `screen` by this project (its classes', and for the game screen the
    app's and the palette's key that Textual adds): key -> its label."""
    labels: dict[str, str] = {}
    classes: tuple[type, ...] = screen.__mro__
    if screen is GameScreen:
        labels[GameApp.COMMAND_PALETTE_BINDING] = PALETTE
        classes += GameApp.__mro__
    for cls in classes:
        if not cls.__module__.startswith("dipole_tui"):
            continue
        for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", [])):
            assert binding.key not in labels, f"{binding.key} bound twice"
            labels[binding.key] = binding.description
    return labels


def key_name(written: str) -> str:
    """A key as the help writes it (`?`, `F1`, `Home`, `ctrl+r`), as a binding names it."""
    return _character_to_key(written) if len(written) == 1 else written.lower()


def table(text: str, heading: str) -> str:
    """The help's section under `## heading`, up to the next heading."""
    _, found, rest = text.partition(f"## {heading}\n")
    assert found, f"the help has no section {heading!r}"
    return rest.split("\n## ", 1)[0]


def help_rows(text: str) -> list[tuple[list[str], set[str]]]:
    """The key table's rows: the keys of the first cell, the bold labels of the second."""
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("| `") or len(cells) != 2:
            continue
        keys = [key_name(key) for key in re.findall(r"`([^`]+)`", cells[0])]
        rows.append((keys, set(re.findall(r"\*\*(.+?)\*\*", cells[1]))))
    return rows


def mismatches(text: str, screen: type = GameScreen) -> list[str]:
    """What `screen`'s key table in the help `text` says otherwise than its bindings ([] when
    it agrees)."""
    text = table(text, TABLES[screen])
    labels, said = declared(screen), []
    rows = help_rows(text)
    listed = [key for keys, _ in rows for key in keys]
    said += [f"{key} in two rows" for key in set(listed) if listed.count(key) > 1]
    said += [f"{key} has no row" for key in labels if key not in listed]
    said += [f"{key} has no binding" for key in listed if key not in labels]
    for keys, bold in rows:
        if bold != (bound := {labels[key] for key in keys if key in labels}):
            said.append(f"{keys}: the help says {sorted(bold)}, the bindings {sorted(bound)}")
    return said


def test_the_help_lists_exactly_the_game_screen_s_keys_with_their_labels() -> None:
    """And the check finds a binding added without its row, a row left with no binding, a
    label the footer says otherwise than the help."""
    text = KEYS_PAGE.read_text(encoding="utf-8")
    assert mismatches(text) == []
    row = "| `t` | **Threats**: "
    for astray in ("| `D` / `t` | **Threats**: ", "| `T` | **Threats**: ", "| `t` | **Threat**: "):
        assert mismatches(text.replace(row, astray)), astray
    assert mismatches(text.replace(row, "| `x` / `t` | **Threats**: ")) == ["x has no binding"]


def test_the_help_lists_each_screen_s_keys_under_its_heading() -> None:
    """The review's, the mistakes', the lessons' and puzzles', the editor's: each table says
    exactly its screen's keys; a key of one screen written in another's table is found."""
    text = KEYS_PAGE.read_text(encoding="utf-8")
    for screen in TABLES:
        assert mismatches(text, screen) == [], screen.__name__
    row = "| `m` | **Mistakes**: "
    assert mismatches(text.replace(row, "| `M` | **Mistakes**: "), ReviewScreen)
    assert mismatches(text, ReviewScreen) == []
    moved = text.replace("| `c` | **Clear board**: ", "| `x` | **Clear board**: ")
    assert mismatches(moved, EditorScreen)[:2] == ["c has no row", "x has no binding"]


def commands(app: GameApp) -> dict[str, SystemCommand]:
    return {command.title: command for command in app.get_system_commands(app.game_screen)}


async def test_a_command_the_screen_refuses_is_refused_from_the_palette_as_its_key(
    make_app: AppFactory,
) -> None:
    """Undo waits while the board awaits its move (`GameScreen.check_action`): the key does
    nothing then, the palette no longer offers it, and its command, taken from the palette
    before, does nothing either; the board answered, the same command undoes."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, "e1-e3")
        offered = commands(app)
        app.board.awaiting = True
        await pilot.press("u")
        assert len(app.session.state.moves_played) == 1
        assert "Undo" not in commands(app)
        offered["Undo"].callback()
        await pilot.pause()
        assert len(app.session.state.moves_played) == 1
        app.board.awaiting = False
        offered["Undo"].callback()
        await pilot.pause()
        assert not app.session.state.moves_played


async def test_the_palette_offers_the_game_screen_s_keys_with_their_keys(
    make_app: AppFactory,
) -> None:
    """Each from its binding, with the keys that run it; Lines only while the analysis is on,
    as its key."""
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=SIZE) as pilot:
        said = {title: command.help for title, command in commands(app).items()}
        assert said["Hint"].endswith("  (i)") and said["Review"].endswith("  (r)")
        assert said["Offer a draw"].endswith("  (D)") and said["Step"].endswith("  (.)")
        assert said["Help"] == "The rules and the keys  (?, f1)"
        assert "Learn" in said and "Lines" not in said
        await pilot.press("a")
        await pilot.pause()
        assert commands(app)["Lines"].help.endswith("  (m)")


async def test_the_review_s_palette_offers_its_commands_with_their_keys(
    make_app: AppFactory,
) -> None:
    """A screen over the game has its own commands in the palette, from its bindings, with
    their keys; the game's are not offered there."""
    app = make_app(session=blundered_session(), reviewer=ScriptedReviewer)
    async with app.run_test(size=SIZE) as pilot:
        review = await reviewed(pilot, app)
        said = {command.title: command.help for command in app.get_system_commands(review)}
        assert said["Save the review"].endswith("  (s)")
        assert said["Learn from your mistakes"].endswith("  (m)")
        assert "Hint" not in said and "Undo" not in said
