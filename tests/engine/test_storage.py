"""The one module that reads and writes files: what it does with links, pipes, devices, folders,
modes, huge or hostile content, and the log and locks that must never follow a link.

Never aimed at a real device: a device node of the test's own (or a FIFO) stands in for one."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from dipole_tui import storage
from dipole_tui.adaptive import AdaptiveLevels
from dipole_tui.cli import analyse as analyse_command
from dipole_tui.cli import main
from dipole_tui.learn import Progress
from dipole_tui.saves import Autosave
from dipole_tui.workers.protocol import MoveRequest
from dipole_tui.workers.serve import log_failure


def read_fifo_in_background(path: Path) -> tuple[threading.Thread, list[bytes]]:
    got: list[bytes] = []

    def read() -> None:
        with open(path, "rb") as stream:
            got.append(stream.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader, got


# -- writes ---------------------------------------------------------------------------------


def test_a_link_is_written_through_to_its_target_atomically(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    storage.write_text(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.txt", "real.txt"]


def test_a_dangling_link_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.txt"
    link.symlink_to(tmp_path / "missing.txt")
    storage.write_text(link, "new")
    assert link.is_symlink() and (tmp_path / "missing.txt").read_text() == "new"


def test_a_commands_output_to_a_fifo_is_written_in_place(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader, got = read_fifo_in_background(fifo)
    storage.write_output(fifo, "through the pipe")
    reader.join(5)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_commands_output_to_a_device_is_written_in_place_not_replaced(tmp_path: Path) -> None:
    """A node of our own for the null device (as root); where one cannot be made, a FIFO."""
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        kind = stat.S_ISCHR
    except PermissionError:
        os.mkfifo(device)
        kind = stat.S_ISFIFO
        read_fifo_in_background(device)
    link = tmp_path / "link-to-null"
    link.symlink_to(device)
    storage.write_output(device, "gone")
    storage.write_output(link, "gone too")
    assert kind(device.lstat().st_mode) and link.is_symlink()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link-to-null", "null"]


def test_a_folder_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError) as caught:
        storage.write_text(tmp_path, "text")
    assert caught.value.strerror == (
        f"{tmp_path} is a folder; expected the name of a file to write"
    )


def test_an_existing_file_keeps_its_mode_and_a_new_one_follows_the_umask(tmp_path: Path) -> None:
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o640)
    storage.write_text(kept, "new")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640
    mask = os.umask(0o027)
    try:
        storage.write_text(tmp_path / "new.txt", "new")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_a_file_where_a_folder_should_be_is_named(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder")
    with pytest.raises(NotADirectoryError) as caught:
        storage.write_text(data / "finished" / "game.txt", "text")
    assert caught.value.strerror == f"{data} is a file where a folder is expected"


def test_a_data_folder_that_is_a_file_says_so(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder")
    autosave = Autosave(data)
    notices = autosave.claim()
    assert notices == [f"{data} is a file where a folder is expected"]


# -- reads ----------------------------------------------------------------------------------


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "adaptive.json"
    os.mkfifo(fifo)
    with pytest.raises(storage.UnreadableFile, match=r"is a pipe \(FIFO\), not a thing$"):
        storage.read_text(fifo, 100, "a thing")


def test_a_file_swapped_for_a_fifo_after_the_look_is_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the look (a regular file) and the open, a FIFO put in its place: opened without
    blocking (O_NONBLOCK), seen for what it is, and refused."""
    fifo = tmp_path / "swapped.json"
    os.mkfifo(fifo)
    regular, look = Path(__file__).stat(), os.stat

    def stale(path: object, *args: object, **kwargs: object) -> os.stat_result:
        return regular if path == fifo else look(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stale)
    with pytest.raises(storage.UnreadableFile, match=r"is a pipe \(FIFO\), not a thing$"):
        storage.read_bytes(fifo, storage.MB, "a thing")


def test_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "learned.json"
    link.symlink_to("/dev/zero")  # only stat()ed: never opened
    with pytest.raises(storage.UnreadableFile, match=r"is a device, not a progress file$"):
        storage.read_json(link, storage.MB, "a progress file")


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert storage.read_json(path, 100, "a thing") == {"a": 1}


