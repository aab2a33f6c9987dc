"""The app's side of a worker: which questions are still asked, and which answers still wanted.

A `Tracker` makes its connection to the worker (a process, or a test's stand-in) with its first
request, numbers its requests, and cancels them: every request up to the latest at once, or, for
a tracker that wants the latest only, every earlier one whenever it asks again. An answer to a
cancelled request is stale and dropped, on the reading thread if it is already known there, and
again by `take` on the owner's thread (it may have been cancelled meanwhile). Every other answer
goes to the one callback its owner gave, on the reading thread: the owner hands it to its own
thread and `take`s it there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from .protocol import Reply, Request


class Connection(Protocol):
    """What a tracker asks of its worker: the process (`process.Process`), or a stand-in."""

    def send(self, number: int, request: Request) -> None: ...

    def cancel(self, upto: int) -> None: ...

    def close(self) -> None: ...

    @property
    def alive(self) -> bool: ...


Connect = Callable[[Callable[[Reply], None]], Connection]  # made with where its replies go


class Tracker:
    """Numbered requests to one worker, and the answers still wanted (see the module)."""

    def __init__(
        self,
        on_reply: Callable[[Tracker, Reply], None],
        connect: Connect,
        latest_only: bool = False,
    ) -> None:
        self._on_reply = on_reply
        self._connect = connect
        self._latest_only = latest_only
        self._connection: Connection | None = None
        self._number = 0  # the latest request's
        self._cancelled = 0  # every request up to this number is cancelled
        self._pending = 0
        self._lock = threading.Lock()  # `_pending` changes on both threads

    @property
    def started(self) -> bool:
        """The worker is connected (by the first request)."""
        return self._connection is not None

    @property
    def alive(self) -> bool:
        return self._connection is not None and self._connection.alive

    @property
    def pending(self) -> int:
        """Requests whose end has not been taken yet, cancelled ones included (their end is
        dropped when it comes): at 0 the worker is working on nothing of this tracker's, and
        no late answer is on its way."""
        return self._pending

    def ask(self, request: Request) -> int:
        """Send `request`, connecting first if need be; returns its number, which its replies
        carry. A tracker that wants the latest only cancels every earlier request first."""
        if self._latest_only:
            self.cancel()
        if self._connection is None:
            self._connection = self._connect(self._arrived)
        with self._lock:
            self._pending += 1
        self._number += 1
        self._connection.send(self._number, request)
        return self._number

    def cancel(self) -> None:
        """Every request sent so far stops, and its answers still on their way are dropped."""
        self._cancelled = self._number
        if self._connection is not None:
            self._connection.cancel(self._number)

    def wanted(self, number: int) -> bool:
        return number > self._cancelled

    def take(self, reply: Reply) -> bool:
        """On the owner's thread: the reply is counted, and True if it is still wanted."""
        self._count(reply)
        return self.wanted(reply.number)

    def close(self) -> None:
        """Nothing more is wanted; the worker ends."""
        self.cancel()
        if self._connection is not None:
            self._connection.close()

    def _count(self, reply: Reply) -> None:
        if reply.answer is None:
            with self._lock:
                self._pending = max(0, self._pending - 1)

    def _arrived(self, reply: Reply) -> None:
        """On the reading thread: a stale reply ends here, any other goes to the owner."""
        if self.wanted(reply.number):
            self._on_reply(self, reply)
        else:
            self._count(reply)


__all__ = ["Connect", "Connection", "Tracker"]
