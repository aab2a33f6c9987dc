"""`State.random_move`: the move `rng.choice(state.legal_moves())` draws, in every game and
variant, so that a random playout that calls it reaches the very positions it reached before;
and Bi-Pod draws it without building the list (tens of thousands of moves in the multi
variant), which is what makes the random games of the tests affordable."""

from __future__ import annotations

import random
from math import comb
from typing import Any

import pytest
from toy_game import ENTRY as TOY_ENTRY

from dipole_tui.games.base import AnyGame, State
from dipole_tui.games.bipod import ADOPT, BIPOD, BipodState
from dipole_tui.games.dipole import DIPOLE, PASS
from dipole_tui.registry import REGISTRY

CASES = [
    pytest.param(entry.game, variant, id=f"{entry.game.key}-{variant or 'default'}")
    for entry in [*REGISTRY.values(), TOY_ENTRY]
    for variant in entry.game.variants
]
GAMES = 3  # random games per variant
MANY = 10_000  # moves at the start of a variant that lists too many for more than one game
PLIES = 120  # plies at most of each
FEW = 30  # a position with at most this many moves has each of them drawn
DRAWS = 600  # draws in such a position: 30 * (29/30)**600 < 1e-7 that one is missed


def games(game: AnyGame, variant: str) -> int:
    """GAMES, or one of a variant whose positions list tens of thousands of moves."""
    return 1 if game.new(variant).count_moves() > MANY else GAMES


def positions(game: AnyGame, variant: str, seed: int) -> list[State[Any]]:
    """The positions of a random game (its end included), each a copy."""
    rng = random.Random(seed)
    state: State[Any] = game.new(variant)
    seen = [state.copy()]
    while state.outcome() is None and state.plies < PLIES:
        state.play(state.random_move(rng))
        seen.append(state.copy())
    return seen


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_it_draws_what_choice_of_the_legal_moves_draws(game: AnyGame, variant: str) -> None:
    """The same move from the same seed: legal, uniform over the list, and the same games (of
    a list of tens of thousands of moves, the first only: it is the same draw in each)."""
    for number in range(games(game, variant)):
        for at, state in enumerate(positions(game, variant, number)):
            if at and state.count_moves() > MANY:
                continue
            legal = state.legal_moves()
            if not legal:
                assert state.outcome() is not None
                with pytest.raises(IndexError):
                    state.random_move(random.Random(at))
                continue
            move = state.random_move(random.Random(at))
            assert move == random.Random(at).choice(legal)
            assert state.is_legal(move) and move in legal
            if len(legal) <= FEW:
                rng = random.Random(at)
                assert {state.random_move(rng) for _ in range(DRAWS)} == set(legal)


@pytest.mark.parametrize("variant", BIPOD.variants)
def test_bipods_nth_move_is_the_listed_one(variant: str) -> None:
    """Every index of every position of random games, before adoption and after, but for the
    multi variant's long first turns: of its start, the first and last move of each size and a
    sample between."""
    rng = random.Random(0)
    for number in range(games(BIPOD, variant)):
        for state in positions(BIPOD, variant, number):
            assert isinstance(state, BipodState)
            if state.plies and state.count_moves() > MANY:
                continue
            legal = state.legal_moves()
            indexes: list[int] | range = range(len(legal))
            if len(legal) > MANY:
                empty = state.empty.bit_count()
                ends = [empty, empty + comb(empty, 2), len(legal) - 1]
                edges = {index + step for index in ends for step in (-1, 0)}
                indexes = sorted({0, *edges, *rng.sample(indexes, 300)})
            assert [state.nth_move(index) for index in indexes] == [legal[i] for i in indexes]
            for outside in (-1, len(legal)):
                with pytest.raises(IndexError):
                    state.nth_move(outside)


def test_bipod_multi_draws_every_kind_of_turn_without_listing_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A whole game of the multi variant, as the tests' playouts play it, never lists the
    moves; with a few cells left one, two and three stones and adopt are all drawn."""

    def listing(self: BipodState) -> list[Any]:
        raise AssertionError("random_move listed the legal moves")

    monkeypatch.setattr(BipodState, "legal_moves", listing)
    rng = random.Random(7)
    state = BIPOD.new("multi")
    while state.empty.bit_count() > 5:  # then 3 to 5 empty cells: room for three stones
        state.play(state.random_move(rng))
    assert state.runner is None and state.outcome() is None
    drawn = {state.random_move(rng) for _ in range(DRAWS)}
    assert {(move.kind, len(move.cells)) for move in drawn} == {
        ("x", 1),
        ("x", 2),
        ("x", 3),
        (ADOPT.kind, 0),
    }
    while state.outcome() is None:
        state.play(state.random_move(rng))
    assert state.plies > 20


def test_a_forced_pass_is_drawn() -> None:
    state = DIPOLE.parse_position("8:W:Wd4=1:Bc5=2,e5=2")
    assert state.random_move(random.Random(1)) == PASS
