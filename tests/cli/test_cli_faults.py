"""The command line under faults, run as a user runs it (a process): special files given as
records, output to a full disk or a closed pipe. Each ends with one line on stderr and status 2,
never a traceback, a hang or a machine out of memory."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from paths import DATA

SAMPLE = DATA / "sample-dipole.txt"
COMMAND = [sys.executable, "-m", "dipole_tui"]
# Long enough for a slow, shared machine; a command that blocks fails the test here, not hangs it.
TIMEOUT = 60


def one_line_error(err: str, expected: str) -> None:
    assert "Traceback" not in err and "Exception" not in err
    assert err.count("\n") == 1 and err.startswith("dipole-tui: "), err
    assert expected in err, err


def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "game.txt"
    os.mkfifo(fifo)  # nobody ever writes to it: opening it to read would wait for ever
    done = subprocess.run(
        [*COMMAND, "replay", str(fifo)], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 2
    one_line_error(done.stderr, f"{fifo} is a pipe (FIFO), not a game record")


def _at_most_a_gigabyte() -> None:
    """Keep a child that reads without end from taking the machine's memory with it."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_an_endless_device_is_refused_not_read() -> None:
    done = subprocess.run(
        [*COMMAND, "replay", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=_at_most_a_gigabyte,
    )
    assert done.returncode == 2
    one_line_error(done.stderr, "/dev/zero is a device, not a game record")


def test_an_empty_record_does_not_replay(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    done = subprocess.run(
        [*COMMAND, "replay", str(empty)], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 2 and done.stdout == ""
    one_line_error(done.stderr, f"{empty}: the record is empty: no game in it")


@pytest.mark.parametrize("args", [["replay", str(SAMPLE)], ["--help"], ["--version"]])
def test_output_to_a_full_disk_is_one_line_and_status_2(args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*COMMAND, *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=TIMEOUT,
        )
    assert done.returncode == 2
    one_line_error(done.stderr, "cannot write the output: No space left on device")


def test_output_to_a_closed_pipe_is_one_line_and_status_2() -> None:
    # As `dipole-tui perft 3 | head -c1`, with the reader gone before the first line is written.
    child = subprocess.Popen(
        [*COMMAND, "perft", "3"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    child.stdout.close()
    _, err = child.communicate(timeout=TIMEOUT)
    assert child.returncode == 2
    one_line_error(err, "cannot write the output: Broken pipe")


def test_a_closed_standard_output_is_one_line_and_status_2() -> None:
    # As `dipole-tui replay game.txt >&-`: Python then has no sys.stdout and print() drops all.
    done = subprocess.run(
        [*COMMAND, "replay", str(SAMPLE)],
        stderr=subprocess.PIPE,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 2
    one_line_error(done.stderr, "cannot write the output: standard output is closed")


def test_moves_reads_no_endless_line_from_stdin() -> None:
    with open("/dev/zero", "rb") as zero:  # as `dipole-tui moves < /dev/zero`: no line break ever
        done = subprocess.run(
            [*COMMAND, "moves"],
            stdin=zero,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            preexec_fn=_at_most_a_gigabyte,
        )
    assert done.returncode == 2
    one_line_error(done.stderr, "line 1: no line break in 1,000,000 characters")


def test_moves_with_a_closed_stdin_is_one_line_and_status_2() -> None:
    done = subprocess.run(
        [*COMMAND, "moves"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        preexec_fn=lambda: os.close(0),  # as `dipole-tui moves <&-`
    )
    assert done.returncode == 2
    one_line_error(done.stderr, "no POSITION given, and standard input is closed")
