"""The lobby on a real server on loopback: seeks posted, listed, accepted; two seeks that fit
paired at once; invitations seen by one player only; ranges; a seek gone with its connection;
the games going on listed to watch; the `lobby` command, and the app seated from a seek."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from app_steps import AppFactory, until
from cli_steps import Cli
from online_steps import Peer, store_jobs

from dipole_tui.control.choice import GameChoice, OnlineChoice
from dipole_tui.online.limits import Limits
from dipole_tui.online.server import STORE_NAME, GameServer, running_server
from dipole_tui.online.store import digest
from dipole_tui.session import HUMAN, REMOTE


@pytest.fixture
async def server(tmp_path: Path) -> Any:
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        yield running


async def named(server: GameServer, name: str) -> Peer:
    peer = await Peer.open(server.port)
    await peer.send("claim", name=name)
    assert (await peer.read())["type"] == "named"
    return peer


async def lobby(peer: Peer, **asked: Any) -> dict[str, Any]:
    await peer.send("lobby", **asked)
    return await peer.read_a("lobby")


async def seated_game(peer: Peer) -> tuple[dict[str, Any], dict[str, Any]]:
    """The `seated` and `game` a pairing tells a player."""
    seated = await peer.read_a("seated")
    peer.room, peer.secret, peer.side = seated["room"], seated["secret"], seated["side"]
    return seated, await peer.read_a("game")


async def test_a_seek_is_listed_accepted_and_both_are_seated_in_one_room(
    server: GameServer,
) -> None:
    ann, bob, cid = [await named(server, name) for name in ("Ann", "Bob", "Cid")]
    await ann.send("seek", game="dipole", clock="5+3", side="black")
    code = (await ann.read_a("sought"))["seek"]
    listed = await lobby(bob)
    assert listed["seeks"] == [
        {"seek": code, "name": "Ann", "rating": 1500, "provisional": True, "game": "dipole",
         "variant": "8x8", "clock": "5+3", "rated": False, "side": "black"}
    ]  # fmt: skip
    assert (await lobby(cid, game="bipod"))["seeks"] == []
    refused = await ann.refused("accept", seek=code)
    assert "your own seek" in refused["text"]
    await bob.send("accept", seek=code.lower())
    (bob_seat, bob_game), (ann_seat, ann_game) = await seated_game(bob), await seated_game(ann)
    assert bob_seat["room"] == ann_seat["room"] and (bob.side, ann.side) == (0, 1)
    assert bob_seat["invite"] is None and ann_seat["invite"] is None
    assert ann_game["players"] == bob_game["players"]
    assert [p["name"] for p in ann_game["players"]] == ["Bob", "Ann"]
    assert ann_game["clocks"] == [300.0, 300.0] and ann_game["seats"] == [True, True]
    assert (await lobby(cid))["seeks"] == []  # taken: out of the lobby
    refused = await cid.refused("accept", seek=code)
    assert refused["code"] == "no-room"
    await bob.send("move", room=bob.room, ply=0, move="e1-e3")
    assert (await ann.read_a("moved"))["move"] == "e1-e3"
    games = (await lobby(cid))["games"]
    assert [(g["room"], g["plies"], g["watchers"]) for g in games] == [(ann.room, 1, 0)]


async def test_two_seeks_that_fit_pair_at_once_and_others_wait(server: GameServer) -> None:
    ann, bob, cid, dan = [await named(server, name) for name in ("Ann", "Bob", "Cid", "Dan")]
    await ann.send("seek", game="dipole", clock="3+2", rated=True)
    await ann.read_a("sought")
    await cid.send("seek", game="dipole", clock="3+2")  # casual: no fit for a rated one
    await cid.read_a("sought")
    await dan.send("seek", game="dipole", clock="5+0", rated=True)  # another clock
    await dan.read_a("sought")
    await bob.send("seek", game="dipole", clock="3+2", rated=True)
    (_, bob_game), (_, ann_game) = await seated_game(bob), await seated_game(ann)
    assert bob_game["room"] == ann_game["room"]
    assert {ann.side, bob.side} == {0, 1}
    assert sorted(s["name"] for s in (await lobby(cid))["seeks"]) == ["Cid", "Dan"]


async def test_an_invitation_is_seen_and_taken_by_its_player_alone(server: GameServer) -> None:
    ann, bob, cid = [await named(server, name) for name in ("Ann", "Bob", "Cid")]
    anonymous = await Peer.open(server.port)
    await ann.send("seek", game="bipod", invite="bob")
    code = (await ann.read_a("sought"))["seek"]
    assert (await lobby(cid))["seeks"] == [] and (await lobby(anonymous))["seeks"] == []
    assert [s["seek"] for s in (await lobby(bob))["seeks"]] == [code]
    assert [s["seek"] for s in (await lobby(ann))["seeks"]] == [code]  # the seeker sees it
    assert (await cid.refused("accept", seek=code))["code"] == "no-room"
    await cid.send("seek", game="bipod")  # a fitting seek, but not by the invited player
    await cid.read_a("sought")
    await bob.send("accept", seek=code)
    (_, game), _ = await seated_game(bob), await seated_game(ann)
    assert game["room"] == ann.room


async def test_a_range_keeps_far_ratings_out(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path):
        pass  # the store made
    token = "s" * 32
    with sqlite3.connect(tmp_path / STORE_NAME) as db:  # a strong player, as ten wins leave one
        db.execute("INSERT INTO players VALUES ('strong', 'Strong', ?, 0)", (digest(token),))
        db.execute("INSERT INTO ratings VALUES ('strong', 'dipole', 'blitz', 1900, 60, 0.06, 10)")
    db.close()
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        strong, weak = await Peer.open(server.port), await named(server, "Weak")
        await strong.send("claim", name="strong", token=token)
        assert (await strong.read())["type"] == "named"
        await strong.send("seek", game="dipole", clock="5+3", rated=True, range=100)
        code = (await strong.read_a("sought"))["seek"]
        refused = await weak.refused("accept", seek=code)
        assert "outside the range Strong asked for" in refused["text"]
        await weak.send("seek", game="dipole", clock="5+3", rated=True)  # no quick pairing
        await weak.read_a("sought")
        listed = (await lobby(weak))["seeks"]
        assert [(s["name"], s["rating"], s["provisional"]) for s in listed] == [
            ("Strong", 1900, False),
            ("Weak", 1500, True),
        ]
        await weak.send("seek", game="dipole", clock="5+3", rated=True, range=300)
        await weak.read_a("sought")  # each range keeps the other out
        await strong.send("seek", game="dipole", clock="5+3", rated=True)
        await strong.read_a("sought")  # Weak's range keeps Strong out
        await weak.send("seek", game="dipole", clock="5+3", rated=True)  # no range: they fit
        (_, game), _ = await seated_game(weak), await seated_game(strong)
        assert game["room"] == strong.room


async def test_a_seek_leaves_with_its_connection_and_only_named_players_seek(
    server: GameServer,
) -> None:
    ann, bob = await named(server, "Ann"), await named(server, "Bob")
    anonymous = await Peer.open(server.port)
    refused = await anonymous.refused("seek", game="dipole")
    assert "claim a name first" in refused["text"]
    await ann.send("seek", game="dipole")
    await ann.read_a("sought")
    await ann.send("seek", game="death-stacks")  # replaces the first
    await ann.read_a("sought")
    assert [s["game"] for s in (await lobby(bob))["seeks"]] == ["death-stacks"]
    await ann.close()
    await until(lambda: len(server.desk.lobby) == 0)
    assert (await lobby(bob))["seeks"] == []
    refused = await bob.refused("seek", game="dipole", rated=True)
    assert "needs a clock" in refused["text"]


async def test_an_address_posts_a_few_seeks_a_minute(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path, Limits(seeks_per_minute=2)) as server:
        ann = await named(server, "Ann")
        answers = []
        for _ in range(3):
            await ann.send("seek", game="dipole")
            answers.append(await ann.read())
        assert [a["type"] for a in answers[:2]] == ["sought", "sought"]
        assert answers[2]["code"] == "too-fast" and "seeks a minute" in answers[2]["text"]


async def test_the_lobby_command_lists_seeks_and_games(server: GameServer, cli: Cli) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    ran = await asyncio.to_thread(cli, "lobby", "--server", url)
    assert ran.out == "No seeks in the lobby: 'play --server URL --seek' posts one.\n"
    ann = await named(server, "Ann")
    await ann.send("seek", game="bipod", clock="10+0")
    code = (await ann.read_a("sought"))["seek"]
    ran = await asyncio.to_thread(cli, "lobby", "--server", url)
    assert ran.out.splitlines() == [f"{code}\tAnn\t1500?\tbipod\t10+0\tcasual\trandom"]


async def test_the_app_seeks_and_is_seated_when_someone_accepts(
    make_app: AppFactory, tmp_path: Path, server: GameServer
) -> None:
    url = f"ws://127.0.0.1:{server.port}"
    choice = GameChoice("dipole", "8x8", (HUMAN, HUMAN))
    online = OnlineChoice(url, "seek", game=choice, side="white", name="Eve")
    app = make_app("dipole", online=online, folder=tmp_path / "eve")
    async with app.run_test(size=(100, 34)):
        room = app.game_screen.keeper.online
        assert room is not None
        await until(lambda: bool(room.seeking))
        friend = await named(server, "Finn")
        seeks = (await lobby(friend))["seeks"]
        assert [s["name"] for s in seeks] == ["Eve"]
        await friend.send("accept", seek=seeks[0]["seek"])
        await seated_game(friend)
        await until(lambda: app.session.players == (HUMAN, REMOTE) and room.seated)
        assert room.side == 0 and friend.side == 1 and not room.seeking
        await friend.close()


async def test_a_seek_taken_twice_at_once_seats_its_player_once(server: GameServer) -> None:
    """An accept and a seek that fits, at the same moment, for one waiting seek: one of them
    makes the game, the other is told the seek is gone (the server awaits the store between
    finding a seek and taking it)."""
    ann, bob, cid = [await named(server, name) for name in ("Ann", "Bob", "Cid")]
    await ann.send("seek", game="dipole", clock="3+2", rated=True)
    code = (await ann.read_a("sought"))["seek"]
    await cid.send("seek", game="dipole", clock="3+2", rated=True)  # fits Ann's, and
    await bob.send("accept", seek=code)  # Bob takes it while the server reads Cid's rating
    seated = await ann.read_a("seated")
    answers = [await bob.read(), await cid.read()]
    kinds = sorted(answer["type"] for answer in answers)
    assert kinds in (["error", "seated"], ["seated", "sought"]), answers
    assert seated["room"] in [answer.get("room") for answer in answers]
    await ann.send("ping")
    while (message := await ann.read())["type"] != "pong":
        assert message["type"] != "seated", "Ann was seated twice"


async def test_a_connection_in_a_room_neither_seeks_nor_accepts(server: GameServer) -> None:
    ann, bob = await named(server, "Ann"), await named(server, "Bob")
    await ann.send("seek", game="dipole", clock="3+2")
    await ann.read_a("sought")
    await bob.send("seek", game="dipole", clock="3+2")
    await seated_game(ann)
    await seated_game(bob)
    said = await ann.refused("seek", game="dipole", clock="3+2")
    assert said["text"] == f"this connection is in room {ann.room} already"
    said = await ann.refused("accept", seek="ABCDEF")
    assert said["text"] == f"this connection is in room {ann.room} already"


def stored_seats(folder: Path) -> dict[str, tuple[int, float | None]]:
    """Each stored room's count of seats taken and its deadline."""
    with sqlite3.connect(folder / STORE_NAME) as db:
        rows = db.execute(
            "SELECT code, (SELECT count(*) FROM seats WHERE seats.code = rooms.code), deadline"
            " FROM rooms"
        ).fetchall()
    db.close()
    return {code: (seats, deadline) for code, seats, deadline in rows}


