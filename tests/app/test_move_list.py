"""The move list at a game's end: the last moves, the final one included, in view at any size and
however the game ended, in the rows the list has (issue 28, rough edge 1)."""

from __future__ import annotations

import random

import pytest
from app_steps import AppFactory, ScriptedBots, type_move, until
from seats import seated
from textual.widgets import Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session

DIPOLE = REGISTRY["dipole"].game


def a_long_game() -> list[str]:
    """A random game to its end: 18 numbered lines, more than the list holds at 80x24."""
    state = DIPOLE.new()
    rng = random.Random(2)
    while state.outcome() is None:
        state.play(rng.choice(state.legal_moves()))
    moves = [DIPOLE.format_move(move) for move in state.moves_played]
    assert len(moves) == 36 and state.outcome() is not None
    return moves


def shown_moves(app: GameApp) -> list[str]:
    """The list's lines as drawn now, checked to fill its rows while moves are left out."""
    move_list = app.screen_stack[0].query_one("#move-list", Static)
    lines = str(move_list.render()).splitlines()
    assert len(lines) == min(len(a_long_game()) // 2, move_list.size.height), lines
    return lines


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
@pytest.mark.parametrize("last_by", ["person", "bot"])
async def test_the_final_move_is_in_the_list_when_the_game_ends(
    make_app: AppFactory, size: tuple[int, int], last_by: str
) -> None:
    moves = a_long_game()
    players = (HUMAN, HUMAN) if last_by == "person" else (HUMAN, "beginner")
    session = Session.new(DIPOLE, None, seated(*players))
    before = moves[:-1] if last_by == "person" else moves[:-2]
    for move in before:
        session.play(DIPOLE.parse_move(move, session.state))
    app = make_app(session=session, thinker=ScriptedBots(moves[-1]))
    async with app.run_test(size=size) as pilot:
        await type_move(pilot, moves[len(before)], leave=False)
        await until(lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.pause()
        assert shown_moves(app)[-1] == f"18. {moves[-2]} {moves[-1]}"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ChoiceScreen)
        assert shown_moves(app)[-1] == f"18. {moves[-2]} {moves[-1]}"


async def test_the_list_follows_a_resize_after_the_end(make_app: AppFactory) -> None:
    """Shrunk from 160x50 to 80x24 under the game over dialog: the list is drawn for its new
    height, not cut at the old one's."""
    moves = a_long_game()
    session = Session.new(DIPOLE, None, (HUMAN, HUMAN))
    for move in moves[:-1]:
        session.play(DIPOLE.parse_move(move, session.state))
    app = make_app(session=session)
    async with app.run_test(size=(160, 50)) as pilot:
        await type_move(pilot, moves[-1], leave=False)
        await until(lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert shown_moves(app)[-1] == f"18. {moves[-2]} {moves[-1]}"
