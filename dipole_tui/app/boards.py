"""The board widget of each game the app can play: a game becomes playable when its board joins."""

from __future__ import annotations

from collections.abc import Callable

from ..games.base import State
from .bipod_board import BipodBoard
from .death_stacks_board import DeathStacksBoard
from .dipole_board import DipoleBoard
from .game_board import GameBoard

BOARDS: dict[str, type[GameBoard]] = {
    "dipole": DipoleBoard,
    "death-stacks": DeathStacksBoard,
    "bipod": BipodBoard,
}
PLAYABLE = tuple(BOARDS)


def make_board(game_key: str, state: State, ascii_glyphs: bool) -> GameBoard:
    board: Callable[..., GameBoard] = BOARDS[game_key]  # each takes its own game's state
    return board(state, ascii_glyphs=ascii_glyphs)
