"""Looking back through the game without changing it (issue 28, point 15 and rough edge 10):
`[` `]` `Home` `End` and a click on a move; the ply shown marked in the list; undone moves apart.
One ply walker (`PlyWalker`) keeps the ply shown, in the game and in its review (issue 42)."""

from __future__ import annotations

import pytest
from app_steps import AppFactory, StandIn, message, press, until
from game_samples import SAMPLES
from textual.widgets import Input, Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.screens.review import ReviewScreen
from dipole_tui.app.widgets.move_list import UNDONE_RULE, MoveList
from dipole_tui.control.ply_walker import PlyWalker
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.protocol import Request


def started(game_key: str, plies: int) -> Session[object]:
    game = REGISTRY[game_key].game
    session: Session[object] = Session.new(game, None, (HUMAN, HUMAN))
    for text in SAMPLES[game_key].opening[:plies]:
        session.play(game.parse_move(text, session.state))
    return session


def on_board(app: GameApp) -> str:
    """The position the board shows."""
    return str(app.board.state.position())


def list_lines(app: GameApp) -> list[str]:
    return str(app.query_one(MoveList).render()).splitlines()


def turn(app: GameApp) -> str:
    return " ".join(str(app.query_one("#turn", Static).render()).split())


@pytest.mark.parametrize("game_key", sorted(REGISTRY))
async def test_walking_back_shows_earlier_positions_and_changes_nothing(
    make_app: AppFactory, game_key: str
) -> None:
    session = started(game_key, 4)
    positions = [session.state.position()]
    probe = session.state.copy()
    for _ in range(4):
        probe.undo()
        positions.insert(0, probe.position())
    app = make_app(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "left_square_bracket")
        assert on_board(app) == positions[3]
        assert "Looking at ply 3 of 4" in turn(app)
        assert app.session.state.plies == 4  # the game itself is untouched
        await press(pilot, "home")
        assert on_board(app) == positions[0]
        await press(pilot, "left_square_bracket")  # at the start: nothing further back
        assert on_board(app) == positions[0]
        await press(pilot, "right_square_bracket", "right_square_bracket")
        assert on_board(app) == positions[2]
        await press(pilot, "end")
        assert on_board(app) == positions[4]
        assert "to move" in turn(app)
        assert app.board.interactive


async def test_the_ply_shown_is_marked_in_the_list(make_app: AppFactory) -> None:
    app = make_app(session=started("dipole", 4))
    async with app.run_test(size=(80, 24)) as pilot:
        move_list = app.query_one(MoveList)
        last = move_list.render()
        styles = {str(last)[span.start : span.end]: str(span.style) for span in last.spans}
        assert "underline" in styles["c7-b6"]  # the game's own position
        await press(pilot, "left_square_bracket", "left_square_bracket")
        shown = move_list.render()
        styles = {str(shown)[span.start : span.end]: str(span.style) for span in shown.spans}
        assert styles["d8-c7"] == "reverse"
        assert "c7-b6" not in styles


async def test_a_click_on_a_move_shows_the_position_after_it(make_app: AppFactory) -> None:
    session = started("dipole", 4)
    after_two = Session.new(session.game, None, (HUMAN, HUMAN))
    for text in SAMPLES["dipole"].opening[:2]:
        after_two.play(session.game.parse_move(text, after_two.state))
    app = make_app(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        move_list = app.query_one(MoveList)
        line = list_lines(app)[0]
        assert line.startswith("1. e1-e3 d8-c7"), line
        await pilot.click(MoveList, offset=(line.index("d8-c7") + 1, 0))
        await pilot.pause()
        assert on_board(app) == after_two.state.position()
        assert move_list.shown == 2


async def test_nothing_is_played_while_an_earlier_position_is_shown(make_app: AppFactory) -> None:
    app = make_app(session=started("dipole", 2))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "left_square_bracket")
        assert not app.board.interactive
        await press(pilot, *":e3-g5", "enter")
        assert app.session.state.plies == 2
        assert "End goes back" in message(app)
        assert app.query_one("#move-input", Input).value == "e3-g5"  # kept to play after End
        await press(pilot, "escape", "end", *":e3-g5", "enter")
        await until(lambda: app.session.state.plies == 3)


async def test_undone_moves_stand_apart_under_a_rule(make_app: AppFactory) -> None:
    app = make_app(session=started("dipole", 4))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "u", "u")
        lines = list_lines(app)
        assert lines == ["1. e1-e3 d8-c7", UNDONE_RULE, "2. e3-g5 c7-b6"]
        await press(pilot, "right_square_bracket")  # the walk goes on into the undone moves
        assert "Looking at ply 3 of 4" in turn(app)
        assert app.session.state.plies == 2


