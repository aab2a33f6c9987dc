"""Games played by their notation and kept as files in a data folder, for the tests of the
listing of saved games and of the Open dialog."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

from paths import DATA
from seats import seated

from dipole_tui.records import parse_record
from dipole_tui.registry import REGISTRY
from dipole_tui.session import Session


def played(
    game_key: str,
    moves: list[str],
    variant: str | None = None,
    players: tuple[str, str] = ("human", "hard"),
) -> Session[Any]:
    game = REGISTRY[game_key].game
    session = Session.new(game, variant, seated(*players))
    for text in moves:
        session.play(game.parse_move(text, session.state))
    return session


def kept(path: Path, text: str, when: str) -> Path:
    """A game file in the data folder, its modification time set as if saved at `when`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    stamp = datetime.fromisoformat(when).timestamp()
    os.utime(path, (stamp, stamp))
    return path


SAMPLE_DIPOLE = DATA / "sample-dipole.txt"  # won by Black, 26 plies


def a_move_from_a_win(players: tuple[str, str]) -> tuple[Session[Any], str]:
    """The sample Dipole game, played from the start, without its last move (Black's, which
    wins): the game, and that move."""
    game = REGISTRY["dipole"].game
    state = parse_record(SAMPLE_DIPOLE.read_text(encoding="utf-8")).state
    moves = [game.format_move(move) for move in state.moves_played]
    return played("dipole", moves[:-1], players=players), moves[-1]
