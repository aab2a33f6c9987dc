"""Where a game is written when the player names the file (issue 40): the app's Save refuses a
FIFO or a device in one line (writing one would block the screen until a reader came); `-o`
writes a FIFO or a device in place, and its own standard output, in any spelling, through that
very descriptor, never by reopening it nor by a rename over the file behind it; a missing
folder is an error, as in `cp`, for both.

A FIFO is given a reader that never blocks (opened O_NONBLOCK by the test), so that code that
writes into it does not hang the test: it fails it."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from paths import ROOT

from dipole_tui import storage
from dipole_tui.cli import analyse as analyse_command
from dipole_tui.cli import main
from dipole_tui.control.keeper import Keeper
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.saves import Autosave
from dipole_tui.session import Session

ROOT = ROOT
TWO_PLIES = '[Game "Dipole"]\n\n1. e1-g3 d8-c7\n'


def keeper(folder: Path) -> Keeper:
    state = DIPOLE.new()
    session = Session(DIPOLE, state)
    session.play(DIPOLE.parse_move("e1-g3", state))
    kept = Keeper(session, Autosave(folder / "data"))
    kept.claim()
    return kept


@contextmanager
def fifo_with_a_reader(path: Path) -> Iterator[int]:
    os.mkfifo(path)
    reader = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        yield reader
    finally:
        os.close(reader)


# -- the app's Save -------------------------------------------------------------------------


def test_save_as_to_a_fifo_is_refused_in_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    with fifo_with_a_reader(fifo) as reader:
        said = keeper(tmp_path).save_as(fifo)
        assert os.read(reader, 100) == b""  # nothing was written into it
    assert said.severity == "error"
    assert said.text == f"could not save {fifo}: {fifo} is a pipe (FIFO); save to a regular file"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_save_as_to_a_device_is_refused_in_one_line(tmp_path: Path) -> None:
    """A node of the test's own for the null device (as root); a link to /dev/null elsewhere."""
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        device.symlink_to("/dev/null")
    said = keeper(tmp_path).save_as(device)
    assert said.text.endswith(f"{device} is a device; save to a regular file")
    assert stat.S_ISCHR(device.stat().st_mode)


def test_save_as_into_a_missing_folder_is_an_error_and_makes_none(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c.txt"
    said = keeper(tmp_path).save_as(target)
    assert said.text == f"could not save {target}: no folder {tmp_path / 'a' / 'b'}"
    assert not (tmp_path / "a").exists()


def test_save_as_in_the_saved_folder_makes_it_when_first_used(tmp_path: Path) -> None:
    kept = keeper(tmp_path)
    target = kept.autosave.saved_folder / "game.txt"
    assert kept.save_as(target).text == f"Saved to {target}"
    assert "1. e1-g3" in target.read_text(encoding="utf-8")


def test_a_write_never_makes_folders(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as caught:
        storage.write_text(tmp_path / "missing" / "x.txt", "text")
    assert caught.value.strerror == f"no folder {tmp_path / 'missing'}"
    assert list(tmp_path.iterdir()) == []


# -- `-o` -----------------------------------------------------------------------------------


def test_analyse_into_a_missing_folder_says_so_as_cp_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "g.txt"
    record.write_text(TWO_PLIES)
    target = Path("a") / "b" / "c.txt"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(analyse_command, "analyse", None)  # said before any analysis
    assert main(["analyse", str(record), "--movetime", "0.01", "-o", str(target)]) == 2
    assert capsys.readouterr().err == "dipole-tui: cannot write a/b/c.txt: no folder a/b\n"
    assert not (tmp_path / "a").exists()


@contextmanager
def standard_output(path: Path, append: bool) -> Iterator[None]:
    """Descriptor 1 open on `path` as the shell's `>` (or `>>`) opens it, for the block."""
    saved = os.dup(1)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    opened = os.open(path, flags, 0o644)
    sys.stdout.flush()
    os.dup2(opened, 1)
    os.close(opened)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


SPELLINGS = [
    "/dev/stdout",
    "//dev/stdout",
    "/dev/./stdout",
    "/dev/../dev/stdout",
    "/dev/fd/1",
    "/dev//fd/1",
    "/proc/self/fd/1",
    "/proc/PID/fd/1",  # this process's own id
    "OUT",  # the very file standard output is open on
]


@pytest.mark.parametrize("append", [False, True], ids=[">", ">>"])
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_output_to_its_own_standard_output_goes_through_that_descriptor(
    tmp_path: Path, spelling: str, append: bool
) -> None:
    """`{ echo A; dipole-tui analyse g.txt -o /dev/stdout; echo B; } > f` wrote B over the
    record (/dev/stdout was opened again, at its own offset); `-o //dev/stdout >> log` renamed a
    new file over `log`."""
    out = tmp_path / "out.txt"
    out.write_text("before\n" if append else "")
    inode = out.stat().st_ino
    with standard_output(out, append):
        os.write(1, b"A\n")
        named = str(out) if spelling == "OUT" else spelling.replace("PID", str(os.getpid()))
        storage.write_output(named, "the record\n")
        os.write(1, b"B\n")
    before = "before\n" if append else ""
    assert out.read_text() == f"{before}A\nthe record\nB\n"
    assert out.stat().st_ino == inode


def test_output_to_its_own_standard_output_on_a_pipe(tmp_path: Path) -> None:
    reading, writing = os.pipe()
    saved = os.dup(1)
    os.dup2(writing, 1)
    try:
        storage.write_output("/dev/stdout", "through the pipe\n")
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(writing)
    with os.fdopen(reading, "rb") as stream:
        assert stream.read() == b"through the pipe\n"


def test_the_shell_line_of_the_issue(tmp_path: Path) -> None:
    record = tmp_path / "g.txt"
    record.write_text(TWO_PLIES)
    out, log = tmp_path / "f", tmp_path / "log"
    log.write_text("LOG\n")
    inode = log.stat().st_ino
    command = f"{sys.executable} -m dipole_tui analyse {record} --movetime 0.01"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shell = f"{{ echo A; {command} -o /dev/stdout; echo B; }} > {out}; "
    shell += f"{command} -o //dev/stdout >> {log}"
    subprocess.run(
        ["sh", "-c", shell], check=True, env=env, cwd=tmp_path, stderr=subprocess.DEVNULL
    )
    written = out.read_text()
    assert written.startswith('A\n[Game "Dipole"]') and written.endswith("\n*\nB\n")
    assert "1. e1-g3 {" in written
    kept = log.read_text()
    assert kept.startswith('LOG\n[Game "Dipole"]') and log.stat().st_ino == inode
