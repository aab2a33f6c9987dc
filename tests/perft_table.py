"""What the perft tests of every game share: the table format and a state without bulk counting."""

from __future__ import annotations

from pathlib import Path
from typing import Generic

from dipole_tui.games.base import M, State


def load_perft_table(path: Path) -> list[tuple[str, int, int]]:
    """`<position string> <depth> <nodes>` lines, `#` comments; positions may contain spaces."""
    entries = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            position, depth, nodes = line.rsplit(maxsplit=2)
            entries.append((position, int(depth), int(nodes)))
    return entries


class WithoutCount(Generic[M]):
    """A state whose count of moves is the length of its list (the protocol's default), so
    perft counts without the game's own bulk counting."""

    def __init__(self, state: State[M]) -> None:
        self._state = state

    def legal_moves(self) -> list[M]:
        return self._state.legal_moves()

    def play(self, move: M) -> None:
        self._state.play(move)

    def undo(self) -> M:
        return self._state.undo()

    def count_moves(self) -> int:
        return len(self._state.legal_moves())
