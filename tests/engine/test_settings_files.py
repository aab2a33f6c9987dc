"""The settings files of the data folder (`adaptive.json`, `online.json`, `learned.json`) and the
autosave's locks (issue 40): regular files, or set aside under a new name with a notice; never
opened to wait on, never replaced unread; a lock that cannot be taken is said, and the app keeps
its game in a file of its own.

A FIFO here is always given a reader that never blocks (opened O_NONBLOCK by the test), so that
code writing into it in place does not hang the test: it fails it."""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import NamedTuple

import pytest
from app_steps import AppFactory, noticed, until

from dipole_tui.adaptive import AdaptiveLevels, rungs
from dipole_tui.app.dialogs.open import OpenScreen
from dipole_tui.control.keeper import Keeper
from dipole_tui.games.dipole import DIPOLE, Move
from dipole_tui.learn import Progress, item_named
from dipole_tui.online.seat import RoomSeat, SeatBook
from dipole_tui.records import read_record_file
from dipole_tui.saves import Autosave
from dipole_tui.session import Session

SEAT = RoomSeat("ws://127.0.0.1:1", "ABCDEF", "s3cr3t", 0, "dipole")


class Kept(NamedTuple):
    """A settings file and its owner: `read` builds the owner on a folder and reads the file
    (the notice it gives back, "" for none), then `write` keeps something in it."""

    name: str
    read: Callable[[Path], tuple[str, Callable[[], object]]]


def adaptive(folder: Path) -> tuple[str, Callable[[], object]]:
    levels = AdaptiveLevels(folder)
    return levels.problem, lambda: levels.after("dipole", True)


def online(folder: Path) -> tuple[str, Callable[[], object]]:
    book = SeatBook(folder)
    book.seats()
    return book.problem, lambda: book.keep(SEAT)


def learned(folder: Path) -> tuple[str, Callable[[], object]]:
    progress = Progress(folder)
    return progress.problem, lambda: progress.finished(item_named("dipole-moving"))


FILES = [
    Kept("adaptive.json", adaptive),
    Kept("online.json", online),
    Kept("learned.json", learned),
]
IDS = [kept.name for kept in FILES]


@contextmanager
def fifo_with_a_reader(path: Path) -> Iterator[None]:
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        yield
    finally:
        os.close(reader)


def set_aside(folder: Path, name: str) -> Path:
    """The one file `name` was set aside as: `<name>.damaged-YYYYMMDD-HHMMSS`."""
    found = [path for path in folder.iterdir() if path.name.startswith(f"{name}.damaged")]
    assert len(found) == 1, found
    assert re.fullmatch(rf"{re.escape(name)}\.damaged-\d{{8}}-\d{{6}}", found[0].name)
    return found[0]


@pytest.mark.parametrize("kept", FILES, ids=IDS)
def test_a_fifo_in_place_of_a_settings_file_is_set_aside_and_never_written(
    tmp_path: Path, kept: Kept
) -> None:
    """It was written in place, which blocked the screen 40-70 s without a reader."""
    path = tmp_path / kept.name
    with fifo_with_a_reader(path):
        problem, write = kept.read(tmp_path)
        write()
        assert stat.S_ISREG(path.lstat().st_mode)  # a file of ours in its place
        aside = set_aside(tmp_path, kept.name)
        assert stat.S_ISFIFO(aside.lstat().st_mode)
    assert f"{path} is a pipe (FIFO)" in problem and f"set aside as {aside}" in problem
    assert "\n" not in problem
    json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("kept", FILES, ids=IDS)
def test_a_folder_in_place_of_a_settings_file_is_set_aside(tmp_path: Path, kept: Kept) -> None:
    path = tmp_path / kept.name
    path.mkdir()
    (path / "mine.txt").write_text("kept")
    problem, write = kept.read(tmp_path)
    write()
    assert path.is_file() and (set_aside(tmp_path, kept.name) / "mine.txt").read_text() == "kept"
    assert "is a folder" in problem


DAMAGED = {
    "adaptive.json": ["{not json", '["dipole"]', '{"dipole": 3}'],
    "online.json": [
        "[{",
        '{"seats": []}',
        # one bad entry among good ones: it crashed Open every time (an unhashable game)
        json.dumps([asdict(SEAT), {**asdict(SEAT), "game": ["dipole"]}]),
        json.dumps([{**asdict(SEAT), "side": 2}]),
        json.dumps([{**asdict(SEAT), "side": True}]),
        json.dumps([{**asdict(SEAT), "room": "X" * 3000}]),
        json.dumps(["ABCDEF"]),
    ],
    "learned.json": ["", '{"done": "abc"}', '{"done": [], "streak": 10000000000}'],
}
CASES = [(kept, text) for kept in FILES for text in DAMAGED[kept.name]]


