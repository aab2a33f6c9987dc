"""A worker process, as a tracker's connection to it: started again if it died, its answers read
on a thread of the app's.

A Python search in a thread holds the interpreter lock for most of its time, and the screen then
answers keys late: so the searches run in processes. A worker is started by a fork server where
there is one (Linux), else spawned: never forked from the app itself, whose threads (Textual's
among them) a fork would copy mid-stride.
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from .protocol import Reply, Request
from .serve import main
from .tracker import Connect

# The module whose `main` the workers run: the fork server loads it (and with it the bots, the
# analysis and the solver) once, and each worker it forks starts with them loaded.
WORKER_MODULES = ("dipole_tui.workers.serve",)


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
        context.set_forkserver_preload(list(WORKER_MODULES))
        return context
    return multiprocessing.get_context("spawn")


class Process:
    """One worker process running `serve.main`, started at once, and the thread that reads its
    replies and hands each to `on_reply`."""

    def __init__(
        self, on_reply: Callable[[Reply], None], name: str, error_log: Path | None = None
    ) -> None:
        self._on_reply = on_reply
        self._name = name
        self._error_log = error_log
        self._context = _context()
        with _stderr_with_a_file():
            self._requests = self._context.Queue()
            self._replies = self._context.Queue()
            self._cancelled: Synchronized[int] = self._context.Value("q", 0)
        self._spawn()
        threading.Thread(target=self._read, daemon=True, name=f"{name} answers").start()

    def _spawn(self) -> None:
        self._process = self._context.Process(
            target=main,
            args=(self._requests, self._replies, self._cancelled, self._error_log),
            daemon=True,
            name=f"dipole-tui {self._name}",
        )
        with _stderr_with_a_file():
            self._process.start()

    def _read(self) -> None:
        while (reply := self._replies.get()) is not None:
            self._on_reply(reply)

    @property
    def alive(self) -> bool:
        return bool(self._process.is_alive())

    def send(self, number: int, request: Request) -> None:
        if not self._process.is_alive():  # the worker died: a new one serves the same queues
            self._spawn()
        self._requests.put((number, request))

    def cancel(self, upto: int) -> None:
        """Every request up to number `upto` stops: a running search within milliseconds."""
        with self._cancelled.get_lock():
            self._cancelled.value = upto

    def close(self) -> None:
        self._requests.put(None)
        self._process.join(timeout=1.0)
        if self._process.is_alive():
            self._process.terminate()
            self._replies.put(None)


def process(name: str, error_log: Path | None = None) -> Connect:
    """How a tracker connects to a worker process of this name (`tracker.Connect`)."""
    return functools.partial(Process, name=name, error_log=error_log)
