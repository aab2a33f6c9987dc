"""The game server, played against for real: a server on a free loopback port, plain WebSocket
clients (online_steps.Peer) playing random legal games, refusals, spectators, reconnection,
clocks, bad input of every kind, and a SIGKILL of the `serve` command in the middle of a game."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from online_steps import Peer, store_jobs

import dipole_tui
from dipole_tui.online.protocol import VERSION
from dipole_tui.online.server import STORE_NAME, GameServer, Limits, running_server
from dipole_tui.online.store import digest
from dipole_tui.registry import REGISTRY, game_named
from dipole_tui.session import Session


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[GameServer]:
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        yield running


async def a_room(
    port: int, game: str = "dipole", watch: bool = True, **fields: Any
) -> tuple[list[Peer], Peer | None]:
    """White and Black seated in a new room (and a watcher, unless not wanted)."""
    white, black = await Peer.open(port), await Peer.open(port)
    await white.sit("create", game=game, side="white", **fields)
    await black.sit("join", room=white.room.lower(), invite=white.invite)  # codes in any case
    assert (white.side, black.side, black.room) == (0, 1, white.room)
    watcher = None
    if watch:
        watcher = await Peer.open(port)
        await watcher.sit("watch", room=white.room)
        assert watcher.side is None and watcher.secret is None
    return [white, black], watcher


async def play(
    players: list[Peer], others: list[Peer], session: Session[Any], move: str
) -> dict[str, Any]:
    """The side to move plays `move`; everyone sees it; the local session follows."""
    side, ply = session.state.to_move, session.state.plies
    await players[side].send("move", room=players[0].room, ply=ply, move=move)
    seen = [await peer.read_a("moved") for peer in (*players, *others)]
    assert all(m == seen[0] for m in seen)
    assert (seen[0]["ply"], seen[0]["move"], seen[0]["side"]) == (ply, move, side)
    session.play(session.game.parse_move(move, session.state))
    return seen[0]


async def play_randomly(
    players: list[Peer], others: list[Peer], session: Session[Any], plies: int, seed: int
) -> None:
    rng = random.Random(seed)
    while session.outcome is None and session.state.plies < plies:
        legal = [m for m in session.state.legal_moves() if not session.is_pass(m)]
        await play(players, others, session, session.game.format_move(rng.choice(legal)))


@pytest.mark.parametrize("game_key", sorted(REGISTRY))
async def test_a_whole_game_is_relayed_to_both_seats_and_a_watcher(
    server: GameServer, game_key: str
) -> None:
    players, watcher = await a_room(server.port, game_key)
    assert watcher is not None
    session = Session.new(game_named(game_key))
    await play_randomly(players, [watcher], session, 60, seed=29)
    if session.outcome is None:
        side = session.state.to_move
        await players[side].send("resign", room=players[0].room)
    endings = []
    for peer in (*players, watcher):
        while (message := await peer.read())["type"] != "ended":
            assert message["type"] in ("moved", "seats"), message  # Bi-Pod resigns by a move
        endings.append(message)
    assert all(ended == endings[0] for ended in endings)
    record = Session.from_text(endings[0]["record"])
    assert record.state.moves_played[: session.state.plies] == session.state.moves_played
    assert record.outcome is not None and record.outcome.result() == endings[0]["result"]


async def test_refusals_say_why_and_change_nothing(server: GameServer) -> None:
    players, watcher = await a_room(server.port, "dipole")
    assert watcher is not None
    white, black = players
    room = white.room
    session = Session.new(game_named("dipole"))
    said = await black.refused("move", room=room, ply=0, move="d8-d6")
    white_name = session.game.side_names[0]
    assert said == {
        "type": "error",
        "code": "refused",
        "text": f"it is not your turn: {white_name} is to move",
        "room": room,
    }
    said = await watcher.refused("move", room=room, ply=0, move="e1-e3")
    assert "watch" in said["text"] and said["room"] == room
    said = await white.refused("move", room=room, ply=0, move="e1-h9")
    with pytest.raises(Exception) as rules:
        session.game.parse_move("e1-h9", session.state)
    assert said["text"] == str(rules.value)
    said = await white.refused("move", room=room, ply=0, move="e1-e2")  # too short a step
    assert said["code"] == "refused"
    said = await white.refused("move", room="ABCDEF", ply=0, move="e1-e3")
    assert said["text"] == "you are not seated in room ABCDEF"
    said = await white.refused("draw", room=room)
    assert said["text"] == "Dipole has no draws: a game ends with a winner"
    await play(players, [watcher], session, "e1-e3")
    said = await black.refused("move", room=room, ply=0, move="d8-d6")
    assert said["text"] == "the game moved on: ply 1 is next"
    await white.send("resign", room=room)
    assert (await black.read_a("ended"))["result"] == "0-1"
    said = await black.refused("move", room=room, ply=1, move="d8-d6")
    assert said["text"] == "the game is over"
    # nothing that was refused is in the game
    late = await Peer.open(server.port)
    game = await late.sit("watch", room=room)
    assert Session.from_text(game["record"]).state.moves_played == session.state.moves_played


async def test_a_draw_is_offered_and_accepted(server: GameServer) -> None:
    (white, black), _ = await a_room(server.port, "death-stacks", watch=False)
    await white.send("draw", room=white.room)
    offer = await black.read_a("offer")
    assert offer == {"type": "offer", "room": white.room, "side": 0, "version": 1}
    await black.send("draw", room=white.room)
    ended = await white.read_a("ended")
    assert (ended["result"], ended["reason"]) == ("1/2-1/2", "Drawn by agreement")


async def test_a_late_watcher_gets_the_whole_game_and_then_each_move(server: GameServer) -> None:
    players, _ = await a_room(server.port, "bipod", watch=False)
    session = Session.new(game_named("bipod"))
    await play_randomly(players, [], session, 8, seed=3)
    watcher = await Peer.open(server.port)
    game = await watcher.sit("watch", room=players[0].room)
    assert game["plies"] == session.state.plies and game["watchers"] == 1
    assert Session.from_text(game["record"]).state == session.state
    await play_randomly(players, [watcher], session, 10, seed=4)
    # a third join watches too: both seats are taken
    third = await Peer.open(server.port)
    await third.sit("join", room=players[0].room)
    assert third.side is None


async def test_a_player_comes_back_with_the_secret_and_nobody_else_can(
    server: GameServer,
) -> None:
    players, _ = await a_room(server.port, "dipole", watch=False)
    white, black = players
    session = Session.new(game_named("dipole"))
    await play(players, [], session, "e1-e3")
    await black.close()
    assert (await white.read_a("seats"))["online"] == [True, False]
    again = await Peer.open(server.port)
    game = await again.sit("join", room=white.room, secret=black.secret)
    assert again.side == 1 and again.secret == black.secret
    assert Session.from_text(game["record"]).state == session.state
    assert game["online"] == [True, True]
    await play([white, again], [], session, "d8-d6")
    stranger = await Peer.open(server.port)
    said = await stranger.refused("join", room=white.room, secret="x" * 32)
    assert said["code"] == "refused" and "secret" in said["text"]
    # the player's own games, with whose turn it is
    await stranger.send(
        "rooms",
        rooms=[
            {"room": white.room, "secret": white.secret},
            {"room": "ZZZZZZ", "secret": "y" * 32},
            {"room": white.room, "secret": "y" * 32},
        ],
    )
    listed = await stranger.read_a("rooms")
    assert listed["rooms"] == [
        {
            "room": white.room,
            "game": "dipole",
            "variant": "8x8",
            "side": 0,
            "to_move": 0,
            "plies": 2,
            "result": None,
            "clock": None,
            "waiting": False,
        }
    ]


async def test_a_flag_ends_the_game_on_the_server_and_is_stored(
    server: GameServer, tmp_path: Path
) -> None:
    players, watcher = await a_room(server.port, "dipole", clock="0.02+0")  # 1.2 s each
    assert watcher is not None
    session = Session.new(game_named("dipole"))
    for move in ("e1-e3", "d8-d6"):  # each side's first move is untimed: no flag falls
        await asyncio.sleep(1.3)
        moved = await play(players, [watcher], session, move)
        assert moved["clocks"][1] == 1.2
    moved = await play(players, [watcher], session, "e3-e5")
    assert moved["running"] == 1 and 0 < moved["clocks"][0] <= 1.2
    ended = await watcher.read_a("ended")
    assert (ended["result"], ended["reason"]) == ("1-0", "Black lost on time")
    assert "time forfeit" in ended["record"]
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        kept = db.execute("SELECT result, termination FROM rooms").fetchall()
    assert kept == [("1-0", "time")]
    await players[1].read_a("ended")
    said = await players[1].refused("move", room=players[0].room, ply=3, move="d6-d4")
    assert said["text"] == "the game is over"


async def test_the_version_and_the_hello_come_first(server: GameServer) -> None:
    old = await Peer.open(server.port, hello=False)
    await old.send("hello", version=VERSION + 1)
    said = await old.read()
    assert said["code"] == "upgrade"
    assert said["text"].startswith(
        f"this server speaks protocol {VERSION} and the client {VERSION + 1}"
    )
    assert await old.closed() == 1008
    older = await Peer.open(server.port, hello=False)
    await older.send("hello", version=0)
    assert "pip install -U dipole-tui" in (await older.read())["text"]
    rude = await Peer.open(server.port, hello=False)
    await rude.send("ping")
    assert (await rude.read())["code"] == "hello-first"
    assert await rude.closed() == 1008


async def test_bad_input_is_answered_or_closed_and_the_games_go_on(
    server: GameServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)  # as `serve` logs
    players, watcher = await a_room(server.port, "dipole")
    assert watcher is not None
    session = Session.new(game_named("dipole"))
    await play(players, [watcher], session, "e1-e3")
    rude = await Peer.open(server.port)
    await rude.connection.send("{not json")
    assert (await rude.read())["code"] == "bad-json"
    await rude.send("teleport", room="ABCDEF")
    assert (await rude.read())["code"] == "unknown-type"
    await rude.send("move", room="ABCDEF", ply="one", move="e1-e3")
    assert (await rude.read())["code"] == "bad-message"
    await rude.connection.send(b"\x00\x01")
    assert (await rude.read())["code"] == "bad-json"
    await rude.send("join", room="QQQQQQ")
    assert (await rude.read())["code"] == "no-room"
    await rude.send("ping", room=5, extra=[None])  # fields not of its type are not read
    assert await rude.read() == {"type": "pong"}
    huge = await Peer.open(server.port)
    await huge.connection.send("x" * 10_000_000)
    assert await huge.closed() == 1009
    # plain HTTP, and garbage on a bare socket
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET / HTTP/1.1\r\nHost: here\r\n\r\n")
    assert (await reader.readline()).startswith(b"HTTP/1.1 426")
    writer.close()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(os.urandom(3000) + b"\r\n\r\n")
    async with asyncio.timeout(5):
        answer = await reader.read()
    assert answer == b"" or answer.startswith(b"HTTP/1.1 400")
    writer.close()
    await play(players, [watcher], session, "d8-d6")
    assert "Traceback" not in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_limits_refuse_the_greedy(tmp_path: Path) -> None:
    limits = Limits(
        messages_per_second=2,
        burst=3,
        too_fast_before_close=2,
        rooms_per_address=1,
        loopback_exempt=False,
        hello_seconds=0.3,
        idle_seconds=0.6,
        most_connections=6,
    )
    async with running_server("127.0.0.1", 0, tmp_path, limits) as server:
        fast = await Peer.open(server.port)
        for _ in range(8):
            await fast.send("ping")
        codes = []
        while fast.connection.close_code is None:
            try:
                codes.append((await fast.read()).get("code"))
            except Exception:
                break
        assert codes.count("too-fast") == 3 and await fast.closed() == 1008
        silent = await Peer.open(server.port, hello=False)
        assert (await silent.read())["code"] == "hello-first"
        assert await silent.closed() == 1008
        idle = await Peer.open(server.port)
        assert await idle.closed() == 1008
        maker = await Peer.open(server.port)
        await maker.sit("create", game="dipole")
        other = await Peer.open(server.port)
        said = await other.refused("create", game="dipole")
        assert said["code"] == "too-many-rooms"
        said = await other.refused("create", game="chess")
        assert said["code"] in ("too-many-rooms", "bad-message")
        full = [await Peer.open(server.port, hello=False) for _ in range(4)]
        with pytest.raises(Exception, match="503"):
            await Peer.open(server.port, hello=False)
        for peer in full:
            await peer.close()


async def test_a_new_room_refuses_what_it_cannot_play(server: GameServer) -> None:
    peer = await Peer.open(server.port)
    said = await peer.refused("create", game="chess")
    assert said["code"] == "bad-message" and "chess" in said["text"]
    said = await peer.refused("create", game="dipole", clock="forever")
    assert "time control" in said["text"]
    said = await peer.refused("create", game="dipole", variant="3x3")
    assert said["code"] == "bad-message"
    await peer.sit("create", game="dipole", variant="10x10", side="black")
    assert peer.side == 1
    said = await peer.refused("watch", room=peer.room)
    assert "already" in said["text"]


# -- durability: the `serve` command killed and started again ---------------------------------


SERVE = [sys.executable, "-m", "dipole_tui", "serve"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_serving(port: int, data: Path, *options: str) -> subprocess.Popen[str]:
    root = str(Path(dipole_tui.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": root}
    process = subprocess.Popen(
        [*SERVE, "--port", str(port), "--data", str(data), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("Serving Dipole, Death Stacks and Bi-Pod at ws://127.0.0.1:"), line
    assert str(data / STORE_NAME) in line
    return process


async def test_every_acknowledged_move_survives_a_sigkill(tmp_path: Path) -> None:
    port = free_port()
    process = start_serving(port, tmp_path)
    try:
        players, watcher = await a_room(port, "death-stacks", clock="5+2")
        assert watcher is not None
        session = Session.new(game_named("death-stacks"))
        await play_randomly(players, [watcher], session, 12, seed=7)
        # the next move is sent and the server killed at once: it was acknowledged or not
        legal = [m for m in session.state.legal_moves() if not session.is_pass(m)]
        last = session.game.format_move(legal[0])
        mover = players[session.state.to_move]
        await mover.send("move", room=mover.room, ply=session.state.plies, move=last)
        process.send_signal(signal.SIGKILL)
        process.wait()
        try:
            acknowledged = (await mover.read())["type"] == "moved"
        except Exception:
            acknowledged = False
        if acknowledged:
            session.play(legal[0])
        process = start_serving(port, tmp_path)
        back = [await Peer.open(port) for _ in players]
        for peer, player in zip(back, players, strict=True):
            game = await peer.sit("join", room=player.room, secret=player.secret)
            assert peer.side == player.side
        kept = Session.from_text(game["record"])
        assert kept.state.moves_played[: session.state.plies] == session.state.moves_played
        if not acknowledged and kept.state.plies > session.state.plies:
            session.play(legal[0])  # written, but the kill came before the relay
        assert kept.state == session.state and game["plies"] == session.state.plies
        assert game["running"] == session.state.to_move and game["clocks"][0] > 290
        await play_randomly(back, [], session, session.state.plies + 4, seed=8)
    finally:
        process.send_signal(signal.SIGTERM)  # waited for in a thread: the clients answer its close
        assert await asyncio.to_thread(process.wait, 10) == 0
        assert process.stderr is not None
        assert "Traceback" not in process.stderr.read()


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        root = str(Path(dipole_tui.__file__).parents[1])
        done = subprocess.run(
            [*SERVE, "--port", str(port), "--data", str(tmp_path)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": root},
            timeout=20,
        )
    assert done.returncode == 2
    assert done.stderr == f"dipole-tui: cannot serve on 127.0.0.1:{port}: the port is in use\n"


# -- issue 40: invitations, bounded `rooms`, limits per address, expiry, clocks after a restart --


async def test_the_watch_code_watches_and_only_the_invitation_takes_the_free_seat(
    tmp_path: Path,
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        white = await Peer.open(server.port)
        await white.sit("create", game="dipole", side="white")
        assert white.invite is not None and len(white.invite) >= 22  # 144 random bits
        first = await Peer.open(server.port)
        game = await first.sit("join", room=white.room)  # the code alone, the seat free: watching
        assert first.side is None and first.secret is None and first.invite is None
        assert game["seats"] == [True, False]
        guess = await Peer.open(server.port)
        said = await guess.refused("join", room=white.room, invite="y" * 24)
        assert said["code"] == "refused" and "invitation" in said["text"]
        said = await guess.refused("join", room=white.room, secret=white.invite)
        assert said["code"] == "refused"  # an invitation is no secret
        black = await Peer.open(server.port)
        await black.sit("join", room=white.room, invite=white.invite)
        assert black.side == 1 and black.secret is not None and black.invite is None
        while (await white.read_a("seats"))["seats"] != [True, True]:
            pass  # the watcher's coming first
        late = await Peer.open(server.port)
        said = await late.refused("join", room=white.room, invite=white.invite)
        assert "taken up" in said["text"]
        # the creator coming back while the seat was free is shown the invitation again
        alone = await Peer.open(server.port)
        await alone.sit("create", game="bipod", side="black")
        await alone.close()
        again = await Peer.open(server.port)
        await again.sit("join", room=alone.room, secret=alone.secret)
        assert again.invite == alone.invite
    # after a restart the invitation still opens the seat; the file holds no key of any seat
    kept = (tmp_path / STORE_NAME).read_bytes()
    for key in (white.secret, black.secret, white.invite, alone.secret, alone.invite):
        assert key is not None and key.encode() not in kept
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        friend = await Peer.open(server.port)
        await friend.sit("join", room=alone.room, invite=alone.invite)
        assert friend.side == 0


async def test_rooms_checks_each_secret_before_loading_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        players, _ = await a_room(server.port, "dipole", watch=False)
        session = Session.new(game_named("dipole"))
        await play_randomly(players, [], session, 10, seed=5)
        for peer in players:
            await peer.close()
        loaded: list[str] = []
        load_room = server.store.load_room

        async def counted(code: str) -> Any:
            loaded.append(code)
            return await load_room(code)

        monkeypatch.setattr(server.store, "load_room", counted)
        await asyncio.sleep(0.1)  # the room leaves memory once nobody is in it
        asker = await Peer.open(server.port)
        fake = [{"room": players[0].room, "secret": f"{n:032d}"} for n in range(50)]
        await asker.send("rooms", rooms=fake)
        assert (await asker.read_a("rooms"))["rooms"] == []
        assert loaded == []  # no game was replayed for a wrong secret
        said = await asker.refused("rooms", rooms=[*fake, fake[0]])
        assert said["code"] == "bad-message" and "50" in said["text"]
        mine = [{"room": players[1].room, "secret": players[1].secret}]
        await asker.send("rooms", rooms=mine)
        listed = (await asker.read_a("rooms"))["rooms"]
        assert [(r["side"], r["plies"]) for r in listed] == [(1, session.state.plies)]
        assert loaded == [players[0].room]
        said = await asker.refused("join", room=players[0].room, secret="w" * 32)
        assert said["code"] == "refused" and len(loaded) == 2
        assert players[0].room not in server.rooms  # looked at and refused: not kept


async def test_rooms_asked_after_are_counted_per_address(tmp_path: Path) -> None:
    limits = Limits(asked_per_minute=60)  # a burst of 60, then one a second
    async with running_server("127.0.0.1", 0, tmp_path, limits) as server:
        asked = [{"room": "ABCDEF", "secret": f"{n:032d}"} for n in range(50)]
        first, second = await Peer.open(server.port), await Peer.open(server.port)
        await first.send("rooms", rooms=asked)
        assert (await first.read())["type"] == "rooms"
        said = await second.refused("rooms", rooms=asked)  # another connection, one address
        assert said["code"] == "too-fast" and "rooms asked after" in said["text"]


async def test_connections_and_guesses_are_counted_per_address_loopback_too(
    tmp_path: Path,
) -> None:
    assert not Limits().loopback_exempt  # only `serve --bench` exempts this machine
    limits = Limits(connections_per_address=3, guess_burst=3, guesses_per_minute=0.01)
    async with running_server("127.0.0.1", 0, tmp_path, limits) as server:
        peers = [await Peer.open(server.port) for _ in range(3)]
        with pytest.raises(Exception, match="429"):
            await Peer.open(server.port)
        await peers[2].close()
        await asyncio.sleep(0.1)
        peers[2] = await Peer.open(server.port)  # a closed one makes room
        maker = peers[0]
        await maker.sit("create", game="dipole")
        for code in ("QQQQQQ", "QQQQQR"):
            assert (await peers[1].refused("join", room=code))["code"] == "no-room"
        said = await peers[2].refused("join", room=maker.room, secret="z" * 32)
        assert said["code"] == "refused"
        # three guesses from this address, on two connections: the next join is refused
        said = await peers[2].refused("watch", room=maker.room)
        assert said["code"] == "too-fast" and "wait a minute" in said["text"]
        said = await peers[1].refused("join", room=maker.room, invite=maker.invite)
        assert said["code"] == "too-fast"
    async with running_server("127.0.0.1", 0, tmp_path, Limits(**{
        **limits.__dict__, "loopback_exempt": True})) as server:  # fmt: skip
        many = [await Peer.open(server.port) for _ in range(5)]
        for peer in many:
            await peer.close()


async def test_a_room_whose_second_seat_was_never_taken_expires(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path, Limits(unjoined_days=0)) as server:
        lonely, waiting = await Peer.open(server.port), await Peer.open(server.port)
        await lonely.sit("create", game="dipole", side="white")
        await lonely.send("move", room=lonely.room, ply=0, move="e1-e3")  # moved, still alone
        await lonely.read_a("moved")
        await lonely.close()
        await waiting.sit("create", game="dipole")  # its creator is still in it
        players, _ = await a_room(server.port, "dipole", watch=False)
        await asyncio.sleep(0.1)
        assert await server.expire() == [lonely.room]
        peer = await Peer.open(server.port)
        said = await peer.refused("join", room=lonely.room, secret=lonely.secret)
        assert said["code"] == "no-room"
        await peer.sit("watch", room=players[0].room)
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        for table in ("rooms", "seats", "moves"):
            codes = {code for (code,) in db.execute(f"SELECT code FROM {table}")}
            assert lonely.room not in codes, table


async def test_after_a_restart_the_clocks_wait_for_the_side_to_move(tmp_path: Path) -> None:
    """The time the server was down, and the other side's return, are charged to nobody: the
    side to move's clock runs again when that side is back."""
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        players, _ = await a_room(server.port, "dipole", watch=False, clock="1+0")
        moved = await play(players, [], Session.new(game_named("dipole")), "e1-e3")
        assert moved["running"] == 1
    await asyncio.sleep(0.5)  # the server is down
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        watcher = await Peer.open(server.port)
        game = await watcher.sit("watch", room=players[0].room)
        assert game["running"] is None and game["clocks"][1] == 60.0  # Black's whole minute
        white = await Peer.open(server.port)
        game = await white.sit("join", room=players[0].room, secret=players[0].secret)
        assert game["running"] is None  # White is back, but Black is to move
        await asyncio.sleep(0.3)
        black = await Peer.open(server.port)
        game = await black.sit("join", room=players[0].room, secret=players[1].secret)
        assert game["running"] == 1 and 59.8 < game["clocks"][1] <= 60.0
        assert (await white.read_a("seats"))["running"] == 1


