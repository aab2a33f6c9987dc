"""Text from outside (a record's tags and comments, a paste, a file name) never reaches the
terminal raw: an escape sequence in a player's name would set the window title, write the
clipboard or wipe the screen; a right-to-left override would turn a line around; Rich markup
would restyle it. Whatever the way in, what shows is its escaped, literal text."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_steps import open_record, until
from cli_steps import Cli
from hypothesis import given
from hypothesis import strategies as st
from textual._compositor import LayoutUpdate
from textual.widgets import Button, Input, Label

from dipole_tui.app.app import GameApp
from dipole_tui.app.choice import GameChoice
from dipole_tui.app.online_dialog import OnlineScreen
from dipole_tui.games.base import displayable
from dipole_tui.records import format_record, parse_record
from dipole_tui.saves import DATA_DIR_VARIABLE
from dipole_tui.session import Session

# Each does harm raw: the clipboard, the window title, the screen wiped, a line reversed, markup.
HOSTILE = "Ann\x1b]52;c;aGk=\x07\x1b]2;pwned\x07\x1b[2J\u202e[red]x[/red]\x9b1m"
RECORD = (
    f'[Game "Dipole"]\n[White "{HOSTILE}"]\n[Black "Bob"]\n[Event "{HOSTILE}"]\n\n'
    f"1. e1-e3 {{{HOSTILE}\nsecond line}} d8-d6 *\n"
)


def raw(text: str) -> list[str]:
    """The characters of `text` a terminal would act on rather than show (a line end aside)."""
    return sorted({char for char in text if not char.isprintable() and char != "\n"})


def on_screen(app: GameApp) -> str:
    """Every character the app's screen sends, as its compositor draws it."""
    update = app.screen._compositor.render_update(full=True)
    assert isinstance(update, LayoutUpdate)
    return "".join(segment.text for strip in update.strips for segment in strip)


def test_displayable_escapes_what_a_terminal_acts_on_and_keeps_the_rest() -> None:
    assert displayable("Ann\x1b[2J") == "Ann\\x1b[2J"
    assert displayable("\u202eevil") == "\\u202eevil"
    assert displayable("a\nb") == "a\\nb"
    assert displayable("a\nb", lines=True) == "a\nb"
    assert displayable("Eúin Cobb ○●") == "Eúin Cobb ○●"


@given(st.text())
def test_displayable_shows_nothing_raw_and_is_stable(text: str) -> None:
    shown = displayable(text, lines=True)
    assert raw(shown) == []
    assert displayable(shown, lines=True) == shown


def test_a_records_tags_and_comments_are_read_escaped() -> None:
    record = parse_record(RECORD)
    assert raw(record.tags["White"] + record.tags["Event"]) == []
    assert record.tags["White"].startswith("Ann\\x1b]52;")
    comment = record.comments[1][0]
    assert raw(comment) == [] and comment.endswith("\nsecond line")
    again = parse_record(
        format_record(record.game, record.state, record.tags, comments=record.comments)
    )
    assert again.tags["White"] == record.tags["White"] and again.comments == record.comments


async def test_the_side_panel_shows_a_hostile_name_as_its_text() -> None:
    app = GameApp(session=Session.from_text(RECORD))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = on_screen(app)
        assert raw(screen) == []
        assert "Ann\\x1b" in screen  # the name is there, escaped
        assert "[red]x[/red]" in screen  # and its markup shown as typed, not read


async def test_a_hostile_record_opened_and_its_notices_show_nothing_raw(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "data"))
    path = tmp_path / f"a\x1b]2;title\x07{HOSTILE[:3]}.txt"
    path.write_text(RECORD, encoding="utf-8")
    app = GameApp(session=Session.from_text('[Game "Dipole"]\n'))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_record(pilot, app, path)
        await until(lambda: app.session.player_name(0).startswith("Ann"))
        app.notify(f"a notice from outside: {HOSTILE}")  # as a server's word would be said
        await pilot.pause()
        assert all(raw(str(notice.message)) == [] for notice in app._notifications)
        assert raw(on_screen(app)) == []


def test_replay_prints_a_hostile_record_escaped(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "hostile.txt"
    path.write_text(RECORD, encoding="utf-8")
    ran = cli("replay", str(path))
    assert ran.status == 0, ran.err
    assert "Ann\\x1b" in ran.out
    assert raw(ran.out) == [] and raw(ran.err) == []


async def test_a_server_typed_with_markup_is_refused_as_typed() -> None:
    """Rich markup in a typed server (`[/]` closes nothing) is quoted back, not read."""
    app = GameApp(session=Session.from_text('[Game "Dipole"]\n'))
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = OnlineScreen(GameChoice("dipole", "8x8", ("human", "human")))
        app.push_screen(dialog)
        await until(lambda: app.screen is dialog)
        await pilot.pause()
        dialog.query_one("#server", Input).value = "[/][red]x\x1b"
        dialog.query_one("#create", Button).press()
        await pilot.pause()
        said = str(dialog.query_one("#refusal", Label).render())
        assert said == "'[/][red]x\\x1b' is not a server: expected ws://HOST:PORT"
