"""The evaluation of every position of a game, in a process of its own: what the app's review
draws while the player already looks around.

`Reviewer` is the app's handle on the process: `review(game_key, record, movetime)` stops the
review under way and starts the new one; the callback gets `(number, ply, evaluation)` for each
position in turn on the process's reading thread, then `(number, None, None)` once the request is
over (finished, stopped or failed: a failure's traceback goes to the error log).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import Any

from ..analysis import Evaluation, evaluations
from ..records import parse_record
from .orphans import end_with_parent
from .process import CancelledFrom, Worker, log_failure


@dataclass(frozen=True)
class ReviewRequest:
    number: int
    game_key: str
    record: str  # the whole game: each of its positions is evaluated
    movetime: float


def serve(
    requests: Any, answers: Any, cancelled: Synchronized[int], error_log: Path | None = None
) -> None:
    """The reviewer's loop: each request's evaluations in order, then its end."""
    end_with_parent()  # the app may be killed, with no chance to end the worker itself
    while True:
        request: ReviewRequest | None = requests.get()
        if request is None:
            answers.put(None)  # lets the app's reading thread end too
            return
        number = request.number
        stop = CancelledFrom(cancelled, number)
        try:
            state = parse_record(request.record).state
            said = evaluations(request.game_key, state, request.movetime, stop)
            for ply, evaluation in enumerate(said):
                if stop.is_set():  # cut short by the stop: not what the search would say
                    break
                answers.put((number, ply, evaluation))
        except Exception:  # a failure must not end the worker: the review just ends
            if error_log is not None:
                log_failure(error_log, f"the review failed in {request.game_key}", request.record)
        answers.put((number, None, None))


class Reviewer(Worker):
    """The review's process (see the module's docstring)."""

    def __init__(
        self,
        on_answer: Callable[[int, int | None, Evaluation | None], None],
        error_log: Path | None = None,
    ) -> None:
        super().__init__(serve, on_answer, error_log, "reviewer")

    def review(self, game_key: str, record: str, movetime: float) -> int:
        self.cancel()
        return self._send(lambda number: ReviewRequest(number, game_key, record, movetime))
