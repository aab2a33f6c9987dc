"""Chess clocks with a Fischer increment: what a time control is, and two clocks that count down.

No Textual and no I/O. The time comes from a source given to the `Clock` (`time.monotonic` by
default), so tests move a fake one and never sleep. Only the side to move's time runs; a move
charges it and adds the increment; the times after every ply are kept, so taking a move back
takes its times back too (`back_to`). As on lichess, each side's first move is untimed: the
clocks run from the third ply (`UNTIMED_PLIES`), so nobody loses time while the game may still
be aborted. A record keeps them as PGN does: a `[TimeControl "300+3"]`
tag and a `[%clk 0:04:58]` comment after each move.

A time control of days (`3d`, correspondence, as lichess's) gives each move N days, never
added up: a move sets its mover's time back to the whole N days. Its first moves are timed
too (a deadline of days needs no untimed move to abort in), and its tag is the one-move
period of PGN's `moves/seconds` form, as chess.com writes its daily games: `1/259200`.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .games.base import GameError, shown

MOST_MINUTES = 600.0  # ten hours a side: more is a typing slip, not a game
MOST_INCREMENT = 600.0  # ten minutes a move
EXPECTED = "expected MINUTES+SECONDS, like 5+3 or 0.5+2"
DAY = 86_400.0  # seconds
DAYS = (1, 2, 3, 5, 7, 14)  # the days a move a correspondence game may give (lichess's)
DAYS_EXPECTED = "a move may be given 1, 2, 3, 5, 7 or 14 days, like 3d"
_DAYS = re.compile(r" *([0-9]{1,3}) *d *")
_DAYS_TAG = re.compile(r"1/([0-9]{1,8})")  # one move in that many seconds
_NUMBER = r"([0-9]+(?:\.[0-9]+)?|\.[0-9]+)"  # plain digits only: no `inf`, `nan`, `1e3`, `٣`
_CONTROL = re.compile(rf" *{_NUMBER} *(?:\+ *{_NUMBER} *)?")  # spaces, no other blank
# A `[%clk]` read from a record is bounded as every figure read is: up to six digits of hours
# (no game of a record this program reads comes near) and nine of a second's fraction. A
# longer figure is no clock comment: it stays the comment's text, and the clock its time.
CLK_HOURS = 6
_CLK = re.compile(
    rf"\[%clk\s+([0-9]{{1,{CLK_HOURS}}}):([0-5][0-9]):([0-5][0-9](?:\.[0-9]{{1,9}})?)\]"
)
MOST_CLK = 10**CLK_HOURS * 3600.0 - 1  # 999999:59:59, the most a `[%clk]` says and is written


@dataclass(frozen=True)
class TimeControl:
    """Minutes for each side's game and seconds added after each of its moves (Fischer); or,
    with `days`, that many days for each move (correspondence: minutes and increment 0)."""

    minutes: float
    increment: float = 0.0
    days: int | None = None

    @classmethod
    def per_move(cls, days: int) -> TimeControl:
        """`days` days a move, one of `DAYS`; GameError in one line for another number."""
        if days not in DAYS:
            raise GameError(f"{days} days is not a correspondence time control: {DAYS_EXPECTED}")
        return cls(0.0, 0.0, days)

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`5+3`, `0.5+2` or `10` (no increment), or `3d` (days a move); GameError in one line
        for anything else."""
        days = _DAYS.fullmatch(text)
        if days is not None:
            if int(days[1]) not in DAYS:
                raise GameError(f"'{shown(text)}' is not a time control: {DAYS_EXPECTED}")
            return cls.per_move(int(days[1]))
        match = _CONTROL.fullmatch(text)
        if match is None:
            raise GameError(f"'{shown(text)}' is not a time control; {EXPECTED}")
        minutes, increment = float(match[1]), float(match[2] or 0)
        if minutes <= 0:
            raise GameError(f"a game needs some time: MINUTES must be more than 0; {EXPECTED}")
        if minutes > MOST_MINUTES or increment > MOST_INCREMENT:
            raise GameError(
                f"'{shown(text)}' is too long: at most {MOST_MINUTES:g} minutes and "
                f"{MOST_INCREMENT:g} seconds a move; {EXPECTED}"
            )
        return cls(minutes, increment)

    @classmethod
    def from_tag(cls, text: str) -> TimeControl | None:
        """A record's `TimeControl` tag in PGN's `SECONDS+SECONDS` form (`300+3`, `300`); None
        for a form this program does not play (`40/7200`, `?`, `-`). Days a move are one move
        in that many seconds (`1/259200`)."""
        days = _DAYS_TAG.fullmatch(text)
        if days is not None:
            whole, part = divmod(int(days[1]), int(DAY))
            return cls(0.0, 0.0, whole) if whole in DAYS and not part else None
        match = _CONTROL.fullmatch(text)
        if match is None:
            return None
        try:
            return cls.parse(f"{float(match[1]) / 60:.10g}+{match[2] or 0}")
        except GameError:
            return None

    @property
    def seconds(self) -> float:
        """Each side's time at the start (and, in days, after each of its moves)."""
        return self.minutes * 60 if self.days is None else self.days * DAY

    def tag(self) -> str:
        """PGN's form: both in seconds, `300+3`; days a move as one move in their seconds,
        `1/259200`."""
        if self.days is not None:
            return f"1/{self.seconds:.0f}"
        return f"{self.seconds:.10g}+{self.increment:g}"

    def __str__(self) -> str:
        """As lichess writes it, the increment always said: `5+3`, `0.5+2`, `1+0` (a bare
        `1` read as one minute, or as a count of something); days a move as `3d`."""
        if self.days is not None:
            return f"{self.days}d"
        return f"{self.minutes:g}+{self.increment:g}"


