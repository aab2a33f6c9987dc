"""What the `cli` fixture (conftest.py) gives a test: `dipole-tui` run in the test's process."""

from __future__ import annotations

from typing import NamedTuple, Protocol


class Ran(NamedTuple):
    """What one command did: its exit status and what it printed to stdout and stderr."""

    status: int
    out: str
    err: str


class Cli(Protocol):
    def __call__(self, *args: str) -> Ran:
        """Run `dipole-tui` with these arguments, as the command line would."""
        ...
