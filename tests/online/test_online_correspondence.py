"""Games of days a move (correspondence) on a real server on loopback: each move gives its mover
the whole days again, the deadline is kept with each move, a game of days leaves memory with its
clock running, its clock is not paused by a restart (the time the server was down counts), and
its flag falls by the server's housekeeping with nobody connected, rated as any flag. The
server's wall clock is a fake one the tests move by days."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import pytest
from app_steps import AppFactory, screen_text, until
from online_steps import Peer, Tokens, named, seated_pair

from dipole_tui.cli import build_parser, main
from dipole_tui.cli.play import game_clock, online_choice
from dipole_tui.clock import TimeControl
from dipole_tui.control.choice import GameChoice, OnlineChoice
from dipole_tui.online.ratings import Standing, rate, speed
from dipole_tui.online.server import STORE_NAME, GameServer, Limits, running_server
from dipole_tui.session import HUMAN, Session

DAY = 86_400.0
QUICK = Limits(flag_check_seconds=0.05)  # the housekeeping looks for deadlines passed this often


class FakeTime:
    """The server's wall clock, moved by the test: days pass in no time."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


def deadline_of(folder: Path, code: str) -> tuple[float | None, str | None]:
    """The room's deadline and result as the store keeps them."""
    with sqlite3.connect(folder / STORE_NAME) as db:
        row = db.execute("SELECT deadline, result FROM rooms WHERE code = ?", (code,)).fetchone()
    db.close()
    return row[0], row[1]


async def gone_from_memory(server: GameServer, code: str) -> None:
    async with asyncio.timeout(5):
        while code in server.rooms:
            await asyncio.sleep(0.02)


def test_any_game_of_days_is_correspondence() -> None:
    assert [speed(f"{days}d") for days in (1, 14)] == ["correspondence"] * 2


async def test_each_move_gives_the_days_again_and_the_deadline_is_kept(tmp_path: Path) -> None:
    clock = FakeTime()
    async with running_server("127.0.0.1", 0, tmp_path, now=clock) as server:
        white, black = await Peer.open(server.port), await Peer.open(server.port)
        game = await white.sit("create", game="dipole", side="white", clock="3d")
        assert game["running"] is None and game["clocks"] == [3 * DAY, 3 * DAY]
        assert deadline_of(tmp_path, white.room) == (None, None)  # not started: one seat
        game = await black.sit("join", room=white.room, invite=white.invite)
        started = clock.now
        assert game["running"] == 0  # timed from the first move: a deadline needs no abort
        assert deadline_of(tmp_path, white.room)[0] == pytest.approx(started + 3 * DAY, abs=1)
        clock.wait(2 * DAY + 3600)
        await white.send("move", room=white.room, ply=0, move="e1-e3")
        moved = await black.read_a("moved")
        assert await white.read_a("moved") == moved
        assert moved["clocks"] == [3 * DAY, 3 * DAY] and moved["running"] == 1  # not added up
        assert deadline_of(tmp_path, white.room)[0] == pytest.approx(clock.now + 3 * DAY, abs=1)
        clock.wait(DAY)
        await white.send("rooms", rooms=[{"room": white.room, "secret": white.secret}])
        (summary,) = (await white.read_a("rooms"))["rooms"]
        assert summary["clock"] == "3d" and summary["to_move"] == 1
        assert summary["left"] == pytest.approx(2 * DAY, abs=1)  # Black's deadline, in seconds
        record = Session.from_text(game["record"])
        assert record.clock is not None and str(record.clock.control) == "3d"
        for peer in (white, black):
            await peer.close()
        await gone_from_memory(server, white.room)  # its clock runs, out of memory: kept


async def test_a_time_control_of_other_days_is_refused_in_one_line(tmp_path: Path) -> None:
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        peer = await Peer.open(server.port)
        said = await peer.refused("create", game="dipole", clock="4d")
        assert said["code"] == "bad-message" and "1, 2, 3, 5, 7 or 14 days" in said["text"]
        assert "\n" not in said["text"]


