"""The bots' side of a game, without the app: which requests are sent, which answers are still
wanted, pause, hints, and stopping a search. A stand-in process is answered by hand."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from seats import seated

from dipole_tui.control.bot_controller import HINT_BOT, Answer, BotController, DrawAnswer
from dipole_tui.games.dipole import DIPOLE, Move
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.protocol import (
    DrawRequest,
    DrawWeighed,
    MoveFound,
    MoveRequest,
    Reply,
    Request,
)
from dipole_tui.workers.tracker import Tracker


class HandThinker:
    """The bots' process, answered by the test: requests are kept, `answer` gives one back."""

    def __init__(self, on_reply: Callable[[Reply], None]) -> None:
        self.on_reply = on_reply
        # bot, seat, seconds; for a draw offer weighed: "draw", the bot's side, seconds
        self.requests: list[tuple[str, int, float | None]] = []
        self.cancelled = 0  # every request up to this number is cancelled
        self.closed = False

    def send(self, number: int, request: Request) -> None:
        assert isinstance(request, MoveRequest | DrawRequest)
        assert request.game_key == "dipole" and request.record
        assert number == len(self.requests) + 1  # numbered in turn
        if isinstance(request, DrawRequest):
            self.requests.append(("draw", request.side, request.seconds))
        else:
            self.requests.append((request.bot, request.seat, request.movetime))

    def cancel(self, upto: int) -> None:
        self.cancelled = upto

    def close(self) -> None:
        self.closed = True

    @property
    def alive(self) -> bool:
        return not self.closed

    def answer(self, number: int, text: str | bool | None) -> None:
        """The move, or a draw offer's answer (True: accepted; None: none found), then the
        request's end."""
        if isinstance(text, bool):
            self.on_reply(Reply(number, DrawWeighed(text)))
        elif text is not None:
            self.on_reply(Reply(number, MoveFound(text, ())))
        self.on_reply(Reply(number, None))


class Bench:
    """A controller with its stand-in process, and the answers it passed on."""

    def __init__(self, think_time: float = 3.0) -> None:
        self.made: list[HandThinker] = []
        self.answers: list[Answer | DrawAnswer] = []
        self.handed: list[tuple[Tracker, Reply]] = []  # replies handed over, not yet taken

        def thinker(on_reply: Callable[[Reply], None]) -> HandThinker:
            self.made.append(HandThinker(on_reply))
            return self.made[-1]

        tracker = Tracker(lambda tracker, reply: self.handed.append((tracker, reply)), thinker)
        self.bots = BotController(think_time, self.answers.append, tracker)

    @property
    def thinker(self) -> HandThinker:
        assert len(self.made) == 1, "one process, made with the first request"
        return self.made[0]

    def answer(self, number: int, text: str | bool | None) -> None:
        """The process answers on its reading thread; the app takes it on its own thread."""
        self.thinker.answer(number, text)
        while self.handed:
            self.bots.take(*self.handed.pop(0))


def game(players: tuple[str, str], *moves: str) -> Session[Move]:
    session = Session.new(DIPOLE, "8x8", seated(*players))
    for text in moves:
        session.play(session.game.parse_move(text, session.state))
    return session


def test_a_bot_to_move_is_asked_and_its_answer_passed_on() -> None:
    bench = Bench(think_time=3.0)
    session = game((HUMAN, "medium"), "e1-g3")
    assert not bench.made  # no process until a bot is asked
    bench.bots.take_turn(session)
    assert bench.thinker.requests == [("medium", 1, 3.0)]
    assert bench.bots.thinking and bench.bots.unanswered == 1
    bench.answer(1, "d8-c7")
    assert bench.answers == [Answer(hint=False, text="d8-c7")]
    assert not bench.bots.thinking and bench.bots.unanswered == 0


def test_nobody_is_asked_on_a_persons_turn_twice_at_once_or_after_the_end() -> None:
    bench = Bench()
    bench.bots.take_turn(game((HUMAN, "easy")))
    bench.bots.take_turn(game((HUMAN, HUMAN), "e1-g3"))
    assert not bench.made
    over = Session(DIPOLE, DIPOLE.parse_position("8:B:We1=1:B"), seated("easy", "easy"))
    assert over.outcome is not None
    bench.bots.take_turn(over)
    assert not bench.made
    session = game((HUMAN, "easy"), "e1-g3")
    bench.bots.take_turn(session)
    bench.bots.take_turn(session)  # already thinking
    assert len(bench.thinker.requests) == 1


def test_paused_or_reviewing_a_bot_waits_unless_stepped() -> None:
    bench = Bench()
    session = game(("easy", "easy"), "e1-g3")
    bench.bots.pause()
    bench.bots.take_turn(session)
    assert not bench.made and not bench.bots.thinking
    bench.bots.take_turn(session, step=True)
    assert bench.thinker.requests == [("easy", 1, 3.0)]
    bench.answer(1, "d8-c7")
    bench.bots.paused = False
    session.undo()  # reviewing: a move waits to be redone
    bench.bots.take_turn(session)
    assert len(bench.thinker.requests) == 1


