"""Ratings on a real server on loopback: rated games between named players with a clock, both
rated at the end in the transaction that stores it (Glicko-2, per game and speed), the changes
told in `ended`, the ratings shown in the seats, kept across a restart, and the leaderboard (the
`players` message and command)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from cli_steps import Cli
from online_steps import Peer, Tokens, named, seated_pair

from dipole_tui.learn.rating import Bout, Rating, update
from dipole_tui.online.ratings import PROVISIONAL_GAMES, Standing, rate, speed
from dipole_tui.online.server import STORE_NAME, running_server


@pytest.mark.parametrize(
    ("clock", "expected"),
    [
        (None, None),
        ("1+0", "bullet"),
        ("2+1", "bullet"),  # 120 + 40: 160 s
        ("3+0", "blitz"),  # 180 s: blitz from there
        ("5+3", "blitz"),  # 300 + 120
        ("8+0", "rapid"),  # 480 s
        ("15+10", "rapid"),  # 900 + 400
        ("25+0", "classical"),  # 1500 s
        ("0.5+30", "rapid"),  # 30 + 1200: the increment counts forty times
    ],
)
def test_the_speed_is_lichesss_by_the_estimated_duration(
    clock: str | None, expected: str | None
) -> None:
    assert speed(clock) == expected


def test_both_players_are_rated_against_the_other_before_the_game() -> None:
    strong = Standing(Rating(1800, 80, 0.06), 30)
    new = Standing()
    white, black = rate(strong, new, "0-1")  # the new player wins
    assert white.rating == update(strong.rating, [Bout(1500, 350, 0.0)])
    assert black.rating == update(new.rating, [Bout(1800, 80, 1.0)])
    assert (white.games, black.games) == (31, 1)
    assert white.points < 1800 < black.points and black.provisional and not white.provisional
    drawn = rate(new, new, "1/2-1/2")
    assert drawn[0].points == drawn[1].points == 1500
    assert Standing(games=PROVISIONAL_GAMES - 1).shown() == "1500?"
    assert Standing(games=PROVISIONAL_GAMES).shown() == "1500"


async def rated_game(
    port: int, white_name: str, black_name: str, loser: int, tokens: Tokens
) -> dict[str, Any]:
    """A rated 5+3 game the side `loser` resigns after one move: the `ended` both see."""
    white, black = await seated_pair(
        port, names=(white_name, black_name), tokens=tokens, clock="5+3", rated=True
    )
    await white.send("move", room=white.room, ply=0, move="e1-e3")
    assert await white.read_a("moved") == await black.read_a("moved")
    await (white, black)[loser].send("resign", room=white.room)
    ended = await white.read_a("ended")
    assert await black.read_a("ended") == ended
    await white.close()
    await black.close()
    return ended


async def test_a_rated_game_rates_both_and_the_ratings_outlive_a_restart(tmp_path: Path) -> None:
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        ended = await rated_game(server.port, "Alice", "Bob", loser=1, tokens=tokens)
        after = rate(Standing(), Standing(), "1-0")
        assert ended["result"] == "1-0"
        assert ended["changes"] == [after[0].points - 1500, after[1].points - 1500]
        assert ended["changes"][0] > 0 > ended["changes"][1]
    with sqlite3.connect(tmp_path / STORE_NAME) as db:  # stored with the end
        rows = db.execute("SELECT name_key, speed, games FROM ratings ORDER BY name_key")
        assert rows.fetchall() == [("alice", "blitz", 1), ("bob", "blitz", 1)]
    db.close()
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        # The seats show each player's rating at the room's speed; the next game starts there.
        white, black = await named(server.port, "Carol", tokens), await Peer.open(server.port)
        await black.send("claim", name="Alice")
        assert (await black.read())["code"] == "name-taken"
        game = await white.sit("create", game="dipole", side="white", clock="3+2", rated=True)
        assert game["players"] == [{"name": "Carol", "rating": 1500, "provisional": True}, None]
        second = await rated_game(server.port, "Bob", "Dave", loser=0, tokens=tokens)
        bob_before = after[1]
        bob_after, _ = rate(bob_before, Standing(), "0-1")
        assert second["changes"][0] == bob_after.points - bob_before.points
        board = await Peer.open(server.port)
        await board.send("players", game="dipole")
        listed = await board.read_a("players")
        assert [(p["name"], p["rating"], p["games"]) for p in listed["players"]] == [
            ("Alice", after[0].points, 1),
            ("Dave", rate(Standing(), bob_before, "1-0")[0].points, 1),
            ("Bob", bob_after.points, 2),
        ]
        assert all(p["provisional"] and p["speed"] == "blitz" for p in listed["players"])
        await board.send("players", game="dipole", speed="bullet")
        assert (await board.read_a("players"))["players"] == []


async def test_a_casual_game_changes_no_rating(tmp_path: Path) -> None:
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        white, black = (
            await named(server.port, "Erin", tokens),
            await named(server.port, "Finn", tokens),
        )
        await white.sit("create", game="dipole", side="white", clock="5+3")
        await black.sit("join", room=white.room, invite=white.invite)
        await black.send("resign", room=white.room)
        ended = await white.read_a("ended")
        assert "changes" not in ended
        await white.send("players", game="dipole")
        assert (await white.read_a("players"))["players"] == []


async def test_a_rated_game_needs_a_clock_and_two_named_players(tmp_path: Path) -> None:
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        anonymous = await Peer.open(server.port)
        refused = await anonymous.refused("create", game="dipole", clock="5+3", rated=True)
        assert "claim a name first" in refused["text"]
        alice = await named(server.port, "Gina", tokens)
        refused = await alice.refused("create", game="dipole", rated=True)
        assert "a rated game needs a clock" in refused["text"]
        await alice.sit("create", game="dipole", side="white", clock="5+3", rated=True)
        refused = await anonymous.refused("join", room=alice.room, invite=alice.invite)
        assert "claim a name first" in refused["text"]
        watcher = await Peer.open(server.port)  # anyone watches
        await watcher.sit("watch", room=alice.room)
        board = await Peer.open(server.port)
        refused = await board.refused("players", game="chess")
        assert refused["code"] == "bad-message"


async def test_the_players_command_prints_the_leaderboard(tmp_path: Path, cli: Cli) -> None:
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        url = f"ws://127.0.0.1:{server.port}"
        ran = await asyncio.to_thread(cli, "players", "--server", url)
        assert (ran.status, ran.out) == (0, f"No rated dipole games on {url} yet.\n")
        await rated_game(server.port, "Hana", "Ivan", loser=1, tokens=tokens)
        ran = await asyncio.to_thread(cli, "players", "--server", url, "--speed", "blitz")
        first, second = rate(Standing(), Standing(), "1-0")
        assert ran.out.splitlines() == [
            f"1\tHana\t{first.points}?\tblitz\t1",
            f"2\tIvan\t{second.points}?\tblitz\t1",
        ]
    ran = await asyncio.to_thread(cli, "players", "--server", url)  # nobody there now
    assert ran.status == 2 and ran.err.startswith(f"dipole-tui: cannot ask {url}: ")
    assert ran.err.count("\n") == 1


async def test_a_player_who_leaves_a_rated_game_loses_on_time(tmp_path: Path) -> None:
    """Gone with the clock running (the tab closed, the network lost): the clock runs on at
    the server, the flag falls as it says, and the game is rated as that loss."""
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        white = await named(server.port, "Uma", tokens)
        black = await named(server.port, "Vic", tokens)
        await white.sit("create", game="dipole", side="white", clock="0.02+0", rated=True)
        await black.sit("join", room=white.room, invite=white.invite)
        for peer, ply, move in ((white, 0, "e1-e3"), (black, 1, "d8-d6"), (white, 2, "e3-e5")):
            await peer.send("move", room=white.room, ply=ply, move=move)
            await white.read_a("moved")
            await black.read_a("moved")
        await black.close()  # Black to move, 1.2 s on its clock, and gone
        ended = await white.read_a("ended")
        assert (ended["result"], ended["reason"]) == ("1-0", "Black lost on time")
        assert ended["changes"][0] > 0 > ended["changes"][1]
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        rows = db.execute("SELECT name_key, games FROM ratings ORDER BY name_key").fetchall()
    db.close()
    assert rows == [("uma", 1), ("vic", 1)]