def test_text_that_is_not_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.txt"
    path.write_bytes(b"one\ntwo\nth\xe9\n")
    with pytest.raises(storage.UnreadableFile, match=r"latin\.txt is not a text file \(line 3 "):
        storage.read_text(path, 100, "a thing")


def test_json_nested_without_end_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(storage.UnreadableFile, match=r"nests deeper than 20, not a thing$"):
        storage.read_json(path, storage.MB, "a thing")
    strings = tmp_path / "strings.json"
    strings.write_text(json.dumps({"a": "[[[[" * 100}))  # brackets in strings do not count
    assert storage.read_json(strings, storage.MB, "a thing") == {"a": "[[[[" * 100}


def test_the_adaptive_levels_survive_hostile_files(tmp_path: Path) -> None:
    """Deep nesting was a RecursionError at every start; a FIFO hung the app; a link to
    /dev/zero exhausted memory. Each is now set aside, and every game starts at its first
    rung."""
    path = tmp_path / AdaptiveLevels.FILE
    for make in (
        lambda: path.write_text("[" * 100_000 + "]" * 100_000),
        lambda: os.mkfifo(path),
        lambda: path.symlink_to("/dev/zero"),
    ):
        make()
        levels = AdaptiveLevels(tmp_path)
        assert levels.level("dipole") == "beginner" and "set aside as" in levels.problem
        assert not os.path.lexists(path)
    assert os.path.exists("/dev/zero")  # the link was moved, not what it points to


def test_a_progress_file_that_is_a_fifo_is_set_aside_not_read(tmp_path: Path) -> None:
    path = tmp_path / Progress.FILE
    os.mkfifo(path)
    progress = Progress(tmp_path)
    assert progress.done == set() and "is a pipe (FIFO)" in progress.problem
    [aside] = tmp_path.glob("learned.json.damaged-*")
    assert not path.exists() and stat.S_ISFIFO(aside.lstat().st_mode)


# -- the log and the locks ------------------------------------------------------------------


def test_the_log_never_follows_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("x" * 420_000)
    log = tmp_path / "data" / "bot-errors.log"
    log.parent.mkdir()
    log.symlink_to(victim)
    with pytest.raises(OSError):
        storage.append_log(log, "an entry\n", limit=128_000)
    request = MoveRequest("dipole", "1. e1-g3", "hard", 1, None)
    log_failure(log, request)  # the app's path: no log, and no harm
    assert victim.read_text() == "x" * 420_000


def test_the_log_is_rotated_by_rename_never_truncated(tmp_path: Path) -> None:
    log = tmp_path / "bot-errors.log"
    log.write_text("old entries\n" * 100)
    storage.append_log(log, "new entry\n", limit=1_000)
    assert log.read_text() == "new entry\n"
    assert (tmp_path / "bot-errors.log.1").read_text() == "old entries\n" * 100
    storage.append_log(log, "another\n", limit=1_000)
    assert log.read_text() == "new entry\nanother\n"


def test_a_lock_never_follows_a_link(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    lock = tmp_path / ".autosave.txt.lock"
    lock.symlink_to(target)
    with pytest.raises(OSError):
        storage.lock(lock)
    assert not target.exists()


# -- `analyse -o`, as a user types it -------------------------------------------------------

TWO_PLIES = '[Game "Dipole"]\n\n1. e1-g3 d8-c7\n'


def analyse_to(tmp_path: Path, output: Path, capsys: pytest.CaptureFixture[str]) -> int:
    record = tmp_path / "game.txt"
    record.write_text(TWO_PLIES)
    return main(["analyse", str(record), "--movetime", "0.01", "-o", str(output)])


def test_analyse_writes_through_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "analysed.txt"
    target.write_text("old")
    target.chmod(0o644)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert analyse_to(tmp_path, link, capsys) == 0
    assert link.is_symlink() and "1. e1-g3" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_analyse_writes_into_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    reader, got = read_fifo_in_background(fifo)
    assert analyse_to(tmp_path, fifo, capsys) == 0
    reader.join(5)
    assert b"1. e1-g3" in got[0] and stat.S_ISFIFO(fifo.lstat().st_mode)


def test_analyse_to_a_folder_is_refused_before_analysing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyse_command, "analyse", None)
    assert analyse_to(tmp_path, tmp_path, capsys) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is a folder; expected the name of a file" in error
