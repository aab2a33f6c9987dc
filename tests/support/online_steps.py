"""A plain protocol client for the server's tests: a connection that says hello, sends
messages as keyword arguments and reads replies as dicts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from dipole_tui.online.protocol import VERSION

WAIT = 5.0  # seconds a reply may take before the test fails


class Peer:
    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.room = ""
        self.secret: str | None = None
        self.side: int | None = None
        self.invite: str | None = None  # the key to the free seat, given to its creator

    @classmethod
    async def open(cls, port: int, hello: bool = True) -> Peer:
        peer = cls(await connect(f"ws://127.0.0.1:{port}", open_timeout=WAIT))
        if hello:
            await peer.send("hello", version=VERSION, client="tests")
            assert (await peer.read())["type"] == "welcome"
        return peer

    async def send(self, kind: str, **fields: Any) -> None:
        await self.connection.send(json.dumps({"type": kind, **fields}))

    async def read(self) -> dict[str, Any]:
        async with asyncio.timeout(WAIT):
            reply: dict[str, Any] = json.loads(await self.connection.recv())
        return reply

    async def read_a(self, kind: str) -> dict[str, Any]:
        """The next message of that kind; `seats` and `offer` news before it are passed over,
        anything else fails the test."""
        while True:
            reply = await self.read()
            if reply["type"] == kind:
                return reply
            assert reply["type"] in ("seats", "offer"), reply

    async def sit(self, kind: str, **fields: Any) -> dict[str, Any]:
        """create, join or watch: the `seated` reply is kept, the `game` after it returned."""
        await self.send(kind, **fields)
        seated = await self.read_a("seated")
        self.room, self.secret, self.side = seated["room"], seated["secret"], seated["side"]
        self.invite = seated.get("invite")
        game = await self.read_a("game")
        assert game["room"] == self.room
        return game

    async def come_back(self, kind: str, **fields: Any) -> list[dict[str, Any]]:
        """join or watch (with `since`, say): every message of the answer, from `seated` to
        the `game`, or to the `seats` that ends the events replayed."""
        await self.send(kind, **fields)
        answer = [await self.read_a("seated")]
        self.room, self.secret, self.side = (answer[0][key] for key in ("room", "secret", "side"))
        while answer[-1]["type"] not in ("game", "seats"):
            answer.append(await self.read())
        return answer

    async def refused(self, kind: str, **fields: Any) -> dict[str, Any]:
        await self.send(kind, **fields)
        reply = await self.read_a("error")
        return reply

    async def closed(self) -> int | None:
        """Wait for the server to close the connection; its close code."""
        async with asyncio.timeout(WAIT):
            await self.connection.wait_closed()
        return self.connection.close_code

    async def close(self) -> None:
        await self.connection.close()


Tokens = dict[str, str]  # the names a test claimed, and their tokens


async def named(port: int, name: str, tokens: Tokens) -> Peer:
    """A connection playing as `name`: claimed, or taken again with its token."""
    peer = await Peer.open(port)
    await peer.send("claim", name=name, **({"token": tokens[name]} if name in tokens else {}))
    answer = await peer.read()
    assert answer["type"] == "named", answer
    tokens.setdefault(name, answer.get("token", ""))
    return peer


async def seated_pair(
    port: int,
    game: str = "dipole",
    names: tuple[str, str] | None = None,
    tokens: Tokens | None = None,
    **create: Any,
) -> list[Peer]:
    """White and Black in a new room of `game`: White made it (with `create`'s fields, as a
    clock or rated), Black took the free seat with the invitation; named players when `names`
    are given (claimed, or taken again with their `tokens`)."""
    if names is None:
        white, black = await Peer.open(port), await Peer.open(port)
    else:
        known = {} if tokens is None else tokens
        white, black = await named(port, names[0], known), await named(port, names[1], known)
    await white.sit("create", game=game, side="white", **create)
    await black.sit("join", room=white.room, invite=white.invite)
    return [white, black]


def store_jobs(server: Any) -> list[str]:
    """The store methods whose jobs the server runs from now on (each a round trip awaited),
    named as they come ("create_room", "standing"), the housekeeping's left out: the
    server's `store._run` wrapped for the rest of its life."""
    jobs: list[str] = []
    run = server.store._run

    async def counted(job: Any) -> Any:
        method = job.__qualname__.split(".")[1]  # SqliteStore.<method>.<locals>.job
        if method not in ("overdue", "expire"):
            jobs.append(method)
        return await run(job)

    server.store._run = counted
    return jobs
