"""Bots thinking in a separate process, so that the app's own thread never waits for a search.

A Python search in a thread holds the interpreter lock for most of its time, and the screen then
answers keys late. Here one worker process serves the requests in turn; a shared counter cancels
every request up to a number at once, and answers to cancelled requests are simply dropped.
`Worker` is that machinery, whatever the requests are: `Thinker` asks bots for moves, and
`analyst.Analyst` for the analysis of a position, depth by depth.

The worker is started by a fork server where there is one (Linux), else spawned: never forked
from the app itself, whose threads (Textual's among them) a fork would copy mid-stride. A bot
that fails answers no move, and the worker appends the traceback to the error log it was given.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from .. import storage
from ..records import parse_record
from ..registry import create_bot, game_named
from . import Bot, Budget
from .levels import SearchBot
from .orphans import end_with_parent

# The modules whose `serve` functions the workers run: the fork server loads them once, and each
# worker it forks starts with them (and the bots) loaded.
WORKER_MODULES = ("dipole_tui.bots.process", "dipole_tui.bots.analyst")


@dataclass(frozen=True)
class Request:
    number: int
    game_key: str
    record: str  # the game so far, as a record: the worker replays it
    bot: str
    seat: int  # bots are kept per seat, so each learns from its own game
    movetime: float | None
    depth: int | None


class CancelledFrom:
    """A request's stop event, read from the shared counter of cancelled requests."""

    def __init__(self, cancelled: Synchronized[int], number: int) -> None:
        self.cancelled = cancelled
        self.number = number

    def is_set(self) -> bool:
        return bool(self.cancelled.value >= self.number)


def serve(
    requests: Any, answers: Any, cancelled: Synchronized[int], error_log: Path | None = None
) -> None:
    """The worker's loop: answer each request with a move in notation and the line the bot
    expects after it (the move first), or None and () if cancelled or the bot failed (then its
    traceback goes to `error_log`)."""
    end_with_parent()  # the app may be killed, with no chance to end the worker itself
    bots: dict[tuple[str, int, str, str], Bot] = {}
    while True:
        request: Request | None = requests.get()
        if request is None:
            answers.put(None)  # lets the app's reading thread end too
            return
        if cancelled.value >= request.number:
            answers.put((request.number, None, ()))
            continue
        line: tuple[str, ...] = ()
        try:
            game = game_named(request.game_key)
            state = parse_record(request.record).state
            key = (request.game_key, request.seat, request.bot, state.variant)
            if key not in bots:
                bots[key] = create_bot(request.bot, request.game_key)
            stop = CancelledFrom(cancelled, request.number)
            budget = Budget(movetime=request.movetime, depth=request.depth)
            bot = bots[key]
            move = bot.choose(state, budget, stop=stop)
            answer = None if stop.is_set() else game.format_move(move)
            if answer is not None:
                expected = bot.line(state, move) if isinstance(bot, SearchBot) else [move]
                line = tuple(map(game.format_move, expected))
        except Exception:  # a bot's failure must not end the worker: that request gets nothing
            answer = None
            if error_log is not None:
                what = f"the {request.bot} bot failed in {request.game_key}, seat {request.seat}"
                log_failure(error_log, what, request.record)
        answers.put((request.number, answer, line))


def log_failure(path: Path, what: str, record: str) -> None:
    """Append the failure being handled, what failed and the game it met, to the error log."""
    stamp = datetime.now().isoformat(timespec="seconds")
    entry = f"--- {stamp}: {what}\n{record.rstrip()}\n{traceback.format_exc()}\n"
    with contextlib.suppress(OSError):  # no log: the player is still told the bot found none
        storage.append_log(path, entry)


@contextlib.contextmanager
def _stderr_with_a_file() -> Iterator[None]:
    """multiprocessing hands its helper processes (the fork server, the resource tracker)
    `sys.stderr.fileno()`; under Textual that stream is a capture whose number is -1, which
    their start refuses. Meanwhile it is the null device."""
    try:
        usable = sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable:
        yield
        return
    saved = sys.stderr
    with open(os.devnull, "w", encoding="utf-8") as null:
        sys.stderr = null
        try:
            yield
        finally:
            sys.stderr = saved


def _context() -> Any:
    """A fork server where the system has one (Linux, macOS), else spawn (Windows)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        # The server loads the bots once; each worker it forks starts with them loaded.
        context.set_forkserver_preload(list(WORKER_MODULES))
        return context
    return multiprocessing.get_context("spawn")


class Worker:
    """The app's handle on one worker process running `serve(requests, answers, cancelled,
    error_log)`. Each request carries a number; answers arrive on a reading thread as tuples
    whose first item is that number, and go whole to `on_answer`. Cancelling stops every request
    sent so far, read by the worker through `CancelledFrom`."""

    def __init__(
        self,
        serve: Callable[..., None],
        on_answer: Callable[..., None],
        error_log: Path | None,
        name: str,
    ) -> None:
        context = _context()
        with _stderr_with_a_file():
            self._requests = context.Queue()
            self._answers = context.Queue()
            self._cancelled: Synchronized[int] = context.Value("q", 0)
        self._context = context
        self._serve = serve
        self._error_log = error_log
        self._name = name
        self._process = self._new_worker()
        self._reader = threading.Thread(target=self._read, daemon=True, name=f"{name} answers")
        self._on_answer = on_answer
        self._started = False
        self._number = 0

    def _new_worker(self) -> Any:
        return self._context.Process(
            target=self._serve,
            args=(self._requests, self._answers, self._cancelled, self._error_log),
            daemon=True,
            name=f"dipole-tui {self._name}",
        )

    @property
    def alive(self) -> bool:
        """The worker process is running (it is started by the first request)."""
        return self._started and self._process.is_alive()

    def _read(self) -> None:
        while True:
            answer = self._answers.get()
            if answer is None:
                return
            self._on_answer(*answer)

    def _send(self, request: Callable[[int], object]) -> int:
        """Send `request(number)`, starting the worker if need be; returns the number."""
        if not self._started:
            with _stderr_with_a_file():
                self._process.start()
            self._reader.start()
            self._started = True
        elif not self._process.is_alive():  # the worker died: a new one serves the same queues
            self._process = self._new_worker()
            with _stderr_with_a_file():
                self._process.start()
        self._number += 1
        self._requests.put(request(self._number))
        return self._number

    def cancel(self) -> None:
        """Cancel every request sent so far: a running search stops within milliseconds."""
        with self._cancelled.get_lock():
            self._cancelled.value = self._number

    def close(self) -> None:
        self.cancel()
        if self._started:
            self._requests.put(None)
            self._process.join(timeout=1.0)
            if self._process.is_alive():
                self._process.terminate()
                self._answers.put(None)


class Thinker(Worker):
    """The bots' process. Each answer is handed to `on_answer(number, move_text_or_None,
    line)`; the app decides whether it still wants it."""

    def __init__(
        self,
        on_answer: Callable[[int, str | None, tuple[str, ...]], None],
        error_log: Path | None = None,
    ) -> None:
        super().__init__(serve, on_answer, error_log, "bot")

    def ask(self, game_key: str, record: str, bot: str, seat: int, budget: Budget) -> int:
        """Send a request; returns its number, which its answer will carry."""
        return self._send(
            lambda number: Request(
                number, game_key, record, bot, seat, budget.movetime, budget.depth
            )
        )
