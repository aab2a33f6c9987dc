"""The one look of a long job's progress, for the commands (`analyse`, `perft`) and the bench and
data scripts: what it is doing, the bar, how much of how much, then the time taken and left."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def progress_bar(console: Console, unit: str = "", *, transient: bool = True) -> Progress:
    """A bar on `console` for tasks described as they go (`add_task("games", ...)`), counted in
    `unit` (which may name a task's fields: "{task.fields[found]} positions"). Drawn on a
    terminal only, so that a piped run prints its results alone; gone once done, unless not
    `transient` (a resumable run's last count stays on the screen)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        *([TextColumn(unit)] if unit else []),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=transient,
        disable=not console.is_terminal,
    )
