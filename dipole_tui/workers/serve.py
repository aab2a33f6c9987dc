"""The one loop every worker process runs: take a numbered request, run the handler its type
names, send each answer as it comes and then the request's end.

A shared counter cancels every request up to a number at once (`CancelledFrom` is a request's
view of it, its stop): a cancelled request is not begun, and a running one stops within
milliseconds. A handler that fails does not end the worker: its request just ends, and the
traceback goes to the error log.
"""

from __future__ import annotations

import contextlib
import traceback
from datetime import datetime
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from .. import storage
from ..orphans import end_with_parent
from .handlers import Handlers, handlers
from .protocol import Answer, Reply, Request


class CancelledFrom:
    """A request's stop event, read from the shared counter of cancelled requests."""

    def __init__(self, cancelled: Synchronized[int], number: int) -> None:
        self.cancelled = cancelled
        self.number = number

    def is_set(self) -> bool:
        return bool(self.cancelled.value >= self.number)


def serve(
    requests: Any,
    replies: Any,
    cancelled: Synchronized[int],
    error_log: Path | None,
    handlers: Handlers,
) -> None:
    """Answer `(number, request)`s from `requests` on `replies` until None comes (then None is
    replied too, which lets the app's reading thread end)."""
    while (parcel := requests.get()) is not None:
        number, request = parcel
        stop = CancelledFrom(cancelled, number)

        def say(answer: Answer, number: int = number, stop: CancelledFrom = stop) -> None:
            if not stop.is_set():  # nobody waits for a cancelled request's answers
                replies.put(Reply(number, answer))

        if not stop.is_set():
            try:
                handlers[type(request)](request, stop, say)
            except Exception:  # a failure must not end the worker: that request just ends
                if error_log is not None:
                    log_failure(error_log, request)
        replies.put(Reply(number, None))
    replies.put(None)


def main(requests: Any, replies: Any, cancelled: Synchronized[int], error_log: Path | None) -> None:
    """A worker process's life: it ends with the app (which may be killed, with no chance to end
    the worker itself), and serves every kind of request."""
    end_with_parent()
    serve(requests, replies, cancelled, error_log, handlers())


def log_failure(path: Path, request: Request) -> None:
    """Append the failure being handled, what failed and the game it met, to the error log."""
    stamp = datetime.now().isoformat(timespec="seconds")
    entry = f"--- {stamp}: {request.failure()}\n{request.record.rstrip()}\n"
    with contextlib.suppress(OSError):  # no log: the player is still told the bot found none
        storage.append_log(path, entry + f"{traceback.format_exc()}\n")