def tally(app: GameApp) -> str:
    return " ".join(str(app.query_one("#tally", Static).render()).split())


async def test_the_counts_follow_the_position_looked_at(make_app: AppFactory) -> None:
    """Death Stacks' stacks count changes with each split: the panel counts what it shows."""
    session = Session.new(REGISTRY["death-stacks"].game, None, (HUMAN, HUMAN))
    for text in ("a1-1-a2", "f6-1-f5"):  # a piece off each side's stack: one stack more
        session.play(session.game.parse_move(text, session.state))
    app = make_app(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        at_the_end = tally(app)
        await press(pilot, "home")
        at_the_start = tally(app)
        assert at_the_start != at_the_end
        assert "Red 6 12 0" in at_the_start and "Red 7 12 0" in at_the_end
        await press(pilot, "end")
        assert tally(app) == at_the_end


async def test_end_in_the_move_entry_goes_back_to_the_game_keeping_the_move(
    make_app: AppFactory,
) -> None:
    session = started("dipole", 4)
    move = session.game.format_move(session.state.legal_moves()[0])
    app = make_app(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "home", "colon", *move, "enter")
        assert app.session.state.plies == 4 and "End goes back to it" in message(app)
        entry = app.query_one("#move-input", Input)
        assert app.focused is entry and entry.value == move
        await press(pilot, "end")
        assert "Looking at" not in turn(app) and on_board(app) == app.session.state.position()
        await press(pilot, "enter")
        assert app.session.state.plies == 5  # the move kept, played on the game


@pytest.mark.parametrize("key", ["u", "U"])
async def test_u_while_looking_back_changes_nothing_and_says_why(
    make_app: AppFactory, key: str
) -> None:
    session = started("dipole", 4)
    if key == "U":
        session.undo()
    app = make_app(session=session)
    async with app.run_test(size=(80, 24)) as pilot:
        plies = app.session.state.plies
        await press(pilot, "home", key)
        assert app.session.state.plies == plies
        assert "End goes back to the game" in message(app)
        assert on_board(app) != app.session.state.position()  # still looking back


def test_the_walker_keeps_the_ply_shown_within_the_game() -> None:
    """Each step answers whether the ply shown changed: at an end it stays."""
    walker = PlyWalker(3)
    assert (walker.ply, walker.plies) == (3, 3)  # after the last move
    assert not walker.forward() and not walker.last() and walker.ply == 3
    assert walker.back() and walker.back() and walker.ply == 1
    assert walker.first() and walker.ply == 0
    assert not walker.back() and not walker.first() and walker.ply == 0
    assert walker.forward() and walker.ply == 1
    assert walker.to(9) and walker.ply == 3
    assert walker.to(-2) and walker.ply == 0
    assert not walker.to(0)
    assert PlyWalker(4, 2).ply == 2


class SilentReviewer(StandIn):
    """The review's process, asked and never answering: the review walks all the same."""

    def send(self, number: int, request: Request) -> None:
        pass


async def test_the_game_and_its_review_walk_with_one_walker(make_app: AppFactory) -> None:
    """`[ ] Home End` in the game and the arrows, `h l Home End` in the review each move a
    `PlyWalker`: the game's gives way at the game's own position, the review's stays at an end."""
    app = make_app(session=started("dipole", 4), reviewer=SilentReviewer())
    async with app.run_test(size=(100, 30)) as pilot:
        walk = app.game_screen.walk
        await press(pilot, "left_square_bracket", "left_square_bracket", "right_square_bracket")
        assert isinstance(walk.walker, PlyWalker)
        assert (walk.walker.ply, walk.walker.plies) == (3, 4) and walk.viewing == 3
        await press(pilot, "right_square_bracket")
        assert walk.walker is None and walk.viewing is None  # the game itself again
        await press(pilot, "r")
        await until(lambda: isinstance(app.screen, ReviewScreen))
        review = app.screen
        assert isinstance(review, ReviewScreen) and isinstance(review.walker, PlyWalker)
        assert review.ply == 4
        await press(pilot, "h", "h", "l")
        assert review.ply == 3 and review.shown.plies == 3
        await press(pilot, "home", "left")
        assert review.ply == 0
        await press(pilot, "end", "right")
        assert review.ply == 4 and review.shown.plies == 4
