"""dipole-tui: abstract strategy games in the terminal, on a fast pure-Python rules core."""

__version__ = "0.1.0"
