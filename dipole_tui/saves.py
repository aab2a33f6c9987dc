"""The game's files in the data folder: the autosave of the game in progress, its lock, and the
games kept after it (finished, unfinished, set aside), as the app and the Open dialog see them.

Every byte goes through `storage` (its file rules: atomic writes, links, devices, caps); this
module decides which game goes to which file, and never writes a record that would not read back
(`Session.checked_record`).
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from . import storage
from .games.base import GameError, shown
from .records import Header, RecordError, read_header, read_record_file
from .session import Session

DATA_DIR_VARIABLE = "DIPOLE_TUI_DATA_DIR"  # tests and scripts point the app's files elsewhere
# Set by `dipole-tui web` for each tab: a visitor's Save and Open stay in that visitor's folder.
CONFINED_VARIABLE = "DIPOLE_TUI_CONFINED"
MOST_REFUSED = 8  # locks that cannot be taken before the autosave goes unguarded (read-only)
TRASH = "trash"  # the data folder's: a game deleted in Open waits here, unlisted, until emptied
NAME_LIMIT = 60  # characters in a kept game's name: at 4 bytes each, under any system's 255


@dataclass(eq=False)
class SavedGame:
    """A game kept in the data folder, as the Open dialog lists it. The folder is listed from
    its files' names and dates alone; a file's header is read when first asked for (`header`,
    `problem`, `read`), so ten thousand games list at once and the dialog reads only the rows it
    shows. Two threads asking at once is harmless: both read the same file, one answer is kept."""

    folder: Path
    name: str  # the file's; its path is made only when asked for (10,000 take 50 ms)
    kept: str  # which pile: "finished", "unfinished" or "set aside" (an unreadable autosave)
    modified: datetime
    _header: tuple[Header | None, str] | None = field(default=None, init=False, repr=False)

    @property
    def path(self) -> Path:
        return self.folder / self.name

    @property
    def is_read(self) -> bool:
        return self._header is not None

    def read(self) -> tuple[Header | None, str]:
        """The header and "", or None and why the file is damaged, in one line; read once."""
        if self._header is None:
            self._header = _saved_game(self.path)
        return self._header

    @property
    def header(self) -> Header | None:
        """None when the file is damaged."""
        return self.read()[0]

    @property
    def problem(self) -> str:
        """Why the file is damaged; "" when it is not."""
        return self.read()[1]

    def renamed(self, name: str) -> SavedGame:
        """This game under another name in its folder, never over another file; `.txt` is added
        when missing, since Open lists `.txt` files only. ValueError or OSError says why not."""
        name = name.strip()
        if name and not name.endswith(".txt"):
            name += ".txt"
        if name == self.name:
            return self
        problem = name_problem(name)
        if problem:
            raise ValueError(problem)
        _move(self.path, self.folder / name)
        renamed = SavedGame(self.folder, name, self.kept, self.modified)
        renamed._header = self._header
        return renamed

    def discard(self, data: Path) -> Path:
        """Move this game into the trash of the data folder `data`, at the same place there
        (trash/finished/...): one key deletes it, so it is never lost at once. Where it went."""
        place = self.path.relative_to(data)
        folder = data / TRASH / place.parent
        storage.make_folder(folder)
        trashed = _free_name(folder, place.name.removesuffix(".txt"))
        _move(self.path, trashed)
        return trashed

    def restore(self, trashed: Path) -> None:
        """Put the game `discard` moved to `trashed` back under its own name."""
        _move(trashed, self.path)


def name_problem(name: str) -> str:
    """Why `name` cannot name a kept game's file, in one line ("" when it can): a name in the
    game's folder, not a path, nor a hidden file, nor one a terminal shows escaped."""
    if not name:
        return "the name is empty"
    if "/" in name or "\\" in name:
        return "a name cannot hold / or \\: the game stays in its folder"
    if name.startswith("."):
        return "a name cannot begin with a dot: the file would be hidden"
    if len(name) > NAME_LIMIT:
        return f"the name is longer than {NAME_LIMIT} characters"
    if shown(name, NAME_LIMIT) != name:
        return f"a name cannot hold control characters ({shown(name, NAME_LIMIT)})"
    return ""


