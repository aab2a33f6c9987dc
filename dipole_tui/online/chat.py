"""A room's chat: its last lines, who hears each, and how fast one may speak.

Players' lines go to everyone in the room; watchers' lines to the watchers alone (so nobody
kibitzes to a player). Every line is stored with the game before it is told, and a client
coming in is sent the last ones it may hear. The text was read by the codec: one line, 140
characters at most, made displayable; the server strips it and adds nothing else.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable

from .connection import Client
from .protocol import MOST_CHAT, TOO_FAST, ChatLine, ProtocolError

LINES_A_SECOND = 1.0  # a client says one line a second at most


class RoomChat:
    def __init__(self, lines: Iterable[ChatLine] = ()) -> None:
        self.lines: deque[ChatLine] = deque(lines, maxlen=MOST_CHAT)

    def line(self, client: Client, text: str, now: float | None = None) -> ChatLine:
        """The client's line, refused when it speaks faster than a line a second."""
        now = time.monotonic() if now is None else now
        if now - client.last_said < 1.0 / LINES_A_SECOND:
            raise ProtocolError(TOO_FAST, "one chat line a second at most")
        client.last_said = now
        said = ChatLine(client.name, client.side, text.strip())
        self.lines.append(said)
        return said

    def heard_by(self, client: Client) -> tuple[ChatLine, ...]:
        """The lines the client may hear: a player, the players'; a watcher, all."""
        return tuple(line for line in self.lines if client.side is None or line.side is not None)


__all__ = ["LINES_A_SECOND", "RoomChat"]
