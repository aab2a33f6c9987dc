"""The board widget of each registered game, imported from the name its registry entry gives,
when the app first asks: a game registered for study only (no board) never stops the app."""

from __future__ import annotations

import importlib
from typing import Any

from ...games.base import State
from ...registry import REGISTRY
from .game_board import GameBoard


def board_class(game_key: str) -> type[GameBoard[Any, Any]] | None:
    """The board widget class a game's entry names (`module:Class`); None when it names none
    that imports (tests/rules/test_registry.py holds every shipped game to having one)."""
    module, _, name = REGISTRY[game_key].board.partition(":")
    try:
        board = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        return None
    return board if isinstance(board, type) and issubclass(board, GameBoard) else None


def playable() -> list[str]:
    """The registered games the app can draw, in the registry's order."""
    return [key for key in REGISTRY if board_class(key) is not None]


def make_board(game_key: str, state: State[Any], ascii_glyphs: bool) -> GameBoard[Any, Any]:
    """A new board for the game `game_key`, showing `state` (of that game)."""
    board = board_class(game_key)
    if board is None:
        raise LookupError(f"the game {game_key!r} has no board to play on")
    return board(state, ascii_glyphs=ascii_glyphs)
