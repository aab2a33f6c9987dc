"""A player's finished games on a real server on loopback (the archive): listed newest first with
their records, paged, bounded and rate-limited; never expired; read back after a restart, from
the moves where no `ended` was kept; and the `games` command, which prints them or writes them
as records the app, `replay` and `analyse` read."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from cli_steps import Cli
from online_steps import Peer, Tokens, named, seated_pair

from dipole_tui.cli.listings import _Folder, record_name
from dipole_tui.online import desk
from dipole_tui.online.limits import Limits
from dipole_tui.online.protocol import ArchivedGame
from dipole_tui.online.server import STORE_NAME, GameServer, running_server
from dipole_tui.session import Session


async def finished(
    port: int, white_name: str, black_name: str, tokens: Tokens, **create: Any
) -> dict[str, Any]:
    """A game White wins on Black's resignation after a move each: the `ended` both saw."""
    white, black = await seated_pair(port, names=(white_name, black_name), tokens=tokens, **create)
    for ply, (mover, move) in enumerate([(white, "e1-e3"), (black, "d8-d6")]):
        await mover.send("move", room=white.room, ply=ply, move=move)
        assert await white.read_a("moved") == await black.read_a("moved")
    await black.send("resign", room=white.room)
    ended = await white.read_a("ended")
    assert await black.read_a("ended") == ended
    await white.close()
    await black.close()
    return ended


async def archive(peer: Peer, **asked: Any) -> dict[str, Any]:
    await peer.send("games", **asked)
    return await peer.read_a("games")


@pytest.fixture
async def server(tmp_path: Path) -> Any:
    async with running_server("127.0.0.1", 0, tmp_path) as running:
        yield running


async def test_a_players_finished_games_come_newest_first_with_their_records(
    server: GameServer,
) -> None:
    tokens: Tokens = {}
    rated = await finished(server.port, "Alice", "Bob", tokens, clock="5+3", rated=True)
    casual = await finished(server.port, "Bob", "Alice", tokens)
    await finished(server.port, "Carol", "Dave", tokens)  # nobody's but theirs
    going_on = await named(server.port, "Alice", tokens)
    await going_on.sit("create", game="dipole", side="white")  # not finished: not listed
    alone = await named(server.port, "Alice", tokens)
    await alone.sit("create", game="dipole", side="white")
    await alone.send("resign", room=alone.room)  # finished, but played against nobody
    await alone.read_a("ended")
    asker = await Peer.open(server.port)  # anyone may ask, named or not
    answer = await archive(asker, name="aLiCe")
    assert (answer["name"], answer["more"], answer["total"]) == ("Alice", False, 2)
    assert [g["room"] for g in answer["games"]] == [casual["room"], rated["room"]]
    newest, oldest = answer["games"]
    assert {key: newest[key] for key in ("white", "black", "result", "reason", "rated")} == {
        "white": "Bob", "black": "Alice", "result": "1-0", "reason": "Black resigned",
        "rated": False,
    }  # fmt: skip
    assert (newest["game"], newest["variant"], newest["clock"]) == ("dipole", "8x8", None)
    assert (oldest["white"], oldest["black"], oldest["rated"], oldest["clock"]) == (
        "Alice", "Bob", True, "5+3"
    )  # fmt: skip
    assert newest["record"] == casual["record"] and oldest["record"] == rated["record"]
    session = Session.from_text(oldest["record"])
    assert (session.tags["White"], session.tags["Black"]) == ("Alice", "Bob")
    assert session.outcome is not None and session.outcome.result() == "1-0"
    assert newest["date"] == session.tags["Date"]
    assert (await archive(asker, name="Alice", game="bipod"))["games"] == []
    assert (await archive(asker, name="Alice", game="dipole"))["total"] == 2
    unknown = await archive(asker, name="Nobody")
    assert unknown == {"type": "games", "name": "Nobody", "games": [], "more": False, "total": 0}
    for bad in ({"name": "a b"}, {"name": "al"}, {"name": "Alice", "before": "?"}):
        assert (await asker.refused("games", **bad))["code"] == "bad-message"
    refused = await asker.refused("games", name="Alice", game="chess")
    assert refused["code"] == "bad-message"


