"""Learn from your mistakes (`MistakesScreen`), and each side's accuracy in the review: the review's
evaluations and the tried moves' are told by a stand-in for the review's process, so no test
searches where it need not."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from app_steps import (
    AppFactory,
    StandIn,
    drawn_offset,
    noticed,
    settle,
    type_ahead,
    type_move,
    until,
    walk_to,
)
from planted import BLUNDER_START, game_with_planted_blunder
from seats import seated
from textual.pilot import Pilot
from textual.widgets import Static

from dipole_tui.analysis import Analysis, evaluations, solve
from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.app.screens.mistakes import MistakesScreen
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.games.base import State
from dipole_tui.games.dipole import DIPOLE, parse_square
from dipole_tui.records import parse_record
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.protocol import (
    AnalysisRequest,
    Evaluated,
    Reply,
    Request,
    ReviewRequest,
)

Said = Callable[[ReviewRequest], list[Analysis]]


def searched(request: ReviewRequest) -> list[Analysis]:
    """What the review's process says, from a search of a fiftieth of a second a position."""
    return list(evaluations(request.game_key, parse_record(request.record).state, 0.02))


class Reviewer(StandIn):
    """Stands in for the review's process: a review is answered from a thread with `said`'s
    evaluations, then its end; a tried move's weighing (an `AnalysisRequest`) is kept for the
    test to answer with `tell`."""

    def __init__(self, said: Said = searched) -> None:
        self.said = said
        self.weighed: list[str] = []  # the records of the positions weighed
        self.numbers: list[int] = []

    def send(self, number: int, request: Request) -> None:
        assert self.on_reply is not None
        if isinstance(request, AnalysisRequest):
            self.weighed.append(request.record)
            self.numbers.append(number)
            return
        assert isinstance(request, ReviewRequest)
        on_reply, said = self.on_reply, self.said(request)

        def answer() -> None:
            for ply, evaluation in enumerate(said):
                on_reply(Reply(number, Evaluated(ply, evaluation)))
            on_reply(Reply(number, None))

        threading.Thread(target=answer, daemon=True).start()

    def tell(self, score: Score, line: tuple[str, ...]) -> None:
        """The latest weighing: one depth (the side to move's `score`), then its end."""
        assert self.on_reply is not None and self.numbers, "nothing was weighed"
        side = parse_record(self.weighed[-1]).state.to_move
        self.on_reply(Reply(self.numbers[-1], Analysis(3, PovScore(score, side), line, 100)))
        self.on_reply(Reply(self.numbers[-1], None))


async def reviewed(pilot: Pilot[None], app: GameApp) -> ReviewScreen:
    await pilot.press("r")
    review = app.screen
    assert isinstance(review, ReviewScreen)
    await until(lambda: review.complete)
    await pilot.pause()
    return review


async def mistakes(pilot: Pilot[None], app: GameApp) -> MistakesScreen:
    """From the game: `r`, the review once complete, `m`."""
    await reviewed(pilot, app)
    await pilot.press("m")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, MistakesScreen)
    return screen


def said(screen: MistakesScreen, widget: str) -> str:
    return " ".join(str(screen.query_one(f"#mistakes-{widget}", Static).render()).split())


def best_move() -> Any:
    """e7-e5, the move Black should have played."""
    return DIPOLE.parse_move("e7-e5", DIPOLE.parse_position(BLUNDER_START))


def blundered(players: tuple[str, str] = (HUMAN, HUMAN)) -> Session[Any]:
    """Black's blunder e7-d6 (e7-e5 wins), then best play to White's win."""
    return Session(DIPOLE, game_with_planted_blunder(), seated(*players))


async def test_the_review_says_each_sides_accuracy_and_marks(make_app: AppFactory) -> None:
    app = make_app(session=blundered(), reviewer=Reviewer())
    async with app.run_test(size=(80, 24)) as pilot:
        review = await reviewed(pilot, app)
        summary = str(review.query_one("#review-summary", Static).render()).splitlines()
        white, black = (" ".join(line.split()) for line in summary)
        assert white == "○ White 100% 0?! 0? 0??"  # best play throughout
        accuracy, marks = black.removeprefix("● Black ").split("% ")
        assert int(accuracy) < 100 and marks == "0?! 0? 1??"
        assert review.active_bindings["m"].binding.description == "Mistakes"  # in the footer


