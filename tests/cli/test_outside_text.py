"""Text from outside (a record's tags and comments, a paste, a file name) never reaches the
terminal raw: an escape sequence in a player's name would set the window title, write the
clipboard or wipe the screen; a right-to-left override would turn a line around; Rich markup
would restyle it. Whatever the way in, what shows is its escaped, literal text."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_steps import open_record, until
from cli_steps import Cli, Ran
from hypothesis import given
from hypothesis import strategies as st
from seats import seated
from textual._compositor import LayoutUpdate
from textual.widgets import Button, Input, Label

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.online import OnlineScreen
from dipole_tui.app.dialogs.open import OpenScreen
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.control.choice import GameChoice
from dipole_tui.games.base import displayable
from dipole_tui.records import format_record, parse_record
from dipole_tui.registry import REGISTRY
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
        dialog = OnlineScreen(GameChoice("dipole", "8x8", seated("human", "human")))
        app.push_screen(dialog)
        await until(lambda: app.screen is dialog)
        await pilot.pause()
        dialog.query_one("#server", Input).value = "[/][red]x\x1b"
        dialog.query_one("#create", Button).press()
        await pilot.pause()
        said = str(dialog.query_one("#about", Label).render())
        assert said == "'[/][red]x\\x1b' is not a server: expected ws://HOST:PORT"


# Every character a terminal may act on: C0, DEL, C1, the bidi controls and the line breaks
# (LF and CR end a record's line, so a tag holds them only escaped; a comment spans lines).
CONTROLS = "".join(map(chr, [*range(32), 127, *range(128, 160)]))
CONTROLS += "\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
ON_A_LINE = CONTROLS.replace("\n", "").replace("\r", "")


def every_control_record(key: str) -> str:
    """A game of `key` two plies long, its tags and its comments holding every control
    character raw, as a stranger's file may."""
    game = REGISTRY[key].game
    state = game.new()
    moves = []
    for _ in range(2):
        move = state.legal_moves()[0]
        moves.append(game.format_move(move))
        state.play(move)
    tags = "".join(f'[{tag} "{tag}:{ON_A_LINE}"]\n' for tag in ("White", "Black", "Event", "Z"))
    comment = "{" + CONTROLS.replace("}", "") + "}"
    return f'[Game "{game.name}"]\n{tags};{ON_A_LINE}\n\n1. {moves[0]} {comment} {moves[1]} *\n'


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_every_control_character_in_every_tag_and_comment_is_read_escaped(key: str) -> None:
    record = parse_record(every_control_record(key))
    assert record.state.plies == 2
    said = [*record.tags.values(), *(text for at in record.comments for text in at)]
    assert raw("".join(said)) == []
    assert record.tags["White"] == "White:" + displayable(ON_A_LINE)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_no_command_prints_a_control_character_of_a_record(
    key: str, cli: Cli, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.txt"
    path.write_text(every_control_record(key), encoding="utf-8")
    said: dict[str, Ran] = {}
    for args in (
        ["replay", str(path)],
        ["analyse", "--movetime", "0.01", str(path)],
        ["moves", "--game", key, f"1{ON_A_LINE}"],
    ):
        said[args[0]] = ran = cli(*args)
        assert raw(ran.out) == [] and raw(ran.err) == [], args
    assert parse_record(said["analyse"].out).tags["White"] == "White:" + displayable(ON_A_LINE)


@pytest.mark.parametrize("key", sorted(REGISTRY))
async def test_no_screen_shows_a_control_character_of_a_record(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played, opened, listed in Open and reviewed: every screen the record reaches."""
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path / "data"))
    text = every_control_record(key)
    saved = tmp_path / "data" / "saved"
    saved.mkdir(parents=True)
    (saved / f"hostile{ON_A_LINE[1:]}.txt").write_text(text, encoding="utf-8")
    app = GameApp(session=Session.from_text(text))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert raw(on_screen(app)) == [], "the game"
        await pilot.press("o")
        await until(lambda: isinstance(app.screen, OpenScreen))
        await pilot.pause()
        listed = on_screen(app)
        assert raw(listed) == [] and "White:\\x00" in listed, "the Open list"
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, OpenScreen))
        await pilot.press("r")
        await until(lambda: isinstance(app.screen, ReviewScreen))
        await pilot.pause(1.0)
        assert raw(on_screen(app)) == [], "the review"
