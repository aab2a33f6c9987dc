"""The autosave under faults: a damaged save never stops the app, two instances on one data
folder never lose a game, and a killed write leaves nothing behind for long."""

from __future__ import annotations

import errno
import multiprocessing
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.synchronize import Event
from pathlib import Path

import pytest
from app_steps import AppFactory, noticed, type_move

from dipole_tui import storage
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.saves import Autosave

SIZE = (100, 30)

DIPOLE_GAME = '[Game "Dipole"]\n[Variant "8x8"]\n[White "human"]\n[Black "human"]\n\n'
BIPOD_GAME = '[Game "Bi-Pod"]\n[Variant "multi"]\n\n1. e13f2 su3\n2. a3c3 adopt\n'


def text(content: str) -> Callable[[Path], object]:
    return lambda path: path.write_bytes(content.encode("utf-8"))


def folder(path: Path) -> None:
    path.mkdir()
    (path / "inside.txt").write_text("kept too")


def fifo(path: Path) -> None:
    os.mkfifo(path)  # reading it would wait for a writer that never comes


DAMAGED: dict[str, Callable[[Path], object]] = {  # each damages the file at a path
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
    make_app: AppFactory, tmp_path: Path, kind: str
) -> None:
    original = damage(tmp_path, kind)
    app = make_app(new=False)
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
    make_app: AppFactory, tmp_path: Path, kind: str
) -> None:
    original = damage(tmp_path, kind)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        kept = set_aside(tmp_path)
        assert noticed(app, f"kept as {kept}")
        assert app.screen is app.screen_stack[0]  # the new game is on, no dialog in the way
    assert same_thing(kept, kind, original)
    assert (tmp_path / "autosave.txt").read_text(encoding="utf-8") == app.session.record_text()
    assert nothing_filed(tmp_path)


# -- two apps on one data folder -----------------------------------------------------------------


async def test_two_apps_on_one_data_folder_both_keep_their_games(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """A plays; B starts alongside and begins a new game from the dialog; both play on. B must
    not shelve A's game, A must not overwrite B's: afterwards one is offered, the other filed."""
    first = make_app()
    async with first.run_test(size=SIZE) as one:
        await type_move(one, "e1-g3")
        second = make_app(new=False)
        async with second.run_test(size=SIZE) as two:
            await two.pause()
            assert noticed(second, "Another dipole-tui is playing a game in progress")
            assert isinstance(second.screen, NewGameScreen)  # A's game is not offered to B
            await two.click("#start")
            await two.pause()
            await type_move(two, "e1-h4")
            await type_move(one, "d8-c7")  # A plays on: B's game stays
            await type_move(two, "d8-b6")
            a_record, b_record = first.session.record_text(), second.session.record_text()
            assert first.autosave.path != second.autosave.path
            assert first.autosave.path.read_text(encoding="utf-8") == a_record
            assert second.autosave.path.read_text(encoding="utf-8") == b_record
    assert "1. e1-g3 d8-c7" in a_record and "1. e1-h4 d8-b6" in b_record
    assert not (tmp_path / "unfinished").exists()  # nothing was shelved while both played

    third = make_app(new=False)
    async with third.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(third.screen, ChoiceScreen)  # one game is offered...
        await pilot.press("enter")
        await pilot.pause()
        resumed = third.session.record_text()
        filed = list((tmp_path / "unfinished").glob("*.txt"))  # ...the other is kept
        assert len(filed) == 1 and noticed(third, f"kept as {filed[0].relative_to(tmp_path)}")
    games = {resumed.split("\n\n")[1], filed[0].read_text(encoding="utf-8").split("\n\n")[1]}
    assert games == {a_record.split("\n\n")[1], b_record.split("\n\n")[1]}


HOLDER = """
import sys
from pathlib import Path
from dipole_tui.saves import Autosave
autosave = Autosave(Path(sys.argv[1]))
autosave.claim()
print(autosave.path.name, flush=True)
sys.stdin.read()  # holds its game until killed
"""


def test_an_app_in_another_process_keeps_its_game_file_until_it_ends(tmp_path: Path) -> None:
    """The lock is the operating system's: another process respects it, and it goes with the
    process however that ends (here SIGKILL, which no code of the app sees)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "autosave.txt"
        here = Autosave(tmp_path)
        notices = here.claim()
        assert here.path.name == "autosave-2.txt"
        assert notices and "Another dipole-tui" in notices[0]
        here.release()
    finally:
        holder.kill()
        holder.wait()
    after = Autosave(tmp_path)
    assert after.claim() == []
    assert after.path.name == "autosave.txt"
    after.release()


# -- killed writes, power cuts -------------------------------------------------------------------


def test_temporaries_left_by_killed_writes_are_removed_at_start_when_old(tmp_path: Path) -> None:
    hour_ago = time.time() - 3600
    old = [
        tmp_path / ".autosave.txt.k2j4h1.tmp",
        tmp_path / "finished" / ".dipole-20261123-123456.txt.x8a0f.tmp",
        tmp_path / "unfinished" / ".game-20261123-123456.txt.3jd9q.tmp",
    ]
    fresh = tmp_path / ".autosave.txt.w9e7r2.tmp"  # a write under way in another app
    other = tmp_path / ".notes.txt"  # not a temporary of ours
    for path in [*old, fresh, other]:
        path.parent.mkdir(exist_ok=True)
        path.write_text("half a game")
    for path in [*old, other]:
        os.utime(path, (hour_ago, hour_ago))
    autosave = Autosave(tmp_path)
    autosave.claim()
    autosave.release()
    assert [path for path in old if path.exists()] == []
    assert fresh.exists() and other.exists()


def test_write_atomically_syncs_the_folder_after_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "autosave.txt"
    target.write_text("the previous version")
    synced: list[tuple[str, str]] = []  # what was synced, and what the target held then
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        kind = "folder" if stat.S_ISDIR(os.fstat(descriptor).st_mode) else "file"
        synced.append((kind, target.read_text()))
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)  # records calls os.fsync
    storage.write_text(target, "the new version")
    assert synced == [("file", "the previous version"), ("folder", "the new version")]


def test_a_folder_that_cannot_be_synced_does_not_fail_the_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Some file systems refuse to sync a folder (EINVAL): the file is written all the same."""
    real_fsync = os.fsync

    def fsync(descriptor: int) -> None:
        if stat.S_ISDIR(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "Invalid argument")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)  # records calls os.fsync
    storage.write_text(tmp_path / "autosave.txt", "the new version")
    assert (tmp_path / "autosave.txt").read_text() == "the new version"


