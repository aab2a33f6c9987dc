"""The board widget of each registered game, imported from the name the registry gives."""

from __future__ import annotations

import importlib
from typing import Any

from ..games.base import State
from ..registry import REGISTRY
from .game_board import GameBoard


def board_class(game_key: str) -> type[GameBoard[Any, Any]]:
    """The board widget class a game's registry entry names (`module:Class`)."""
    module, name = REGISTRY[game_key].board.split(":")
    board: type[GameBoard[Any, Any]] = getattr(importlib.import_module(module), name)
    return board


BOARDS = {key: board_class(key) for key in REGISTRY}
PLAYABLE = tuple(BOARDS)


def make_board(game_key: str, state: State[Any], ascii_glyphs: bool) -> GameBoard[Any, Any]:
    board: Any = BOARDS[game_key]  # each board takes its own game's state
    return board(state, ascii_glyphs=ascii_glyphs)  # type: ignore[no-any-return]
