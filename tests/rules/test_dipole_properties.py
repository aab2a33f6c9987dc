"""Property tests: random games and random positions, checked against the reference generator."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from protocol_checks import check_position
from reference import (
    START_CHECKERS,
    RefPosition,
    dark_squares,
    of_state,
    ref_moves,
    ref_perft,
    ref_play,
    write_position,
)

from dipole_tui.games.dipole import (
    BLACK,
    DIPOLE,
    OFF,
    PASS,
    WHITE,
    DipoleState,
    Move,
    parse_square,
)
from dipole_tui.perft import perft

MAX_PLIES = 1000  # far beyond any game seen; reaching it means a game that does not end
SIZES = ["8x8", "10x10"]

Check = Callable[[DipoleState], None]


def play_random_game(state: DipoleState, rng: random.Random, check: Check | None = None) -> None:
    """Play uniformly random legal moves until the game ends, calling `check` before each."""
    while state.outcome() is None:
        assert len(state.moves_played) < MAX_PLIES
        if check:
            check(state)
        state.play(rng.choice(state.legal_moves()))
    if check:
        check(state)


def canonical_key(move: Move) -> tuple[int, int, int, int]:
    """docs/rules.md: by origin square, then on-board moves by count and target, then removals."""
    return (move.origin, move.target == OFF, move.count, move.target)


def check_against_reference(state: DipoleState) -> None:
    legal = state.legal_moves()
    assert set(legal) == ref_moves(of_state(state))
    assert legal == sorted(legal, key=canonical_key)
    assert state.captures() == [move for move in legal if move.capture]
    assert threats(state) == ref_threats(of_state(state))


def threats(state: DipoleState) -> set[tuple[int, int]]:
    found = {(parse_square(t.square, state.size), t.by) for t in DIPOLE.threats(state)}
    for square, by in found:  # a real stack of the other side
        assert state.cells[square] * (1 if by == WHITE else -1) < 0
    return found


def ref_threats(position: RefPosition) -> set[tuple[int, int]]:
    """The reference's captures of each side with the turn given to it; none once over."""
    if position.game_over():
        return set()
    found = set()
    for side in (WHITE, BLACK):
        turned = position.copy()
        turned.to_move = side
        found |= {(move.target, side) for move in ref_moves(turned) if move.capture}
    return found


# -- random games ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", SIZES)
@settings(max_examples=150, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_random_games_end_with_a_winner(variant: str, rng: random.Random) -> None:
    state = DIPOLE.new(variant)
    play_random_game(state, rng)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner in (WHITE, BLACK)
    loser = 1 - outcome.winner
    assert state.checkers[loser] == 0 and state.checkers[outcome.winner] > 0
    assert state.stacks_of(loser) == {}


@pytest.mark.parametrize("variant", SIZES)
@settings(max_examples=100, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_checkers_leave_only_by_capture_or_removal(variant: str, rng: random.Random) -> None:
    state = DIPOLE.new(variant)
    start_total = START_CHECKERS[state.size]
    while state.outcome() is None:
        move = rng.choice(state.legal_moves())
        mover = state.to_move
        before = list(state.checkers)
        target_height = 0 if move.target == OFF else state.cells[move.target]
        expected = ref_play(of_state(state), move)
        state.play(move)
        lost = [before[side] - state.checkers[side] for side in (WHITE, BLACK)]
        if move.capture:
            assert target_height != 0 and (target_height > 0) == (mover == BLACK)  # an enemy's
            assert lost[mover] == 0 and lost[1 - mover] == abs(target_height)
        elif move.is_removal:
            assert lost[mover] == move.count and lost[1 - mover] == 0
        else:  # basic move, merge or pass
            assert lost == [0, 0]
            assert move == PASS or target_height == 0 or (target_height > 0) == (mover == WHITE)
        for side in (WHITE, BLACK):
            assert state.checkers[side] == sum(state.stacks_of(side).values())
            assert 0 <= state.checkers[side] <= start_total
        assert state.position() == write_position(expected)


@pytest.mark.parametrize("variant", SIZES)
@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_generator_matches_reference_along_random_games(variant: str, rng: random.Random) -> None:
    play_random_game(DIPOLE.new(variant), rng, check_against_reference)


# -- random positions -----------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> RefPosition:
    """Random stacks on random dark squares, within each side's checker limit."""
    size = draw(st.sampled_from([8, 10]))
    limit = START_CHECKERS[size]
    squares = draw(
        st.lists(st.sampled_from(dark_squares(size)), min_size=1, max_size=16, unique=True)
    )
    position = RefPosition(size, draw(st.sampled_from([WHITE, BLACK])))
    for square in squares:
        side = draw(st.sampled_from([WHITE, BLACK]))
        room = limit - position.total(side)
        if room == 0:
            continue
        tall = draw(st.booleans())
        height = draw(st.integers(1, room if tall else min(room, 4)))
        position.stacks[side][square] = height
    return position


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions())
def test_generator_matches_reference_on_random_positions(position: RefPosition) -> None:
    text = write_position(position)
    state = DIPOLE.parse_position(text)
    assert state.position() == text  # canonical order and format, as the rule text says
    check_against_reference(state)
    check_position(DIPOLE, state, random.Random(0))  # the protocol, off the paths of play


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions())
def test_perft_matches_reference_on_random_positions(position: RefPosition) -> None:
    state = DIPOLE.parse_position(write_position(position))
    assert perft(state, 2) == ref_perft(position, 2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), data=st.data())
def test_play_and_undo_on_random_positions(position: RefPosition, data: st.DataObject) -> None:
    state = DIPOLE.parse_position(write_position(position))
    start, cells = state.position(), list(state.cells)
    for _ in range(data.draw(st.integers(1, 8), label="plies")):
        legal = state.legal_moves()
        if not legal:
            break
        move = legal[data.draw(st.integers(0, len(legal) - 1))]
        expected = write_position(ref_play(of_state(state), move))
        state.play(move)
        assert state.position() == expected
    while state.moves_played:
        state.undo()
    assert state.position() == start and state.cells == cells


def test_zobrist_keys_tell_positions_apart_and_ignore_history() -> None:
    """Same position by different move orders: same key; different positions: different keys."""
    one, two = DIPOLE.new(), DIPOLE.new()
    for text in ("e1-f2", "d8-c7", "e1-d2", "d8-e7"):
        one.play(DIPOLE.parse_move(text, one))
    for text in ("e1-d2", "d8-e7", "e1-f2", "d8-c7"):
        two.play(DIPOLE.parse_move(text, two))
    assert one.position() == two.position() and one.key == two.key
    keys: dict[int, str] = {}
    rng = random.Random(5)
    state = DIPOLE.new()
    while state.legal_moves():
        keys.setdefault(state.key, state.position())
        assert keys[state.key] == state.position()
        state.play(rng.choice(state.legal_moves()))
    assert DIPOLE.parse_position("8:B:We1=12:Bd8=12").key != DIPOLE.new().key