def test_apps_started_one_after_the_other_use_one_file(tmp_path: Path) -> None:
    for _ in range(3):
        autosave = Autosave(tmp_path)
        assert autosave.claim() == []
        assert autosave.path == tmp_path / "autosave.txt"
        autosave.release()
    assert sorted(path.name for path in tmp_path.iterdir()) == [".autosave.txt.lock"]


def test_a_fifo_set_aside_is_listed_with_its_reason_without_reading_it(tmp_path: Path) -> None:
    fifo(tmp_path / "autosave-unreadable-20261123-123456.txt")
    (tmp_path / "unfinished").mkdir()
    fifo(tmp_path / "unfinished" / "game-20261123-123456.txt")
    games = Autosave(tmp_path).saved_games()
    assert len(games) == 2
    assert all(game.header is None and "is a pipe (FIFO)" in game.problem for game in games)


def serve(running: Event, done: Event) -> None:
    running.set()
    done.wait()


def test_a_bots_worker_forked_by_the_app_does_not_keep_its_game_file(tmp_path: Path) -> None:
    """The bots' process is forked from the app on Linux: it must not hold the app's lock after
    the app lets it go (or has ended), or the next app would think the game still played."""
    autosave = Autosave(tmp_path)
    autosave.claim()
    context = multiprocessing.get_context("fork")
    running, done = context.Event(), context.Event()
    worker = context.Process(target=serve, args=(running, done))
    worker.start()
    running.wait()  # the child is past the fork's hooks and at its work, as a bots' worker is
    try:
        beside = Autosave(tmp_path)
        assert beside.claim() != []  # the app's lock holds while it runs: the child's went
        assert beside.path == tmp_path / "autosave-2.txt"
        beside.release()
        autosave.release()
        after = Autosave(tmp_path)
        assert after.claim() == []
        assert after.path == tmp_path / "autosave.txt"
        after.release()
    finally:
        done.set()
        worker.join()
