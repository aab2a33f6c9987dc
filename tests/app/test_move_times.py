"""Each move's time in the move list, as lichess shows it beside the move: what its mover thought
over it, from the clocks' marks (a record's `[%clk]`), dim, in columns where the list is wide
enough for every line so, and nothing where it is not (issue 41)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from app_steps import AppFactory, press, type_move
from textual.widgets import Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.widgets.move_list import MoveList, shown_took
from dipole_tui.clock import Clock, TimeControl
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session

DIPOLE = REGISTRY["dipole"].game
MOVES = ["e1-e3", "d8-d6", "e3-e5", "d6-d4", "e5-e7", "d8-c7", "e1-d2"]
# Each mover's time left after its move (300+2): the first two untimed, then 7 s, 14.4 s, 65 s,
# 3.6 s and 4 s, each the time before less the time after, plus the 2 s earned.
CLOCKS = ["0:05:00", "0:05:00", "0:04:55", "0:04:47.6", "0:03:52", "0:04:46", "0:03:50"]
WITH_TIMES = [
    "1. e1-e3      d8-d6",
    "2. e3-e5 7.0s d6-d4  14s",
    "3. e5-e7 1:05 d8-c7 3.6s",
    "4. e1-d2 4.0s",
]
WITHOUT = ["1. e1-e3 d8-d6", "2. e3-e5 d6-d4", "3. e5-e7 d8-c7", "4. e1-d2"]


def record(clocks: Sequence[str | None]) -> Session[object]:
    """The game of MOVES with a 5+2 clock, `clocks[n]` the `[%clk]` after move n (None: none)."""
    moves = " ".join(
        move if left is None else f"{move} {{[%clk {left}]}}"
        for move, left in zip(MOVES, clocks, strict=True)
    )
    return Session.from_text(f'[Game "Dipole"]\n[TimeControl "300+2"]\n\n{moves} *\n')


def list_lines(app: GameApp) -> list[str]:
    return str(app.query_one(MoveList).render()).splitlines()


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0.4, "0.4s"),
        (7, "7.0s"),
        (9.94, "9.9s"),
        (9.96, "10s"),
        (12.3, "12s"),
        (59.6, "1:00"),
        (65, "1:05"),
        (3723, "1:02:03"),
    ],
)
def test_a_moves_time_is_shown_as_lichess_shows_it(seconds: float, shown: str) -> None:
    assert shown_took(seconds) == shown


@pytest.mark.parametrize("size", [(120, 40), (160, 50)])
async def test_a_wide_list_shows_each_moves_time_after_it(
    make_app: AppFactory, size: tuple[int, int]
) -> None:
    """Each side's first move is untimed: no time stands after it."""
    app = make_app(session=record(CLOCKS))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert list_lines(app) == WITH_TIMES
        drawn = app.query_one(MoveList).render()
        styles = {
            str(drawn)[span.start : span.end].strip(): str(span.style) for span in drawn.spans
        }
        assert all(styles[took] == "dim" for took in ("7.0s", "14s", "1:05", "3.6s", "4.0s"))
        assert "d8-c7" not in styles and "underline" in styles["e1-d2"]  # moves as they were


async def test_at_80x24_the_list_has_no_room_for_the_times(make_app: AppFactory) -> None:
    """The lines with their times are 24 columns; the narrow panel's list has 23: the moves stand
    as without clocks, none cut."""
    app = make_app(session=record(CLOCKS))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.query_one(MoveList).size.width < len(max(WITH_TIMES, key=len))
        assert list_lines(app) == WITHOUT
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert list_lines(app) == WITH_TIMES


async def test_a_move_without_its_clock_comment_shows_no_time_nor_does_a_game_without_clocks(
    make_app: AppFactory,
) -> None:
    """Ply 5 has no `[%clk]`: its time is not known, nor White's next (the time it started from
    is the one before ply 5)."""
    clocks: list[str | None] = [*CLOCKS]
    clocks[4] = None
    app = make_app(session=record(clocks))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert list_lines(app) == [
            "1. e1-e3      d8-d6",
            "2. e3-e5 7.0s d6-d4  14s",
            "3. e5-e7      d8-c7 3.6s",
            "4. e1-d2",
        ]
    app = make_app(session=record([None] * len(MOVES)))  # a record without clocks
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert list_lines(app) == WITHOUT


class FakeTime:
    """A time source the test moves by hand: the clocks run on it, not on the wall's."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_move_played_shows_the_time_it_took(make_app: AppFactory) -> None:
    source = FakeTime()
    session = Session.new(DIPOLE, None, (HUMAN, HUMAN), TimeControl(1, 2))
    assert session.clock is not None
    session.clock = Clock(session.clock.control, session.clock.marks, source)
    app = make_app(session=session)
    async with app.run_test(size=(120, 40)) as pilot:
        for move, thought in zip(MOVES[:4], (30, 40, 12.25, 0.4), strict=True):
            source.now += thought
            await type_move(pilot, move)
        assert list_lines(app) == ["1. e1-e3     d8-d6", "2. e3-e5 12s d6-d4 0.4s"]


async def test_a_click_on_a_moves_time_shows_the_position_after_that_move(
    make_app: AppFactory,
) -> None:
    app = make_app(session=record(CLOCKS))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        line = list_lines(app)[2]
        await pilot.click(MoveList, offset=(line.index("1:05") + 1, 2))
        await pilot.pause()
        assert "Looking at ply 5 of 7" in str(app.screen.query_one("#turn", Static).render())
        await press(pilot, "end")
        assert "to move" in str(app.screen.query_one("#turn", Static).render())
