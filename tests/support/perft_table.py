"""What the perft tests of every game share: the table format."""

from __future__ import annotations

from pathlib import Path


def load_perft_table(path: Path) -> list[tuple[str, int, int]]:
    """`<position string> <depth> <nodes>` lines, `#` comments; positions may contain spaces."""
    entries = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            position, depth, nodes = line.rsplit(maxsplit=2)
            entries.append((position, int(depth), int(nodes)))
    return entries
