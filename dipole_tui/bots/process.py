"""Bots thinking in a separate process, so that the app's own thread never waits for a search.

A Python search in a thread holds the interpreter lock for most of its time, and the screen then
answers keys late. Here one worker process serves the requests in turn; a shared counter cancels
every request up to a number at once, and answers to cancelled requests are simply dropped.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from typing import Any

from . import Bot, Budget, create_bot
from .orphans import end_with_parent


@dataclass(frozen=True)
class Request:
    number: int
    game_key: str
    record: str  # the game so far, as a record: the worker replays it
    bot: str
    seat: int  # bots are kept per seat, so each learns from its own game
    movetime: float | None
    depth: int | None


class _Stop:
    """The search's stop event, read from the shared counter of cancelled requests."""

    def __init__(self, cancelled: Synchronized[int], number: int) -> None:
        self.cancelled = cancelled
        self.number = number

    def is_set(self) -> bool:
        return bool(self.cancelled.value >= self.number)


def serve(requests: Any, answers: Any, cancelled: Synchronized[int]) -> None:
    """The worker's loop: answer each request with a move in notation, or None if cancelled."""
    from ..games import GAMES
    from ..records import parse_record

    end_with_parent()  # the app may be killed, with no chance to end the worker itself
    bots: dict[tuple[str, int, str, str], Bot] = {}
    while True:
        request: Request | None = requests.get()
        if request is None:
            answers.put(None)  # lets the app's reading thread end too
            return
        if cancelled.value >= request.number:
            answers.put((request.number, None))
            continue
        try:
            game = GAMES[request.game_key]
            state = parse_record(request.record).state
            key = (request.game_key, request.seat, request.bot, state.variant)
            if key not in bots:
                bots[key] = create_bot(request.bot, request.game_key)
            stop = _Stop(cancelled, request.number)
            budget = Budget(movetime=request.movetime, depth=request.depth)
            move = bots[key].choose(state, budget, stop=stop)
            answer = None if stop.is_set() else game.format_move(move)
        except Exception:  # a bot's failure must not end the worker: that request gets nothing
            answer = None
        answers.put((request.number, answer))


class Thinker:
    """The app's handle on the worker process. Answers arrive on a reading thread, which hands
    each to `on_answer(number, move_text_or_None)`; the app decides whether it still wants it."""

    def __init__(self, on_answer: Callable[[int, str | None], None]) -> None:
        # fork on Linux: quick, and the child runs nothing but `serve`; spawn elsewhere.
        if sys.platform.startswith("linux"):
            context: Any = multiprocessing.get_context("fork")
        else:
            context = multiprocessing.get_context("spawn")
        self._requests = context.Queue()
        self._answers = context.Queue()
        self._cancelled: Synchronized[int] = context.Value("q", 0)
        self._process = context.Process(
            target=serve,
            args=(self._requests, self._answers, self._cancelled),
            daemon=True,
            name="dipole-tui bot",
        )
        self._context = context
        self._reader = threading.Thread(target=self._read, daemon=True, name="bot answers")
        self._on_answer = on_answer
        self._started = False
        self._number = 0

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

    def ask(self, game_key: str, record: str, bot: str, seat: int, budget: Budget) -> int:
        """Send a request; returns its number, which its answer will carry."""
        if not self._started:
            self._process.start()
            self._reader.start()
            self._started = True
        elif not self._process.is_alive():  # the worker died: a new one serves the same queues
            self._process = self._context.Process(
                target=serve,
                args=(self._requests, self._answers, self._cancelled),
                daemon=True,
                name="dipole-tui bot",
            )
            self._process.start()
        self._number += 1
        self._requests.put(
            Request(self._number, game_key, record, bot, seat, budget.movetime, budget.depth)
        )
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
