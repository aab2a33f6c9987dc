"""The autosave under faults: a damaged save never stops the app, two instances on one data
folder never lose a game, and a killed write leaves nothing behind for long."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from app_steps import noticed

from dipole_tui.app.app import DipoleApp
from dipole_tui.app.screens import NewGameScreen
from dipole_tui.session import Autosave

SIZE = (100, 30)

DIPOLE_GAME = '[Game "Dipole"]\n[Variant "8x8"]\n[White "human"]\n[Black "human"]\n\n'
BIPOD_GAME = '[Game "Bi-Pod"]\n[Variant "multi"]\n\n1. e13f2 su3\n2. a3c3 adopt\n'


def text(content: str) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(content.encode("utf-8"))


def folder(path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text("kept too")


def fifo(path: Path) -> None:
    os.mkfifo(path)  # reading it would wait for a writer that never comes


DAMAGED: dict[str, Callable[[Path], None]] = {
    "garbage": text("this is not a game record at all\n"),
    "truncated": text(DIPOLE_GAME + "1. e1-g3 d8-c"),
    "empty": text(""),
    "blank": text("  \n\n"),
    "not UTF-8": lambda path: path.write_bytes(b'[Game "Dipole"]\n\n1. e1-g3 \xff\xfe\n'),
    "wrong game for the variant": text('[Game "Bi-Pod"]\n[Variant "10x10"]\n\n1. e1-g3\n'),
    "illegal move": text(DIPOLE_GAME + "1. e1-g3 d8-c7\n2. e1-a8 *\n"),
    "non-ASCII digits": text(BIPOD_GAME + "3. e\u00b2 o\n"),
    "huge number": text('[Game "Dipole"]\n[Position "8:W:We1=' + "9" * 5000 + ':Bd8=12"]\n'),
    "markup": text('[Game "[/bold]"]\n\n1. e1-g3\n'),
    "a directory": folder,
    "a FIFO": fifo,
}


def same_thing(kept: Path, kind: str, original: bytes) -> bool:
    """The damaged save under its new name, as it was."""
    if kind == "a directory":
        return kept.is_dir() and (kept / "inside.txt").read_text() == "kept too"
    if kind == "a FIFO":
        return stat.S_ISFIFO(kept.lstat().st_mode)
    return kept.read_bytes() == original


def damage(tmp_path: Path, kind: str) -> bytes:
    autosave = tmp_path / "autosave.txt"
    DAMAGED[kind](autosave)
    return autosave.read_bytes() if autosave.is_file() else b""


def set_aside(tmp_path: Path) -> Path:
    kept = list(tmp_path.glob("autosave-unreadable-*.txt"))
    assert len(kept) == 1, f"expected one file set aside, found {kept}"
    return kept[0]


def nothing_filed(tmp_path: Path) -> bool:
    """A damaged file is never filed as a game."""
    piles = [tmp_path / "finished", tmp_path / "unfinished"]
    return not any(pile.exists() and any(pile.iterdir()) for pile in piles)


@pytest.mark.parametrize("kind", list(DAMAGED))
async def test_the_app_starts_on_a_damaged_autosave_and_keeps_it_aside(
    tmp_path: Path, kind: str
) -> None:
    original = damage(tmp_path, kind)
    app = DipoleApp(autosave=Autosave(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)  # started, and asks for a new game
        kept = set_aside(tmp_path)
        assert noticed(app, "the autosave could not be read")
        assert noticed(app, f"kept as {kept}")
    assert same_thing(kept, kind, original)
    assert not os.path.lexists(tmp_path / "autosave.txt")
    assert nothing_filed(tmp_path)


@pytest.mark.parametrize("kind", list(DAMAGED))
async def test_a_new_game_on_a_damaged_autosave_keeps_it_aside_not_as_a_game(
    tmp_path: Path, kind: str
) -> None:
    original = damage(tmp_path, kind)
    app = DipoleApp(new=True, autosave=Autosave(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        kept = set_aside(tmp_path)
        assert noticed(app, f"kept as {kept}")
        assert app.screen is app.screen_stack[0]  # the new game is on, no dialog in the way
    assert same_thing(kept, kind, original)
    assert (tmp_path / "autosave.txt").read_text(encoding="utf-8") == app.session.record_text()
    assert nothing_filed(tmp_path)
