"""Every file the program reads or writes goes through here: records, the autosave, kept games,
`learned.json`, `adaptive.json`, lesson and puzzle data, the error log, the locks, `-o` outputs.

A player's files are where carelessness or malice meets the program, so the rules are few and
kept in one place:
- reads take regular files only (a FIFO would block, a device never end) up to a size cap, as
  UTF-8 with or without a byte-order mark; JSON with absurd nesting is refused, not a crash;
- writes are atomic (a temporary file beside the target, then a rename) over a regular file or a
  missing path in a folder that exists (a missing folder is an error, as in `cp`); a symbolic
  link is written through to its target (atomically there); a FIFO, a device or a folder is
  refused in one line, so that no write of the app can block its screen; an existing file keeps
  its mode, a new one gets the usual mode under the umask;
- a command's `-o` alone (`write_output`) writes a FIFO or a device in place, and a stream of
  its own (`/dev/stdout` in any spelling, or the file its standard output is open on) through
  that descriptor, never by a rename;
- the settings files (`read_settings`) are regular JSON files of the expected shape, or they are
  set aside under a new name with a notice: never waited on, never replaced unread;
- the log and the locks never follow a link, and the log is rotated by rename, never truncated.

Every refusal is one line naming the file: `UnreadableFile` for reads, an OSError whose
`strerror` is the whole sentence for writes.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from .games.base import shown

KB = 1_000
MB = 1_000_000
# How deep JSON of ours ever nests: anything deeper is no file of ours (and would exhaust
# the parser's recursion).
JSON_DEPTH = 20
LOG_LIMIT = MB  # a log past this is renamed to `<name>.1` and started anew
# A write takes milliseconds: a temporary file this old (seconds) was left by a killed one.
STRAY_AGE = 300
T = TypeVar("T")


class UnreadableFile(ValueError):
    """A file that is not read: the message says which and why, in one line."""


def named(path: Path | str) -> str:
    """A file's name as a message shows it: whole unless absurdly long, control characters
    escaped (a name may hold any byte but NUL and `/`)."""
    return shown(os.fspath(path), 160)


def kind(mode: int) -> str:
    """What a file that is not a regular file is, in a person's words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _size(limit: int) -> str:
    return f"{limit // MB} MB" if limit >= MB else f"{limit // KB} KB"


# -- reading ---------------------------------------------------------------------------------


def read_bytes(path: Path | str, limit: int, expected: str) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. `expected` names what the file
    should be ("a game record") for the message when it is not read."""
    data = b""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(handle, "rb") as stream:
                mode = os.fstat(stream.fileno()).st_mode  # in case it was swapped since the stat
                if stat.S_ISREG(mode):
                    data = stream.read(limit + 1)
    except (OSError, ValueError) as error:  # ValueError: a name with a NUL byte in it
        reason = getattr(error, "strerror", None) or error
        raise UnreadableFile(f"cannot read {named(path)}: {reason}") from None
    if not stat.S_ISREG(mode):
        raise UnreadableFile(f"{named(path)} is {kind(mode)}, not {expected}")
    if len(data) > limit:
        article = expected.split(" ", 1)[-1]
        raise UnreadableFile(
            f"{named(path)} is larger than {_size(limit)}, more than any {article}"
        )
    return data


def read_text(path: Path | str, limit: int, expected: str) -> str:
    """A regular file's text: UTF-8, a byte-order mark dropped (editors on Windows add one)."""
    data = read_bytes(path, limit, expected)
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise UnreadableFile(
            f"{named(path)} is not a text file (line {line} is not UTF-8; expected {expected})"
        ) from None


