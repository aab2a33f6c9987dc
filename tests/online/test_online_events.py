"""A room's events, numbered (protocol 3, issue 42): a client coming back with `since` is told
exactly what it missed, or the whole game when the server cannot say; the client applies each
event once and in order; the versions and the events survive a restart, and a file of an older
server opens."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from online_steps import Peer, seated_pair

import dipole_tui
from dipole_tui.control.keeper import Keeper
from dipole_tui.online.client import Link
from dipole_tui.online.protocol import (
    VERSION,
    Join,
    Moved,
    Offer,
    Seated,
    Seats,
    ServerMessage,
    WholeGame,
)
from dipole_tui.online.seat import OnlineGame
from dipole_tui.online.server import STORE_NAME, GameServer, running_server
from dipole_tui.online.store import SCHEMA, digest
from dipole_tui.registry import game_named
from dipole_tui.saves import Autosave
from dipole_tui.session import Session

GAME = "death-stacks"  # a game with draws, so with offers


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[GameServer]:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as running:
        yield running


async def play(
    players: list[Peer], hearing: list[Peer], session: Session[Any], rng: random.Random
) -> dict[str, Any]:
    """The side to move plays a random legal move; those `hearing` read its `moved`."""
    legal = [m for m in session.state.legal_moves() if not session.is_pass(m)]
    move = session.game.format_move(rng.choice(legal))
    mover = players[session.state.to_move]
    await mover.send("move", room=mover.room, ply=session.state.plies, move=move)
    seen = [await peer.read_a("moved") for peer in hearing]
    session.play(session.game.parse_move(move, session.state))
    return seen[0]


def kinds(answer: list[dict[str, Any]]) -> list[str]:
    return [message["type"] for message in answer]


async def nothing_more(peer: Peer) -> None:
    """The answer is over: the next thing the peer hears is the answer to its ping."""
    await peer.send("ping")
    assert await peer.read() == {"type": "pong"}


async def test_a_player_back_after_move_n_is_told_exactly_what_followed(
    server: GameServer,
) -> None:
    """Gone after the `moved` of version N: back with since=N, the move and the draw offer
    made meanwhile (N+1, N+2), then the seats; no whole game. A watcher likewise."""
    players = await seated_pair(server.port, GAME)
    watcher = await Peer.open(server.port)
    await watcher.sit("watch", room=players[0].room)
    session, rng = Session.new(game_named(GAME)), random.Random(11)
    for _ in range(4):
        last = await play(players, [*players, watcher], session, rng)
    n = last["version"]
    assert n == 4 and last["ply"] == 3
    gone = players[1 - session.state.to_move]
    secret = gone.secret
    await gone.close()
    staying = [peer for peer in players if peer is not gone]
    moved = await play(players, [*staying, watcher], session, rng)
    await staying[0].send("draw", room=gone.room)
    offer = await watcher.read_a("offer")
    assert (moved["version"], offer["version"]) == (n + 1, n + 2)
    back = await Peer.open(server.port)
    answer = await back.come_back("join", room=gone.room, secret=secret, since=n)
    assert kinds(answer) == ["seated", "moved", "offer", "seats"]
    assert answer[0]["version"] == n + 2 and back.side == gone.side
    assert answer[1:3] == [moved, offer]
    assert answer[3]["online"] == [True, True]
    await nothing_more(back)
    late = await Peer.open(server.port)
    answer = await late.come_back("watch", room=gone.room, since=n + 1)
    assert kinds(answer) == ["seated", "offer", "seats"] and answer[1] == offer
    await back.send("draw", room=back.room)  # the offer stood: accepted
    ended = await late.read_a("ended")
    assert (ended["result"], ended["version"]) == ("1/2-1/2", n + 3)


@pytest.mark.parametrize("since", [None, 4, 99])
async def test_without_since_or_one_ahead_of_the_room_the_whole_game_is_sent(
    server: GameServer, since: int | None
) -> None:
    """None: a first join; ahead of the room (99): a client of another server's life. Up to
    date (4 with the room at 4): nothing replayed, the seats only."""
    players = await seated_pair(server.port, GAME)
    session, rng = Session.new(game_named(GAME)), random.Random(5)
    for _ in range(4):
        await play(players, players, session, rng)
    peer = await Peer.open(server.port)
    fields = {} if since is None else {"since": since}
    answer = await peer.come_back("watch", room=players[0].room, **fields)
    assert answer[0]["version"] == 4
    if since == 4:
        assert kinds(answer) == ["seated", "seats"]
    else:
        assert kinds(answer) == ["seated", "game"] and answer[1]["version"] == 4
        assert Session.from_text(answer[1]["record"]).state == session.state
    await nothing_more(peer)


async def test_a_draw_offer_standing_is_not_made_again(server: GameServer) -> None:
    """One offer a side until the next move: the log holds at most a move and an offer a ply."""
    white, black = await seated_pair(server.port, GAME)
    await white.send("draw", room=white.room)
    assert (await black.read_a("offer"))["version"] == 1
    said = await white.refused("draw", room=white.room)
    assert (
        said["code"] == "refused" and said["text"] == "your draw offer stands until the next move"
    )
    await nothing_more(black)


async def test_the_events_and_a_standing_offer_survive_a_restart(tmp_path: Path) -> None:
    folder = tmp_path / "server"
    async with running_server("127.0.0.1", 0, folder) as server:
        players = await seated_pair(server.port, GAME)
        session, rng = Session.new(game_named(GAME)), random.Random(3)
        for _ in range(2):
            await play(players, players, session, rng)
        await players[0].send("draw", room=players[0].room)
        offer = await players[1].read_a("offer")
    async with running_server("127.0.0.1", 0, folder) as server:
        back = await Peer.open(server.port)
        answer = await back.come_back("join", room=players[1].room, secret=players[1].secret,
                                      since=1)  # fmt: skip
        assert kinds(answer) == ["seated", "moved", "offer", "seats"]
        assert answer[0]["version"] == 3 and answer[2] == offer
        assert answer[1]["ply"] == 1 and answer[1]["version"] == 2
        await back.send("draw", room=back.room)  # White's offer still stands
        ended = await back.read_a("ended")
        assert (ended["result"], ended["version"]) == ("1/2-1/2", 4)
    with sqlite3.connect(folder / STORE_NAME) as db:
        versions = [v for (v,) in db.execute("SELECT version FROM events ORDER BY version")]
    assert versions == [1, 2, 3, 4]


# A file of a server of protocol 2: no events, schema 0.
OLD_SCHEMA = """
CREATE TABLE rooms (
    code TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, clock TEXT,
    date TEXT NOT NULL, created REAL NOT NULL, result TEXT, termination TEXT, invite TEXT);
