"""bench/online.py's clients against a real `dipole-tui serve`: three games at once, moves as fast
as the server lets a connection send, every one relayed, none refused; and its lobby mode's
players (bench/online_lobby.py). The bench measures; this only keeps it working, so the
figures of docs/scaling.md can be measured again."""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from paths import ROOT

from dipole_tui.registry import REGISTRY

ROOT = ROOT


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("online_bench", ROOT / "bench" / "online.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_three_games_are_played_and_measured(tmp_path: Path) -> None:
    bench = load_bench()
    server, url = bench.start_server(tmp_path)
    try:
        plan = bench.Plan(url, games=3, keys=tuple(REGISTRY), think=0.0, plies=20, seconds=2.0)
        tally = asyncio.run(bench.Tables(plan, 0, 3).run())
    finally:
        bench.stop_server(server)
    assert server.returncode == 0, (tmp_path / "server.log").read_text()
    assert tally.refusals == [] and tally.errors == []
    assert tally.games_ended >= 3  # each table finished a game: 20 plies, then resigned
    assert len(tally.latencies) > 20 and all(0 < late < 5 for late in tally.latencies)
    assert tally.moves >= len(tally.latencies) and tally.window >= 2.0


def test_two_players_meet_in_the_lobby_game_after_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bench/online_lobby.py's players: named once, then seek (or list and accept), play and
    seek again, each game a new connection; both seats of every room timed from the one message
    that paired them. Two players: no third one races an accept (docs/scaling.md, Lobby)."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))  # it imports bench/online.py's machinery
    lobby, online = (importlib.import_module(name) for name in ("online_lobby", "online"))
    server, url = online.start_server(tmp_path)
    try:
        pool = lobby.Pool("dipole", "3+2", rated=True, weight=1)  # two players: the same pool
        plan = lobby.LobbyPlan(
            url, 2, think=0.02, plies=6, seconds=3.0, ramp=0.2, browse=0.5, pools=(pool,)
        )
        tally = asyncio.run(lobby.Players(plan, 0, 2).run())
    finally:
        online.stop_server(server)
    assert server.returncode == 0, (tmp_path / "server.log").read_text()
    assert tally.refusals == [] and tally.errors == []
    starts = lobby.game_starts(tally.seats)
    started = starts.quick + starts.accepted
    assert len(started) >= 6 and starts.unmatched <= 2  # a room at each edge of the window
    assert all(0 < late < 5 for late in started + starts.waits)
    assert tally.seeks + tally.accepts >= len(started) // 2 and tally.listings
    moved = lobby.relays(tally.sent, tally.arrived)
    assert len(moved) > 10 and all(0 < late < 5 for late in moved)
    assert tally.games_ended >= len(started) - 2  # each player counts its games
    assert tally.stranded <= 1  # a room at the window's end whose seeker had gone, at most


def test_a_client_still_in_a_game_after_the_grace_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client whose game never ends is cancelled once the window and WAIT are over, and the
    tally says so: the bench does not report a clean run it did not have."""
    bench = load_bench()
    monkeypatch.setattr(bench, "WAIT", 0.2)

    class Stuck(bench.Clients):  # type: ignore[name-defined,misc]
        async def game(self, number: int, rng: object) -> None:
            self.all_ready.set()
            if number:  # the second client never sees its game end
                await asyncio.Event().wait()
            await asyncio.sleep(0.01)

    plan = bench.Plan("ws://unused", games=2, keys=("dipole",), seconds=0.1)
    tally = asyncio.run(Stuck(plan, 0, 2, bench.Tally()).run())
    assert tally.errors == ["a client still in a game 0.2 s after the end"]