def read_json(path: Path | str, limit: int, expected: str) -> object:
    """A regular file's JSON, refused in one line when it is not JSON, or nests deeper than any
    file of ours does."""
    text = read_text(path, limit, expected)
    if _nesting(text) > JSON_DEPTH:
        raise UnreadableFile(f"{named(path)} nests deeper than {JSON_DEPTH}, not {expected}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise UnreadableFile(f"{named(path)} is not {expected} ({shown(str(error), 80)})") from None


def _nesting(text: str) -> int:
    """How deep brackets nest in JSON text, strings skipped: checked before parsing, so that no
    input can make the parser recurse without end."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


# -- writing ---------------------------------------------------------------------------------


def write_text(path: Path | str, text: str, mode: int | None = None) -> None:
    """Write `text` to the regular file `path` whole or not at all (see the module's rules): a
    link is written through, anything else but a regular file (a FIFO, a device, a folder) and
    a missing folder are refused, so that a write never blocks nor makes folders where a name
    was mistyped. An OSError whose `strerror` is one sentence says why not. `mode` (0o600 for a
    file of secrets) is the file's mode whatever it was before."""
    given = Path(path)
    target, info = _target(given)
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise _not_a_file(given, info.st_mode)
    _replace(target, text, info, mode)


def write_output(path: Path | str, text: str) -> None:
    """What a command writes to a file named on its command line (`-o`): as `write_text`, but
    a stream of this process (`/dev/stdout`, `/dev/fd/1`, or the very file its standard output
    is open on) is written through its own descriptor, where the shell's `>` or `>>` left it,
    and a FIFO, a terminal or another device in place, as `cp` writes to them (a command, not a
    screen, waits for the reader; Ctrl+C stops it)."""
    given = Path(path)
    descriptor = _own_stream(given)
    if descriptor is not None:
        _write_descriptor(descriptor, text)
        return
    target, info = _target(given)
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISDIR(info.st_mode):
            raise _not_a_file(given, info.st_mode)
        descriptor = os.open(target, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            stream.write(text)
        return
    _replace(target, text, info, None)


def check_output(path: Path | str) -> None:
    """The OSError `write_output` would raise for where `path` leads (a folder, a missing
    folder, one that is not a folder), raised now: a command says so before its work, not
    after minutes of it."""
    given = Path(path)
    if _own_stream(given) is None:
        _, info = _target(given)
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise _not_a_file(given, info.st_mode)


def _target(given: Path) -> tuple[Path, os.stat_result | None]:
    """Where a write to `given` goes (a link's target) and what is there now (None: nothing);
    OSError when its folder is missing or is not one."""
    target = Path(os.path.realpath(given))
    try:
        return target, os.stat(target)
    except FileNotFoundError:
        pass
    except NotADirectoryError:
        raise _not_a_folder(target.parent) from None
    if not target.parent.is_dir():
        if any(part.exists() and not part.is_dir() for part in target.parents):
            raise _not_a_folder(target.parent)
        folder = given.parent if not given.parent.is_dir() else target.parent
        raise FileNotFoundError(errno.ENOENT, f"no folder {named(folder)}")
    return target, None


def _not_a_file(given: Path, mode: int) -> OSError:
    """The refusal of a write to what is not a regular file, in one line."""
    if stat.S_ISDIR(mode):
        return IsADirectoryError(
            errno.EISDIR, f"{named(given)} is a folder; expected the name of a file to write"
        )
    return OSError(errno.EINVAL, f"{named(given)} is {kind(mode)}; save to a regular file")


# A stream of this process by name, in any spelling normpath leaves (`//dev/stdout`): which
# descriptor it is. `/proc/PID/fd` is matched for this process's id only.
_STREAMS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_STREAM = re.compile(r"/(?:dev/fd|proc/(?:self|thread-self|[0-9]{1,9})/fd)/([0-9]{1,9})")


def _own_stream(path: Path) -> int | None:
    """The descriptor `path` names when it is one of this process's streams, or the file its
    standard output is open on (the same device and inode): renaming over that file, or opening
    it again, would write where the shell's other commands do not expect it."""
    text = "/" + os.path.normpath(os.path.abspath(path)).lstrip("/")
    if text in _STREAMS:
        return _STREAMS[text]
    match = _STREAM.fullmatch(text)
    if match is not None and text.split("/")[2] in ("fd", "self", "thread-self", str(os.getpid())):
        return int(match[1])
    try:
        here, out = os.stat(path), os.fstat(1)
    except (OSError, ValueError):
        return None
    return 1 if (here.st_dev, here.st_ino) == (out.st_dev, out.st_ino) else None


def _write_descriptor(descriptor: int, text: str) -> None:
    """All of `text` through an open descriptor, after what Python buffered for it."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not stream.closed:
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
    data = memoryview(text.encode("utf-8"))
    while data:
        data = data[os.write(descriptor, data) :]


def make_folder(folder: Path) -> None:
    """The folder and its parents; a file in the way is named, not 'File exists'."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise _not_a_folder(folder) from None


def _not_a_folder(folder: Path) -> OSError:
    """The error for a path through a file where a folder should be: named, not 'File exists'."""
    for part in (folder, *folder.parents):
        if part.exists() and not part.is_dir():
            return NotADirectoryError(
                errno.ENOTDIR, f"{named(part)} is a file where a folder is expected"
            )
    return NotADirectoryError(errno.ENOTDIR, f"{named(folder)} is not a folder")


_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    with _UMASK_LOCK:  # the umask can only be read by setting it
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def _replace(target: Path, text: str, old: os.stat_result | None, mode: int | None) -> None:
    """A temporary file beside `target` (`.<name>.<random>.tmp`), synced, then renamed over it;
    the folder is synced after, so that a power cut cannot bring the old version back. The new
    file takes `mode`, else the old one's mode (and, where we may, its owner)."""
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            if mode is not None:
                os.fchmod(stream.fileno(), mode)
            elif old is None:
                os.fchmod(stream.fileno(), 0o666 & ~_umask())
            else:
                os.fchmod(stream.fileno(), stat.S_IMODE(old.st_mode))
                if hasattr(os, "fchown") and (old.st_uid, old.st_gid) != (
                    os.geteuid(),
                    os.getegid(),
                ):
                    with contextlib.suppress(OSError):  # only root may give a file away
                        os.fchown(stream.fileno(), old.st_uid, old.st_gid)
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    if os.name == "posix":  # elsewhere a folder cannot be opened to be synced
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        except OSError as error:  # some file systems cannot sync a folder: the file is written
            if error.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
                raise
        finally:
            os.close(folder)


def remove_stray_temporaries(*folders: Path) -> None:
    """Remove the temporary files that writes killed half-way left behind."""
    now = time.time()
    for folder in folders:
        for path in folder.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                info = path.lstat()
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STRAY_AGE:
                    path.unlink()


# -- settings ------------------------------------------------------------------------------


def read_settings(
    path: Path, expected: str, shape: Callable[[object], T], limit: int = MB
) -> tuple[T | None, str]:
    """A settings file of the data folder (`adaptive.json`, `online.json`, `learned.json`):
    its JSON as `shape` takes it (`shape` raises ValueError or TypeError, saying why, for JSON
    not of that shape), and "". None and "" when there is none. Anything else there (not JSON,
    not of the shape, a FIFO, a folder, a device, a link to one) is never opened to wait on nor
    written over: it is set aside under a new name (`set_aside`), and the second of the pair is
    the notice that says so."""
    if not os.path.lexists(path):
        return None, ""
    try:
        return shape(read_json(path, limit, expected)), ""
    except UnreadableFile as error:  # it names the file
        why = str(error)
    except (ValueError, TypeError) as error:
        why = f"{named(path)} is not {expected} ({shown(str(error), 120)})"
    return None, set_aside(path, why)


def write_settings(path: Path, text: str, mode: int | None = None) -> None:
    """Write a settings file (see `read_settings`): its folder made where missing (the data
    folder is ours), then as `write_text`, which writes regular files only."""
    make_folder(path.parent)
    write_text(path, text, mode)


def set_aside(path: Path, why: str) -> str:
    """Move a file of the data folder that cannot be used out of the way, never deleting it:
    renamed to `<name>.damaged-YYYYMMDD-HHMMSS` (`-2`, `-3`... when taken). Returns the notice
    for the player: `why`, and where the file went (or that it could not be moved)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    aside = free_name(path.with_name(f"{path.name}.damaged-{stamp}"))
    try:
        os.rename(path, aside)
    except OSError as error:
        return f"{why}; it could not be set aside ({error.strerror or error}), so it is not used"
    return f"{why}; set aside as {named(aside)}"


def free_name(path: Path) -> Path:
    """`path`, or path-2, path-3... when it is taken (a link to nowhere takes its name too)."""
    free, number = path, 1
    while os.path.lexists(free):
        number += 1
        free = path.with_name(f"{path.name}-{number}")
    return free


# -- the log and the locks ------------------------------------------------------------------

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def append_log(path: Path, entry: str, limit: int = LOG_LIMIT) -> None:
    """Append `entry` to a log that never follows a link; past `limit` the log is renamed to
    `<name>.1` (the one before is dropped) and a new one begun. OSError when it cannot be."""
    make_folder(path.parent)
    with contextlib.suppress(FileNotFoundError):
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            os.replace(path, path.with_name(f"{path.name}.1"))
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o644)
    with os.fdopen(descriptor, "a", encoding="utf-8") as log:
        if not stat.S_ISREG(os.fstat(log.fileno()).st_mode):
            raise OSError(errno.EINVAL, f"{named(path)} is not a regular file; nothing logged")
        log.write(entry)


def lock(path: Path) -> int | None:
    """A descriptor holding a lock on `path` until it is closed (the system lets go of it when
    the process ends, however it ends); None when another process holds it. The lock file is a
    regular file or nothing: never a link (one planted there could make us create or lock
    another file), a FIFO (opened, it could block) nor a folder. OSError, its `strerror` one
    line naming the file, when it cannot be taken."""
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(path).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"the lock {named(path)} is {kind(mode)}, not a file")
    flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
    try:
        descriptor = os.open(path, flags | getattr(os, "O_NOCTTY", 0), 0o644)
    except OSError as error:
        said = f"the lock {named(path)} cannot be taken: {error.strerror or error}"
        raise OSError(error.errno, said) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):  # swapped since the look
            raise OSError(errno.EINVAL, f"the lock {named(path)} is {kind(mode)}, not a file")
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(descriptor)
        if sys.platform == "win32" or isinstance(error, BlockingIOError):
            return None
        raise
    return descriptor
