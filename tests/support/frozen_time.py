"""A clock stuck at one second, for the tests of what is named or kept when two events fall in
the same second."""

from __future__ import annotations

from datetime import datetime
from typing import Any


class FrozenClock(datetime):
    """datetime.now() stuck at one second, so that two events fall in the same second."""

    @classmethod
    def now(cls, tz: Any = None) -> FrozenClock:
        return cls(2026, 11, 23, 12, 34, 56)
