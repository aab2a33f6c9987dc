"""Deleting and renaming kept games in the Open dialog, as a person would: `d` moves the
highlighted game to the data folder's trash (`u` puts it back), `r` takes a new name in the
entry, refused in one line when it is no name for a game's file or another file has it. And the
command palette says each command's keys."""

from __future__ import annotations

import errno
import os
from datetime import datetime
from pathlib import Path

import pytest
from app_steps import AppFactory, press, until
from game_files import kept, played
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, Label, Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.open import GameList, OpenScreen
from dipole_tui.saves import SavedGame
from dipole_tui.session import HUMAN

SMALL = (80, 24)


def a_folder_of_games(folder: Path) -> dict[str, Path]:
    """Three games kept: `new` (saved), `mid` and `old` (finished), newest first in Open."""
    text = played("dipole", ["e1-g3"], "8x8", (HUMAN, "easy")).record_text()
    return {
        "new": kept(folder / "saved" / "new.txt", text, "2026-03-03T10:00"),
        "mid": kept(folder / "finished" / "mid.txt", text, "2026-02-02T10:00"),
        "old": kept(folder / "finished" / "old.txt", text, "2026-01-01T10:00"),
    }


async def open_dialog(pilot: Pilot[None], app: GameApp) -> OpenScreen:
    await pilot.press("o")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, OpenScreen)
    return screen


def kept_files(folder: Path) -> list[Path]:
    """Every game file under the data folder but the game in progress's."""
    files = folder.rglob("*.txt")
    return sorted(path.relative_to(folder) for path in files if path.parent != folder)


def names(screen: OpenScreen) -> list[str]:
    games = screen.query_one(GameList)
    return [game.name for game in games.games]


def about(screen: OpenScreen) -> str:
    return str(screen.query_one("#about", Static).render())


def hint(screen: OpenScreen, id: str) -> str:
    return str(screen.query_one(f"#{id}", Label).render())


async def test_delete_moves_the_game_to_the_trash_and_u_puts_it_back(
    make_app: AppFactory, tmp_path: Path
) -> None:
    files = a_folder_of_games(tmp_path)
    text = files["mid"].read_text(encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        assert "d: delete  r: rename  /: filter" in hint(screen, "keys")
        await pilot.press("down", "d")
        await pilot.pause()
        trashed = tmp_path / "trash" / "finished" / "mid.txt"
        assert not files["mid"].exists() and trashed.read_text(encoding="utf-8") == text
        assert names(screen) == ["new.txt", "old.txt"]
        assert screen.query_one(GameList).cursor_row == 1  # on the next game
        assert "moved to trash/finished/mid.txt (u puts it back)" in about(screen)

        await pilot.press("u")
        await pilot.pause()
        assert files["mid"].read_text(encoding="utf-8") == text and not trashed.exists()
        assert names(screen) == ["new.txt", "mid.txt", "old.txt"]
        assert "Put back: finished/mid.txt" in about(screen)

        await pilot.press("end", "d", "d")  # the last row, then the one before it
        await pilot.pause()
        assert names(screen) == ["new.txt"]
        assert not files["old"].exists() and not files["mid"].exists()
        assert (tmp_path / "trash" / "finished" / "old.txt").exists()
        assert isinstance(app.screen, OpenScreen)  # still open: nothing was opened
    # The trash is not listed: Open shows what is kept, not what was deleted.
    reopened = make_app()
    async with reopened.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, reopened)
        assert names(screen) == ["new.txt"]


async def test_rename_takes_the_new_name_in_the_entry(make_app: AppFactory, tmp_path: Path) -> None:
    files = a_folder_of_games(tmp_path)
    text = files["new"].read_text(encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        entry = screen.query_one("#path", Input)
        assert screen.focused is entry and entry.value == "new.txt"
        assert hint(screen, "entry-hint") == "New name for saved/new.txt:"
        assert hint(screen, "keys") == "Enter: rename   Escape: keep the name"
        await press(pilot, *"Ann v easy", "enter")  # typed over the name: .txt is added
        await pilot.pause()
        renamed = tmp_path / "saved" / "Ann v easy.txt"
        assert renamed.read_text(encoding="utf-8") == text and not files["new"].exists()
        assert names(screen) == ["Ann v easy.txt", "mid.txt", "old.txt"]
        assert "saved/Ann v easy.txt" in about(screen)
        assert isinstance(screen.focused, GameList) and entry.value != "Ann v easy"
        assert hint(screen, "entry-hint") == "Or type the file name:"

        await pilot.press("r", "escape")  # Escape keeps the name, and the dialog
        await pilot.pause()
        assert names(screen) == ["Ann v easy.txt", "mid.txt", "old.txt"]
        assert isinstance(app.screen, OpenScreen) and isinstance(screen.focused, GameList)

        await pilot.press("enter")  # the renamed game opens
        await pilot.pause()
        assert not isinstance(app.screen, OpenScreen)
        assert app.session.players == (HUMAN, "easy")


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("../elsewhere", "a name cannot hold / or \\"),
        ("a\\b", "a name cannot hold / or \\"),
        (".hidden", "a name cannot begin with a dot"),
        ("   ", "the name is empty"),
        ("x" * 61, "the name is longer than 60 characters"),
    ],
)
async def test_a_bad_name_is_refused_in_one_line(
    make_app: AppFactory, tmp_path: Path, typed: str, said: str
) -> None:
    files = a_folder_of_games(tmp_path)
    before = kept_files(tmp_path)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        await pilot.press("r", "backspace")
        await press(pilot, *typed, "enter")
        await pilot.pause()
        refusal = about(screen).splitlines()[-1]
        assert refusal.startswith(f"Not renamed: {said}")
        entry = screen.query_one("#path", Input)
        assert screen.focused is entry and entry.value == typed  # to mend, or Escape
        await pilot.press("escape")
        await pilot.pause()
        assert "Not renamed" not in about(screen)  # not left standing
    assert kept_files(tmp_path) == before
    assert files["new"].exists()


