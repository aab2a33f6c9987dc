"""The one way the workers' answers reach the screen: a `WorkerAnswered` message, posted from the
tracker's reading thread (posting is safe from any thread) to the app or the screen that owns
the tracker, and taken on its thread by that owner (`Tracker.take`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from textual.message import Message
from textual.message_pump import MessagePump

from ..workers.protocol import Reply
from ..workers.tracker import Tracker


class WorkerAnswered(Message, bubble=False):
    """A reply from `tracker`'s worker: its owner knows it by the tracker."""

    def __init__(self, tracker: Tracker, reply: Reply) -> None:
        super().__init__()
        self.tracker = tracker
        self.reply = reply


def answers_to(pump: MessagePump) -> Callable[[Tracker, Reply], None]:
    """A tracker's callback that posts each reply to `pump` (the app, or a screen)."""

    def post(tracker: Tracker, reply: Reply) -> None:
        with contextlib.suppress(RuntimeError):  # the app has stopped: nobody waits for it
            pump.post_message(WorkerAnswered(tracker, reply))

    return post
