"""One connection to the server as the rooms see it (`Client`), the keys that open seats, and
the refusals a room answers with."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection, broadcast

from .protocol import NEW_IN_5, REFUSED, ProtocolError, ServerMessage, write_message

if TYPE_CHECKING:
    from .rooms import Room


@dataclass(eq=False)
class Client:
    """One connection, and where it sits: at most one room, a side or watching (None)."""

    connection: ServerConnection
    address: str
    room: Room | None = None
    side: int | None = None
    name: str | None = None  # the name it plays under (`claim`), as first written
    version: int = 0  # the protocol its hello spoke: an older client is sent no newer message
    messages: int = 0  # read from it, for the log
    last_said: float = float("-inf")  # when it last said a chat line (time.monotonic)
    refusals: int = 0  # errors sent to it

    def send(self, message: ServerMessage) -> None:
        if self.version >= 5 or message.TYPE not in NEW_IN_5:
            self.say(write_message(message))

    def say(self, frame: str) -> None:
        """A message written already (an event of the room's log)."""
        broadcast([self.connection], frame)


def refused(text: str) -> ProtocolError:
    return ProtocolError(REFUSED, text)


class WrongKey(ProtocolError):
    """A secret or an invitation that fits no seat of the room: a guess, counted as one."""

    def __init__(self, text: str) -> None:
        super().__init__(REFUSED, text)


RATED_UNNAMED = "a rated game is between named players: claim a name first"


def new_secret() -> str:
    """A seat's secret: 192 random bits."""
    return secrets.token_urlsafe(24)


def invitation(secret: str, code: str) -> str:
    """The key of the invitation to the free seat of room `code` whose other seat `secret`
    holds: a keyed hash of that secret (random, as unguessable as it), so the server keeps only
    its digest and can still show it again to the creator coming back."""
    keyed = hmac.new(secret.encode(), f"invitation {code}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(keyed.digest()[:18]).decode()


__all__ = ["RATED_UNNAMED", "Client", "WrongKey", "invitation", "new_secret", "refused"]
