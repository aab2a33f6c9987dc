"""Every registered game has everything the app and the bots ask of it: a missing piece fails
here, not at a key press (a missing help page once raised FileNotFoundError on `?`)."""

from __future__ import annotations

import pytest

from dipole_tui.app.boards import BOARDS
from dipole_tui.app.screens import HELP
from dipole_tui.bots import LEVELS, Budget, create_bot
from dipole_tui.bots.levels import STYLES
from dipole_tui.games import GAMES


@pytest.mark.parametrize("key", list(GAMES))
def test_a_game_has_a_board_a_help_page_and_a_ladder(key: str) -> None:
    assert key in BOARDS, f"{key} has no board widget"
    assert (HELP / f"{key}.md").is_file(), f"{key} has no help page"
    assert {"easy", "medium", "hard"} <= set(STYLES[key]), f"{key} lacks a level's style"
    state = GAMES[key].new()
    for level in LEVELS:  # each level plays a legal move in the game (with its own knowledge)
        move = create_bot(level, key, seed=1).choose(state, Budget(movetime=0.05, depth=2))
        assert move in state.legal_moves(), f"{key}'s {level} bot played {move}"


def test_the_keys_help_page_is_there() -> None:
    assert (HELP / "keys.md").is_file()