def _move(source: Path, target: Path) -> None:
    """Give a file a name nothing has, in one step: a hard link made there (refused when the
    name is taken, however late), then the old name removed. Where no hard link can be made
    (FAT, some network file systems), a rename once the name is seen to be free."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError as error:
        if not isinstance(error, FileExistsError) and not os.path.lexists(target):
            os.rename(source, target)
            return
        raise FileExistsError(errno.EEXIST, f"{shown(target.name, 80)} is there already") from None
    try:
        os.unlink(source)
    except OSError:
        target.unlink(missing_ok=True)  # not moved: the file keeps its one name
        raise


def data_dir() -> Path:
    """Where the autosave and finished games live: the user data directory, unless overridden."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("dipole-tui", appauthor=False))


def refused(path: Path) -> str:
    """Why the app may not read or write a file a player named ("" when it may): a web tab's
    (`CONFINED_VARIABLE` set) only under its own data folder, links and `..` followed, since
    whoever opened the page is not this machine's user."""
    if not os.environ.get(CONFINED_VARIABLE):
        return ""
    folder = data_dir().resolve()
    with contextlib.suppress(OSError, RuntimeError):  # RuntimeError: a loop of links
        if path.resolve().is_relative_to(folder):
            return ""
    where = shown(str(folder), 200)
    return f"{shown(str(path), 200)} is outside this tab's folder; a tab saves and opens in {where}"


