"""Property tests: random games and random positions, checked against the reference rules."""

from __future__ import annotations

import random
from collections import deque

import pytest
from bipod_reference import (
    START,
    RefPosition,
    dead_cells,
    is_short_side,
    name,
    neighbours,
    read_position,
    ref_moves,
    ref_perft,
    ref_play,
    ref_winner,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import DATA
from perft_table import load_perft_table
from protocol_checks import check_position

from dipole_tui.games.bipod import (
    ADOPT,
    BIPOD,
    CELL_COUNT,
    GOALS,
    NEIGHBOURS,
    START_CELLS,
    BipodState,
    Move,
    cell_name,
    format_cells,
    format_move,
    parse_cells,
)

TABLE = DATA / "perft_bipod.txt"
ADOPT_CHANCE = 0.05  # random play adopts now and then, so both phases are reached
CHECK_EVERY = 4  # plies between full comparisons with the (slow) reference in random games


def as_reference(move: Move) -> tuple[str, frozenset[str]]:
    return move.kind, frozenset(cell_name(cell) for cell in move.cells)


def canonical_key(move: Move) -> tuple[int, int, tuple[int, ...], int]:
    """The documented order: before adoption by number of stones then cells, adopt last; the
    Runner's by cell, o before O; the Blocker's by cell."""
    return (move == ADOPT, len(move.cells), move.cells, "xoO".index(move.kind) if move.cells else 0)


def check_against_reference(state: BipodState, full: bool = True) -> None:
    reference = read_position(state.position())
    over, winner = ref_winner(reference)
    outcome = state.outcome()
    assert (outcome is not None) == over
    if outcome is not None:
        assert outcome.winner == winner
    dead = dead_cells(reference)
    assert state.dead_cells() == {c for c in range(CELL_COUNT) if cell_name(c) in dead}
    if full:
        legal = state.legal_moves()
        assert {as_reference(m) for m in legal} == ref_moves(reference)
        assert legal == sorted(legal, key=canonical_key)
    assert state.key == state.zobrist_key()
    found = {(threat.square, threat.by) for threat in BIPOD.threats(state)}
    assert found == ref_cuts(reference)


def ref_cuts(pos: RefPosition) -> set[tuple[str, int]]:
    """The empty cells where a block leaves a runner chain no way to a short side, each the
    Blocker's, while the game goes on after adoption."""
    if ref_winner(pos)[0] or pos.runner is None:
        return set()
    found = set()
    for cell, stone in pos.stones.items():
        if stone != ".":
            continue
        blocked = {**pos.stones, cell: "x"}
        if not all(reaches_a_short_side(blocked, c) for c in "oO"):
            found.add((name(cell), 1 - pos.runner))
    return found


# The reference's neighbours and short sides of each cell, looked up once: `ref_cuts` asks
# `reachable` of a board per empty cell, which made this file's slowest test.
_BOARD = read_position(BIPOD.new().position()).stones
NEAR = {cell: neighbours(cell, _BOARD) for cell in _BOARD}
SHORT_SIDE = {cell for cell in _BOARD if is_short_side(cell)}


def reaches_a_short_side(stones: dict[tuple[int, int], str], colour: str) -> bool:
    """`any(map(is_short_side, reachable(position, colour, colour + ".")))` of the reference,
    with its tables looked up and the search stopped at the first short side reached."""
    start = START[colour]
    seen, queue = {start}, deque([start])
    while queue:
        cell = queue.popleft()
        if cell in SHORT_SIDE:
            return True
        for other in NEAR[cell]:
            if other not in seen and stones[other] in (colour, "."):
                seen.add(other)
                queue.append(other)
    return False


def random_move(state: BipodState, rng: random.Random) -> Move | None:
    """A uniformly random placement, adopting now and then; None when the game is over."""
    if state.outcome() is not None:
        return None
    if state.runner is None and rng.random() < ADOPT_CHANCE:
        return ADOPT
    empties = [c for c in range(CELL_COUNT) if state.stone(c) == "."]
    if state.runner is None:
        most = 3 if state.multi else 1
        cells = tuple(sorted(rng.sample(empties, min(len(empties), rng.randint(1, most)))))
        return Move("x", cells)
    kind = rng.choice("oO") if state.to_move == state.runner else "x"
    return Move(kind, (rng.choice(empties),))


@settings(max_examples=20, deadline=None)
@given(rng=st.randoms(use_true_random=False), variant=st.sampled_from(["", "adopter-runs"]))
def test_random_games_match_the_reference(rng: random.Random, variant: str) -> None:
    state = BIPOD.new(variant)
    while (move := random_move(state, rng)) is not None:
        if len(state.moves_played) % CHECK_EVERY == 0:
            check_against_reference(state)
        assert state.is_legal(move)  # random_move makes its moves without the list
        state.play(move)
    check_against_reference(state)


@settings(max_examples=40, deadline=None)
@given(rng=st.randoms(use_true_random=False), variant=st.sampled_from(["", "adopter-runs"]))
def test_the_outcome_after_a_move_is_the_one_judged_from_scratch(
    rng: random.Random, variant: str
) -> None:
    """`play` judges only what the stones placed can change; a position read afresh is judged
    whole."""
    state = BIPOD.new(variant)
    while (move := random_move(state, rng)) is not None:
        state.play(move)
        assert state.outcome() == BIPOD.parse_position(state.position()).outcome()


@settings(max_examples=10, deadline=None)
@given(
    rng=st.randoms(use_true_random=False),
    variant=st.sampled_from(["multi", "multi,adopter-runs"]),
)
def test_random_multi_games_match_the_reference(rng: random.Random, variant: str) -> None:
    """Before adoption the 80 000 moves are counted, not compared, each ply."""
    state = BIPOD.new(variant)
    while (move := random_move(state, rng)) is not None:
        if len(state.moves_played) % CHECK_EVERY == 0:
            check_against_reference(state, full=state.runner is not None)
        assert state.is_legal(move)
        expected = ref_play(read_position(state.position()), as_reference(move))
        state.play(move)
        assert read_position(state.position()) == expected
    check_against_reference(state)


@st.composite
def positions(draw: st.DrawFn) -> str:
    """Any board: each non-start cell empty, x, o or O (o/O only after adoption)."""
    runner = draw(st.sampled_from(["-", "1", "2"]))
    stones = ".x" if runner == "-" else ".xoO"
    weights = draw(st.lists(st.sampled_from(stones), min_size=CELL_COUNT, max_size=CELL_COUNT))
    cells = list(weights)
    cells[START_CELLS["o"]], cells[START_CELLS["O"]] = "@", "Q"
    rows, at = [], 0
    for length in range(16, 10, -1):
        rows.append("".join(cells[at : at + length]))
        at += length
    variant = draw(st.sampled_from(["", " adopter-runs"]))
    return f"{'/'.join(rows)} {draw(st.sampled_from('12'))} {runner}{variant}"


@settings(max_examples=150, deadline=None)
@given(text=positions())
def test_random_positions_match_the_reference(text: str) -> None:
    state = BIPOD.parse_position(text)
    assert state.position() == text
    check_against_reference(state)
    check_position(BIPOD, state, random.Random(0))  # the protocol, off the paths of play
    chains = state.chains()
    for colour, cells in chains.items():
        assert START_CELLS[colour] in cells
        assert all(state.stone(cell) == colour for cell in cells)


@settings(max_examples=200, deadline=None)
@given(cells=st.sets(st.integers(0, CELL_COUNT - 1), min_size=1, max_size=6))
def test_cells_round_trip_through_notation(cells: set[int]) -> None:
    text = format_cells(sorted(cells))
    assert sorted(parse_cells(text)) == sorted(cells)
    assert format_cells(parse_cells(text)) == text  # the canonical spelling is a fixed point


@settings(max_examples=200, deadline=None)
@given(
    cells=st.lists(st.integers(0, CELL_COUNT - 1), min_size=1, max_size=4, unique=True),
    kind=st.sampled_from("xoO"),
    adopted=st.booleans(),
    rng=st.randoms(use_true_random=False),
)
def test_is_legal_agrees_with_the_list(
    cells: list[int], kind: str, adopted: bool, rng: random.Random
) -> None:
    variant = rng.choice(BIPOD.variants)
    state = BIPOD.new(variant)
    if adopted:
        state.play(ADOPT)
    move = Move(kind, tuple(sorted(cells)))
    listed = move in _legal_at_start(variant, adopted)
    assert state.is_legal(move) == listed
    text = format_move(move)
    if listed:
        assert BIPOD.parse_move(text, state) == move
    else:
        with pytest.raises(ValueError):  # GameError is a ValueError
            BIPOD.parse_move(text, state)


_LEGAL: dict[tuple[str, bool], set[Move]] = {}


def _legal_at_start(variant: str, adopted: bool) -> set[Move]:
    """The legal moves at the start (or just after First adopts), built once per case."""
    if (variant, adopted) not in _LEGAL:
        state = BIPOD.new(variant)
        if adopted:
            state.play(ADOPT)
        _LEGAL[(variant, adopted)] = set(state.legal_moves())
    return _LEGAL[(variant, adopted)]


SHALLOW = [
    entry
    for entry in load_perft_table(TABLE)
    if entry[1] <= 2 and not ("multi" in entry[0] and entry[1] == 2 and entry[2] > 10**6)
]


@pytest.mark.parametrize(("position", "depth", "nodes"), SHALLOW, ids=lambda v: str(v))
def test_reference_perft_matches_table(position: str, depth: int, nodes: int) -> None:
    assert ref_perft(read_position(position), depth) == nodes


def relaxed_stones_needed(state: BipodState, colour: str) -> int | None:
    """stones_needed by another road: relax every cell's cost until nothing changes."""
    cost = {START_CELLS[colour]: 0}
    changed = True
    while changed:
        changed = False
        for cell in range(CELL_COUNT):
            stone = state.stone(cell)
            if stone not in (colour, "."):
                continue
            here = 1 if stone == "." else 0
            best = min((cost[n] + here for n in NEIGHBOURS[cell] if n in cost), default=None)
            if best is not None and best < cost.get(cell, best + 1):
                cost[cell] = best
                changed = True
    reached = [cost[cell] for cell in GOALS if cell in cost]
    return min(reached) if reached else None


@settings(max_examples=150, deadline=None)
@given(text=positions())
def test_stones_needed_is_the_shortest_connection(text: str) -> None:
    state = BIPOD.parse_position(text)
    for colour in ("o", "O"):
        needed = state.stones_needed(colour)
        assert needed == relaxed_stones_needed(state, colour)
        assert (needed == 0) == bool(state.chains()[colour] & GOALS)