async def test_after_a_restart_the_side_to_move_gets_a_grace_then_its_clock_runs(
    tmp_path: Path,
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        players, _ = await a_room(server.port, "dipole", watch=False, clock="1+0")
        await play(players, [], Session.new(game_named("dipole")), "e1-e3")
    async with running_server("127.0.0.1", 0, tmp_path, Limits(resume_grace=0.3)) as server:
        white = await Peer.open(server.port)
        game = await white.sit("join", room=players[0].room, secret=players[0].secret)
        assert game["running"] is None
        news = await white.read_a("seats")  # the grace is over: Black's clock runs
        assert news["running"] == 1 and news["clocks"][1] <= game["clocks"][1]


async def test_serve_logs_each_connection_refusal_and_ending_and_holds_its_folder(
    tmp_path: Path,
) -> None:
    port, data, log = free_port(), tmp_path / "data", tmp_path / "logs" / "serve.log"
    process = start_serving(port, data, "--log-file", str(log))
    root = str(Path(dipole_tui.__file__).parents[1])
    try:
        second = await asyncio.to_thread(
            subprocess.run,
            [*SERVE, "--port", str(free_port()), "--data", str(data)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": root},
            timeout=20,
        )
        assert second.returncode == 2
        assert second.stderr == (
            f"dipole-tui: another dipole-tui serve keeps its rooms in {data} (it holds "
            "serve.lock): stop it, or give this one another --data\n"
        )
        players, _ = await a_room(port, "dipole", watch=False)
        await players[0].refused("move", room=players[0].room, ply=0, move="e1-h9")
        await players[1].send("resign", room=players[0].room)
        await players[0].read_a("ended")
        for peer in players:
            await peer.close()
        await asyncio.sleep(0.2)
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(process.wait, 10) == 0
    assert process.stderr is not None
    lines = process.stderr.read().splitlines()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d "
    assert lines and all(re.match(stamp, line) for line in lines), lines
    said = "\n".join(lines)
    assert said.count("127.0.0.1 connected") == 2 and said.count("127.0.0.1 left after") == 2
    assert "127.0.0.1 refused: refused: " in said
    assert f"room {players[0].room} ended 1-0: Black resigned" in said
    assert "Traceback" not in said
    assert log.read_text().splitlines() == lines


async def test_a_room_is_stored_with_its_creators_seat_and_invitation_in_one_job(
    server: GameServer, tmp_path: Path
) -> None:
    """One store round trip makes a room for an unnamed creator (two for a named one with a
    clock: its rating first), not four: the seat and the invitation's digest go with the room,
    and the invitation then seats the other player."""
    jobs = store_jobs(server)
    white = await Peer.open(server.port)
    await white.sit("create", game="dipole", side="black")
    assert jobs == ["create_room"]
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        invite = db.execute("SELECT invite FROM rooms WHERE code = ?", (white.room,)).fetchone()
        seats = db.execute("SELECT side FROM seats WHERE code = ?", (white.room,)).fetchall()
    db.close()
    assert white.invite is not None and invite == (digest(white.invite),) and seats == [(1,)]
    black = await Peer.open(server.port)
    await black.sit("join", room=white.room, invite=white.invite)
    assert (white.side, black.side) == (1, 0)


async def test_a_named_creator_of_a_game_with_a_clock_costs_its_rating_and_the_room(
    server: GameServer,
) -> None:
    jobs = store_jobs(server)
    ann = await Peer.open(server.port)
    await ann.send("claim", name="Ann")
    assert (await ann.read())["type"] == "named"
    game = await ann.sit("create", game="dipole", side="white", clock="5+3", rated=True)
    assert jobs[-2:] == ["standing", "create_room"]
    assert [p["rating"] for p in game["players"] if p] == [1500]