async def test_a_rename_never_writes_over_another_game(
    make_app: AppFactory, tmp_path: Path
) -> None:
    files = a_folder_of_games(tmp_path)
    kept(files["mid"], files["mid"].read_text(encoding="utf-8") + "\n", "2026-02-02T10:00")
    texts = {name: path.read_bytes() for name, path in files.items()}
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        await pilot.press("end", "r", "backspace")  # old.txt, in mid.txt's folder
        await press(pilot, *"mid", "enter")
        await pilot.pause()
        assert "Not renamed: mid.txt is there already" in about(screen)
        assert names(screen) == ["new.txt", "mid.txt", "old.txt"]
    assert {name: path.read_bytes() for name, path in files.items()} == texts


@pytest.mark.parametrize("hard_links", [True, False])
def test_a_taken_name_is_refused_with_or_without_hard_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hard_links: bool
) -> None:
    """A hard link, refused on a taken name however late, is the atomic way; a file system
    with none (FAT) gets a rename once the name is seen to be free."""
    files = a_folder_of_games(tmp_path)
    if not hard_links:

        def refused(*args: object, **kwargs: object) -> None:
            raise PermissionError(errno.EPERM, "Operation not permitted")

        monkeypatch.setattr(os, "link", refused)
    old = SavedGame(tmp_path / "finished", "old.txt", "finished", datetime(2026, 1, 1))
    text = files["old"].read_bytes()
    with pytest.raises(FileExistsError, match=r"^\[Errno 17\] mid.txt is there already$"):
        old.renamed("mid")
    assert files["old"].read_bytes() == text
    renamed = old.renamed(" older ")
    assert renamed.path == tmp_path / "finished" / "older.txt" and renamed.kept == "finished"
    assert renamed.path.read_bytes() == text and not files["old"].exists()


async def test_a_file_name_from_the_disk_is_said_escaped(
    make_app: AppFactory, tmp_path: Path
) -> None:
    text = played("dipole", ["e1-g3"], "8x8").record_text()
    kept(tmp_path / "saved" / "evil\x1b]2;X\x07.txt", text, "2026-01-01T10:00")
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        assert hint(screen, "entry-hint") == "New name for saved/evil\\x1b]2;X\\x07.txt:"
        # The entry shows its text raw: the name is offered escaped, and kept when left so.
        assert screen.query_one("#path", Input).value == "evil\\x1b]2;X\\x07.txt"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.games[0].path == tmp_path / "saved" / "evil\x1b]2;X\x07.txt"
        assert screen.games[0].path.exists() and "Not renamed" not in about(screen)
        await pilot.press("d")
        await pilot.pause()
        assert "moved to trash/saved/evil\\x1b]2;X\\x07.txt" in about(screen)
        assert "\x1b" not in about(screen)


async def palette_says(pilot: Pilot[None], app: GameApp, search: str, title: str) -> str:
    """The palette's entry for the command `title`, found by typing `search`: its title and
    help as drawn."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    await press(pilot, *search)
    results = app.screen.query_one(CommandList)

    def found() -> list[str]:
        prompts = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        return [prompt for prompt in prompts if prompt.startswith(title)]

    await until(lambda: bool(found()))
    return found()[0]


async def test_the_palette_says_each_command_s_key(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        assert (await palette_says(pilot, app, "flip", "Flip the board")).endswith(
            "See the board from the other side  (f)"
        )
        await pilot.press("escape")
        assert (await palette_says(pilot, app, "redo", "Redo")).endswith("(U, ^r)")
        await pilot.press("escape")
        assert (await palette_says(pilot, app, "quit", "Quit")).endswith("(q, ^q)")


async def test_the_palette_says_the_key_that_runs_the_command_on_this_board(
    make_app: AppFactory,
) -> None:
    """Bi-Pod's board takes `a` (adopt): the analysis is `A` there, as the binding stands."""
    app = make_app("bipod")
    async with app.run_test(size=SMALL) as pilot:
        said = await palette_says(pilot, app, "analysis", "Analysis")
        assert said.endswith("the best line  (A)")