async def test_a_flag_by_days_ends_the_game_the_other_wins_and_both_are_rated(
    tmp_path: Path,
) -> None:
    clock, tokens = FakeTime(), Tokens()
    async with running_server("127.0.0.1", 0, tmp_path, QUICK, clock) as server:
        white, black = (
            await named(server.port, "Olga", tokens),
            await named(server.port, "Pam", tokens),
        )
        game = await white.sit("create", game="dipole", side="white", clock="1d", rated=True)
        assert game["players"][0] == {"name": "Olga", "rating": 1500, "provisional": True}
        await black.sit("join", room=white.room, invite=white.invite)
        await white.send("move", room=white.room, ply=0, move="e1-e3")
        assert await black.read_a("moved") == await white.read_a("moved")
        await black.send("move", room=white.room, ply=1, move="d8-d6")
        assert await black.read_a("moved") == await white.read_a("moved")
        clock.wait(DAY + 1)  # White lets its day pass: the housekeeping flags it
        ended = await white.read_a("ended")
        assert await black.read_a("ended") == ended
        assert ended["result"] == "0-1" and "on time" in ended["reason"]
        after = rate(Standing(), Standing(), "0-1")
        assert ended["changes"] == [after[0].points - 1500, after[1].points - 1500]
        said = await white.refused("move", room=white.room, ply=2, move="e3-e5")
        assert said["text"] == "the game is over"
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        rows = db.execute("SELECT name_key, speed, games FROM ratings ORDER BY name_key")
        assert rows.fetchall() == [("olga", "correspondence", 1), ("pam", "correspondence", 1)]
        (termination,) = db.execute("SELECT termination FROM rooms").fetchone()
    db.close()
    assert termination == "time"


async def test_a_game_of_days_runs_on_across_a_restart_and_the_downtime_counts(
    tmp_path: Path,
) -> None:
    clock = FakeTime()
    async with running_server("127.0.0.1", 0, tmp_path, now=clock) as server:
        white, black = await seated_pair(server.port, clock="2d")
        await white.send("move", room=white.room, ply=0, move="e1-e3")
        await black.read_a("moved")
    clock.wait(DAY)  # the server is down a day: Black's day, not paused
    async with running_server("127.0.0.1", 0, tmp_path, QUICK, clock) as server:
        watcher = await Peer.open(server.port)
        game = await watcher.sit("watch", room=white.room)
        assert game["running"] == 1 and game["clocks"][1] == pytest.approx(DAY, abs=1)
        assert game["clocks"][0] == 2 * DAY
        back = await Peer.open(server.port)
        await back.sit("join", room=white.room, secret=black.secret)
        await back.send("move", room=white.room, ply=1, move="d8-d6")  # in time
        moved = await watcher.read_a("moved")
        assert moved["clocks"] == [2 * DAY, 2 * DAY] and moved["running"] == 0
        clock.wait(2 * DAY)  # White lets its days pass, watched
        ended = await watcher.read_a("ended")
        assert ended["result"] == "0-1" and "on time" in ended["reason"]


async def test_the_flag_falls_after_a_restart_with_nobody_connected(tmp_path: Path) -> None:
    clock, tokens = FakeTime(), Tokens()
    async with running_server("127.0.0.1", 0, tmp_path, now=clock) as server:
        white, black = (
            await named(server.port, "Quin", tokens),
            await named(server.port, "Rae", tokens),
        )
        await white.sit("create", game="dipole", side="black", clock="5d", rated=True)
        await black.sit("join", room=white.room, invite=white.invite)
        await black.send("move", room=white.room, ply=0, move="e1-e3")  # Quin plays Black
        await white.read_a("moved")
        await white.send("move", room=white.room, ply=1, move="d8-d6")
        await black.read_a("moved")
        await black.read_a("moved")
        for peer in (white, black):
            await peer.close()
        code = white.room
    clock.wait(5 * DAY + 60)  # down past Quin's deadline: nobody comes back
    async with running_server("127.0.0.1", 0, tmp_path, QUICK, clock) as server:
        async with asyncio.timeout(5):
            while deadline_of(tmp_path, code)[1] is None:
                await asyncio.sleep(0.05)
        assert deadline_of(tmp_path, code)[1] == "0-1"  # Quin, Black, wins on time
        assert code not in server.rooms  # flagged, then out of memory again
        again = await named(server.port, "Rae", tokens)
        game = await again.sit("join", room=code, secret=black.secret)
        record = Session.from_text(game["record"])
        assert record.outcome is not None and record.outcome.result() == "0-1"
        assert game["running"] is None
        await again.send("players", game="dipole", speed="correspondence")
        listed = (await again.read_a("players"))["players"]
        assert [(p["name"], p["games"]) for p in listed] == [("Quin", 1), ("Rae", 1)]


