"""What one connection, one address and the whole server may ask for, and the counts kept to
hold them to it.

An address is a machine (an IPv6 one by its /64 network: one host holds a whole one). Its
connections, the guesses it makes (a code, secret or invitation that fits no room), the rooms
it asks after and the finished games it is sent are counted across all its connections, so
opening more connections buys nothing. Loopback is an address like any other unless the
server is run for a bench.
"""

from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass, field

from .protocol import MOST_BYTES


@dataclass(frozen=True)
class Limits:
    """The server's limits (docs/protocol.md, Limits, says them to people)."""

    messages_per_second: float = 20.0  # a token bucket: this rate, bursts of `burst`
    burst: int = 40
    too_fast_before_close: int = 20  # too-fast answers before the connection is closed
    rooms_per_address: int = 50  # unfinished rooms created from one address (this run)
    connections_per_address: int = 20
    guesses_per_minute: float = 10.0  # wrong codes, secrets and invitations; bursts of...
    guess_burst: int = 20
    asked_per_minute: float = 600.0  # rooms asked after by `rooms`, bursts of as many
    names_per_hour: float = 5.0  # new names claimed, bursts of as many
    seeks_per_minute: float = 30.0  # seeks posted, bursts of as many
    archived_per_minute: float = 600.0  # finished games sent by `games`, bursts of as many
    most_seeks: int = 10_000  # open in the lobby at once
    loopback_exempt: bool = False  # `serve --bench`: this machine's own address is not counted
    hello_seconds: float = 10.0
    idle_seconds: float = 600.0  # the client pings every 60 s
    most_connections: int = 20_000
    most_bytes: int = MOST_BYTES
    unjoined_days: float = 7.0  # a room whose second seat was never taken is removed then
    resume_grace: float = 60.0  # after a restart: see Room.stored
    flag_check_seconds: float = 60.0  # how often games of days are looked for past their deadline


class Bucket:
    """A token bucket: `rate` a second, at most `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = self.burst, time.monotonic()
        self.refused = 0

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self, count: float = 1.0) -> bool:
        """Take `count` tokens if there are as many; whether there were."""
        self._fill()
        if self.tokens < count:
            self.refused += 1
            return False
        self.tokens -= count
        return True

    def whole(self) -> int:
        """The whole tokens there are now (none is taken)."""
        self._fill()
        return int(self.tokens)

    def give(self, count: float) -> None:
        """Give back tokens taken and not used (never past `burst`)."""
        self.tokens = min(self.burst, self.tokens + count)

    def empty(self) -> bool:
        """No token left now (nothing is taken)."""
        self._fill()
        return self.tokens < 1

    def full(self) -> bool:
        self._fill()
        return self.tokens >= self.burst


@dataclass
class Address:
    """What one address has open, made and asked, across its connections."""

    guesses: Bucket
    asked: Bucket
    names: Bucket
    seeks: Bucket
    archived: Bucket
    connections: int = 0
    created: set[str] = field(default_factory=set)  # its unfinished rooms

    @classmethod
    def new(cls, limits: Limits) -> Address:
        return cls(
            Bucket(limits.guesses_per_minute / 60, limits.guess_burst),
            Bucket(limits.asked_per_minute / 60, limits.asked_per_minute),
            Bucket(limits.names_per_hour / 3600, limits.names_per_hour),
            Bucket(limits.seeks_per_minute / 60, limits.seeks_per_minute),
            Bucket(limits.archived_per_minute / 60, limits.archived_per_minute),
        )

    def forgettable(self) -> bool:
        """Nothing open or made, and nothing counted against it any more."""
        return (
            not self.connections
            and not self.created
            and self.guesses.full()
            and self.asked.full()
            and self.names.full()
            and self.seeks.full()
            and self.archived.full()
        )


def address_key(address: str) -> str:
    """The address limits are counted by: an IPv4 address, an IPv6 one's /64 network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("/")[0]).is_loopback
    except ValueError:
        return False


__all__ = ["Address", "Bucket", "Limits", "address_key", "is_loopback"]