def games_of_every_kind(folder: Path) -> None:
    """Four games: two Dipole against easy (one won by Black), Death Stacks against hard, and
    a Bi-Pod hot-seat game, each kept on its own day."""
    won = played("dipole", ["e1-g3"], "8x8", (HUMAN, "easy"))
    won.resign(0)  # White resigns: Black won
    kept(folder / "finished" / "won.txt", won.record_text(), "2026-03-04T10:00")
    text = played("dipole", ["e1-g3"], "8x8", (HUMAN, "easy")).record_text()
    kept(folder / "saved" / "going.txt", text, "2026-03-03T10:00")
    text = played("death-stacks", [], None, (HUMAN, "hard")).record_text()
    kept(folder / "saved" / "stacks.txt", text, "2026-02-02T10:00")
    text = played("bipod", [], None, (HUMAN, HUMAN)).record_text()
    kept(folder / "saved" / "pod.txt", text, "2026-01-01T10:00")


async def filtered(pilot: Pilot[None], screen: OpenScreen, words: str) -> list[str]:
    """`/`, the words typed, Enter: the names of the games listed then."""
    screen.query_one(GameList).focus()
    await press(pilot, "slash")
    entry = screen.query_one("#path", Input)
    assert entry.has_focus and hint(screen, "entry-hint") == OpenScreen.FILTER
    entry.value = ""
    await press(pilot, *words, "enter")
    await until(lambda: screen.query_one(GameList).has_focus)
    return names(screen)


async def test_slash_filters_by_game_opponent_result_and_date(
    make_app: AppFactory, tmp_path: Path
) -> None:
    games_of_every_kind(tmp_path)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        assert names(screen) == ["won.txt", "going.txt", "stacks.txt", "pod.txt"]
        assert await filtered(pilot, screen, "dipole") == ["won.txt", "going.txt"]
        assert "(2 of 4: / filters)" in hint(screen, "kept")
        assert await filtered(pilot, screen, "easy won") == ["won.txt"]  # Black won
        assert await filtered(pilot, screen, "HARD") == ["stacks.txt"]  # any case
        assert await filtered(pilot, screen, "hot-seat") == ["pod.txt"]
        assert await filtered(pilot, screen, "2026-03") == ["won.txt", "going.txt"]
        assert await filtered(pilot, screen, "drawn") == []
        assert "/: filter" in hint(screen, "keys")  # the list's keys, though none is shown
        await press(pilot, "slash", *"dipol", "backspace")  # as typed, the old words replaced
        assert names(screen) == ["won.txt", "going.txt"]
        assert "(2 of 4" in hint(screen, "kept")
        await press(pilot, *["backspace"] * 4)
        assert hint(screen, "kept") == f"Kept in {tmp_path}:"  # no words, no count
        await press(pilot, "enter")
        assert await filtered(pilot, screen, "") == [
            "won.txt",
            "going.txt",
            "stacks.txt",
            "pod.txt",
        ]
        # Escape in the filter's entry shows every game again
        await filtered(pilot, screen, "bipod")
        await press(pilot, "slash", "escape")
        assert names(screen) == ["won.txt", "going.txt", "stacks.txt", "pod.txt"]
        assert isinstance(app.screen, OpenScreen)  # the dialog stays
        assert hint(screen, "entry-hint") == "Or type the file name:"


async def test_a_game_deleted_from_a_filtered_list_comes_back_in_its_place(
    make_app: AppFactory, tmp_path: Path
) -> None:
    games_of_every_kind(tmp_path)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        screen = await open_dialog(pilot, app)
        assert await filtered(pilot, screen, "dipole") == ["won.txt", "going.txt"]
        await press(pilot, "down", "d")
        assert names(screen) == ["won.txt"]
        assert not (tmp_path / "saved" / "going.txt").exists()
        await press(pilot, "u")
        assert names(screen) == ["won.txt", "going.txt"]
        await press(pilot, "r")
        screen.query_one("#path", Input).value = "kept"
        await press(pilot, "enter")
        assert names(screen) == ["won.txt", "kept.txt"]
        assert await filtered(pilot, screen, "") == ["won.txt", "kept.txt", "stacks.txt", "pod.txt"]
        assert (tmp_path / "saved" / "kept.txt").exists()
