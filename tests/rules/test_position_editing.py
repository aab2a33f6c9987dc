"""Editing a position, the rules' side (docs/rules.md, "Editing a position"): what a square may
hold, a whole position checked, and every position read back as it was written."""

from __future__ import annotations

import random
from typing import Any

import pytest
from toy_game import TOY

from dipole_tui.games.base import AnyGame, GameError, State
from dipole_tui.games.bipod import BIPOD
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.registry import REGISTRY

GAMES: list[AnyGame] = [entry.game for entry in REGISTRY.values()] + [TOY]
VARIANTS = [(game, variant) for game in GAMES for variant in game.variants]


def rebuilt(game: AnyGame, state: State[Any]) -> State[Any]:
    contents = game.square_contents(state)
    again: State[Any] = game.position_from(
        state.variant, contents, state.to_move, game.choices_of(state)
    )
    return again


@pytest.mark.parametrize(("game", "variant"), VARIANTS, ids=lambda v: str(getattr(v, "key", v)))
def test_every_position_of_random_games_is_rebuilt_as_it_was(game: AnyGame, variant: str) -> None:
    for seed in range(4):
        state, rng = game.new(variant), random.Random(seed)
        for _ in range(120):
            if state.outcome() is not None:
                break
            assert rebuilt(game, state) == state
            assert rebuilt(game, state).variant == state.variant
            state.play(state.random_move(rng))


@pytest.mark.parametrize(("game", "variant"), VARIANTS, ids=lambda v: str(getattr(v, "key", v)))
def test_every_token_of_a_position_reads_back_on_its_square(game: AnyGame, variant: str) -> None:
    state = game.new(variant)
    names = {square.name for square in game.edit_squares(variant)}
    for square, token in game.square_contents(state).items():
        assert square in names
        assert game.read_token(variant, square, token) == token
    assert len(names) == len(game.edit_squares(variant))


def test_dipole_squares_are_the_dark_ones_top_row_first() -> None:
    squares = DIPOLE.edit_squares("8x8")
    assert len(squares) == 32
    assert squares[0] == ("b8", 0, 2)
    assert squares[-1] == ("g1", 7, 12)
    assert len(DIPOLE.edit_squares("10x10")) == 50


def test_dipole_tokens() -> None:
    assert DIPOLE.read_token("8x8", "e1", " w3 ") == "W3"
    assert DIPOLE.read_token("8x8", "e1", "b") == "B1"
    assert DIPOLE.read_token("10x10", "e1", "B20") == "B20"
    assert DIPOLE.read_token("8x8", "e1", "") == ""
    with pytest.raises(GameError, match="'w13' is not a stack of this board; expected W1 to W12"):
        DIPOLE.read_token("8x8", "e1", "w13")
    with pytest.raises(GameError, match="'rr' is not a stack"):
        DIPOLE.read_token("8x8", "e1", "rr")
    with pytest.raises(GameError, match="e2 is a light square"):
        DIPOLE.read_token("8x8", "e2", "W1")


def test_dipole_plus_and_minus() -> None:
    assert DIPOLE.step_token("8x8", "", 1, 1) == "B1"
    assert DIPOLE.step_token("8x8", "W3", 1, 1) == "W4"
    assert DIPOLE.step_token("8x8", "W1", -1, 0) == ""
    with pytest.raises(GameError, match="expected W1 to W12"):
        DIPOLE.read_token("8x8", "e1", DIPOLE.step_token("8x8", "W12", 1, 0))


def test_dipole_refusals() -> None:
    with pytest.raises(GameError, match="Black has no stack, so the game would be over"):
        DIPOLE.position_from("8x8", {"e1": "W3"}, 0)
    with pytest.raises(GameError, match="White has 13 checkers; an 8x8 game has at most 12"):
        DIPOLE.position_from("8x8", {"e1": "W12", "c1": "W1", "d8": "B1"}, 0)
    with pytest.raises(GameError, match="side to move is 0"):
        DIPOLE.position_from("8x8", {"e1": "W1", "d8": "B1"}, 2)
    state = DIPOLE.position_from("10x10", {"e1": "W1", "f10": "B2"}, 1)
    assert state.position() == "10:B:We1=1:Bf10=2"


