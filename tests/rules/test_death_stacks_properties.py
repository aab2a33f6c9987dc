"""Property tests: random games and random positions, checked against the reference generator."""

from __future__ import annotations

import functools
import random

import pytest
from death_stacks_reference import (
    RefPosition,
    read_position,
    ref_moves,
    ref_perft,
    ref_play,
    write_position,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import DATA
from perft_table import load_perft_table
from protocol_checks import check_position

from dipole_tui.games.death_stacks import (
    BLACK,
    DEATH_STACKS,
    RED,
    DeathStacksState,
    move_paths,
    parse_square,
)
from dipole_tui.perft import perft

PLIES = 120  # random play rarely ends a game; this many plies reach tall and mixed stacks
TABLE = DATA / "perft_death_stacks.txt"
REFERENCE_MAX_DEPTH = 2  # the slow reference re-checks the table up to this depth on every run


# A move's paths depend on the move alone: each of the few hundred moves there are is walked
# once, not again at every position that lists it (the slowest part of this file's games).
paths_of = functools.cache(move_paths)


def check_against_reference(state: DeathStacksState) -> None:
    legal = state.legal_moves()
    seen = state.repetitions[(tuple(state.cells), state.to_move)]
    position = read_position(state.position())
    assert set(legal) == ref_moves(position, seen)
    assert legal == sorted(legal)  # origin (a1 first), count, target
    for move in legal:
        assert move.target != move.origin and paths_of(move)
    assert threats(state) == ref_threats(position, state.outcome() is None)


def threats(state: DeathStacksState) -> set[tuple[int, int]]:
    found = {(parse_square(t.square), t.by) for t in DEATH_STACKS.threats(state)}
    for square, by in found:  # a stack the other side controls
        assert state.owner(square) == 1 - by
    return found


def ref_threats(position: RefPosition, going_on: bool) -> set[tuple[int, int]]:
    """The stacks each side's reference moves land on, the turn given to it, while the game
    goes on."""
    if not going_on:
        return set()
    found = set()
    for side, colour in ((RED, "r"), (BLACK, "b")):
        other = "b" if colour == "r" else "r"
        for move in ref_moves(RefPosition(position.stacks, colour)):
            target = position.stacks.get((move.target % 6, move.target // 6), "")
            if target.endswith(other):
                found.add((move.target, side))
    return found


def play_random(state: DeathStacksState, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            return
        check_against_reference(state)
        state.play(rng.choice(legal))


@settings(max_examples=30, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_random_games_match_the_reference(rng: random.Random) -> None:
    state = DEATH_STACKS.new()
    play_random(state, rng, PLIES)
    check_against_reference(state)


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_each_move_lands_as_the_reference_says_and_keeps_every_piece(rng: random.Random) -> None:
    state = DEATH_STACKS.new()
    for _ in range(PLIES):
        legal = state.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        mover = state.to_move
        expected = ref_play(read_position(state.position()), move)
        state.play(move)
        assert state.position() == write_position(expected)
        assert state.pieces(RED) == state.pieces(BLACK) == 12  # nothing ever leaves the board
        assert state.owner(move.target) == mover  # the mover always controls what it moved
        assert state.key == state.zobrist_key()


@st.composite
def positions(draw: st.DrawFn) -> str:
    """Any legal-looking board: up to 12 pieces a side dealt into random stacks."""
    pieces = ["r"] * draw(st.integers(0, 12)) + ["b"] * draw(st.integers(0, 12))
    if not pieces:
        pieces = ["r"]
    order = draw(st.permutations(pieces))
    squares = draw(st.lists(st.integers(0, 35), min_size=len(order), max_size=len(order)))
    stacks = [""] * 36
    for square, piece in zip(squares, order, strict=True):
        stacks[square] += piece
    ranks = [",".join(stacks[rank * 6 : rank * 6 + 6]) for rank in range(5, -1, -1)]
    return "/".join(ranks) + " " + draw(st.sampled_from("rb"))


@settings(max_examples=300, deadline=None)
@given(text=positions())
def test_random_positions_match_the_reference(text: str) -> None:
    state = DEATH_STACKS.parse_position(text)
    assert state.position() == text
    check_against_reference(state)
    check_position(DEATH_STACKS, state, random.Random(0))  # the protocol, off the paths of play
    outcome = state.outcome()
    if outcome is not None:
        loser = 1 - outcome.winner  # type: ignore[operator]  # no draw without history
        assert state.stacks_of(loser) == []
    for side in (RED, BLACK):
        tall = [s for s in state.stacks_of(side) if len(state.cells[s]) > 4]
        if side == state.to_move and tall and outcome is None:
            assert {m.origin for m in state.legal_moves()} <= set(tall)


def load_table() -> list[tuple[str, int, int]]:
    return load_perft_table(TABLE)


SHALLOW = [entry for entry in load_table() if entry[1] <= REFERENCE_MAX_DEPTH]


@pytest.mark.parametrize(("position", "depth", "nodes"), SHALLOW, ids=lambda v: str(v))
def test_reference_perft_matches_table(position: str, depth: int, nodes: int) -> None:
    assert ref_perft(read_position(position), depth) == nodes


def test_perft_counts_a_draw_by_repetition() -> None:
    """A draw after the last ply still counts as a leaf; one before it cuts the tree."""
    state = DEATH_STACKS.parse_position(",,,,,b/,,,,,/,,,,,/,,,,,/,,,,,/r,,,,, r")
    for text in ("a1-1-a2", "f6-1-f5", "a2-1-a1", "f5-1-f6", "a1-1-a2", "f6-1-f5", "a2-1-a1"):
        state.play(DEATH_STACKS.parse_move(text, state))
    # Black's f5 single: e4 e5 e6 f4 f6; only f5-1-f6 repeats the start for the third time.
    assert perft(state, 1) == 5
    # After f5-1-f6 the game is drawn (0 replies); after the other 4, Red's a1 has 3.
    assert perft(state, 2) == 4 * 3
