"""The workers: one loop answering typed requests by their handlers, a tracker that numbers the
requests and drops what nobody waits for, and the real processes for the bots and the analysis."""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from seats import seated

from dipole_tui.analysis import Analysis, Evaluator, accepts_draw
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.bots.search import Stop
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.handlers import Say, weigh_draw
from dipole_tui.workers.process import process
from dipole_tui.workers.protocol import (
    AnalysisRequest,
    Answer,
    DrawRequest,
    DrawWeighed,
    MoveFound,
    MoveRequest,
    Reply,
    Request,
    ReviewRequest,
)
from dipole_tui.workers.serve import serve
from dipole_tui.workers.tracker import Tracker

START = '[Game "Dipole"]\n*\n'
EVEN = PovScore(Score(), 0)  # White, to move at the start, stands even


def move(request: MoveRequest, stop: Stop, say: Say) -> None:
    say(MoveFound(f"{request.bot} moves", ()))


def analysis(request: AnalysisRequest, stop: Stop, say: Say) -> None:
    for depth in (1, 2):
        say(Analysis(depth, EVEN, (), depth))


def fail(request: ReviewRequest, stop: Stop, say: Say) -> None:
    raise ValueError("the handler broke")


HANDLERS: Any = {MoveRequest: move, AnalysisRequest: analysis, ReviewRequest: fail}


def served(
    *parcels: tuple[int, Request], cancelled: int = 0, log: Path | None = None
) -> list[Reply | None]:
    """Everything the loop replies to `parcels`, run here to its end."""
    requests: queue.Queue[tuple[int, Request] | None] = queue.Queue()
    replies: queue.Queue[Reply | None] = queue.Queue()
    for parcel in (*parcels, None):
        requests.put(parcel)
    counter = multiprocessing.Value("q", cancelled)
    serve(requests, replies, counter, log, HANDLERS)
    return [replies.get_nowait() for _ in range(replies.qsize())]


def test_the_loop_runs_the_handler_of_each_requests_type_then_ends_it() -> None:
    got = served(
        (1, MoveRequest("dipole", START, "easy", 1, None)),
        (2, AnalysisRequest("dipole", START, 1.0)),
    )
    assert got == [
        Reply(1, MoveFound("easy moves", ())),
        Reply(1, None),
        Reply(2, Analysis(1, EVEN, (), 1)),
        Reply(2, Analysis(2, EVEN, (), 2)),
        Reply(2, None),
        None,  # the loop's own end, for the reading thread
    ]


def test_a_failing_handler_ends_its_request_logs_why_and_the_loop_lives_on(
    tmp_path: Path,
) -> None:
    log = tmp_path / "errors.log"
    got = served(
        (1, ReviewRequest("bipod", START, 0.5)),
        (2, MoveRequest("dipole", START, "hard", 0, None)),
        log=log,
    )
    assert got == [Reply(1, None), Reply(2, MoveFound("hard moves", ())), Reply(2, None), None]
    text = log.read_text(encoding="utf-8")
    assert "the review failed in bipod" in text and START.rstrip() in text
    assert "Traceback" in text and "ValueError: the handler broke" in text


def test_a_cancelled_request_is_not_begun_but_still_ended() -> None:
    got = served(
        (1, MoveRequest("dipole", START, "easy", 1, None)),
        (2, MoveRequest("dipole", START, "easy", 1, None)),
        cancelled=1,
    )
    assert got == [Reply(1, None), Reply(2, MoveFound("easy moves", ())), Reply(2, None), None]


class HandWorker:
    """A worker answered by the test, on the test's thread."""

    def __init__(self, on_reply: Callable[[Reply], None]) -> None:
        self.on_reply = on_reply
        self.sent: list[tuple[int, Request]] = []
        self.cancelled = 0
        self.closed = False

    def send(self, number: int, request: Request) -> None:
        self.sent.append((number, request))

    def cancel(self, upto: int) -> None:
        self.cancelled = upto

    def close(self) -> None:
        self.closed = True

    @property
    def alive(self) -> bool:
        return not self.closed


