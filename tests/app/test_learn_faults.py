"""Hand-edited lesson and puzzle files gone wrong: each bad file is one line naming it (and the
line at fault), in `learn --list` and at the top of the Learn menu, and the other files' lessons
and puzzles are there all the same. Never a traceback, a hang or a crash."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from app_steps import AppFactory
from textual.widgets import Static

from dipole_tui import learn
from dipole_tui.app.screens.learn_menu import LearnMenu
from dipole_tui.app.screens.learning import LessonScreen
from dipole_tui.cli import main

LESSON = """\
id: test-lesson
game: dipole
kind: lesson
title: Move all three
position: 8:W:We1=3:Bd8=1
task: Move all three.
accept: e1-b4 e1-h4
solution: e1-b4
summary: Done.
"""
PUZZLE = """\
id: test-puzzle
game: dipole
kind: puzzle
title: Win in 1
position: 8:W:Wc3=2:Be5=1
solution: c3xe5
difficulty: 1
"""
# A blocked read fails the test after this many seconds, rather than hang it.
WAIT = 10.0

# A bad file's name, its bytes (None: a FIFO), and what its line says after the file's path.
FAULTS = [
    (
        "bytes.txt",
        LESSON.replace("all three\n", "all thr\xe9e\n", 1).encode("latin-1"),  # line 4
        " is not a text file (line 4 is not UTF-8; expected a file of lessons or puzzles)",
    ),
    (
        "difficulty.txt",
        PUZZLE.replace("difficulty: 1", "difficulty: \N{SUPERSCRIPT TWO}").encode(),
        ":7: difficulty '\N{SUPERSCRIPT TWO}' is not a number 1 to 5",
    ),
    ("fifo.txt", None, " is a pipe (FIFO), not a file of lessons or puzzles"),
    (
        "illegal.txt",
        LESSON.replace("solution: e1-b4", "solution: e1-b4 e1-h4").encode(),
        ":8: solution: e1-h4: ",
    ),
    (
        "taken.txt",  # after the package's own files: it is the one that takes an id again
        LESSON.replace("test-lesson", "dipole-moving").encode(),
        ":1: the id dipole-moving is taken (",
    ),
]
BOM = ("bom.txt", b"\xef\xbb\xbf" + LESSON.replace("test-lesson", "test-bom").encode())


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the lessons' folder, read in place of the package's own."""
    folder = tmp_path / "data"
    shutil.copytree(learn.DATA, folder)
    monkeypatch.setattr(learn, "DATA", folder)
    learn._all.cache_clear()
    yield folder
    learn._all.cache_clear()  # the next test reads the package's own files again


def put(folder: Path, name: str, content: bytes | None) -> Path:
    path = folder / name
    if content is None:
        os.mkfifo(path)  # nobody writes to it: opening it to read would wait for ever
    else:
        path.write_bytes(content)
    learn._all.cache_clear()
    return path


@contextlib.contextmanager
def unblocked(folder: Path) -> Iterator[Callable[[], bool]]:
    """After WAIT seconds, a writer opens and closes every FIFO in `folder`, so that a read
    blocked on one ends (the test then fails on what it says, not by hanging); yields whether
    that was needed."""
    released = threading.Event()

    def release() -> None:
        for path in folder.iterdir():
            with contextlib.suppress(OSError):  # ENXIO: no reader waiting, nothing to release
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                released.set()

    timer = threading.Timer(WAIT, release)
    timer.start()
    try:
        yield released.is_set
    finally:
        timer.cancel()


def learn_list(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str, bool]:
    """`dipole-tui learn --list`: its status, output and errors, and whether it waited on a
    FIFO."""
    with unblocked(folder) as waited:
        status = main(["learn", "--list"])
        out, err = capsys.readouterr()
        return status, out, err, waited()


@pytest.mark.parametrize(("name", "content", "says"), FAULTS, ids=[f[0] for f in FAULTS])
def test_learn_list_says_a_bad_file_in_one_line_and_lists_the_rest(
    data: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes | None, says: str
) -> None:
    good = [item.id for item in learn.items()]
    path = put(data, name, content)
    status, out, err, waited = learn_list(data, capsys)
    assert not waited, "learn --list waited on a FIFO"
    assert status == 2
    assert err.startswith(f"dipole-tui: {path}{says}") and err.count("\n") == 1, err
    assert [line.split("\t")[0] for line in out.splitlines()] == good


def test_learn_list_says_every_bad_file_a_line_each(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = [item.id for item in learn.items()]
    paths = [put(data, name, content) for name, content, _ in FAULTS]
    status, out, err, waited = learn_list(data, capsys)
    assert not waited and status == 2
    lines = err.splitlines()
    expected = sorted(zip(paths, (says for *_, says in FAULTS), strict=True))
    assert len(lines) == len(FAULTS), err
    for line, (path, says) in zip(lines, expected, strict=True):
        assert line.startswith(f"dipole-tui: {path}{says}"), line
    assert [line.split("\t")[0] for line in out.splitlines()] == good


def test_a_file_beginning_with_a_byte_order_mark_is_read(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    put(data, *BOM)
    status, out, err, _ = learn_list(data, capsys)
    assert (status, err) == (0, "")
    assert "test-bom\tdipole\tlesson" in out


def flat(text: str) -> str:
    """Text without its spaces and line breaks: a wrapped line read whole."""
    return "".join(text.split())


async def test_the_learn_menu_says_each_bad_file_and_opens_the_rest(
    data: Path, make_app: AppFactory
) -> None:
    good = learn.items()
    paths = [put(data, name, content) for name, content, _ in FAULTS]
    put(data, *BOM)
    with unblocked(data) as waited:
        app = make_app(learn="")
        async with app.run_test(size=(90, 30)) as pilot:
            await pilot.pause()
            menu = app.screen
            assert isinstance(menu, LearnMenu)
            said = flat(str(menu.query_one("#learn-problems", Static).render()))
            for path, (*_, says) in zip(paths, FAULTS, strict=True):
                assert flat(f"{path}{says}") in said
            ids = [item.id for item in menu.items]
            assert set(ids) == {item.id for item in good} | {"test-bom"}
            await pilot.press("enter")  # the lessons are there to be taken
            await pilot.pause()
            assert isinstance(app.screen, LessonScreen) and app.screen.item == menu.items[0]
        assert not waited(), "the Learn menu waited on a FIFO"