async def test_a_game_of_days_flagged_before_each_side_moved_is_not_rated(
    tmp_path: Path,
) -> None:
    clock, tokens = FakeTime(), Tokens()
    async with running_server("127.0.0.1", 0, tmp_path, QUICK, clock) as server:
        white, black = await seated_pair(
            server.port, names=("Sam", "Tia"), tokens=tokens, clock="1d", rated=True
        )
        await white.send("move", room=white.room, ply=0, move="e1-e3")
        await black.read_a("moved")
        clock.wait(DAY + 1)  # Black never answers
        ended = await black.read_a("ended")
        assert ended["result"] == "1-0" and ended.get("changes") is None
    with sqlite3.connect(tmp_path / STORE_NAME) as db:
        assert db.execute("SELECT count(*) FROM ratings").fetchone() == (0,)
    db.close()


async def test_two_seeks_of_days_pair_into_a_game_of_days(tmp_path: Path) -> None:
    tokens = Tokens()
    async with running_server("127.0.0.1", 0, tmp_path) as server:
        first, second = (
            await named(server.port, "Sam", tokens),
            await named(server.port, "Tia", tokens),
        )
        await first.send("seek", game="dipole", clock="7d")
        assert (await first.read_a("sought"))["seek"]
        await second.send("seek", game="dipole", clock="7d")
        for peer in (first, second):
            seated = await peer.read_a("seated")
            assert seated["clock"] == "7d"
            game = await peer.read_a("game")
            assert game["running"] == 0 and game["clocks"] == pytest.approx([7 * DAY] * 2, abs=1)
        again = await named(server.port, "Sam", tokens)  # the first is in its room
        said = await again.refused("seek", game="dipole", clock="10d")
        assert "1, 2, 3, 5, 7 or 14 days" in said["text"]


async def test_the_app_shows_a_game_of_days_in_days_and_hours(
    make_app: AppFactory, tmp_path: Path
) -> None:
    async with running_server("127.0.0.1", 0, tmp_path / "server") as server:
        choice = GameChoice("dipole", "8x8", (HUMAN, HUMAN), TimeControl.per_move(3))
        url = f"ws://127.0.0.1:{server.port}"
        online = OnlineChoice(url, "create", game=choice, side="white")
        app = make_app("dipole", online=online, folder=tmp_path / "white")
        async with app.run_test(size=(100, 34)):
            room = app.game_screen.keeper.online
            await until(lambda: room is not None and bool(room.code))
            assert room is not None
            friend = await Peer.open(server.port)
            await friend.sit("join", room=room.code, invite=room.invite)
            # White's days run from the first move (2d 23h as soon as they do); Black's are whole.
            await until(lambda: "2d 23h" in screen_text(app) and "3d 0h" in screen_text(app))
            assert "3d" in screen_text(app).replace("3d 0h", "")  # the time control said
            await friend.close()


URL = "ws://127.0.0.1:8765"


def test_days_make_a_room_or_a_seek_of_days() -> None:
    for kind, flag in (("create", "--new-room"), ("seek", "--seek")):
        args = build_parser().parse_args(["play", "--server", URL, flag, "--days", "7", "--rated"])
        choice = GameChoice("dipole", "8x8", (HUMAN, HUMAN), game_clock(args))
        assert choice.time_control == TimeControl.per_move(7)
        assert online_choice(args, choice) == OnlineChoice(
            URL, kind, game=choice, side="random", rated=True
        )


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["--new-room", "--days", "4"], "'4' is not a number of days a move: 1, 2, 3, 5, 7 or 14"),
        (["--new-room", "--days", "9" * 5000], "is not a number of days a move"),
        (["--seek", "--days", "٣"], "is not a number of days a move"),
        (["--new-room", "--days", "3", "--clock", "5+3"], "--clock and --days: one or the other"),
        (["--join", "ABCD", "--days", "3"], "--days goes with --new-room or --seek"),
        (["--new-room", "--clock", "3d"], "days a move are --days 3, with --new-room or --seek"),
    ],
)
def test_days_are_refused_in_one_short_line(
    given: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--server", URL, *given]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and said in error and len(error) < 200