class Owner:
    """A tracker's owner: the replies its one callback got, taken at once."""

    def __init__(self, latest_only: bool = False) -> None:
        self.workers: list[HandWorker] = []
        self.handed: list[tuple[Tracker, Reply]] = []

        def connect(on_reply: Callable[[Reply], None]) -> HandWorker:
            self.workers.append(HandWorker(on_reply))
            return self.workers[-1]

        self.tracker = Tracker(lambda *given: self.handed.append(given), connect, latest_only)

    @property
    def worker(self) -> HandWorker:
        assert len(self.workers) == 1, "one worker, connected by the first request"
        return self.workers[0]

    def taken(self) -> list[Reply]:
        """The replies handed over and still wanted on the owner's thread."""
        replies = [reply for tracker, reply in self.handed if tracker.take(reply)]
        assert all(tracker is self.tracker for tracker, _ in self.handed)
        self.handed.clear()
        return replies


REQUEST = AnalysisRequest("dipole", START, 1.0)
FOUND = Analysis(1, EVEN, (), 1)


def test_the_worker_is_connected_by_the_first_request_and_requests_are_numbered() -> None:
    owner = Owner()
    assert not owner.workers and not owner.tracker.started and not owner.tracker.alive
    owner.tracker.cancel()  # nothing to stop: still nothing started
    assert not owner.workers
    assert [owner.tracker.ask(REQUEST) for _ in range(3)] == [1, 2, 3]
    assert owner.tracker.started and owner.tracker.alive
    assert owner.worker.sent == [(1, REQUEST), (2, REQUEST), (3, REQUEST)]
    assert owner.tracker.pending == 3
    owner.tracker.close()
    assert owner.worker.closed and not owner.tracker.alive


def test_every_wanted_reply_goes_to_the_one_callback_and_ends_are_counted() -> None:
    owner = Owner()
    number = owner.tracker.ask(REQUEST)
    owner.worker.on_reply(Reply(number, FOUND))
    owner.worker.on_reply(Reply(number, None))
    assert owner.tracker.pending == 1  # the end is counted when taken
    assert owner.taken() == [Reply(number, FOUND), Reply(number, None)]
    assert owner.tracker.pending == 0


def test_a_cancelled_requests_replies_are_dropped_where_they_arrive() -> None:
    owner = Owner()
    first = owner.tracker.ask(REQUEST)
    owner.tracker.cancel()
    assert owner.worker.cancelled == first
    owner.worker.on_reply(Reply(first, FOUND))
    owner.worker.on_reply(Reply(first, None))
    assert owner.handed == [] and owner.tracker.pending == 0
    second = owner.tracker.ask(REQUEST)
    owner.worker.on_reply(Reply(second, FOUND))
    assert owner.taken() == [Reply(second, FOUND)]


def test_a_reply_cancelled_on_its_way_is_dropped_when_taken() -> None:
    owner = Owner()
    number = owner.tracker.ask(REQUEST)
    owner.worker.on_reply(Reply(number, FOUND))
    owner.worker.on_reply(Reply(number, None))
    owner.tracker.cancel()  # after the replies were handed over, before they were taken
    assert owner.taken() == [] and owner.tracker.pending == 0


def test_a_tracker_of_the_latest_only_drops_a_superseded_request() -> None:
    owner = Owner(latest_only=True)
    first = owner.tracker.ask(REQUEST)
    second = owner.tracker.ask(REQUEST)
    assert owner.worker.cancelled == first  # asking again stopped the first in the worker
    owner.worker.on_reply(Reply(first, FOUND))
    owner.worker.on_reply(Reply(second, FOUND))
    owner.worker.on_reply(Reply(first, None))
    assert owner.taken() == [Reply(second, FOUND)]
    assert owner.tracker.pending == 1  # the second's end is still to come


def test_a_tracker_that_is_not_latest_only_keeps_earlier_requests() -> None:
    owner = Owner()
    first = owner.tracker.ask(REQUEST)
    owner.tracker.ask(REQUEST)
    assert owner.worker.cancelled == 0
    owner.worker.on_reply(Reply(first, FOUND))
    assert owner.taken() == [Reply(first, FOUND)]