def test_death_stacks_tokens_and_steps() -> None:
    assert DEATH_STACKS.read_token("standard", "c3", " RrB ") == "rrb"
    assert DEATH_STACKS.read_token("standard", "c3", ".") == ""
    with pytest.raises(GameError, match="'rgr' is not a stack; expected the stack's pieces"):
        DEATH_STACKS.read_token("standard", "c3", "rgr")
    with pytest.raises(GameError, match="with 13 Red; Red has 12 pieces in all"):
        DEATH_STACKS.read_token("standard", "c3", "r" * 13)
    with pytest.raises(GameError, match="g1 is off the board"):
        DEATH_STACKS.read_token("standard", "g1", "r")
    assert DEATH_STACKS.step_token("standard", "rb", 1, 0) == "rbb"
    assert DEATH_STACKS.step_token("standard", "", 1, 0) == "r"
    assert DEATH_STACKS.step_token("standard", "rb", -1, 0) == "r"


def test_death_stacks_refusals_and_a_study() -> None:
    with pytest.raises(GameError, match="Black controls no stack, so the game would be over"):
        DEATH_STACKS.position_from("standard", {"a1": "rbr"}, 0)
    with pytest.raises(GameError, match="Red has 13 pieces; a game has at most 12"):
        DEATH_STACKS.position_from("standard", {"a1": "r" * 12, "b1": "rb"}, 0)
    with pytest.raises(GameError, match="the board is empty"):
        DEATH_STACKS.position_from("standard", {}, 0)
    # Fewer than 12 pieces a side is a study, and a too-tall stack may be anyone's.
    state = DEATH_STACKS.position_from("standard", {"a1": "rrrrrr", "f6": "b"}, 0)
    assert state.position() == ",,,,,b/,,,,,/,,,,,/,,,,,/,,,,,/rrrrrr,,,,, r"
    assert {move.count for move in state.legal_moves()} == {2, 3, 4, 5, 6}


def test_bipod_tokens() -> None:
    assert BIPOD.read_token("", "e1", "X") == "x"
    assert BIPOD.read_token("", "e1", "O") == "O"
    assert BIPOD.read_token("", "i1", "@") == "@"
    with pytest.raises(GameError, match="i1 holds the start stone @, which stays"):
        BIPOD.read_token("", "i1", "")
    with pytest.raises(GameError, match="Q is a start stone: it stands on s1 only"):
        BIPOD.read_token("", "e1", "Q")
    with pytest.raises(GameError, match="'b' is not a stone; expected x"):
        BIPOD.read_token("", "e1", "b")
    with pytest.raises(GameError, match="not a cell"):
        BIPOD.read_token("", "a2", "x")
    with pytest.raises(GameError, match=r"\+ and - mean nothing in Bi-Pod"):
        BIPOD.step_token("", "x", 1, 0)


def test_bipod_runner_and_refusals() -> None:
    assert BIPOD.edit_choices("multi") == {"Runner": ("nobody yet", "First", "Second")}
    with pytest.raises(GameError, match="o/O stones but nobody has adopted"):
        BIPOD.position_from("", {"e1": "o"}, 0)
    state = BIPOD.position_from("multi", {"e1": "o", "f2": "x"}, 1, {"Runner": "Second"})
    assert (state.runner, state.to_move, state.variant) == (1, 1, "multi")
    assert BIPOD.choices_of(state) == {"Runner": "Second"}
    with pytest.raises(GameError, match="the Runner is nobody yet or First or Second"):
        BIPOD.position_from("", {}, 0, {"Runner": "Third"})
    # The o chain from i1 walled in: the Blocker has already won.
    walls = {"g1": "x", "k1": "x", "h2": "x", "j2": "x"}
    with pytest.raises(GameError, match="can no longer reach a short side, so the game would"):
        BIPOD.position_from("", walls, 0, {"Runner": "First"})
    assert BIPOD.position_from("", walls, 0).outcome() is None  # nobody runs yet: no chain to cut
