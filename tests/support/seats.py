"""Seats from the text a test writes them in, as the command line reads them."""

from __future__ import annotations

from dipole_tui.session import Seat


def seated(white: str, black: str) -> tuple[Seat, Seat]:
    """Both sides' seats; ValueError for a seat there is not."""
    return Seat(white), Seat(black)