async def test_a_pairing_is_two_store_round_trips_its_seats_and_deadline_in_one(
    server: GameServer, tmp_path: Path
) -> None:
    """The second seeker's rating, then the room with both seats (and a game of days' first
    deadline) in one store job: the seek's rating is not read again."""
    ann, bob = await named(server, "Ann"), await named(server, "Bob")
    await ann.send("seek", game="dipole", clock="3d", rated=True)
    await ann.read_a("sought")
    jobs = store_jobs(server)
    before = time.time()
    await bob.send("seek", game="dipole", clock="3d", rated=True)
    (_, game), _ = await seated_game(bob), await seated_game(ann)
    assert jobs == ["standing", "create_room"]
    seats, deadline = stored_seats(tmp_path)[game["room"]]
    assert seats == 2 and deadline == pytest.approx(before + 3 * 86_400, abs=5)
    assert [p["rating"] for p in game["players"]] == [1500, 1500]


async def test_a_pairing_whose_player_sat_down_elsewhere_meanwhile_is_dropped(
    server: GameServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's seek is taken by Bob's while she joins Cid's room: the pairing's room, stored
    with both seats, is dropped from the store (kept, it would never expire) and Bob told."""
    ann, bob, cid = [await named(server, name) for name in ("Ann", "Bob", "Cid")]
    await cid.sit("create", game="dipole", side="white")
    await ann.send("seek", game="dipole")
    await ann.read_a("sought")
    storing, joined = asyncio.Event(), asyncio.Event()
    create = server.store.create_room

    async def held(*args: Any, **kwargs: Any) -> None:
        storing.set()
        await joined.wait()
        await create(*args, **kwargs)

    monkeypatch.setattr(server.store, "create_room", held)
    await bob.send("seek", game="dipole")
    await asyncio.wait_for(storing.wait(), 5)
    await ann.sit("join", room=cid.room, invite=cid.invite)
    joined.set()
    said = await bob.read_a("error")
    assert said["text"] == "a player of this pairing sat down elsewhere meanwhile"
    assert stored_seats(tmp_path) == {cid.room: (2, None)}
