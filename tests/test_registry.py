"""Every registered game has everything the app and the bots ask of it: a missing piece fails
here, not at a key press (a missing help page once raised FileNotFoundError on `?`)."""

from __future__ import annotations

import pytest

from dipole_tui.app.boards import board_class
from dipole_tui.app.game_board import GameBoard
from dipole_tui.app.screens import HELP
from dipole_tui.bots import LEVELS, Budget
from dipole_tui.registry import REGISTRY, create_bot


@pytest.mark.parametrize("key", list(REGISTRY))
def test_a_game_has_a_board_a_help_page_and_a_ladder(key: str) -> None:
    entry = REGISTRY[key]
    assert entry.game.key == key
    board = board_class(key)
    assert board is not None and issubclass(board, GameBoard), f"{entry.board} is no board"
    assert (HELP / entry.help_page).is_file(), f"{key} has no help page {entry.help_page}"
    assert set(LEVELS) - {"random"} <= set(entry.ladder), f"{key} lacks a level's style"
    assert entry.game.move_examples, f"{key} gives no move examples for the entry"
    state = entry.game.new()
    for level in LEVELS:  # each level plays a legal move in the game (with its own knowledge)
        move = create_bot(level, key, seed=1).choose(state, Budget(movetime=0.05, depth=2))
        assert move in state.legal_moves(), f"{key}'s {level} bot played {move}"


def test_the_keys_help_page_is_there() -> None:
    assert (HELP / "keys.md").is_file()
