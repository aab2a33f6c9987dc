"""Dipole bots and the search: sensible choices, exact bounds, stops, the weaker levels' yes-or-no
tests (legal, deterministic, hands off the state: test_bots_conformance.py, for every game)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from dipole_tui.bots import Budget
from dipole_tui.bots.dipole_eval import (
    LADDER,
    DipoleKnowledge,
    ExactRaceKnowledge,
    RaceKnowledge,
    race,
)
from dipole_tui.bots.levels import SearchBot, Style
from dipole_tui.bots.score import Score
from dipole_tui.bots.search import INFINITY, Knowledge, Search, noisy_among
from dipole_tui.games.dipole import BLACK, DIPOLE, WHITE, DipoleState, Move
from dipole_tui.registry import create_bot

DEPTH_2 = Budget(movetime=None, depth=2)


def random_positions(count: int, seed: int) -> list[DipoleState]:
    rng = random.Random(seed)
    positions: list[DipoleState] = []
    while len(positions) < count:
        state = DIPOLE.new(rng.choice(DIPOLE.variants))
        for _ in range(rng.randrange(0, 30)):
            moves = [m for m in state.legal_moves() if m.count < state.checkers[state.to_move]]
            if not moves or state.outcome():
                break
            state.play(rng.choice(moves))
        if state.legal_moves():
            positions.append(DIPOLE.parse_position(state.position()))
    return positions


def test_unknown_bots_are_refused() -> None:
    with pytest.raises(ValueError, match="no bot called 'grandmaster'"):
        create_bot("grandmaster", "dipole")


def test_the_race_counts_steps_left_by_hand() -> None:
    # White: 3 on c3 (rank 3: 6 rows ahead, +1) = 18, 1 on h8 (0 rows ahead, +1) = 1.
    # Black: 2 on d4 (rank 4: 3 rows ahead, +1) = 8.
    state = DIPOLE.parse_position("8:W:Wc3=3,h8=1:Bd4=2")
    assert race(state, WHITE) == 19
    assert race(state, BLACK) == 8
    # ab4's evaluation: lower is better for the side to move, so White (19) is worse off.
    assert RaceKnowledge().evaluate(state) == 8 - 19


def test_hard_evaluation_prefers_material_then_the_race() -> None:
    knowledge = DipoleKnowledge()
    even = DIPOLE.parse_position("8:W:Wc3=2:Bf6=2")
    ahead = DIPOLE.parse_position("8:W:Wc3=3:Bf6=2")
    assert knowledge.evaluate(ahead) > knowledge.evaluate(even) == 0
    behind_in_race = DIPOLE.parse_position("8:W:Wc7=2:Bf6=2")
    assert knowledge.evaluate(behind_in_race) < 0


def test_hard_charges_a_checker_on_its_far_row_more_than_its_step() -> None:
    """Such a checker can only leave the board: hard keeps its checkers back for tempo."""
    hard, levels = ExactRaceKnowledge(), DipoleKnowledge()
    assert hard.far_row_cost > 0 == levels.far_row_cost
    for near, far, count in [
        ("8:W:Wc7=2,c3=1:Bf4=2", "8:W:Wb8=2,c3=1:Bf4=2", 2),  # White's far row is the 8th
        ("8:B:Wc7=2:Bf4=1,f2=3", "8:B:Wc7=2:Bf4=1,e1=3", 3),  # Black's the 1st
    ]:
        before, after = DIPOLE.parse_position(near), DIPOLE.parse_position(far)
        assert levels.evaluate(before) - levels.evaluate(after) == count
        assert hard.evaluate(before) - hard.evaluate(after) == count * (1 + hard.far_row_cost)


def test_hard_takes_the_winning_capture_and_never_removes_its_last_checker() -> None:
    hard = create_bot("hard", "dipole", seed=1)
    finish = DIPOLE.parse_position("8:W:Wc3=2:Be5=2")  # c3xe5 captures Black's last stack
    assert DIPOLE.format_move(hard.choose(finish, Budget(movetime=None, depth=2))) == "c3xe5"
    # White's last checker on a7 may step to b8 or leave the board, which would lose at once.
    last = DIPOLE.parse_position("8:W:Wa7=1:Bf6=2")
    assert {DIPOLE.format_move(m) for m in last.legal_moves()} == {"a7-b8", "a7-off:1"}
    assert DIPOLE.format_move(hard.choose(last, Budget(movetime=None, depth=3))) == "a7-b8"


def test_only_hard_knows_a_race_past_every_capture_is_won_before_it_is_played_out() -> None:
    # White's 8 steps to Black's 2 with no capture ever possible: Black's last checker leaves on
    # ply 4, whatever either side plays meanwhile.
    state = DIPOLE.parse_position("8:W:Wc5=1,e5=1:Bf2=1")
    hard = Search(LADDER["hard"].knowledge()).run(state, depth=1)
    assert hard.score == Score.win(4)
    expert = Search(LADDER["expert"].knowledge()).run(state, depth=1)
    assert not expert.score.proved


class Unbounded(ExactRaceKnowledge):
    """hard's knowledge without a bound on what a quiet move gains: nothing is skipped."""

    def quiet_gain(self, state: DipoleState) -> int | None:
        return None