UNTIMED_PLIES = 2  # each side's first move: no time charged, no increment, no flag
LOW_TIME = 10.0  # seconds: from here a clock shows tenths
LOW_SHARE, LOW_LEAST = 0.1, 20.0  # a clock is low under 10% of its start, or under 20 s


def low_time(control: TimeControl) -> float:
    """The time left under which a clock is low (drawn red, and the bell once), as lichess
    warns: under a tenth of the starting time or under 20 seconds, whichever comes first."""
    return max(LOW_SHARE * control.seconds, LOW_LEAST)


def shown_time(seconds: float) -> str:
    """A clock's face: `4:58`, `1:02:03` from an hour, `0:09.4` under ten seconds (tenths, cut
    down as a clock counts: 9.47 s shows 0:09.4), `2d 23h` from a day (a game of days, whose
    minutes do not matter). Never below `0:00.0`."""
    seconds = _bounded(seconds)
    if seconds < LOW_TIME:
        return f"0:0{math.floor(seconds * 10) / 10:.1f}"
    whole = math.floor(seconds)
    if whole >= DAY:
        days, rest = divmod(whole, int(DAY))
        return f"{days}d {rest // 3600}h"
    hours, rest = divmod(whole, 3600)
    if hours:
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    return f"{rest // 60}:{rest % 60:02d}"


def clk_comment(seconds: float) -> str:
    """PGN's clock comment for a remaining time: `[%clk 0:04:58]`, tenths where there are some
    (`[%clk 0:00:09.4]`)."""
    return f"[%clk {clk_time(seconds)}]"


def clk_time(seconds: float) -> str:
    """A remaining time as `[%clk]` writes it, `0:04:58` or `0:00:09.4` (to the nearest tenth)."""
    tenths = round(_bounded(seconds) * 10)
    whole, tenth = divmod(tenths, 10)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" + (f".{tenth}" if tenth else "")


def _bounded(seconds: float) -> float:
    """A time as a clock shows or writes it: from 0 (nan too) to `MOST_CLK` (inf too)."""
    return min(seconds, MOST_CLK) if seconds > 0 else 0.0


def without_clk(comment: str) -> str:
    """The comment with its `[%clk]` taken out (the clocks write theirs anew), "" if that was
    all of it."""
    return " ".join(_CLK.sub(" ", comment).split())


def read_clk(comment: str) -> float | None:
    """The remaining time a comment's `[%clk H:MM:SS]` gives, in seconds; None without one."""
    match = _CLK.search(comment)
    if match is None:
        return None
    return int(match[1]) * 3600 + int(match[2]) * 60 + float(match[3])


class Mark(NamedTuple):
    """Both sides' remaining times once a ply was played, and whose time runs then."""

    times: tuple[float, float]
    to_move: int


def time_used(marks: Sequence[Mark], increment: float, ply: int) -> float | None:
    """What the mover of ply `ply` (1 the first) thought over it, from the marks: its time before
    less its time after, plus the increment the move earned. None where the marks do not tell:
    a side's first move (untimed), a ply that left the mover's time as it was (a pass the program
    played, a record's move without `[%clk]`), the next one of that side (its time before is
    stale then), and times that do not add up (a record's clock that gained more than the
    increment). A record's times are to the tenth, so a tenth below nothing is nothing."""
    if not UNTIMED_PLIES < ply < len(marks):
        return None
    mover = marks[ply - 1].to_move
    before = marks[ply - 1].times[mover]
    if marks[ply].times[mover] == before:
        return None
    last = next((at for at in range(ply - 1, 0, -1) if marks[at - 1].to_move == mover), 0)
    if last > UNTIMED_PLIES and marks[last].times[mover] == marks[last - 1].times[mover]:
        return None
    used = before - marks[ply].times[mover] + increment
    return max(used, 0.0) if used > -0.1 - 1e-9 else None


