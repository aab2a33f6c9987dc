"""Names on a real server on loopback: claimed once with a token, unique in any case, taken
again with the token after a restart, kept with the seats and in the records; and the app's
end: the link claims before it asks for its room, the token kept in `names.json` (0600)."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest
from online_steps import Peer

from dipole_tui.online.client import Link
from dipole_tui.online.limits import Limits
from dipole_tui.online.names import NAMES_FILE, NameBook, name_problem
from dipole_tui.online.protocol import Claim, Create, Named, Player, ServerMessage, WholeGame
from dipole_tui.online.server import running_server
from dipole_tui.records import parse_record


async def claim(peer: Peer, name: str, token: str | None = None) -> dict[str, object]:
    await peer.send("claim", name=name, **({} if token is None else {"token": token}))
    return await peer.read()


async def test_a_name_is_claimed_once_and_taken_again_with_its_token_after_a_restart(
    tmp_path: Path,
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        alice = await Peer.open(server.port)
        named = await claim(alice, "Alice")
        assert named["type"] == "named" and named["name"] == "Alice"
        token = named["token"]
        assert isinstance(token, str) and len(token) >= 32
        again = await claim(alice, "Bob")  # one name a connection
        assert again["code"] == "refused" and "plays as Alice already" in str(again["text"])
        for taken in ("alice", "ALICE"):
            other = await Peer.open(server.port)
            refused = await claim(other, taken)
            assert refused["code"] == "name-taken" and "taken" in str(refused["text"])
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        back = await Peer.open(server.port)
        assert await claim(back, "aLiCe", token) == {"type": "named", "name": "Alice"}
        thief = await Peer.open(server.port)
        wrong = await claim(thief, "alice", "x" * 32)
        assert wrong["code"] == "refused" and "not the key of the name alice" in str(wrong["text"])


@pytest.mark.parametrize("name", ["white", "Human", "hard", "random", "ab4"])
async def test_the_programs_own_words_are_nobodys_names(tmp_path: Path, name: str) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        peer = await Peer.open(server.port)
        refused = await claim(peer, name)
        assert refused["code"] == "name-taken" and "program's" in str(refused["text"])


@pytest.mark.parametrize("name", ["ab", "x" * 21, "al ice", "élise", "a\x1b[2J"])
async def test_a_name_not_of_the_shape_is_refused(tmp_path: Path, name: str) -> None:
    assert name_problem(name)
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        peer = await Peer.open(server.port)
        refused = await claim(peer, name)
        assert refused["code"] == "bad-message" and "3 to 20" in str(refused["text"])


async def test_an_address_claims_a_few_names_an_hour_and_wrong_tokens_are_guesses(
    tmp_path: Path,
) -> None:
    limits = Limits(names_per_hour=2, guesses_per_minute=1, guess_burst=2)
    async with running_server("127.0.0.1", 0, tmp_path, limits) as server:
        said = []
        for number in range(3):
            said.append(await claim(await Peer.open(server.port), f"player{number}"))
        assert [s["type"] for s in said[:2]] == ["named", "named"]
        assert said[2]["code"] == "too-fast" and "names an hour" in str(said[2]["text"])
        guesses = [await claim(await Peer.open(server.port), "player0", "y" * 32) for _ in range(3)]
        assert [g["code"] for g in guesses] == ["refused", "refused", "too-fast"]


async def test_the_seats_names_are_told_kept_and_written_in_the_record(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        white, black, watcher = [await Peer.open(server.port) for _ in range(3)]
        await claim(white, "Alice")
        await claim(black, "bob_2")
        game = await white.sit("create", game="dipole", side="white")
        assert game["players"] == [{"name": "Alice"}, None]  # no clock: no rating
        await black.sit("join", room=white.room, invite=white.invite)
        both = [{"name": "Alice"}, {"name": "bob_2"}]
        assert (await white.read_a("seats"))["players"] == both
        whole = await watcher.sit("watch", room=white.room)
        assert whole["players"] == both
        tags = parse_record(str(whole["record"])).tags
        assert (tags["White"], tags["Black"]) == ("Alice", "bob_2")
        room = white.room
    async with running_server("127.0.0.1", 0, tmp_path) as server:  # kept with the seats
        again = await Peer.open(server.port)
        whole = await again.sit("watch", room=room)
        assert whole["players"] == both
        assert '[White "Alice"]' in str(whole["record"])


async def test_a_room_without_names_says_none(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        game = await (await Peer.open(server.port)).sit("create", game="dipole")
        assert "players" not in game


async def test_the_link_claims_before_its_room_and_again_with_the_token_on_reconnection(
    tmp_path: Path,
) -> None:
    heard: list[ServerMessage] = []
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        url = f"ws://127.0.0.1:{server.port}"
        link = Link(url, Create("dipole", side="black"), heard.append, claim=Claim("Carol"))
        task = asyncio.create_task(link.run())
        while not any(isinstance(m, WholeGame) for m in heard):
            await asyncio.sleep(0.01)
        named = heard[0]
        assert isinstance(named, Named) and named.name == "Carol" and named.token
        whole = next(m for m in heard if isinstance(m, WholeGame))
        assert whole.players == (None, Player("Carol"))
        assert link.claim == Claim("Carol", named.token)  # what a reconnection claims
        link.resync()  # the connection drops: the link comes back under the same name
        while sum(isinstance(m, Named) for m in heard) < 2:
            await asyncio.sleep(0.01)
        assert [m for m in heard if isinstance(m, Named)][1] == Named("Carol")
        await link.close()
        await task


async def test_a_name_taken_ends_the_link_in_one_line(tmp_path: Path) -> None:
    said: list[str] = []
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        await claim(await Peer.open(server.port), "Dave")
        url = f"ws://127.0.0.1:{server.port}"
        link = Link(url, Create("dipole"), lambda m: None, said.append, Claim("dave"))
        await asyncio.wait_for(link.run(), 5)
    assert link.fatal == said[-1] and "the name dave is taken" in link.fatal


def test_the_name_book_keeps_one_name_a_server_for_its_owner_alone(tmp_path: Path) -> None:
    book = NameBook(tmp_path)
    assert book.claim("ws://127.0.0.1:8765", None) is None
    assert book.claim("ws://127.0.0.1:8765", "Eve") == Claim("Eve")
    book.keep("ws://localhost:8765/", "Eve", "t" * 32)
    assert stat.S_IMODE((tmp_path / NAMES_FILE).stat().st_mode) == 0o600
    assert book.claim("ws://127.0.0.1:8765", None) == Claim("Eve", "t" * 32)
    assert book.claim("ws://127.0.0.1:8765", "EVE") == Claim("EVE", "t" * 32)
    assert book.claim("ws://127.0.0.1:8765", "Mallory") == Claim("Mallory")
    assert book.claim("ws://other:8765", None) is None
    book.keep("ws://127.0.0.1:8765", "Frank", "f" * 32)
    assert [kept.name for kept in book.names()] == ["Frank"]


def test_a_damaged_name_book_is_set_aside_in_one_line(tmp_path: Path) -> None:
    (tmp_path / NAMES_FILE).write_text('[{"server": "ws://x", "name": "a\\u001b[2J", "token": 1}]')
    book = NameBook(tmp_path)
    assert book.names() == []
    assert "entry 1 is not a name" in book.problem and "set aside" in book.problem
    assert "\x1b" not in book.problem