def test_a_cancelled_search_is_stopped_and_its_late_answer_dropped() -> None:
    bench = Bench()
    session = game((HUMAN, "hard"), "e1-g3")
    bench.bots.take_turn(session)
    bench.bots.cancel()  # undo, redo, a new game, a load
    assert bench.thinker.cancelled == 1 and not bench.bots.thinking
    assert bench.bots.unanswered == 1  # the stopped search still answers
    bench.answer(1, None)
    assert bench.answers == [] and bench.bots.unanswered == 0
    bench.bots.take_turn(session)  # asked again: only the new answer counts
    bench.answer(2, "d8-c7")
    assert bench.answers == [Answer(hint=False, text="d8-c7")]


def test_pausing_stops_the_search_under_way() -> None:
    bench = Bench()
    bench.bots.take_turn(game(("hard", "hard")))
    bench.bots.pause()
    assert bench.bots.paused and not bench.bots.thinking and bench.thinker.cancelled == 1


def test_a_failed_search_is_passed_on_as_no_move() -> None:
    bench = Bench()
    bench.bots.take_turn(game(("easy", HUMAN)))
    bench.answer(1, None)
    assert bench.answers == [Answer(hint=False, text=None)]
    bench.answer(1, "e1-g3")  # an answer nobody waits for any more changes nothing
    bench.answer(7, "e1-g3")
    assert bench.answers == [Answer(hint=False, text=None)]


@pytest.mark.parametrize(("think_time", "seconds"), [(0.3, 0.3), (30.0, 1.0)])
def test_a_hint_asks_the_hint_bot_on_a_seat_of_its_own(think_time: float, seconds: float) -> None:
    bench = Bench(think_time)
    assert bench.bots.hint(game((HUMAN, "easy")))
    assert bench.thinker.requests == [(HINT_BOT, 2, seconds)]
    assert not bench.bots.thinking
    bench.answer(1, "e1-g3")
    assert bench.answers == [Answer(hint=True, text="e1-g3")]


def test_no_hint_on_a_bots_turn_or_after_the_end() -> None:
    bench = Bench()
    assert not bench.bots.hint(game(("easy", HUMAN)))
    over = Session(DIPOLE, DIPOLE.parse_position("8:B:We1=1:B"), (HUMAN, HUMAN))
    assert not bench.bots.hint(over)
    assert not bench.made


def test_a_move_played_drops_the_hint_and_stops_its_search() -> None:
    bench = Bench()
    session = game((HUMAN, HUMAN))
    bench.bots.hint(session)
    bench.bots.drop_questions()
    assert bench.thinker.cancelled == 1
    bench.answer(1, "e1-g3")
    assert bench.answers == []
    bench.bots.take_turn(session)  # nothing pending: a move played stops no search
    bench.bots.drop_questions()
    assert bench.thinker.cancelled == 1


def test_closing_drops_what_is_on_its_way_and_ends_the_process() -> None:
    bench = Bench()
    bench.bots.take_turn(game((HUMAN, "easy"), "e1-g3"))
    assert bench.bots.worker_alive
    bench.bots.close()
    assert bench.thinker.closed and not bench.bots.worker_alive
    bench.answer(1, "d8-c7")
    assert bench.answers == []


def test_a_draw_offer_is_weighed_by_the_bot_and_its_answer_passed_on() -> None:
    bench = Bench()
    session = game((HUMAN, "easy"))
    bench.bots.weigh_draw(session, 1, 0.3)
    assert bench.thinker.requests == [("draw", 1, 0.3)]
    assert bench.bots.weighing and not bench.bots.thinking
    bench.answer(1, False)
    assert bench.answers == [DrawAnswer(1, accepts=False)]
    assert not bench.bots.weighing and bench.bots.unanswered == 0


def test_a_draw_offer_not_weighed_is_passed_on_as_no_answer() -> None:
    bench = Bench()
    bench.bots.weigh_draw(game((HUMAN, "easy")), 1, 0.3)
    bench.answer(1, None)
    assert bench.answers == [DrawAnswer(1, accepts=None)]


def test_a_draw_offer_lapses_with_a_move_played_and_the_last_offer_counts() -> None:
    bench = Bench()
    session = game((HUMAN, "easy"))
    bench.bots.weigh_draw(session, 1, 0.3)
    bench.bots.drop_questions()  # a move played: the weighing stops
    assert bench.thinker.cancelled == 1 and not bench.bots.weighing
    bench.bots.weigh_draw(session, 1, 0.3)
    session.play(session.game.parse_move("e1-g3", session.state))  # not through the screen
    bench.answer(2, True)
    assert bench.answers == []  # about a position gone: dropped
    bench.bots.weigh_draw(session, 1, 0.3)
    bench.bots.weigh_draw(session, 1, 0.3)  # asked again
    bench.answer(3, True)
    bench.answer(4, False)
    assert bench.answers == [DrawAnswer(1, accepts=False)]
