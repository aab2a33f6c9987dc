"""Take-backs, rematches and chat in a room (protocol 5, issue 43), against a real server on
loopback: asked, accepted or declined by the other player; refused where they may not be; the
chat heard by those it is for, stored with the game; a client of protocol 4 sent none of it."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from online_steps import Peer, Tokens, named, seated_pair
from test_online_events import GAME, play

from dipole_tui.online.chat import RoomChat
from dipole_tui.online.server import GameServer, running_server
from dipole_tui.registry import game_named
from dipole_tui.session import Session


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[GameServer]:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as running:
        yield running


def new_game(key: str = "death-stacks") -> Session[Any]:
    return Session.new(game_named(key))


async def test_a_take_back_asked_and_accepted_takes_the_askers_last_move_back(
    server: GameServer,
) -> None:
    players = await seated_pair(server.port, GAME)
    white, black = players
    session, rng = new_game(), random.Random(3)
    await play(players, players, session, rng)  # white's move
    await play(players, players, session, rng)  # black's reply
    await white.send("takeback", room=white.room)
    asked = [await peer.read_a("asked") for peer in players]
    assert asked[0] == asked[1]
    assert (asked[0]["side"], asked[0]["what"]) == (0, "takeback")
    said = await white.refused("takeback", room=white.room)  # asked once
    assert "stands" in said["text"]
    await black.send("takeback", room=black.room)  # black accepts: white's move, and the reply
    taken = [await peer.read_a("takenback") for peer in players]
    assert taken[0] == taken[1]
    assert taken[0]["plies"] == 0
    assert taken[0]["version"] == asked[0]["version"] + 1
    said = await white.refused("takeback", room=white.room)
    assert said["text"] == f"{session.game.side_names[0]} has played no move to take back"
    await play(players, players, new_game(), rng)  # the game goes on from its start


async def test_the_game_after_a_take_back_is_the_stored_game(tmp_path: Path) -> None:
    """A take-back is kept: a watcher coming later, and a restarted server, see the game
    without the moves taken back."""
    session, rng = new_game(), random.Random(5)
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        players = await seated_pair(running.port, GAME)
        white, black = players
        for _ in range(3):
            await play(players, players, session, rng)
        await black.send("takeback", room=black.room)  # black's own move, white to move after
        for peer in players:
            await peer.read_a("asked")
        await white.send("takeback", room=white.room)
        assert (await black.read_a("takenback"))["plies"] == 1
        code = white.room
        for peer in players:
            await peer.close()
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        watcher = await Peer.open(running.port)
        game = await watcher.sit("watch", room=code)
        assert game["plies"] == 1
        assert Session.from_text(game["record"]).state.plies == 1


async def test_take_backs_are_refused_in_rated_games_and_to_watchers(tmp_path: Path) -> None:
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        white, black = await seated_pair(
            running.port, names=("Ann", "Bob"), tokens=tokens, clock="5+3", rated=True
        )
        await white.send("move", room=white.room, ply=0, move="e1-e3")
        for peer in (white, black):
            await peer.read_a("moved")
        said = await white.refused("takeback", room=white.room)
        assert said["text"] == "a rated game has no take-backs"
        watcher = await Peer.open(running.port)
        await watcher.sit("watch", room=white.room)
        said = await watcher.refused("takeback", room=white.room)
        assert said["text"] == f"you watch room {white.room}: only its players play"


async def test_a_declined_take_back_lapses_and_may_be_asked_again(server: GameServer) -> None:
    players = await seated_pair(server.port, GAME)
    white, black = players
    await play(players, players, new_game(), random.Random(1))
    said = await black.refused("decline", room=black.room, what="takeback")
    assert said["text"] == "the other player has asked no takeback to decline"
    await white.send("takeback", room=white.room)
    for peer in players:
        await peer.read_a("asked")
    await black.send("decline", room=black.room, what="takeback")
    declined = await white.read_a("declined")
    assert await black.read_a("declined") == declined
    assert (declined["side"], declined["what"]) == (1, "takeback")
    await white.send("takeback", room=white.room)
    assert (await black.read_a("asked"))["what"] == "takeback"


async def test_a_rematch_seats_both_in_a_new_room_colours_swapped(tmp_path: Path) -> None:
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        ann = await named(running.port, "Ann", tokens)
        bob = await named(running.port, "Bob", tokens)
        await ann.sit("create", game="dipole", side="white", clock="5+3", rated=True)
        await bob.sit("join", room=ann.room, invite=ann.invite)
        said = await ann.refused("rematch", room=ann.room)
        assert said["text"] == "the game is still on: a rematch comes after its end"
        await ann.send("move", room=ann.room, ply=0, move="e1-e3")
        for peer in (ann, bob):
            await peer.read_a("moved")
        await bob.send("resign", room=bob.room)
        for peer in (ann, bob):
            await peer.read_a("ended")
        old = ann.room
        await bob.send("rematch", room=old)
        assert (await ann.read_a("asked"))["what"] == "rematch"
        await bob.read_a("asked")
        await ann.send("rematch", room=old)
        rematched = [await peer.read_a("rematched") for peer in (ann, bob)]
        assert rematched[0] == rematched[1]
        new = rematched[0]["next"]
        assert new != old
        games = []
        for peer in (ann, bob):
            seated = await peer.read_a("seated")
            assert (seated["room"], seated["rated"], seated["clock"]) == (new, True, "5+3")
            peer.side = seated["side"]
            games.append(await peer.read_a("game"))
        assert (ann.side, bob.side) == (1, 0)  # colours swapped
        white, black = games[0]["players"]
        assert (white["name"], black["name"]) == ("Bob", "Ann")
        said = await ann.refused("rematch", room=old)
        assert said["text"] == f"you are not seated in room {old}"  # the players are in the new one


async def test_a_rematch_lapses_when_its_asker_has_left(server: GameServer) -> None:
    players = await seated_pair(server.port, GAME)
    white, black = players
    await white.send("resign", room=white.room)
    await black.read_a("ended")
    await white.send("rematch", room=white.room)
    await black.read_a("asked")
    await white.close()
    said = await black.refused("rematch", room=black.room)
    assert said["text"] == "the other player has left: the rematch lapsed"


async def test_chat_is_heard_by_those_it_is_for_and_kept_with_the_game(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        players = await seated_pair(running.port, GAME)
        white, black = players
        watcher = await Peer.open(running.port)
        await watcher.sit("watch", room=white.room)
        await white.send("say", room=white.room, text="  good luck \x1b[31m ")
        heard = [await peer.read_a("chat") for peer in (white, black, watcher)]
        assert heard[0] == heard[1] == heard[2]
        assert heard[0]["lines"] == [{"name": None, "side": 0, "text": "good luck \\x1b[31m"}]
        assert heard[0].get("before") is None
        said = await white.refused("say", room=white.room, text="again")
        assert (said["code"], said["text"]) == ("too-fast", "one chat line a second at most")
        await watcher.send("say", room=white.room, text="nice")
        assert (await watcher.read_a("chat"))["lines"][0]["side"] is None
        for peer in players:  # the players hear no watcher
            await peer.send("ping")
            assert await peer.read_a("pong") == {"type": "pong"}
        refused = await black.refused("say", room=black.room, text="x" * 141)
        assert refused["code"] == "bad-message"
        code = white.room
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        back = await Peer.open(running.port)
        await back.send("join", room=code, secret=black.secret)
        await back.read_a("seated")
        await back.read_a("game")
        history = await back.read_a("chat")
        assert history["before"] is True  # said before it came in: no news
        lines = history["lines"]
        assert [line["text"] for line in lines] == ["good luck \\x1b[31m"]  # no watcher's line
        late = await Peer.open(running.port)
        await late.send("watch", room=code)
        await late.read_a("seated")
        await late.read_a("game")
        lines = (await late.read_a("chat"))["lines"]
        assert [line["text"] for line in lines] == ["good luck \\x1b[31m", "nice"]


async def test_a_client_of_protocol_4_is_sent_nothing_new(server: GameServer) -> None:
    players = await seated_pair(server.port, GAME)
    white = players[0]
    old = await Peer.open(server.port, hello=False)
    await old.send("hello", version=4)
    await old.read_a("welcome")
    await old.sit("watch", room=white.room)
    await white.send("say", room=white.room, text="hello")
    for peer in players:
        await peer.read_a("chat")
    await play(players, players, new_game(), random.Random(2))
    await white.send("takeback", room=white.room)
    for peer in players:
        await peer.read_a("asked")
    await old.send("ping")
    seen = []
    while (message := await old.read())["type"] != "pong":
        seen.append(message["type"])
    assert seen == ["moved"]  # its chat and the take-back asked were not sent
    older = await Peer.open(server.port, hello=False)
    await older.send("hello", version=4)
    await older.read_a("welcome")
    again = await older.come_back("watch", room=white.room, since=0)
    assert [message["type"] for message in again] == ["seated", "game"]  # not the events


def test_a_room_chat_keeps_its_last_lines_and_a_line_a_second() -> None:
    class Speaker:
        name, side, last_said = "Ann", 0, float("-inf")

    chat = RoomChat()
    speaker: Any = Speaker()
    for second in range(60):
        chat.line(speaker, f"line {second}", now=float(second))
    assert len(chat.lines) == 50
    assert chat.lines[0].text == "line 10"
    with pytest.raises(Exception, match="one chat line a second"):
        chat.line(speaker, "fast", now=59.5)
    assert asyncio.iscoroutinefunction(GameServer.handle)
