"""Death Stacks bots: taking wins, dodging losses, and an evaluation that sees both colours alike
(legal, deterministic, hands off the state: test_bots_conformance.py)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dipole_tui.bots import Budget
from dipole_tui.bots.death_stacks_eval import WON_SOON, DeathStacksKnowledge
from dipole_tui.bots.levels import SearchBot
from dipole_tui.bots.search import Search
from dipole_tui.games.death_stacks import (
    BLACK,
    DEATH_STACKS,
    RED,
    SIZE,
    DeathStacksState,
    Move,
    parse_position,
    parse_square,
)
from dipole_tui.registry import create_bot

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

DEPTH_2 = Budget(movetime=None, depth=2)
TOO_TALL = "bb,b,,,,/,,,,,/,,bbrrrrr,,,/,,,,,/,,,b,,/r,r,,,rr, r"  # c4 must lose 3 or more
WIN_IN_ONE = ",,,,,br/,,,,,/,,,,,/,,,,,/,,,,,/rr,,b,,, r"  # a1-2-c1 takes Black's last stack
ONE_ESCAPE = ",,,,,/,,,,,/,,,,,/,,,,,/,,,,,bbbb/,,,r,, r"  # only d1-1-c1 keeps clear of f2


def wins(state: DeathStacksState) -> list[Move]:
    """The side to move's moves that end the game in its favour."""
    found = []
    for move in state.legal_moves():
        state.play(move)
        outcome = state.outcome()
        state.undo()
        if outcome is not None and outcome.winner == state.to_move:
            found.append(move)
    return found


def played_out(seed: int, plies: int) -> DeathStacksState:
    """A position reached by seeded random play (fewer plies if the game ends first)."""
    rng = random.Random(seed)
    state = DEATH_STACKS.new()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
    return state


def mirrored(state: DeathStacksState) -> DeathStacksState:
    """The board turned upside down with the colours and the side to move swapped."""
    cells = [
        tuple(1 - piece for piece in state.cells[(SIZE - 1 - rank) * SIZE + file])
        for rank in range(SIZE)
        for file in range(SIZE)
    ]
    return DeathStacksState(cells, 1 - state.to_move)


def test_the_too_tall_position_forces_the_tall_stack() -> None:
    state = parse_position(TOO_TALL)
    assert {(m.origin, m.count >= 3) for m in state.legal_moves()} == {(parse_square("c4"), True)}


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_every_level_takes_the_last_stack_when_it_can(name: str) -> None:
    state = parse_position(WIN_IN_ONE)
    assert [DEATH_STACKS.format_move(m) for m in wins(state)] == ["a1-2-c1"]
    for seed in range(5):
        move = create_bot(name, "death-stacks", seed).choose(state, DEPTH_2)
        assert DEATH_STACKS.format_move(move) == "a1-2-c1"


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_every_level_keeps_its_last_stack_out_of_reach(name: str) -> None:
    state = parse_position(ONE_ESCAPE)
    assert len(state.legal_moves()) == 5 and not wins(state)
    for seed in range(5):
        move = create_bot(name, "death-stacks", seed).choose(state, DEPTH_2)
        assert DEATH_STACKS.format_move(move) == "d1-1-c1"


def test_the_evaluation_counts_stacks_and_sees_a_last_stack_in_reach() -> None:
    knowledge = DeathStacksKnowledge()
    even = parse_position(",,,,,/,,,,,/,,,,,/,,,,,b/,,,,,/r,,,,, r")
    assert knowledge.evaluate(even) == 0
    ahead = parse_position(",,,,,/,,,,,/,,,,,/,,,,,b/,,,,,/r,,,,,r r")
    assert knowledge.evaluate(ahead) > 0
    assert knowledge.evaluate(parse_position(WIN_IN_ONE)) == WON_SOON


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 80))
def test_the_evaluation_is_the_same_for_either_colour(seed: int, plies: int) -> None:
    """From Red's point of view, the mirror image (colours and turn swapped) scores the negation."""
    state = played_out(seed, plies)
    if state.outcome() is not None:
        return
    knowledge = DeathStacksKnowledge()

    def reds_view(position: DeathStacksState) -> int:
        score = knowledge.evaluate(position)
        return score if position.to_move == RED else -score

    twin = mirrored(state)
    assert twin.to_move == (BLACK if state.to_move == RED else RED)
    assert reds_view(twin) == -reds_view(state)


def test_ab4_is_a_dipole_baseline_only() -> None:
    with pytest.raises(
        ValueError, match=r"no bot called .ab4. plays Death Stacks; expected one of random, begin"
    ):
        create_bot("ab4", "death-stacks")


T = TypeVar("T")


class Recording(random.Random):
    """A Random that keeps every list it was asked to choose from."""

    def __init__(self) -> None:
        super().__init__(0)
        self.offered: list[list[object]] = []

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        self.offered.append([seq[index] for index in range(len(seq))])
        return seq[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_medium_weighs_the_same_near_moves_as_an_exact_score_of_every_move(seed: int) -> None:
    """Cutting off moves that cannot be near the best must not change which ones are near."""
    state = played_out(seed, 30)
    bot = create_bot("medium", "death-stacks", seed)
    assert isinstance(bot, SearchBot)
    style = replace(bot.style, blunder=0.0)
    exact = {}
    search = Search(style.knowledge(), quiescence=False)
    for move in state.legal_moves():
        state.play(move)
        exact[move] = -search.score(state, 1)
        state.undo()
    best = max(exact.values())
    near = [move for move in state.legal_moves() if exact[move] >= best - style.slack]
    bot.style, bot.rng = style, Recording()
    bot.choose(state, DEPTH_2)
    assert bot.rng.offered == [near]
