"""Perft: the engine's node counts against tests/data/perft_dipole.txt and the reference."""

from __future__ import annotations

import pytest
from paths import DATA
from perft_table import load_perft_table
from reference import read_position, ref_perft

from dipole_tui.games.dipole import DIPOLE, OFF, Move, parse_square
from dipole_tui.perft import perft

TABLE = DATA / "perft_dipole.txt"
REFERENCE_MAX_DEPTH = 3  # the slow reference perft re-checks these entries on every run


def load_table() -> list[tuple[str, int, int]]:
    return load_perft_table(TABLE)


ENTRIES = load_table()


def test_table_covers_the_start_positions() -> None:
    depths: dict[str, set[int]] = {}
    for position, depth, _ in ENTRIES:
        depths.setdefault(position, set()).add(depth)
    assert depths["8:W:We1=12:Bd8=12"] == {1, 2, 3, 4, 5}
    assert depths["10:W:We1=20:Bf10=20"] == {1, 2, 3}
    assert len(depths) >= 8  # plus middle games and endings


@pytest.mark.parametrize(("position", "depth", "nodes"), ENTRIES, ids=lambda v: str(v))
def test_engine_perft_matches_table(position: str, depth: int, nodes: int) -> None:
    state = DIPOLE.parse_position(position)
    assert perft(state, depth) == nodes
    assert state.position() == position  # perft leaves the state as it found it
    assert state.moves_played == []


SHALLOW = [entry for entry in ENTRIES if entry[1] <= REFERENCE_MAX_DEPTH]


@pytest.mark.parametrize(("position", "depth", "nodes"), SHALLOW, ids=lambda v: str(v))
def test_reference_perft_matches_table(position: str, depth: int, nodes: int) -> None:
    assert ref_perft(read_position(position), depth) == nodes


def sq(text: str, size: int = 8) -> int:
    return parse_square(text, size)


def test_8x8_perft1_is_the_hand_count() -> None:
    """The 19 moves of the 8x8 start, listed by hand (see the comment in the table)."""
    state = DIPOLE.new("8x8")
    e1 = sq("e1")
    expected = {Move(e1, sq(t), k) for t, k in (("e3", 2), ("e5", 4), ("e7", 6))}
    expected |= {Move(e1, sq(t), k) for k, t in enumerate(("d2", "c3", "b4", "a5"), 1)}
    expected |= {Move(e1, sq(t), k) for k, t in enumerate(("f2", "g3", "h4"), 1)}
    expected |= {Move(e1, OFF, k) for k in range(4, 13)}
    assert len(expected) == 19
    assert set(state.legal_moves()) == expected
    assert perft(state, 1) == 19


def test_8x8_perft2_is_the_hand_count() -> None:
    """361 pairs, minus d8-a5 after e1-a5, d8-e7 after e1-e7, and 19 after e1-off:12."""
    state = DIPOLE.new("8x8")
    per_reply = {}
    for move in state.legal_moves():
        state.play(move)
        per_reply[DIPOLE.format_move(move)] = len(state.legal_moves())
        state.undo()
    short = {text: n for text, n in per_reply.items() if n != 19}
    assert short == {"e1-a5": 18, "e1-e7": 18, "e1-off:12": 0}
    assert sum(per_reply.values()) == perft(state, 2) == 340


def test_10x10_perft1_is_the_hand_count() -> None:
    state = DIPOLE.new("10x10")
    e1 = sq("e1", 10)
    targets = ["e3", "e5", "e7", "e9", "d2", "c3", "b4", "a5", "f2", "g3", "h4", "i5", "j6"]
    moves = state.legal_moves()
    basic = {DIPOLE.format_move(m)[3:] for m in moves if m.target != OFF}
    assert basic == set(targets)
    assert sorted(m.count for m in moves if m.target == OFF) == list(range(5, 21))
    assert all(m.origin == e1 for m in moves)
    assert perft(state, 1) == 29 == 13 + 16


def test_perft_of_a_finished_game() -> None:
    state = DIPOLE.parse_position("8:B:We1=3:B")
    assert perft(state, 0) == 1
    assert perft(state, 1) == 0
    assert perft(state, 3) == 0


def test_a_game_finishing_at_the_last_ply_counts_earlier_does_not() -> None:
    # White's only stack g7=2: g7-f8, g7-h8, g7-off:2 (the last ends the game, White losing).
    state = DIPOLE.parse_position("8:W:Wg7=2:Ba3=1,c3=2")
    assert perft(state, 1) == 3
    state.play(DIPOLE.parse_move("g7-off", state))
    assert state.outcome() is not None
    assert perft(state, 1) == 0


def test_a_deep_count_tells_each_first_move_counted_and_counts_the_same() -> None:
    """What the command's bar shows: the first moves counted, out of how many, as each is done."""
    state = DIPOLE.new("8x8")
    told: list[tuple[int, int]] = []
    assert perft(state, 3, lambda done, total: told.append((done, total))) == perft(state, 3)
    first_moves = len(state.legal_moves())
    assert told == [(done, first_moves) for done in range(first_moves + 1)]
    assert state == DIPOLE.new("8x8")
