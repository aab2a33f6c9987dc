"""A room's events, numbered as lichess numbers a game's: what a client coming back missed.

Every event a room tells its seats and watchers (a move, a draw offer, the end) gets the next
version, 1, 2, 3..., and is kept as it went on the wire. A client that comes back says the last
version it applied (`since`) and is sent the events after it; when the log cannot say what the
client missed (no `since`, one the log does not reach back to, one ahead of the room: a client
of another server's life), it gets the whole game instead.

The log holds the whole game: a room holds its whole session in memory anyway, the events are
at most a move and a draw offer a ply (an offer that stands is not made again) and the end, and
every game ends by its rules. A room stored by a server of protocol 2 kept no events: its
versions start after its moves, and a client asking for anything before gets the whole game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .protocol import Asked, Offer, Rematched, read_reply
from .store import StoredRoom


@dataclass
class EventLog:
    base: int = 0  # the version before the first event kept
    frames: list[str] = field(default_factory=list)  # the events kept, as they went on the wire

    @property
    def version(self) -> int:
        """The room's last event's version (0 before any)."""
        return self.base + len(self.frames)

    def after(self, since: int | None) -> list[str] | None:
        """The events after version `since`, oldest first; None when the log cannot say them
        all (then the client is sent the whole game)."""
        if since is None or not self.base <= since <= self.version:
            return None
        return self.frames[since - self.base :]

    def add(self, frame: str) -> None:
        self.frames.append(frame)

    @classmethod
    def stored(cls, kept: StoredRoom) -> EventLog:
        """The log as the store kept it. Without events, the moves and the end stored are
        counted as the versions they would have had, so that no `since` reaches before them."""
        events = kept.events
        if not events:
            return cls(len(kept.moves) + (kept.result is not None))
        return cls(events[0].version - 1, [event.message for event in events])

    def standing_offer(self) -> int | None:
        """The side whose draw offer stands: one made last, after every move."""
        last = read_reply(self.frames[-1]) if self.frames else None
        return last.side if isinstance(last, Offer) else None

    def standing_ask(self) -> tuple[str, int] | None:
        """What stands asked, and by which side: a take-back or a rematch asked last."""
        last = read_reply(self.frames[-1]) if self.frames else None
        return (last.what, last.side) if isinstance(last, Asked) else None

    def rematch(self) -> str | None:
        """The room of the rematch agreed, if one was."""
        last = read_reply(self.frames[-1]) if self.frames else None
        return last.next if isinstance(last, Rematched) else None  # the room's last event


__all__ = ["EventLog"]