class Clock:
    """Two clocks, one running at a time. `marks[ply]` are the times after `ply` plies (0: the
    start); `ply` is the one shown, as a session's undo and redo walk them."""

    def __init__(
        self,
        control: TimeControl,
        marks: list[Mark] | None = None,
        source: Callable[[], float] = time.monotonic,
    ) -> None:
        self.control = control
        self.marks = marks or [Mark((control.seconds, control.seconds), 0)]
        self.ply = len(self.marks) - 1
        self._source = source
        self.running = False
        self._since = 0.0  # when the side to move's time last started running
        self._spent = 0.0  # what it used of this turn before the clock last stopped

    def now(self) -> float:
        return self._source()

    def count_by(self, source: Callable[[], float]) -> None:
        """Count by another time source from now on (a server's game of days counts by the
        wall clock, so that the time the server was down counts too); what the running side
        used so far stays used."""
        running = self.running
        self.stop()
        self._source = source
        if running:
            self.start()

    @property
    def to_move(self) -> int:
        return self.marks[self.ply].to_move

    def start(self, now: float | None = None) -> None:
        """Let the side to move's time run (after a pause, from what it had left)."""
        if not self.running:
            self.running = True
            self._since = self._at(now)

    def stop(self, now: float | None = None) -> None:
        """Pause: what the side to move used so far stays used."""
        if self.running:
            self._spent += self._at(now) - self._since
            self.running = False

    def spend(self, seconds: float) -> None:
        """The side to move has used `seconds` of this turn already (a game resumed mid-turn,
        `Session.from_record`): its time runs on from what that leaves."""
        self._spent = max(seconds, 0.0)

    def press(self, to_move: int, now: float | None = None, charged: bool = True) -> None:
        """The side to move finished a ply; `to_move` moves next. Its time is charged and the
        increment added (in days, its time set back to the whole days a move); not when
        `charged` is False (a pass the program plays) nor for a side's first move. Undone
        plies after this one are forgotten, as the session forgets its redo moves."""
        mover = self.to_move
        times = list(self.marks[self.ply].times)
        if charged and self.timed:
            if self.control.days is None:
                times[mover] += self.control.increment - self._used(now)
            else:
                times[mover] = self.control.seconds
        del self.marks[self.ply + 1 :]
        self.marks.append(Mark((times[0], times[1]), to_move))
        self.ply += 1
        self._restart(now)

    def back_to(self, ply: int, now: float | None = None) -> None:
        """Show the times after `ply` plies (undo, redo): the turn starts afresh from them."""
        self.ply = ply
        self._restart(now)

    def set_to(self, times: tuple[float, float], running: bool, now: float | None = None) -> None:
        """The times another clock (a game server's, the referee's) shows now: this one shows
        them too, running or not as that one is."""
        self.marks[self.ply] = Mark(times, self.to_move)
        self.running = running
        self._restart(now)

    def remaining(self, side: int, now: float | None = None) -> float:
        """The time `side` has left (below 0 once its flag fell)."""
        left = self.marks[self.ply].times[side]
        return left - self._used(now) if side == self.to_move else left

    def flagged(self, now: float | None = None) -> int | None:
        """The side to move when its time has run out, else None."""
        return self.to_move if self.remaining(self.to_move, now) <= 0 else None

    def after(self, ply: int) -> float:
        """The time the mover of ply `ply` (1 the first) had left once it was played."""
        return self.marks[ply].times[self.marks[ply - 1].to_move]

    @property
    def ticking(self) -> bool:
        """Whether the side to move's time runs now: started, and past the untimed first moves."""
        return self.running and self.timed

    @property
    def timed(self) -> bool:
        """Whether the side to move's time runs: not before each side has moved once, but
        always in a game of days."""
        return self.ply >= UNTIMED_PLIES or self.control.days is not None

    def _used(self, now: float | None) -> float:
        """What the side to move has used of this turn (nothing of an untimed one)."""
        if not self.timed:
            return 0.0
        return self._spent + (self._at(now) - self._since if self.running else 0.0)

    def _restart(self, now: float | None) -> None:
        self._spent = 0.0
        self._since = self._at(now)

    def _at(self, now: float | None) -> float:
        return self._source() if now is None else now


__all__ = [
    "DAYS",
    "LOW_TIME",
    "UNTIMED_PLIES",
    "Clock",
    "Mark",
    "TimeControl",
    "clk_comment",
    "clk_time",
    "low_time",
    "read_clk",
    "shown_time",
    "time_used",
]