@pytest.mark.parametrize(
    ("kept", "text"), CASES, ids=[f"{kept.name}-{i}" for i, (kept, _) in enumerate(CASES)]
)
def test_a_damaged_settings_file_is_set_aside_whole_with_a_notice(
    tmp_path: Path, kept: Kept, text: str
) -> None:
    """A hand-damaged `online.json` was replaced at the next keep, losing every seat in it;
    `adaptive.json` too."""
    path = tmp_path / kept.name
    path.write_text(text, encoding="utf-8")
    problem, write = kept.read(tmp_path)
    aside = set_aside(tmp_path, kept.name)
    assert aside.read_text(encoding="utf-8") == text  # every byte kept
    assert not path.exists()
    assert problem.startswith(f"{path} ") and problem.endswith(f"; set aside as {aside}")
    assert "\n" not in problem
    write()
    assert aside.read_text(encoding="utf-8") == text and path.is_file()


def test_a_good_seat_book_reads_as_it_was_kept(tmp_path: Path) -> None:
    book = SeatBook(tmp_path)
    book.keep(SEAT)
    assert SeatBook(tmp_path).seats() == [SEAT] and not book.problem
    assert [path.name for path in tmp_path.iterdir()] == ["online.json"]


def test_the_keeper_says_what_was_set_aside_at_start(tmp_path: Path) -> None:
    (tmp_path / "adaptive.json").write_text("{", encoding="utf-8")
    (tmp_path / "online.json").write_text('[{"room": 1}]', encoding="utf-8")
    keeper = Keeper(Session.new(DIPOLE), Autosave(tmp_path))
    said = [notice.text for notice in keeper.claim()]
    assert len(said) == 2 and all("set aside as" in text for text in said)
    assert "adaptive.json is not" in said[0] and "online.json is not" in said[1]
    assert keeper.adaptive.level("dipole") == rungs("dipole")[0]
    assert keeper.claim() == []  # said once


async def test_open_with_a_bad_seat_entry_sets_the_book_aside_and_opens(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        bad = [asdict(SEAT), {**asdict(SEAT), "room": "GHIJKL", "game": {"dipole": 1}}]
        (tmp_path / "online.json").write_text(json.dumps(bad), encoding="utf-8")
        await pilot.press("o")
        await until(lambda: isinstance(app.screen, OpenScreen))
        assert noticed(app, "online.json is not a book of online seats (entry 2 is not a seat")
        assert set_aside(tmp_path, "online.json").read_text() == json.dumps(bad)


# -- the locks ------------------------------------------------------------------------------


def plant(lock: Path, kind: str) -> None:
    """What stands where the autosave's lock goes: a folder, a link (to a file or to nowhere),
    or a FIFO."""
    if kind == "folder":
        lock.mkdir()
    elif kind == "link":
        (lock.parent / "elsewhere").write_text("not a lock")
        lock.symlink_to(lock.parent / "elsewhere")
    elif kind == "dangling link":
        lock.symlink_to(lock.parent / "nowhere")
    else:
        os.mkfifo(lock)


def game(*moves: str) -> Session[Move]:
    state = DIPOLE.new()
    session = Session(DIPOLE, state)
    for text in moves:
        session.play(DIPOLE.parse_move(text, state))
    return session


@pytest.mark.parametrize("kind", ["folder", "link", "dangling link", "fifo"])
def test_a_lock_that_cannot_be_taken_is_said_and_the_game_kept_apart(
    tmp_path: Path, kind: str
) -> None:
    """It turned locking off: two apps wrote `autosave.txt` and the first one's game was lost."""
    lock = tmp_path / ".autosave.txt.lock"
    plant(lock, kind)
    first, second = Autosave(tmp_path), Autosave(tmp_path)
    said = first.claim()
    what = {"folder": "a folder", "fifo": "a pipe (FIFO)"}.get(kind, "a symbolic link")
    assert said == [
        f"the lock {lock} is {what}, not a file; this app keeps its game in autosave-2.txt"
    ]
    second.claim()
    assert (first.path.name, second.path.name) == ("autosave-2.txt", "autosave-3.txt")
    first.write(game("e1-g3"))
    second.write(game("e1-e3"))
    assert "e1-g3" in read_record_file(first.path) and "e1-e3" in read_record_file(second.path)
    assert os.path.lexists(lock) and not (tmp_path / "nowhere").exists()
    if kind == "link":
        assert (tmp_path / "elsewhere").read_text() == "not a lock"
    first.release()
    second.release()


def test_every_lock_refused_is_said_and_the_autosave_goes_on(tmp_path: Path) -> None:
    """Where no lock can be taken at all, the app still keeps its game (unguarded), and says so."""
    for number in range(1, 30):
        name = "autosave.txt" if number == 1 else f"autosave-{number}.txt"
        (tmp_path / f".{name}.lock").mkdir()
    autosave = Autosave(tmp_path)
    said = autosave.claim()
    assert len(said) == 1 and said[0].endswith("; games in progress here are not kept apart")
    autosave.write(game("e1-g3"))
    assert "e1-g3" in read_record_file(autosave.path)