async def test_pages_follow_one_another_by_the_last_room_and_hold_a_bounded_text(
    server: GameServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens: Tokens = {}
    ended = [await finished(server.port, "Ann", "Ben", tokens) for _ in range(3)]
    rooms = [e["room"] for e in reversed(ended)]  # newest first
    monkeypatch.setattr(desk, "MOST_ARCHIVED", 2)
    peer = await Peer.open(server.port)
    first = await archive(peer, name="Ann")
    assert [g["room"] for g in first["games"]] == rooms[:2]
    assert (first["more"], first["total"]) == (True, 3)
    second = await archive(peer, name="Ann", before=rooms[1].lower())
    assert [g["room"] for g in second["games"]] == rooms[2:] and not second["more"]
    assert (await archive(peer, name="Ann", before=rooms[2]))["games"] == []
    others = await finished(server.port, "Eve", "Finn", tokens)
    for stranger in ("ZZZZZZ", others["room"]):  # no room, and a room of other players
        assert (await archive(peer, name="Ann", before=stranger))["games"] == []
    monkeypatch.setattr(desk, "ARCHIVE_TEXT", 1)  # a page's first record is sent whatever it is
    single = await archive(peer, name="Ann")
    assert [g["room"] for g in single["games"]] == rooms[:1] and single["more"]


async def test_an_address_is_sent_a_bounded_number_of_games_a_minute(tmp_path: Path) -> None:
    limits = Limits(archived_per_minute=3)
    async with running_server("127.0.0.1", 0, tmp_path, limits) as server:
        tokens: Tokens = {}
        for _ in range(2):
            await finished(server.port, "Ann", "Ben", tokens)
        peer, other = await Peer.open(server.port), await Peer.open(server.port)
        assert len((await archive(peer, name="Ann"))["games"]) == 2
        partial = await archive(other, name="Ben")  # another connection, the same address
        assert len(partial["games"]) == 1 and partial["more"]
        refused = await peer.refused("games", name="Ann")
        assert refused["code"] == "too-fast" and "3 finished games a minute" in refused["text"]


async def test_a_client_of_protocol_4_is_sent_no_archive(server: GameServer) -> None:
    old = await Peer.open(server.port, hello=False)
    await old.send("hello", version=4, client="tests")
    assert (await old.read())["type"] == "welcome"
    refused = await old.refused("games", name="Alice")
    assert refused["code"] == "unknown-type" and "protocol 5" in refused["text"]


async def test_finished_games_never_expire_and_are_read_back_from_their_moves(
    tmp_path: Path,
) -> None:
    """`expire` removes only rooms whose second seat was never taken; a room whose end was
    kept before servers kept events (none here: they are deleted) is replayed from its moves
    to the same record."""
    tokens: Tokens = {}
    async with running_server("127.0.0.1", 0, tmp_path, Limits(unjoined_days=0)) as server:
        rated = await finished(server.port, "Alice", "Bob", tokens, clock="5+3", rated=True)
        casual = await finished(server.port, "Bob", "Alice", tokens)
        lonely = await named(server.port, "Alice", tokens)
        await lonely.sit("create", game="dipole", side="white", clock="5+3", rated=True)
        await lonely.close()
        await asyncio.sleep(0.1)
        assert await server.expire() == [lonely.room]
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        db.execute("DELETE FROM events WHERE code = ?", (rated["room"],))
    db.close()
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        listed = (await archive(await Peer.open(server.port), name="Alice"))["games"]
    assert [g["room"] for g in listed] == [casual["room"], rated["room"]]
    assert [g["record"] for g in listed] == [casual["record"], rated["record"]]
    assert [g["reason"] for g in listed] == ["Black resigned"] * 2


async def test_the_games_command_prints_them_and_writes_records_once(
    server: GameServer, cli: Cli, tmp_path: Path
) -> None:
    tokens: Tokens = {}
    url = f"ws://127.0.0.1:{server.port}"
    rated = await finished(server.port, "Alice", "Bob", tokens, clock="5+3", rated=True)
    casual = await finished(server.port, "Bob", "Alice", tokens)
    date = Session.from_text(rated["record"]).tags["Date"]
    ran = await asyncio.to_thread(cli, "games", "--server", url, "alice")
    assert (ran.status, ran.err) == (0, "")
    assert ran.out.splitlines() == [
        f"{date}\tdipole 8x8\tBob\tAlice\t1-0\tcasual\t{casual['room']}",
        f"{date}\tdipole 8x8\tAlice\tBob\t1-0\trated\t{rated['room']}",
    ]
    ran = await asyncio.to_thread(cli, "games", "--server", url, "Alice", "--game", "bipod")
    assert ran.out == f"No finished games of Alice on {url}.\n"
    folder = tmp_path / "archive"
    folder.mkdir()
    ran = await asyncio.to_thread(cli, "games", "--server", url, "Alice", "-o", str(folder))
    assert (ran.status, ran.out, ran.err) == (0, f"Wrote 2 games into {folder}.\n", "")
    day = date.replace(".", "-")
    files = sorted(path.name for path in folder.iterdir())
    assert files == sorted([
        f"{day}_Alice-v-Bob_{rated['room']}.txt", f"{day}_Bob-v-Alice_{casual['room']}.txt"
    ])  # fmt: skip
    written = folder / f"{day}_Alice-v-Bob_{rated['room']}.txt"
    session = Session.from_text(written.read_text(encoding="utf-8"))
    assert (session.tags["White"], session.tags["Black"]) == ("Alice", "Bob")
    replayed = await asyncio.to_thread(cli, "replay", str(written))
    assert replayed.status == 0 and "Alice (White) v Bob (Black), result 1-0" in replayed.out
    analysed = await asyncio.to_thread(cli, "analyse", str(written), "--movetime", "0.01")
    assert analysed.status == 0 and '[White "Alice"]' in analysed.out
    edited = folder / f"{day}_Bob-v-Alice_{casual['room']}.txt"
    edited.write_text("kept by hand\n", encoding="utf-8")
    ran = await asyncio.to_thread(cli, "games", "--server", url, "Alice", "-o", str(folder))
    assert ran.status == 0
    assert ran.out == f"Wrote 0 games into {folder} (2 there already).\n"
    assert ran.err == f"warning: {edited} is there already, not this record: left as it is\n"
    assert edited.read_text(encoding="utf-8") == "kept by hand\n"


async def test_the_games_command_refuses_a_bad_folder_or_name_in_one_line(
    cli: Cli, tmp_path: Path
) -> None:
    """Before anything is asked: no server listens at this address."""
    url = "ws://127.0.0.1:9"
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    for given, said in ((afile, "is not a folder"), (tmp_path / "none", "does not exist")):
        ran = await asyncio.to_thread(cli, "games", "--server", url, "Alice", "-o", str(given))
        assert ran.status == 2 and ran.out == ""
        assert ran.err == f"dipole-tui: {given} {said}: -o names the folder to write into\n"
    ran = await asyncio.to_thread(cli, "games", "--server", url, "a b")
    assert ran.status == 2 and "'a b' is no player's name" in ran.err
    assert len(ran.err.splitlines()) == 1
    ran = await asyncio.to_thread(cli, "games", "--server", url, "Alice")
    assert ran.status == 2 and ran.err.startswith(f"dipole-tui: cannot ask {url}")


def test_a_servers_record_is_written_only_when_it_reads_and_under_a_safe_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = '[Game "dipole"]\n[White "Alice"]\n[Black "Bob"]\n\n1. e1-e3 *\n'
    base = ArchivedGame("K7QMWD", "dipole", "8x8", None, False, None, "Bob", "1-0", "", "", "")
    hostile = [
        ArchivedGame(**{**base.__dict__, "record": '[Game "chess"]\n\n*\n'}),
        ArchivedGame(**{**base.__dict__, "record": "1. zz-zz\n", "room": "Q2W3E4"}),
    ]
    folder = _Folder(tmp_path)
    for game in hostile:
        folder.keep(game)
    assert list(tmp_path.iterdir()) == [] and folder.written == 0
    warned = capsys.readouterr().err.splitlines()
    assert len(warned) == 2 and all("does not read" in line for line in warned)
    odd = ArchivedGame(**{**base.__dict__, "date": "../../etc/..", "record": record})
    assert record_name(odd) == "undated_anonymous-v-Bob_K7QMWD.txt"
    folder.keep(odd)
    assert (tmp_path / "undated_anonymous-v-Bob_K7QMWD.txt").read_text() == record
