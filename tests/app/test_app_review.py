"""The game review: positions evaluated in the background, the graph, the marks, jumping to a ply,
and the review saved as an annotated record."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from app_steps import AppFactory, HandAnalyst, noticed, type_move, until
from planted import BLUNDER_START, game_with_planted_blunder
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, ProgressBar, Static

from dipole_tui.analysis import Analysis, evaluations
from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.app.widgets.eval_graph import EvalGraph
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import parse_record
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.process import process
from dipole_tui.workers.protocol import Evaluated, Reply, Request, ReviewRequest
from dipole_tui.workers.tracker import Tracker

OnReply = Callable[[Reply], None]


class ScriptedReviewer:
    """Answers a review from a thread, as the process would: the evaluations worked out here
    (all of them, or the first `upto`), then the end."""

    made: ClassVar[list[ScriptedReviewer]] = []

    def __init__(self, on_reply: OnReply, upto: int | None = None) -> None:
        self.on_reply = on_reply
        self.upto = upto
        self.closed = False
        self.requests: list[tuple[str, str, float]] = []
        ScriptedReviewer.made.append(self)

    def send(self, number: int, request: Request) -> None:
        assert isinstance(request, ReviewRequest)
        self.requests.append((request.game_key, request.record, request.movetime))
        state = parse_record(request.record).state
        said = list(evaluations(request.game_key, state, 0.02))[: self.upto]

        def answer() -> None:
            for ply, evaluation in enumerate(said):
                self.on_reply(Reply(number, Evaluated(ply, evaluation)))
            if self.upto is None:
                self.on_reply(Reply(number, None))

        threading.Thread(target=answer, daemon=True).start()

    def cancel(self, upto: int) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    @property
    def alive(self) -> bool:
        return not self.closed


def review_of(app: GameApp) -> ReviewScreen:
    assert isinstance(app.screen, ReviewScreen)
    return app.screen


async def reviewed(pilot: Pilot[None], app: GameApp) -> ReviewScreen:
    """`r`, and the review once every position is evaluated."""
    await pilot.press("r")
    review = review_of(app)
    await until(lambda: review.complete)
    return review


def blundered_session() -> Session[Any]:
    return Session(DIPOLE, game_with_planted_blunder(), (HUMAN, HUMAN))


@pytest.fixture(autouse=True)
def forget_reviewers() -> None:
    ScriptedReviewer.made.clear()


async def test_the_review_draws_the_graph_and_marks_the_blunder(make_app: AppFactory) -> None:
    app = make_app(session=blundered_session(), reviewer=ScriptedReviewer)
    async with app.run_test(size=(100, 30)) as pilot:
        review = await reviewed(pilot, app)
        await pilot.pause()
        plies = len(review.moves)
        assert review.query_one(ProgressBar).progress == plies + 1
        graph = review.query_one(EvalGraph)
        assert None not in graph.values
        assert graph.values[0] is not None and graph.values[0] < 0  # Black was winning
        assert graph.values[1] is not None and graph.values[1] > 0  # and then White
        assert graph.marks[1] == "??" and graph.marks[2:] == [""] * (plies - 1)
        marks_row = graph.render_line(EvalGraph.ROWS).text
        assert "?" in marks_row and "▲" in marks_row
        moves = review.query_one(OptionList)
        first = str(moves.get_option_at_index(1).prompt)
        assert first == "1... e7-d6??  #3"  # White wins in 3 plies
        assert "??" not in str(moves.get_option_at_index(2).prompt)


async def test_keys_the_list_and_the_graph_jump_to_a_ply(make_app: AppFactory) -> None:
    app = make_app(session=blundered_session(), reviewer=ScriptedReviewer)
    async with app.run_test(size=(100, 30)) as pilot:
        review = await reviewed(pilot, app)
        plies = len(review.moves)
        assert review.ply == plies  # it opens on the end
        await pilot.press("home")
        await pilot.pause()
        assert review.ply == 0
        assert review.shown.position() == BLUNDER_START
        details = str(review.query_one("#review-details").render())
        assert "The start" in details and "Black wins in" in details and "e7-e5" in details
        await pilot.press("right")
        await pilot.pause()
        assert review.ply == 1 and review.query_one(OptionList).highlighted == 1
        details = str(review.query_one("#review-details").render())
        assert "e7-d6??" in details and "blunder" in details and "best was e7-e5" in details
        await pilot.press("down")  # the move list has the focus
        await pilot.pause()
        assert review.ply == 2
        graph = review.query_one(EvalGraph)
        await pilot.click(EvalGraph, offset=(graph.column_of(plies), 1))
        await pilot.pause()
        assert review.ply == plies
        await pilot.press("left")
        await pilot.pause()
        assert review.ply == plies - 1
        assert review.shown.plies == game_with_planted_blunder().plies - 1


async def test_the_review_is_saved_as_an_annotated_record(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(session=blundered_session(), reviewer=ScriptedReviewer)
    path = tmp_path / "review.txt"
    async with app.run_test(size=(100, 30)) as pilot:
        await reviewed(pilot, app)
        await pilot.press("s")
        await pilot.pause()
        entry = app.screen.query_one(Input)
        entry.value = str(path)
        await pilot.press("enter")
        await until(path.exists)
        assert noticed(app, "Saved the review")
    text = path.read_text()
    assert "e7-d6??" in text and "blunder, best e7-e5" in text
    assert parse_record(text).state.position() == game_with_planted_blunder().position()


async def test_saving_waits_for_the_evaluations(make_app: AppFactory) -> None:
    def partial(on_reply: OnReply) -> ScriptedReviewer:
        return ScriptedReviewer(on_reply, upto=2)

    app = make_app(session=blundered_session(), reviewer=partial)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("r")
        review = review_of(app)
        await until(lambda: review.done == 2)
        await pilot.press("s")
        await pilot.pause()
        assert app.screen is review
        assert noticed(app, "still evaluating: 2 of")
        assert review.query_one(EvalGraph).values[2] is None


async def test_closing_the_review_stops_its_worker(make_app: AppFactory) -> None:
    app = make_app(session=blundered_session(), reviewer=ScriptedReviewer)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)
        assert ScriptedReviewer.made[-1].closed


async def test_the_analysis_stops_behind_the_review_and_starts_again_after_it(
    make_app: AppFactory,
) -> None:
    analyst = HandAnalyst()
    session = blundered_session()
    session.undo()  # a game going on: the analysis has a position to analyse
    app = make_app(session=session, reviewer=ScriptedReviewer, analyst=analyst)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("a")
        await until(lambda: len(analyst.records) == 1)
        assert app.analysis.searching
        await pilot.press("r")
        assert isinstance(app.screen, ReviewScreen)
        assert analyst.cancelled == analyst.numbers[-1] and not app.analysis.searching
        await pilot.press("escape")
        await until(lambda: len(analyst.records) == 2)  # the game's position, asked again
        assert analyst.records[-1] == session.record_text() and app.analysis.searching


async def test_nothing_to_review_before_a_move(make_app: AppFactory) -> None:
    app = make_app(reviewer=ScriptedReviewer)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)
        assert noticed(app, "Nothing to review yet")


async def test_the_game_over_dialog_opens_the_review(make_app: AppFactory) -> None:
    state = game_with_planted_blunder()
    state.undo()  # one move from the end: White to take the last stack
    last = game_with_planted_blunder().moves_played[-1]
    app = make_app(session=Session(DIPOLE, state, (HUMAN, HUMAN)), reviewer=ScriptedReviewer)
    async with app.run_test(size=(100, 30)) as pilot:
        await type_move(pilot, DIPOLE.format_move(last), leave=False)
        await until(lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.click("#review")
        await pilot.pause()
        review = review_of(app)
        assert len(review.moves) == len(game_with_planted_blunder().moves_played)


async def test_the_real_reviewer_process_evaluates_every_position() -> None:
    state = game_with_planted_blunder()
    record = Session(DIPOLE, state, (HUMAN, HUMAN)).record_text()
    got: list[tuple[int, int | None, Analysis | None]] = []
    ended = threading.Event()

    def answer(tracker: Tracker, reply: Reply) -> None:
        said = reply.answer
        assert said is None or isinstance(said, Evaluated)
        if said is None:
            got.append((reply.number, None, None))
            ended.set()
        else:
            got.append((reply.number, said.ply, said.evaluation))

    reviewer = Tracker(answer, process("reviewer"))
    try:
        number = reviewer.ask(ReviewRequest("dipole", record, 0.05))
        assert ended.wait(30)
    finally:
        reviewer.close()
    plies = [ply for _, ply, _ in got]
    assert plies == [*range(len(state.moves_played) + 1), None]
    assert all(n == number for n, _, _ in got)
    first = got[0][2]
    assert first is not None and first.best == "e7-e5" and first.proved


@pytest.mark.parametrize("key", list(REGISTRY))
async def test_every_game_can_be_reviewed(make_app: AppFactory, key: str) -> None:
    game = REGISTRY[key].game
    state = game.new()
    for _ in range(4):
        state.play(state.legal_moves()[0])
    app = make_app(key, session=Session(game, state, (HUMAN, HUMAN)), reviewer=ScriptedReviewer)
    async with app.run_test(size=(100, 32)) as pilot:
        review = await reviewed(pilot, app)
        await pilot.press("home")
        await pilot.pause()
        assert review.shown.position() == game.new().position()
        assert None not in review.query_one(EvalGraph).values
        assert "now" in str(review.query_one("#review-details").render())


async def test_the_summary_counts_a_blunder_that_is_the_last_move(make_app: AppFactory) -> None:
    """The summary waited for the last evaluation but was written before the move into that
    position was judged: `Black - 0?! 0? 0??` beside a list marking `e7-d6??`."""
    session = Session(DIPOLE, DIPOLE.parse_position(BLUNDER_START), (HUMAN, HUMAN))
    session.play(session.game.parse_move("e7-d6", session.state))
    app = make_app(session=session, reviewer=ScriptedReviewer)
    async with app.run_test(size=(100, 30)) as pilot:
        review = await reviewed(pilot, app)
        await pilot.pause()
        assert str(review.query_one(OptionList).get_option_at_index(1).prompt).startswith(
            "1... e7-d6??"
        )
        summary = " ".join(str(review.query_one("#review-summary", Static).render()).split())
        black = summary.split("Black")[1]
        assert "-" not in black and black.endswith("0?! 0? 1??")  # its accuracy, its blunder