async def test_a_better_move_is_found_by_typing_it(make_app: AppFactory) -> None:
    app = make_app(session=blundered(), reviewer=Reviewer())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        assert said(screen, "progress") == "Mistake 1 of 1"
        # Two people played (hot seat): the side is named.
        assert said(screen, "task").startswith("Black played 1... e7-d6?? (blunder), leaving")
        assert "Find a better move." in said(screen, "task")
        assert screen.board.state.position() == BLUNDER_START  # before the blunder
        await type_move(pilot, "e7-d6", leave=False)
        assert "Not better: e7-d6 is the move played" in screen.message
        assert screen.focused is screen.board  # s (the best) and n are keys again
        await type_move(pilot, "e7-e5")  # the best: known without asking
        assert "Yes! e7-e5: The best move!" in screen.message
        assert "you found 1 of 1 yourself" in screen.message
        assert screen.board.last_move == best_move()
        assert not screen.board.interactive


async def test_a_worse_try_is_refused_and_the_best_can_be_seen(make_app: AppFactory) -> None:
    reviewer = Reviewer()
    app = make_app(session=blundered((HUMAN, HUMAN)), reviewer=reviewer)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        board = screen.board
        assert isinstance(board, DipoleBoard)
        # e7-c5 by the board's keys: weighed by the worker, the board still taking tries.
        await walk_to(pilot, board, parse_square("e7", 8))
        await pilot.press("enter")
        await walk_to(pilot, board, parse_square("c5", 8))
        await pilot.press("enter")
        await pilot.pause()
        assert screen.message == "Weighing e7-c5..."
        assert parse_record(reviewer.weighed[-1]).state.position().startswith("8:W:")
        assert board.takes_choices
        reviewer.tell(Score.win(3), ("f6xc5",))  # White, to move, wins in 3
        await until(lambda: "Not better" in screen.message)
        assert screen.message.startswith("Not better: e7-c5 leaves White wins in 3 plies")
        assert board.takes_choices and board.state.position() == BLUNDER_START
        await pilot.press("s")
        await pilot.pause()
        assert screen.message.startswith("The best was e7-e5 (Black wins in")
        assert board.hint == best_move()
        await type_move(pilot, "e7-e5")
        assert "Yes!" in screen.message and "you found 0 of 1 yourself" in screen.message
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)


async def test_a_try_as_good_as_the_best_is_praised(make_app: AppFactory) -> None:
    reviewer = Reviewer()
    app = make_app(session=blundered(("beginner", HUMAN)), reviewer=reviewer)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        assert said(screen, "task").startswith("You played 1... e7-d6??")  # one person: Black
        await type_move(pilot, "e7-g5")
        assert screen.message == "Weighing e7-g5..."
        reviewer.tell(Score.loss(9), ("f6-e5",))  # White, to move, loses in 9: Black still wins
        await until(lambda: "Yes!" in screen.message)
        assert "As good as the best." in screen.message
        assert screen.found == {0}


async def test_a_click_tries_a_move_and_a_late_weighing_is_dropped(make_app: AppFactory) -> None:
    reviewer = Reviewer()
    app = make_app(session=blundered(), reviewer=reviewer)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        board = screen.board
        assert isinstance(board, DipoleBoard)
        for name in ("e7", "g5"):
            at = drawn_offset(board, "square", parse_square(name, 8))
            await pilot.click(DipoleBoard, offset=at)
            await pilot.pause()
        assert screen.message == "Weighing e7-g5..."
        await type_move(pilot, "e7-e5")  # a new try while the other is weighed
        assert "Yes! e7-e5" in screen.message
        reviewer.tell(Score.win(3), ("f6xg5",))  # the weighing of e7-g5, too late
        await pilot.pause()
        assert "Yes! e7-e5" in screen.message


async def test_the_mistakes_wait_for_the_review_and_need_a_marked_move(
    make_app: AppFactory,
) -> None:
    app = make_app(session=blundered((HUMAN, "beginner")), reviewer=Reviewer())
    async with app.run_test(size=(80, 24)) as pilot:
        review = await reviewed(pilot, app)
        await pilot.press("m")  # White, the one person, played best throughout
        await pilot.pause()
        assert app.screen is review
        assert noticed(app, "No mistakes to learn from: none of your moves is marked")

    def none_yet(request: ReviewRequest) -> list[Analysis]:
        return searched(request)[:2]

    class Slow(Reviewer):
        def send(self, number: int, request: Request) -> None:
            assert self.on_reply is not None and isinstance(request, ReviewRequest)
            for ply, evaluation in enumerate(none_yet(request)):
                self.on_reply(Reply(number, Evaluated(ply, evaluation)))

    app = make_app(session=blundered(), reviewer=Slow())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        assert noticed(app, "still evaluating: 2 of")