CREATE INDEX rooms_created ON rooms (created);
CREATE TABLE seats (
    code TEXT NOT NULL, side INTEGER NOT NULL, secret TEXT NOT NULL,
    PRIMARY KEY (code, side)) WITHOUT ROWID;
CREATE TABLE moves (
    code TEXT NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL, white REAL, black REAL,
    PRIMARY KEY (code, ply)) WITHOUT ROWID;
"""


async def test_a_room_stored_before_events_opens_and_a_since_before_them_gets_the_game(
    tmp_path: Path,
) -> None:
    """Its two moves predate the log: the room is at version 2, and since=0 is too old."""
    folder, secrets = tmp_path / "server", ("w" * 32, "b" * 32)
    folder.mkdir()
    with sqlite3.connect(folder / STORE_NAME) as db:
        db.executescript(OLD_SCHEMA)
        db.execute("INSERT INTO rooms VALUES ('OLD2RM', 'dipole', '8x8', NULL, '2025.01.01', "
                   "0, NULL, NULL, NULL)")  # fmt: skip
        for side, secret in enumerate(secrets):
            db.execute("INSERT INTO seats VALUES ('OLD2RM', ?, ?)", (side, digest(secret)))
        for ply, move in enumerate(("e1-e3", "d8-d6")):
            db.execute("INSERT INTO moves VALUES ('OLD2RM', ?, ?, NULL, NULL)", (ply, move))
    db.close()
    async with running_server("127.0.0.1", 0, folder) as server:
        white = await Peer.open(server.port)
        answer = await white.come_back("join", room="OLD2RM", secret=secrets[0], since=0)
        assert kinds(answer) == ["seated", "game"] and answer[1]["version"] == 2
        assert answer[1]["plies"] == 2
        black = await Peer.open(server.port)
        answer = await black.come_back("join", room="OLD2RM", secret=secrets[1], since=2)
        assert kinds(answer) == ["seated", "seats"]
        await white.send("move", room="OLD2RM", ply=2, move="e3-e5")
        assert (await black.read_a("moved"))["version"] == 3
    with sqlite3.connect(folder / STORE_NAME) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA,)
        assert db.execute("SELECT version FROM events").fetchall() == [(3,)]
    db.close()


def test_a_file_of_a_newer_server_is_refused_in_one_line(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    db.close()
    root = str(Path(dipole_tui.__file__).parents[1])
    done = subprocess.run(
        [sys.executable, "-m", "dipole_tui", "serve", "--port", "0", "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": root},
        timeout=30,
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"dipole-tui: cannot keep rooms in {tmp_path / STORE_NAME}: it was written by a newer "
        f"dipole-tui (store schema {SCHEMA + 1}, this one reads up to {SCHEMA}): upgrade "
        "dipole-tui\n"
    )


async def test_a_client_of_protocol_2_is_still_answered_with_the_whole_game(
    server: GameServer,
) -> None:
    """It sends no `since` and passes over the `version` fields: nothing else changed for it."""
    white, _ = await seated_pair(server.port, GAME)
    old = await Peer.open(server.port, hello=False)
    await old.send("hello", version=2, client="dipole-tui 0.8")
    assert await old.read() == {"type": "welcome", "version": VERSION, "server": "dipole-tui"}
    game = await old.sit("join", room=white.room)
    assert game["version"] == 0 and old.side is None


async def until(test: Callable[[], bool], seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not test():
            await asyncio.sleep(0.02)


async def test_the_app_applies_each_event_once_and_in_order(
    server: GameServer, tmp_path: Path
) -> None:
    """The app's own link and referee, coming back with a stale `since` (2, its game at 4):
    the events 3 and 4 told again are passed over, 5 and 6 applied; no whole game, and no
    resync (the link stays up)."""
    players = await seated_pair(server.port, GAME)
    session, rng = Session.new(game_named(GAME)), random.Random(8)
    for _ in range(4):
        await play(players, players, session, rng)
    url = f"ws://127.0.0.1:{server.port}"
    code, secret = players[1].room, players[1].secret
    await players[1].close()
    keeper = Keeper(Session.new(game_named(GAME)), Autosave(tmp_path / "black"))
    heard: list[ServerMessage] = []

    def hear(message: ServerMessage) -> None:
        heard.append(message)
        keeper.referee.from_server(message)

    room = OnlineGame(url, code=code)
    first = Link(url, Join(code, secret), hear)
    keeper.go_online(room, first)
    running = asyncio.create_task(first.run())
    await until(lambda: room.current)
    assert room.version == 4 and isinstance(heard[-1], WholeGame)
    await first.close()
    await running
    mover = players[session.state.to_move]
    assert mover is players[0]
    await play(players, [players[0]], session, rng)
    await players[0].send("draw", room=code)
    await players[0].read_a("offer")
    heard.clear()
    again = Link(url, Join(code, secret, since=2), hear)
    keeper.go_online(room, again)
    running = asyncio.create_task(again.run())
    await until(lambda: room.version == 6 and room.current)
    await asyncio.sleep(0.1)  # a resync would drop the link now
    assert [type(m) for m in heard[:6]] == [Seated, Moved, Moved, Moved, Offer, Seats]
    assert not any(isinstance(m, WholeGame) for m in heard) and again.connected
    assert keeper.session.state == session.state and room.offer == 0
    await again.close()
    await running
