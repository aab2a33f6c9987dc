"""The solver's bounded table: a tiny one, which loses entries all the time, gives the same exact
answers as a large one (it only costs nodes); the table keeps the expensive proofs and loses
nothing when it grows; `solve --memory` takes a plain number in range and nothing else."""

from __future__ import annotations

import errno
import mmap
import random
from typing import Literal

import pytest
from test_solver import random_endings, random_position

from dipole_tui.analysis import solve, within
from dipole_tui.bots import table as tables
from dipole_tui.bots.table import ENTRY_BYTES, WORK, Table
from dipole_tui.cli import main
from dipole_tui.games.dipole import DIPOLE, DipoleState

SMALL = 2000  # nodes: positions the large table solves within these are compared


def small_positions(seed: int, count: int) -> list[DipoleState]:
    """Random positions of 3 to 7 checkers and endings of random games (with their history),
    those the solver proves within SMALL nodes."""
    rng = random.Random(seed)
    states = [random_position(rng, checkers) for checkers in (3, 4, 5, 6, 7) * (count // 8)]
    while len(states) < count:
        states += random_endings(rng)
    return [state for state in states if solve(DIPOLE, state, max_nodes=SMALL).result]


@pytest.mark.parametrize(
    ("entries", "start"),
    [(64, tables.START_BUCKETS), (128, 2)],
    ids=["64-entries", "growing-to-128"],
)
def test_a_tiny_table_gives_the_same_results_as_a_large_one(
    monkeypatch: pytest.MonkeyPatch, entries: int, start: int
) -> None:
    """Same result, same plies, and the move keeps the result, while the tiny table replaces
    entries all the time (and, from 2 buckets, grows first): an entry reused for the wrong
    position, or with its bounds counted from the wrong ply, would change an answer."""
    states = small_positions(26, 150)
    assert len(states) > 100
    large_nodes = tiny_nodes = 0
    for state in states:
        large = solve(DIPOLE, state)
        with monkeypatch.context() as patched:
            patched.setattr(tables, "START_BUCKETS", start)
            tiny = solve(DIPOLE, state, memory=entries * ENTRY_BYTES)
        where = state.position()
        assert (tiny.result, tiny.plies) == (large.result, large.plies), where
        assert tiny.result is not None and tiny.move is not None, where
        state.play(tiny.move)
        after = solve(DIPOLE, state)
        state.undo()
        other = "loss" if tiny.result == "win" else "win"
        assert (after.result, after.plies) == (other, tiny.plies - 1), (where, tiny.move)
        large_nodes += large.nodes
        tiny_nodes += tiny.nodes
    assert tiny_nodes > large_nodes  # entries were lost (19% and 7% more nodes): it replaced


def test_within_agrees_with_a_tiny_table() -> None:
    for state in small_positions(27, 60):
        solution = solve(DIPOLE, state)
        assert solution.result == "win" or solution.result == "loss"  # Dipole has no draws
        result: Literal["win", "loss"] = solution.result
        plies, memory = solution.plies, 16 * ENTRY_BYTES
        assert within(DIPOLE, state, result, plies, memory=memory).holds is True
        assert within(DIPOLE, state, result, plies - 1, memory=memory).holds is False


def test_a_budget_that_suffices_finds_what_no_budget_finds_in_a_tiny_table() -> None:
    """The table does not depend on the budget, so a search that is cut off at the nodes an
    unlimited one took has done the same search."""
    state = DIPOLE.parse_position("8:W:Wf2=1,h4=1:Bd4=2,d8=1")
    memory = 64 * ENTRY_BYTES
    full = solve(DIPOLE, state, memory=memory)
    assert (full.result, full.plies) == ("loss", 10)
    assert full.nodes > solve(DIPOLE, state).nodes * 1.5  # the tiny table lost much
    assert solve(DIPOLE, state, max_nodes=full.nodes, memory=memory) == full
    assert solve(DIPOLE, state, max_nodes=full.nodes - 1, memory=memory).result is None


def held(table: Table) -> dict[int, int]:
    """Every entry of the table's buckets in use, read from its slots."""
    slots = table.slots
    return {
        slots[base]: slots[base + 1]
        for bucket in range(table.count)
        for base in (4 * bucket, 4 * bucket + 2)
        if slots[base + 1]
    }


def test_the_table_grows_losing_nothing_and_then_replaces_one_entry_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tables, "START_BUCKETS", 2)
    table = Table(100 * 2 * ENTRY_BYTES)  # 100 buckets: not a power of two
    rng = random.Random(3)
    before: dict[int, int] = {}
    sizes = []
    for step in range(2000):
        key = rng.getrandbits(64) if step % 5 else rng.choice([*before] or [1])
        value = rng.randrange(32) << WORK | rng.getrandbits(44) | 1
        base = table.bucket(key)
        bucket = {table.slots[base], table.slots[base + 2]} - {0}
        full = key not in before and bucket <= before.keys() and len(bucket) == 2
        table.put(key, value)
        after = held(table)
        assert len(after) == table.filled <= 2 * table.count <= 2 * table.most
        if key in before:  # the same position again: its entry, the larger work of the two
            work = max(value >> WORK, before[key] >> WORK)
            assert after[key] == work << WORK | value & ((1 << WORK) - 1)
        else:
            assert after[key] == value
        lost = before.keys() - after.keys()
        assert len(lost) == full and lost <= bucket, step  # one of a full bucket, else none
        assert all(after[known] == before[known] for known in before.keys() - {key} - lost)
        assert all(table.get(known) == after[known] for known in after)
        before = after
        sizes.append(table.count)
    assert sizes[0] == 2 and sizes == sorted(sizes) and sizes[-1] == table.most
    assert table.filled > 190
    assert len(table.slots) * 8 == 100 * 2 * ENTRY_BYTES


def test_an_expensive_proof_outlasts_a_flood_of_cheap_ones() -> None:
    table = Table(64 * 2 * ENTRY_BYTES)
    rng = random.Random(4)
    keys = {table.bucket(key): key for key in (rng.getrandbits(64) for _ in range(40))}
    expensive = {key: 20 << WORK | step + 1 for step, key in enumerate(keys.values())}
    assert len(expensive) > 20  # one a bucket
    for key, value in expensive.items():
        table.put(key, value)
    for _ in range(5000):
        table.put(rng.getrandbits(64), rng.randrange(20) << WORK | 1)
    kept = sum(table.get(key) == value for key, value in expensive.items())
    assert kept == len(expensive)


@pytest.mark.parametrize("text", ["1_0", "٣", "-5", "1e3", "15", "65537", "", " 16", "0x10"])
def test_solve_memory_is_a_plain_number_in_range(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    assert main(["solve", "--memory", text, "8:W:Wc3=1:Bd4=1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert f"MB must be a whole number from 16 to 65536, not {text!r}" in err


def test_solve_memory_gives_the_same_answers(capsys: pytest.CaptureFixture[str]) -> None:
    positions = ["8:W:Wc3=1:Bd4=1", "8:B:Wh4=1:Bb2=1", "8:W:Wf2=2:Bh2=1,f8=2"]
    assert main(["solve", *positions]) == 0
    default = capsys.readouterr().out
    assert main(["solve", "--memory", "16", *positions]) == 0
    assert capsys.readouterr().out == default
    assert default.splitlines()[2] == "loss in 17 plies: f2xh2"


def test_a_table_the_system_refuses_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOMEM, "no memory")

    # The mmap module's, not the solver's own function: the call of a compiled module to its
    # own functions is bound when compiled, past any monkeypatch.
    monkeypatch.setattr(mmap, "mmap", refuse)
    assert main(["solve", "--memory", "65536", "8:W:Wc3=1:Bd4=1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "dipole-tui: the solver's table cannot have 65536 MB: no memory\n"