class RaceBlindUnbounded(DipoleKnowledge):
    def quiet_gain(self, state: DipoleState) -> int | None:
        return None


@pytest.mark.parametrize(
    ("knowledge", "unbounded"),
    [(DipoleKnowledge, RaceBlindUnbounded), (ExactRaceKnowledge, Unbounded)],
)
def test_skipping_quiet_moves_before_the_horizon_changes_no_score(
    knowledge: type[DipoleKnowledge], unbounded: type[DipoleKnowledge]
) -> None:
    skipped = 0
    for state in random_positions(10, seed=5):
        found = Search(knowledge()).run(state, depth=4)
        full = Search(unbounded()).run(state, depth=4)
        assert (found.score, found.move) == (full.score, full.move)
        skipped += full.nodes - found.nodes
    assert skipped > 0


def test_no_move_is_skipped_where_one_move_may_end_the_contact() -> None:
    """hard knows a race once the armies have passed: a move that passes may win it."""
    knowledge = ExactRaceKnowledge()
    # White's c3 pair is its only stack not past Black's f4 pair: c3-c5 ends the contact.
    assert knowledge.quiet_gain(DIPOLE.parse_position("8:W:Wc3=2,e7=3:Bf4=2,b2=1")) is None
    # Were Black's f4 taken, only b2 would be left, and every White stack is past it.
    assert knowledge.quiet_gain(DIPOLE.parse_position("8:W:Wc3=2,e5=1,e7=3:Bf4=2,b2=1")) is None
    # Two of White's stacks stand no higher than two of Black's: contact goes on.
    assert knowledge.quiet_gain(DIPOLE.parse_position("8:W:Wa3=1,c3=2,e7=3:Bf4=2,h6=1")) == 0
    assert knowledge.quiet_gain(DIPOLE.parse_position("8:W:Wc5=1,e5=1:Bf2=1")) is None
    assert DipoleKnowledge().quiet_gain(DIPOLE.parse_position("8:W:Wc3=2,e7=3:Bf4=2,b2=1")) == 0


@pytest.mark.parametrize("knowledge", [DipoleKnowledge(), ExactRaceKnowledge()])
def test_a_moves_gain_is_what_it_changes_in_the_movers_evaluation(
    knowledge: DipoleKnowledge,
) -> None:
    compared = 0
    for state in random_positions(60, seed=9):
        before = knowledge.evaluate(state)
        for move in state.legal_moves():
            gain = knowledge.gain(state, move)
            state.play(move)
            outcome = state.outcome()
            if outcome is None:
                assert -knowledge.evaluate(state) == before + gain, DIPOLE.format_move(move)
                compared += 1
            elif outcome.winner != state.to_move:  # it took the last enemy checkers
                assert gain == INFINITY
            state.undo()
    assert compared > 500


def test_the_captures_are_the_noisy_moves_in_order() -> None:
    knowledge = DipoleKnowledge()
    found = 0
    for state in random_positions(40, seed=8):
        assert knowledge.noisy_moves(state) == noisy_among(knowledge, state)
        found += len(knowledge.noisy_moves(state))
    assert found > 0


