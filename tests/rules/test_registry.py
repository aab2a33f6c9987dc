"""Every registered game has everything the app and the bots ask of it: a missing piece fails
here, not at a key press (a missing help page once raised FileNotFoundError on `?`)."""

from __future__ import annotations

import itertools

import pytest
from game_samples import SAMPLES, check_samples

from dipole_tui.app.boards.game_board import GameBoard
from dipole_tui.app.boards.registered import board_class
from dipole_tui.app.dialogs.help import HELP
from dipole_tui.bots import BASELINES, LEVELS, Budget
from dipole_tui.registry import (
    REGISTRY,
    create_bot,
    describe_level,
    levels,
    nearest_level,
    rating,
)


@pytest.mark.parametrize("key", list(REGISTRY))
def test_a_game_has_a_board_a_help_page_and_a_ladder(key: str) -> None:
    entry = REGISTRY[key]
    assert entry.game.key == key
    board = board_class(key)
    assert board is not None and issubclass(board, GameBoard), f"{entry.board} is no board"
    assert (HELP / entry.help_page).is_file(), f"{key} has no help page {entry.help_page}"
    assert set(entry.ladder) <= set(LEVELS) | set(BASELINES), f"{key} has a level no one offers"
    assert entry.game.move_examples, f"{key} gives no move examples for the entry"
    state = entry.game.new()
    for level in levels(key):  # each level plays a legal move in the game (with its own knowledge)
        move = create_bot(level, key, seed=1).choose(state, Budget(movetime=0.05, depth=2))
        assert move in state.legal_moves(), f"{key}'s {level} bot played {move}"


def test_the_keys_help_page_is_there() -> None:
    assert (HELP / "keys.md").is_file()


@pytest.mark.parametrize("key", list(REGISTRY))
def test_each_level_has_a_rating_and_the_ladder_climbs(key: str) -> None:
    offered = levels(key)
    assert offered[0] == "random" and {"easy", "medium", "hard"} <= set(offered)
    ratings = [rating(key, level) for level in offered]
    assert ratings[0] == 0
    assert all(low < high for low, high in itertools.pairwise(ratings)), ratings
    for baseline in BASELINES:
        assert baseline not in offered


def test_a_level_is_shown_with_its_number_and_rating() -> None:
    assert describe_level("dipole", "random") == "random (0)"
    easy = levels("dipole").index("easy")
    assert describe_level("dipole", "easy") == f"{easy} easy ({rating('dipole', 'easy'):+d})"


def test_a_level_another_game_lacks_becomes_the_nearest_it_has() -> None:
    missing = [(key, name) for key in REGISTRY for name in LEVELS if name not in levels(key)]
    for key, name in missing:
        near = nearest_level(key, name)
        assert near in levels(key)
        distance = abs(LEVELS.index(near) - LEVELS.index(name))
        assert all(
            abs(LEVELS.index(other) - LEVELS.index(name)) >= distance for other in levels(key)
        )
    assert nearest_level("dipole", "easy") == "easy"


@pytest.mark.parametrize("key", list(REGISTRY))
def test_a_game_has_its_test_samples(key: str) -> None:
    """The generic tests are parametrized by the registry and read each game's samples: a game
    registered without its entry in tests/support/game_samples.py fails here, and there."""
    assert key in SAMPLES, f"{key} has no entry in tests/support/game_samples.py"
    check_samples(REGISTRY[key].game, SAMPLES[key])
    assert SAMPLES[key].board is not None, f"{key} has a board but no board samples"


def test_every_samples_entry_is_a_registered_game() -> None:
    assert set(SAMPLES) == set(REGISTRY)