class Autosave:
    """The game in progress, written after every change so that nothing is ever lost.

    Each running app keeps its game in a file of its own: `autosave.txt`, or `autosave-2.txt`
    and on when other apps hold those. It holds a lock beside the file (`.autosave.txt.lock`)
    while it runs, so another app never writes, shelves or offers that game."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or data_dir()
        self.path = self.folder / "autosave.txt"
        self._lock: int | None = None  # the descriptor whose lock keeps `path` this app's
        # A finished game that could not be filed (a full disk): kept here, and in the
        # autosave file where it could be written, until filing succeeds.
        self.pending: Session[Any] | None = None
        self.problem = ""  # why the game is not safe on disk now; "" when it is

    def claim(self) -> list[str]:
        """Take the first game-in-progress file no running app holds, preferring one with a game
        in it (the one to offer); the other free ones are games left by apps that ran alongside,
        filed under unfinished/. A lock that cannot be taken (a folder, a link or a FIFO in its
        place) is passed over, and said: the app keeps its game in the next file whose lock it
        can take, never in one another app may be writing. Returns what to tell the player."""
        self.release()
        notices: list[str] = []
        try:
            storage.make_folder(self.folder)
        except OSError as error:  # no game can be kept: say why where it is not plain
            if isinstance(error, NotADirectoryError):
                notices.append(error.strerror or str(error))
            return notices
        storage.remove_stray_temporaries(
            self.folder, self.folder / "finished", self.folder / "unfinished"
        )
        free: dict[Path, int] = {}  # the files no running app holds, and the locks taken on them
        refused: list[str] = []  # why the locks that could not be taken were not
        last, number = self._last_slot(), 0
        # every file there is, then more while all are held (or their locks refused, a few)
        while (number < last or not free) and len(refused) < MOST_REFUSED:
            number += 1
            path = self._slot(number)
            try:
                lock = storage.lock(path.with_name(f".{path.name}.lock"))
            except OSError as error:
                refused.append(error.strerror or str(error))
                continue
            if lock is not None:
                free[path] = lock
            elif not notices:
                notices.append(
                    "Another dipole-tui is playing a game in progress here; "
                    "this one keeps its own game apart."
                )
        if not free:  # no lock to be had (a read-only folder): the autosave as before
            if refused:
                notices.append(f"{refused[0]}; games in progress here are not kept apart")
            return notices
        games = [path for path in free if os.path.lexists(path)]
        self.path = (games or list(free))[0]
        self._lock = free.pop(self.path)
        _HELD_LOCKS.add(self._lock)
        if refused:
            notices.append(f"{refused[0]}; this app keeps its game in {self.path.name}")
        for path, lock in free.items():
            if path in games:
                notices.append(self._file_left_game(path))
            os.close(lock)
        return [notice for notice in notices if notice]

    def release(self) -> None:
        """Let the game-in-progress file go: the next app to start may take it."""
        if self._lock is not None:
            _HELD_LOCKS.discard(self._lock)
            os.close(self._lock)
            self._lock = None

    def _slot(self, number: int) -> Path:
        return self.folder / ("autosave.txt" if number == 1 else f"autosave-{number}.txt")

    def _last_slot(self) -> int:
        """The highest number of a game-in-progress file or lock in the folder."""
        numbers = [1]
        for path in self.folder.glob("*autosave-*.txt*"):
            number = path.name.lstrip(".").removeprefix("autosave-").split(".")[0]
            if number.isascii() and number.isdigit():
                numbers.append(int(number))
        return max(numbers)

    def _file_left_game(self, path: Path) -> str:
        """A game left by an app that ran alongside this one, filed under unfinished/ (a game
        with no moves is dropped, a damaged one set aside)."""
        left = Autosave(self.folder)
        left.path = path
        try:
            kept = left.shelve()
        except (RecordError, OSError) as error:
            return str(error)
        if kept is None:
            with contextlib.suppress(OSError):  # nothing in it: it may as well stay
                path.unlink()
            return ""
        return f"A game left by another dipole-tui is kept as {self.named(kept)}"

    def named(self, path: Path) -> str:
        """A file kept in the data folder, named from it (as Open lists it): short enough to
        read in a notice beside the board."""
        return str(path.relative_to(self.folder)) if path.is_relative_to(self.folder) else str(path)

    def write(self, session: Session[Any]) -> None:
        """Keep the game in progress. A finished game not yet filed is filed first (it is in
        the autosave file, which this would replace). OSError when it cannot be done; the
        autosave is never replaced by a record that does not read back."""
        self.retry()
        self._kept(lambda: storage.write_text(self.path, session.checked_record()))

    def finish(self, session: Session[Any]) -> Path:
        """File a finished game under finished/ and clear the autosave, so it is not offered
        for resumption. When it cannot be filed (OSError), the game stays pending, and in the
        autosave where that can be written, until `retry` files it."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = _free_name(self.folder / "finished", f"{session.game.key}-{stamp}")
        try:
            self._kept(lambda: _write_in(target, session.checked_record()))
        except (OSError, GameError):
            self.pending = session
            self.problem = f"the finished game is not filed yet ({self.problem})"
            with contextlib.suppress(OSError, GameError):  # the next start files it from there
                storage.write_text(self.path, session.checked_record())
            raise
        self.pending = None
        self.path.unlink(missing_ok=True)
        return target

    def retry(self) -> Path | None:
        """File the finished game that could not be filed before, if any: where it went."""
        return self.finish(self.pending) if self.pending is not None else None

    def _kept(self, write: Callable[[], None]) -> None:
        """Run a write, keeping `problem` true: cleared when it succeeds, the reason when not."""
        try:
            write()
        except (OSError, GameError) as error:  # GameError: a record that would not read back
            self.problem = (error.strerror if isinstance(error, OSError) else None) or str(error)
            raise
        self.problem = ""

    def shelve(self) -> Path | None:
        """Move the autosave, an unfinished game about to be replaced, into unfinished/. A game
        of fewer than two moves from its game's own start is left to be replaced: nothing in
        it is worth keeping (`Session.is_slight`; a set-up position is kept). A damaged one
        is set aside (RecordError says where), never filed as a game."""
        if not os.path.lexists(self.path):
            return None
        try:  # replayed, not only its header read: a damaged game is no game to file
            slight = Session.from_text(read_record_file(self.path)).is_slight
        except Exception as error:  # a damaged file must never stop the app (see load)
            raise self._damaged(error) from None
        if slight:
            return None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = _free_name(self.folder / "unfinished", f"game-{stamp}")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(self.path, target)
        return target

    def load(self) -> Session[Any] | None:
        """The saved unfinished game, or None. A bad autosave is set aside under a new name (never
        deleted) and RecordError says why and where it went."""
        if not os.path.lexists(self.path):
            return None
        try:
            session = Session.from_text(read_record_file(self.path))
            finished = session.outcome is not None
        # Whatever reading or replaying a damaged file raises (a parser's ValueError included),
        # it must never stop the app: the file is set aside and the app starts anew.
        except Exception as error:
            raise self._damaged(error) from None
        if finished:
            self.finish(session)
            return None
        return session

    @property
    def saved_folder(self) -> Path:
        """Where the Save dialog offers to write a game, so that Open lists it beside the
        others (any other file name the player types is written there instead)."""
        return self.folder / "saved"

    def save_name(self, game_key: str) -> Path:
        """The name the Save dialog offers: the game and the minute, in `saved_folder`, with
        `-2`, `-3`... when a game was saved under it already, so that no save replaces
        another unasked."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        return _free_name(self.saved_folder, f"{game_key}-{stamp}")

    def saved_games(self) -> list[SavedGame]:
        """The games kept in the data folder, newest first, from their names and dates alone
        (each header is read when first asked for). The autosave is not among them: it is the
        game on screen."""
        piles = [  # each pile's folder, and how its files' names begin (all end with .txt)
            ("saved", self.saved_folder, ""),
            ("finished", self.folder / "finished", ""),
            ("unfinished", self.folder / "unfinished", ""),
            ("set aside", self.folder, "autosave-unreadable-"),
        ]
        games = []
        for kept, folder, start in piles:
            try:
                entries = list(os.scandir(folder))
            except OSError:  # not made yet, or not a folder
                continue
            for entry in entries:
                if not (entry.name.startswith(start) and entry.name.endswith(".txt")):
                    continue
                try:
                    modified = datetime.fromtimestamp(entry.stat().st_mtime)
                except (OSError, OverflowError, ValueError):  # gone since, or a date of nonsense
                    continue
                games.append(SavedGame(folder, entry.name, kept, modified))
        games.sort(key=lambda game: (game.modified, game.name), reverse=True)
        return games

    def _damaged(self, error: Exception) -> RecordError:
        """Set the unreadable autosave aside under a new name; the error says why and where."""
        try:
            kept = f"kept as {self._set_aside()}"
        except OSError as failure:
            kept = f"left where it is, since it could not be moved ({failure.strerror})"
        return RecordError(f"the autosave could not be read ({_reason(error, self.path)}); {kept}")

    def _set_aside(self) -> Path:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        kept = _free_name(self.folder, f"autosave-unreadable-{stamp}")
        os.replace(self.path, kept)
        return kept


def _reason(error: Exception, path: Path) -> str:
    """Why a file could not be read, in one printable line of bounded length; the file named
    without its folder (shown beside it), so that a long folder never cuts the reason short."""
    if isinstance(error, UnicodeDecodeError):
        said = "not a text file"
    elif isinstance(error, OSError):
        said = error.strerror or str(error)
    elif isinstance(error, GameError):
        said = str(error)
    else:
        said = f"{type(error).__name__}: {error}"
    return shown(said.replace(storage.named(path), storage.named(path.name)), 160)


# The locks this process holds. A child forked from it (the bots' worker, on Linux) closes its
# copies at once: the lock would last as long as the child otherwise, after the app let it go.
_HELD_LOCKS: set[int] = set()


def _close_held_locks() -> None:
    for descriptor in _HELD_LOCKS:
        with contextlib.suppress(OSError):
            os.close(descriptor)
    _HELD_LOCKS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_held_locks)


def _saved_game(path: Path) -> tuple[Header | None, str]:
    """A kept file's header, or None and why it cannot be read."""
    try:
        return read_header(read_record_file(path)), ""
    except Exception as error:  # a damaged file is listed with its reason, never stops the app
        return None, _reason(error, path)


def _write_in(target: Path, text: str) -> None:
    """Write a file of the data folder, its folder (finished/) made when first written in."""
    try:
        storage.write_text(target, text)
    except FileNotFoundError:  # no folder yet (storage makes none)
        storage.make_folder(target.parent)
        storage.write_text(target, text)


def _free_name(folder: Path, stem: str) -> Path:
    """folder/stem.txt, or stem-2.txt, stem-3.txt... when that name is taken (by anything, a
    link that leads nowhere too)."""
    path, number = folder / f"{stem}.txt", 1
    while os.path.lexists(path):
        number += 1
        path = folder / f"{stem}-{number}.txt"
    return path