def test_dipoles_split_is_the_default_one() -> None:
    """Dipole parts a node's moves by index, not by `is_noisy` and `order`: the same parts."""
    knowledge = ExactRaceKnowledge()
    noisy = 0
    for state in random_positions(60, seed=9):
        moves = state.legal_moves()
        assert knowledge.split(state, moves) == Knowledge.split(knowledge, state, moves)
        noisy += len(knowledge.split(state, moves)[0])
    assert noisy > 20


class AtNodes:
    """A stop request that comes once a search has visited `count` nodes."""

    def __init__(self, search: Search[DipoleState, Any], count: int) -> None:
        self.search, self.count = search, count

    def is_set(self) -> bool:
        return self.search.nodes >= self.count


def test_a_move_proved_better_by_an_unfinished_depth_is_played() -> None:
    for state in random_positions(40, seed=12):
        shallow = Search(DipoleKnowledge()).run(state, depth=2)
        deep = Search(DipoleKnowledge()).run(state, depth=3)
        if deep.move != shallow.move:
            break
    else:
        pytest.fail("no position where the third ply changes the best move")

    def value(move: Move) -> int:
        after = state.copy()
        after.play(move)
        return -Search(DipoleKnowledge()).score(after, 2)

    played = set()
    for count in range(shallow.nodes + 1, deep.nodes, max(1, (deep.nodes - shallow.nodes) // 60)):
        search = Search(DipoleKnowledge(), tick_mask=0)
        result = search.run(state, depth=3, stop=AtNodes(search, count))
        assert result.depth == 2
        played.add(result.move)
    assert deep.move in played
    assert all(value(move) >= value(shallow.move) for move in played)


def test_a_stop_request_ends_the_search_at_once() -> None:
    bot = create_bot("hard", "dipole", seed=1)
    assert isinstance(bot, SearchBot)
    stop = threading.Event()
    state = random_positions(1, seed=11)[0]
    threading.Timer(0.1, stop.set).start()
    started = time.perf_counter()
    move = bot.choose(state, Budget(movetime=30.0), stop=stop)
    assert time.perf_counter() - started < 2.0
    assert move in state.legal_moves()


def test_hard_uses_its_time_and_reaches_depth() -> None:
    bot = create_bot("hard", "dipole", seed=1)
    assert isinstance(bot, SearchBot)
    state = DIPOLE.new()
    bot.choose(state, Budget(movetime=0.3))
    assert bot.last_depth >= 3


def test_a_level_throws_checkers_away_for_less_than_its_best_only_in_a_blunder() -> None:
    """A wide slack takes in removals at the start; only a blunder may play one."""
    state = DIPOLE.new()
    state.play(DIPOLE.parse_move("e1-e3", state))

    def removals(blunder: float) -> int:
        style = Style(DipoleKnowledge, depth=1, slack=10_000, blunder=blunder)
        bots = [SearchBot("wide", style, seed, DIPOLE) for seed in range(40)]
        return sum(bot.choose(state, DEPTH_2).is_removal for bot in bots)

    assert removals(0.0) == 0
    assert removals(1.0) > 0


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_weaker_levels_yes_or_no_tests_agree_with_exact_scores(depth: int) -> None:
    """`weigh` finds the best score and `reaches` tells which moves come within a margin of
    it, exactly as scoring every move with an open window would."""
    answers = []
    for state in random_positions(4, seed=depth):
        moves = state.legal_moves()[:12]
        exact = {}
        for move in moves:
            after = state.copy()
            after.play(move)
            exact[move] = -Search(DipoleKnowledge()).score(after, depth - 1)
        search = Search(DipoleKnowledge())
        best_move, best = search.weigh(state, moves, depth)
        assert best == max(exact.values()) == exact[best_move]
        for margin in (0, 6, 24):
            for move in moves:
                answer = search.reaches(state, move, depth, best - margin)
                assert answer == (exact[move] >= best - margin)
                answers.append(answer)
    assert True in answers and False in answers


def test_a_stopped_easy_or_medium_bot_still_answers_with_a_legal_move() -> None:
    stop = threading.Event()
    stop.set()  # stopped before it starts: it must not raise
    state = random_positions(1, seed=4)[0]
    for name in ("easy", "medium"):
        move = create_bot(name, "dipole", seed=1).choose(state, Budget(movetime=None), stop=stop)
        assert move in state.legal_moves()
