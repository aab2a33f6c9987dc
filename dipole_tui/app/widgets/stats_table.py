"""The record against each level as a Rich table: one for the statistics screen and for
`dipole-tui stats` alike (Rich only, so the command line pays for no Textual)."""

from __future__ import annotations

from rich import box
from rich.table import Table

from ...games.base import shown
from ...registry import REGISTRY, describe_level, levels
from ...results import GameStats


def levels_table(found: GameStats, frame: box.Box) -> Table:
    """A row per level played, weakest first: games, won, lost, drawn."""
    table = Table(box=frame, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("against")
    for heading in ("games", "won", "lost", "drawn"):
        table.add_column(heading, justify="right")
    known = levels(found.game) if found.game in REGISTRY else []
    for level, tally in found.levels.items():
        said = describe_level(found.game, level) if level in known else shown(level)
        table.add_row(said, *map(str, (tally.games, tally.wins, tally.losses, tally.draws)))
    return table


__all__ = ["levels_table"]
