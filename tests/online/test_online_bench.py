"""bench/online.py's clients against a real `dipole-tui serve`: three games at once, moves as fast
as the server lets a connection send, every one relayed, none refused. The bench measures; this
only keeps it working, so the README's figures can be measured again."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

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
