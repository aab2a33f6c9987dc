"""Every file the program reads or writes goes through here: records, the autosave, kept games,
`learned.json`, `adaptive.json`, lesson and puzzle data, the error log, the locks, `-o` outputs.

A player's files are where carelessness or malice meets the program, so the rules are few and
kept in one place:
- reads take regular files only (a FIFO would block, a device never end) up to a size cap, as
  UTF-8 with or without a byte-order mark; JSON with absurd nesting is refused, not a crash;
- writes are atomic (a temporary file beside the target, then a rename) over a regular file or a
  missing path only; a symbolic link is written through to its target (atomically there); a
  FIFO, a device or `/dev/stdout` is written in place; a folder is refused; an existing file
  keeps its mode, a new one gets the usual mode under the umask;
- the log and the locks never follow a link, and the log is rotated by rename, never truncated.

Every refusal is one line naming the file: `UnreadableFile` for reads, an OSError whose
`strerror` is the whole sentence for writes.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import stat
import sys
import tempfile
import threading
import time
from pathlib import Path

from .games.base import shown

KB = 1_000
MB = 1_000_000
# How deep JSON of ours ever nests: anything deeper is no file of ours (and would exhaust
# the parser's recursion).
JSON_DEPTH = 20
LOG_LIMIT = MB  # a log past this is renamed to `<name>.1` and started anew
# A write takes milliseconds: a temporary file this old (seconds) was left by a killed one.
STRAY_AGE = 300


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
    """Write `text` to `path` whole or not at all (see the module's rules). An OSError whose
    `strerror` is one sentence says why not. `mode` (0o600 for a file of secrets) is the
    file's mode whatever it was before."""
    given = Path(path)
    target = Path(os.path.realpath(given))  # a link is written through to its target
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except NotADirectoryError:
        raise _not_a_folder(target) from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(
            errno.EISDIR, f"{named(given)} is a folder; expected the name of a file to write"
        )
    if _a_stream(given):  # appended: what the shell opened it with, `>` or `>>`, decides
        _write_in_place(given, text, os.O_APPEND)
    elif info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(target, text, 0)
    else:
        make_folder(target.parent)
        _replace(target, text, info, mode)


def _a_stream(path: Path) -> bool:
    """`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`: a stream of this process, whatever it is
    open on, written in place (renaming over the file behind it would leave the stream)."""
    text = os.path.abspath(path)
    return text.startswith(("/dev/std", "/dev/fd/", "/proc/"))


def _write_in_place(path: Path, text: str, flags: int) -> None:
    descriptor = os.open(path, os.O_WRONLY | flags | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
        stream.write(text)


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
    the process ends, however it ends); None when another process holds it. The lock file is
    never a link: one planted there could make us create or lock another file."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, f"{named(path)} is not a regular file")
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