def planted(game_key: str) -> tuple[State[Any], Said]:
    """A short game of `game_key` whose first move is a blunder: the review's evaluations say
    so, whatever a search would (even at the start, the second side winning after it)."""
    game = REGISTRY[game_key].game
    state = game.new()
    for _ in range(4):
        state.play(state.legal_moves()[0])
    big = 5 * REGISTRY[game_key].unit.size

    def said(request: ReviewRequest) -> list[Analysis]:
        work = parse_record(request.record).state
        for _ in work.moves_played:
            work.undo()
        result = []
        for ply in range(len(state.moves_played) + 1):
            best = game.format_move(work.legal_moves()[1 if ply == 0 else 0])
            second_winning = big if work.to_move == 1 else -big  # the side to move's view
            score = PovScore(Score(0 if ply == 0 else second_winning), work.to_move)
            result.append(Analysis(3, score, (best,)))
            if ply < len(state.moves_played):
                work.play(state.moves_played[ply])
        return result

    return state, said


@pytest.mark.parametrize("game_key", list(REGISTRY))
@pytest.mark.parametrize("ascii_glyphs", [False, True])
async def test_every_game_learns_from_its_mistakes(
    make_app: AppFactory, game_key: str, ascii_glyphs: bool
) -> None:
    state, said_by_review = planted(game_key)
    game = REGISTRY[game_key].game
    session = Session(game, state, seated(HUMAN, "beginner"))
    app = make_app(
        game=game_key,
        session=session,
        reviewer=Reviewer(said_by_review),
        ascii_glyphs=ascii_glyphs,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        assert said(screen, "progress") == "Mistake 1 of 1"
        first = game.format_move(state.moves_played[0])
        assert said(screen, "task").startswith(f"You played 1. {first}?? (blunder)")
        best = game.format_move(game.new().legal_moves()[1])
        await pilot.press("s")
        await pilot.pause()
        assert screen.message.startswith(f"The best was {best}")
        await type_move(pilot, best)
        assert f"Yes! {best}: The best move!" in screen.message


async def test_moves_typed_ahead_are_tried_in_turn_and_a_double_enter_once(
    make_app: AppFactory,
) -> None:
    app = make_app(session=blundered(), reviewer=Reviewer())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        tried: list[str] = []
        said = screen.say

        def say(text: str, kind: str = "") -> None:
            tried.append(text)
            said(text, kind)

        screen.say = say  # type: ignore[method-assign]
        type_ahead(app, ":e7-d6\r:e7-e5\r\r")
        await until(lambda: "Yes!" in screen.message)
        await settle(pilot)
        verdicts = [text for text in tried if text.startswith(("Not better", "Yes", "Found"))]
        assert verdicts[0].startswith("Not better: e7-d6 is the move played")
        assert verdicts[1].startswith("Yes! e7-e5")
        assert len(verdicts) == 2  # the second Enter, on an empty entry, tries nothing
        assert screen.found == {0}


def two_blunders() -> Session[Any]:
    """Black's blunder e7-d6 (e7-e5 wins), White's f6-h8 back (f6xd6 wins), then best play."""
    state = DIPOLE.parse_position(BLUNDER_START)
    for text in ("e7-d6", "f6-h8"):
        state.play(DIPOLE.parse_move(text, state))
    while state.outcome() is None:
        move = solve(DIPOLE, state).move
        assert move is not None
        state.play(move)
    return Session(DIPOLE, state, (HUMAN, HUMAN))


async def test_the_praise_stays_until_the_player_goes_on(make_app: AppFactory) -> None:
    app = make_app(session=two_blunders(), reviewer=Reviewer())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        assert said(screen, "progress") == "Mistake 1 of 2"
        await type_move(pilot, "e7-e5")
        assert "Yes! e7-e5" in screen.message and "n: the next mistake" in screen.message
        await pilot.pause(2.0)  # it went on by itself after 1.5 s
        assert said(screen, "progress") == "Mistake 1 of 2" and "Yes!" in screen.message
        await pilot.press("n")
        await pilot.pause()
        assert said(screen, "progress") == "Mistake 2 of 2"


async def test_scores_are_the_trainees_and_a_better_try_is_told_apart(
    make_app: AppFactory,
) -> None:
    reviewer = Reviewer()
    app = make_app(session=blundered(), reviewer=reviewer)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await mistakes(pilot, app)
        assert "Scores from Black's side." in said(screen, "task")
        await type_move(pilot, "e7-c5")
        reviewer.tell(Score(-18), ("f6xc5",))  # White, to move, 1.5 checkers down: Black +1.5
        await until(lambda: "best" in screen.message)
        # Better than the blunder (a loss), not the best (a win): said so, from Black's side.
        assert screen.message.startswith("Better, but not the best: e7-c5 leaves +1.5")
