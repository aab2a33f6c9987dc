"""Bi-Pod bots: never expanding multi's 82,000 moves, finishing and stopping chains, adopting when
the Runner's task is hopeless, and an evaluation that sees the two chains alike (legal in every
phase and variant, deterministic, hands off the state: test_bots_conformance.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from dipole_tui.bots import Budget
from dipole_tui.bots.bipod_eval import INFINITE, LADDER, BipodKnowledge
from dipole_tui.bots.levels import SearchBot
from dipole_tui.bots.search import WIN, Search
from dipole_tui.games.bipod import (
    ADOPT,
    BIPOD,
    CELL_NAMES,
    CELLS,
    EMPTY,
    GRAY,
    INDEX,
    NAME_INDEX,
    WHITE,
    BipodState,
    Move,
    format_move,
)
from dipole_tui.registry import create_bot

DEPTH_2 = Budget(movetime=None, depth=2)
SEARCHERS = ["easy", "medium", "hard"]


def board(
    stones: dict[str, str],
    to_move: int = 0,
    runner: int | None = None,
    variant: str = "",
) -> BipodState:
    """A position from the start stones plus `stones` ({"q1 u1": "x", "g1": "o"})."""
    cells = list(BIPOD.new().cells)
    for names, stone in stones.items():
        for name in names.split():
            cells[NAME_INDEX[name]] = stone
    return BipodState(cells, to_move, runner, variant)


# The o chain is one stone from =1 (its only finishing cell: `2 is blocked); O is home on ;1.
ONE_TO_GO = {"g1 e1 c1 a1": WHITE, "u1 w1 y1 -1 ;1": GRAY, "`2 b2": "x"}
# s1's only way out is the corridor t2, u3, v4: one block after the Runner's stone cuts it.
CORRIDOR = {"q1 u1 r2 v2 s3 w3 t4": "x"}
# s1's only neighbour left is t2: a block there cuts the O chain.
ONE_EXIT = {"q1 u1 r2": "x"}


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("variant", ["multi", "multi,adopter-runs"])
def test_multi_bots_never_build_the_whole_move_list(
    name: str, variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before adoption multi has about 82,000 moves; the bots must look at a few dozen."""
    state = BIPOD.new(variant)
    assert state.count_moves() > 80_000
    assert len(BipodKnowledge().candidates(state)) < 40

    def refuse(self: BipodState) -> list[Move]:
        raise AssertionError("legal_moves() built the whole list")

    monkeypatch.setattr(BipodState, "legal_moves", refuse)
    bot = create_bot(name, "bipod", seed=1)
    for _ in range(4):
        move = bot.choose(state, DEPTH_2)
        assert state.is_legal(move)
        state.play(move)


def test_only_a_straying_level_plays_stones_its_candidates_leave_out() -> None:
    """The lowest levels put some stones anywhere at all; the others keep to the chains."""
    state = BIPOD.new()
    candidates = set(BipodKnowledge().candidates(state))

    def strays(stray: float) -> int:
        style = replace(LADDER["easy"], stray=stray)
        bots = [SearchBot("wide", style, seed, BIPOD) for seed in range(30)]
        return sum(bot.choose(state, DEPTH_2) not in candidates for bot in bots)

    assert strays(0.0) == 0
    assert strays(1.0) > 20


def test_candidates_are_legal_and_include_adopting_before_adoption() -> None:
    knowledge = BipodKnowledge()
    rng = random.Random(5)
    for variant in ("", "multi", "adopter-runs"):
        state = BIPOD.new(variant)
        while state.outcome() is None:
            moves = knowledge.candidates(state)
            assert moves and all(state.is_legal(move) for move in moves)
            assert len(set(moves)) == len(moves)
            assert (ADOPT in moves) == (state.runner is None)
            empties = [i for i, stone in enumerate(state.cells) if stone == EMPTY]
            if state.runner is None and len(state.moves_played) < 20:
                state.play(Move("x", (rng.choice(empties),)))
            else:
                state.play(rng.choice(moves))