def test_a_failing_bot_answers_no_move_and_logs_why(tmp_path: Path) -> None:
    """The worker survives a failure; the player is told, and the traceback is in the log."""
    replies: queue.Queue[Reply] = queue.Queue()
    log = tmp_path / "data" / "bot-errors.log"
    thinker = Tracker(lambda tracker, reply: replies.put(reply), process("bot", log))
    try:
        failed = thinker.ask(
            MoveRequest("dipole", '[Game "Dipole"]\n1. e1-e2\n', "hard", 1, None, 3)
        )
        assert replies.get(timeout=30) == Reply(failed, None)
        record = '[Game "Dipole"]\n1. e1-g3\n'
        played = thinker.ask(MoveRequest("dipole", record, "hard", 1, None, 3))  # it goes on
        reply = replies.get(timeout=30)
        assert reply.number == played and isinstance(reply.answer, MoveFound)
        move, line = reply.answer.move, reply.answer.line
        # The line it expects: its move first, then one legal move after another.
        assert line[0] == move and len(line) == 3
        state = DIPOLE.new()
        for text in ("e1-g3", *line):
            state.play(DIPOLE.parse_move(text, state))
        assert replies.get(timeout=30) == Reply(played, None)
    finally:
        thinker.close()
    text = log.read_text(encoding="utf-8")
    assert "the hard bot failed in dipole, seat 1" in text
    assert "Traceback" in text and "RecordError: line 2, move 1 (White): e2 is a light" in text


def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"still waiting after {seconds:g} s")
        time.sleep(0.01)


def test_a_newer_analysis_stops_the_one_before_at_once() -> None:
    updates: queue.Queue[Reply] = queue.Queue()

    def take(tracker: Tracker, reply: Reply) -> None:
        if tracker.take(reply):
            updates.put(reply)

    analyst = Tracker(take, process("analyst"), latest_only=True)
    try:
        first = analyst.ask(AnalysisRequest("dipole", START, seconds=60.0))
        reply = updates.get(timeout=30)
        assert reply.number == first and reply.answer is not None  # the first depth: it searches
        asked = time.perf_counter()
        second = analyst.ask(AnalysisRequest("dipole", '[Game "Dipole"]\n1. e1-g3\n', 60.0))
        until(lambda: analyst.pending == 1)  # the first request's end came (and was dropped)
        assert time.perf_counter() - asked < 1.0
        while (reply := updates.get(timeout=30)).number != second:
            assert reply.number == first  # what the first said before it was cancelled
        assert reply.answer is not None
        analyst.cancel()
        until(lambda: analyst.pending == 0)
    finally:
        analyst.close()


@pytest.mark.parametrize(
    ("position", "accepts"),
    [
        ("rr,,,,,/,,,,,/,,,,,/,,,,,/,,,,,/bb,bb,bb,,, r", False),  # Black has three stacks to one
        ("rr,rr,rr,,,/,,,,,/,,,,,/,,,,,/,,,,,/bb,,,,, r", True),
    ],
)
def test_a_bot_weighs_a_draw_offer_and_says_nothing_once_stopped(
    position: str, accepts: bool
) -> None:
    game = REGISTRY["death-stacks"].game
    record = Session(game, game.parse_position(position), seated(HUMAN, "easy")).record_text()
    request = DrawRequest("death-stacks", record, 1, 0.05, "easy")
    said: list[Answer] = []
    weigh_draw(request, threading.Event(), said.append)
    assert said == [DrawWeighed(accepts)]
    stopped = threading.Event()
    stopped.set()
    weigh_draw(request, stopped, said.append)
    assert said == [DrawWeighed(accepts)]


def test_no_bot_agrees_a_draw_in_the_opening_of_a_game_from_the_start() -> None:
    """Before ply 20 of a game begun at the start a draw is no game at all: every level, even
    `random`, declines, whatever it stands."""
    for key in sorted(REGISTRY):
        state = REGISTRY[key].game.new()
        for level in ["random", *REGISTRY[key].ladder]:
            assert not accepts_draw(key, state, 1, 0.01, level), (key, level)


@pytest.mark.parametrize(("level", "accepts"), [("novice", True), ("hard", False)])
def test_after_the_opening_a_bot_judges_an_offer_as_its_level(
    level: str, accepts: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A little better (by less than the novice's slack) is worth a draw to the novice, not to
    `hard`; a set-up position is past the opening already."""
    little = REGISTRY["death-stacks"].ladder["novice"].slack - 1
    said = Analysis(3, PovScore(Score(little), 1), ())
    monkeypatch.setattr(Evaluator, "evaluate", lambda self, state: said)
    game = REGISTRY["death-stacks"].game
    state = game.parse_position("rr,rr,,,,/,,,,,/,,,,,/,,,,,/,,,,,/bb,bb,,,, b")
    assert accepts_draw("death-stacks", state, 1, 0.01, level) is accepts