@pytest.mark.parametrize("name", SEARCHERS)
def test_the_runner_finishes_when_one_stone_wins(name: str) -> None:
    state = board(ONE_TO_GO, to_move=1, runner=1)
    for seed in range(3):
        move = create_bot(name, "bipod", seed).choose(state, DEPTH_2)
        assert format_move(move) == "=1 o"


@pytest.mark.parametrize("name", SEARCHERS)
def test_the_blocker_stops_a_one_stone_threat(name: str) -> None:
    state = board(ONE_TO_GO, to_move=0, runner=1)
    for seed in range(3):
        move = create_bot(name, "bipod", seed).choose(state, DEPTH_2)
        assert format_move(move) == "=1"


@pytest.mark.parametrize("name", SEARCHERS)
def test_the_blocker_cuts_a_chain_when_it_can(name: str) -> None:
    state = board(ONE_EXIT, to_move=0, runner=1)
    for seed in range(3):
        move = create_bot(name, "bipod", seed).choose(state, DEPTH_2)
        assert format_move(move) == "t2"
        state.play(move)
        outcome = state.outcome()
        assert outcome is not None and outcome.winner == 0
        state.undo()


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("stones", [CORRIDOR, {**ONE_EXIT, "t2": "x"}])
def test_the_side_to_move_adopts_when_the_runners_task_is_hopeless(
    name: str, stones: dict[str, str]
) -> None:
    """Default variant: the adopter blocks, so a hopeless Runner's task is a win to adopt."""
    state = board(stones, to_move=0)
    for seed in range(3):
        assert create_bot(name, "bipod", seed).choose(state, DEPTH_2) == ADOPT


def test_adopting_the_corridor_is_a_forced_win() -> None:
    state = board(CORRIDOR, to_move=0)
    state.play(ADOPT)
    score = Search(BipodKnowledge(), quiescence=False).score(state, 3)
    assert score < -(WIN - 1000)  # the Runner, to move, is lost


def test_in_adopter_runs_a_hopeless_runner_does_not_adopt() -> None:
    state = board(CORRIDOR, to_move=0, variant="adopter-runs")
    for name in SEARCHERS:
        assert create_bot(name, "bipod", 1).choose(state, DEPTH_2) != ADOPT


def test_the_distances_are_the_chains_stones_to_go() -> None:
    knowledge = BipodKnowledge()
    assert knowledge.distances(BIPOD.new()) == (5, 5)
    assert knowledge.distances(board(ONE_TO_GO, runner=1)) == (1 + knowledge.one_route, 0)
    assert knowledge.distances(board({**ONE_EXIT, "t2": "x"}))[1] == INFINITE


def mirrored(state: BipodState) -> BipodState:
    """Left and right swapped, which takes i1 to s1: o and O trade places."""
    swap = {WHITE: GRAY, GRAY: WHITE}
    cells = [
        swap.get(state.cells[INDEX[(row, 30 - column)]], state.cells[INDEX[(row, 30 - column)]])
        for row, column in CELLS
    ]
    return BipodState(cells, state.to_move, state.runner, state.variant)


@pytest.mark.parametrize("seed", range(6))
def test_the_evaluation_sees_both_chains_alike(seed: int) -> None:
    rng = random.Random(seed)
    state = BIPOD.new()
    for _ in range(rng.randint(2, 12)):
        state.play(Move("x", (rng.choice([i for i, s in enumerate(state.cells) if s == "."]),)))
    if rng.random() < 0.7:
        state.play(ADOPT)
        for _ in range(rng.randint(0, 10)):
            if state.outcome() is not None:
                break
            state.play(rng.choice(state.legal_moves()))
    if state.outcome() is not None:
        return
    knowledge = BipodKnowledge()
    twin = mirrored(state)
    assert CELL_NAMES[INDEX[(1, 20)]] == "s1"
    assert knowledge.evaluate(twin) == knowledge.evaluate(state)
