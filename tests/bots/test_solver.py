"""The solver against a plain minimax: random small positions and endings of random games, the
result, the number of plies and the move; and its limits (nodes, stop, progress, other games)."""

from __future__ import annotations

import random
import threading
from typing import Literal

import pytest

from dipole_tui.analysis import solve, within
from dipole_tui.bots.dipole_eval import race_decided
from dipole_tui.bots.proof import Solution
from dipole_tui.cli import main
from dipole_tui.games.dipole import DIPOLE, DipoleState, dark_squares, square_name

Value = tuple[str, int]  # ("win" or "loss" for the side to move, plies to the end)
REFERENCE_NODES = 4000  # a position whose whole tree is bigger is left out
# Positions already valued, by their exact board and side to move: their value and the size of
# their tree, which counts against the budget again wherever they come back.
Known = dict[tuple[int, tuple[int, ...]], tuple[Value, int]]


class TooBig(Exception):
    pass


def minimax(state: DipoleState, budget: list[int], known: Known) -> Value:
    """Every line to the end, no pruning: the side to move picks the reply that is best for it,
    a win over a loss, then a shorter win or a longer loss. A position met again (by another
    order of the same moves, or in another call) is not searched again, but its whole tree still
    counts, node for node, so a tree is too big exactly when its plain search would be."""
    here = (state.to_move, tuple(state.cells))
    seen = known.get(here)
    if seen is not None:
        budget[0] -= seen[1]
        if budget[0] < 0:
            raise TooBig
        return seen[0]
    left = budget[0]
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    outcome = state.outcome()
    if outcome is not None:
        value: Value = ("win" if outcome.winner == state.to_move else "loss", 0)
    else:
        values = []
        for move in state.legal_moves():
            state.play(move)
            try:
                result, plies = minimax(state, budget, known)
            finally:
                state.undo()
            values.append(("loss" if result == "win" else "win", plies + 1))
        value = max(values, key=goodness)
    known[here] = (value, left - budget[0])
    return value


def goodness(value: Value) -> tuple[bool, int]:
    """Wins before losses; among wins the shortest, among losses the longest."""
    result, plies = value
    return (result == "win", -plies if result == "win" else plies)


def reference(state: DipoleState, known: Known | None = None) -> Value | None:
    """The minimax value, or None when the tree has more than REFERENCE_NODES positions; `known`
    may carry positions valued before (of the same game, or the position before a move)."""
    try:
        return minimax(state, [REFERENCE_NODES], {} if known is None else known)
    except TooBig:
        return None


def random_position(rng: random.Random, checkers: int) -> DipoleState:
    """`checkers` in all on the 8x8 board, each side at least one, in random stacks."""
    free = dark_squares(8)
    rng.shuffle(free)
    white = rng.randint(1, checkers - 1)
    sides = []
    for count in (white, checkers - white):
        stacks = []
        while count:
            height = rng.randint(1, count)
            stacks.append(f"{square_name(free.pop())}={height}")
            count -= height
        sides.append(",".join(stacks))
    return DIPOLE.parse_position(f"8:{rng.choice('WB')}:W{sides[0]}:B{sides[1]}")


def random_endings(rng: random.Random) -> list[DipoleState]:
    """The last few positions of a random game from the start (with its history)."""
    state = DIPOLE.new()
    while state.outcome() is None:
        state.play(rng.choice(state.legal_moves()))
    endings = []
    for _ in range(min(8, len(state.moves_played))):
        state.undo()
        endings.append(state.copy())
    return endings


def check_solution(state: DipoleState, expected: Value, known: Known) -> None:
    solution = solve(DIPOLE, state)
    assert (solution.result, solution.plies) == expected, state.position()
    assert solution.move is not None and solution.move in state.legal_moves()
    state.play(solution.move)
    after = reference(state, known)
    state.undo()
    opposite = "loss" if expected[0] == "win" else "win"
    assert after == (opposite, expected[1] - 1), (state.position(), solution.move)


def test_the_solver_agrees_with_minimax_on_random_small_positions() -> None:
    rng = random.Random(13)
    compared = {2: 0, 3: 0, 4: 0}
    for checkers in (2, 3, 4) * 160:
        state = random_position(rng, checkers)
        known: Known = {}
        expected = reference(state, known)
        if expected is not None:
            check_solution(state, expected, known)
            compared[checkers] += 1
    assert compared[2] > 140 and compared[3] > 90 and compared[4] > 50, compared


def test_the_solver_agrees_with_minimax_on_endings_of_random_games() -> None:
    rng = random.Random(2007)
    compared, wins, losses = 0, 0, 0
    while compared < 150:
        known: Known = {}  # one game's: each ending's tree holds the ones after it
        for state in random_endings(rng):
            expected = reference(state, known)
            if expected is not None:
                check_solution(state, expected, known)
                compared += 1
                wins += expected[0] == "win"
                losses += expected[0] == "loss"
    assert wins > 20 and losses > 20


def test_a_race_past_every_capture_is_decided_as_minimax_plays_it_out() -> None:
    rng = random.Random(2024)
    compared, wins, losses = 0, 0, 0
    for _ in range(4000):
        state = random_position(rng, rng.randint(2, 9))
        plies = race_decided(state)
        if plies is None:
            continue
        expected = reference(state)
        if expected is not None:
            assert expected == ("win" if plies > 0 else "loss", abs(plies)), state.position()
            compared += 1
            wins += plies > 0
            losses += plies < 0
    assert compared > 100 and wins > 30 and losses > 30, (compared, wins, losses)


def test_a_race_is_not_decided_while_a_stack_could_grow_tall_enough_to_capture() -> None:
    # White's 2 on d6 could go back 2 rows to capture b4; apart, the race is decided.
    assert race_decided(DIPOLE.parse_position("8:W:Wd6=2:Bb4=1")) is None
    # A single on d6 cannot: White has 3 steps (d6, then two rows), Black 4, so White, to
    # move, takes its last checker off first, on its third move (ply 5).
    assert race_decided(DIPOLE.parse_position("8:W:Wd6=1:Bb4=1")) == -5
    # The two singles on rank 4 could merge onto c5, and a 3 there reaches back to f2.
    assert race_decided(DIPOLE.parse_position("8:W:Wc5=1,b4=1,d4=1:Bf2=1")) is None
    # With them on rank 5 it cannot (8 steps to 2): Black's last checker leaves on ply 4.
    assert race_decided(DIPOLE.parse_position("8:W:Wc5=1,e5=1:Bf2=1")) == 4


def test_a_capture_of_the_last_stack_is_a_win_in_1() -> None:
    state = DIPOLE.parse_position("8:W:Wc3=1,g1=3:Bd4=1")
    solution = solve(DIPOLE, state)
    assert (solution.result, solution.plies) == ("win", 1)
    assert solution.move is not None and DIPOLE.format_move(solution.move) == "c3xd4"


def test_a_finished_game_is_solved_without_a_move() -> None:
    state = DIPOLE.parse_position("8:B:Wc3=1:B")
    assert solve(DIPOLE, state) == Solution("loss", 0, None, 0)


def test_solving_leaves_the_state_as_it_was() -> None:
    state = DIPOLE.parse_position("8:W:Wf2=1,h4=1:Bd4=2,d8=1")
    for text in ("h4-g5", "d8-c7"):  # a history too, which the search must not reach into
        state.play(DIPOLE.parse_move(text, state))
    before = (state.position(), state.key, state.moves_played, state.legal_moves())
    assert solve(DIPOLE, state).result is not None
    assert (state.position(), state.key, state.moves_played, state.legal_moves()) == before


HARD = "8:B:Wa3=2,b4=1:Be3=1,d8=1,f8=1,h8=3"  # some millions of nodes


def test_too_few_nodes_leave_the_result_unknown() -> None:
    solution = solve(DIPOLE, DIPOLE.parse_position(HARD), max_nodes=50)
    assert solution == Solution(None, 0, None, 50)


def test_a_stop_ends_the_search_unknown_and_progress_is_reported() -> None:
    stop = threading.Event()
    seen: list[int] = []

    def progress(nodes: int) -> None:
        seen.append(nodes)
        if nodes >= 5000:
            stop.set()

    solution = solve(DIPOLE, DIPOLE.parse_position(HARD), stop=stop, progress=progress)
    assert solution.result is None and solution.move is None
    assert seen == sorted(seen) and seen[0] > 0 and 5000 <= solution.nodes < 8000


def test_enough_nodes_solve_what_too_few_could_not() -> None:
    state = DIPOLE.parse_position("8:W:Wf2=2:Bh2=1,f8=2")
    full = solve(DIPOLE, state)
    assert (full.result, full.plies) == ("loss", 17)
    assert solve(DIPOLE, state, max_nodes=full.nodes).result == "loss"
    assert solve(DIPOLE, state, max_nodes=full.nodes // 2).result is None


def test_the_command_line_prints_the_proved_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "8:W:Wc3=1:Bd4=1", "8:B:Wh4=1:Bb2=1"]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == ["win in 1 plies: c3xd4", "loss in 3 plies: b2-a1"]
    assert err == ""
    assert main(["solve", "--max-nodes", "50", HARD]) == 0
    assert capsys.readouterr().out == "unknown after 50 nodes\n"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--game", "bipod", "x"], "position 1: 'x' is not"),
        (["8:W:We1=1:B"], "position 1: the game is over (Black has no checkers left)"),
        (["--max-nodes", "0", "8:W:Wc3=1:Bd4=1"], "N must be a whole number of 1 or more"),
    ],
)
def test_the_command_line_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    assert main(["solve", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and said in err


def test_within_agrees_with_the_solved_length() -> None:
    """A win (or a loss) within n plies holds from the solved length on, and not one ply before."""
    rng = random.Random(5)
    for _ in range(60):
        state = random_position(rng, rng.randint(2, 6))
        solution = solve(DIPOLE, state)
        assert solution.result == "win" or solution.result == "loss"  # Dipole has no draws
        other: Literal["win", "loss"] = "loss" if solution.result == "win" else "win"
        plies = solution.plies
        assert within(DIPOLE, state, solution.result, plies).holds is True, state.position()
        assert within(DIPOLE, state, solution.result, plies + 2).holds is True, state.position()
        assert within(DIPOLE, state, solution.result, plies - 1).holds is False, state.position()
        assert within(DIPOLE, state, other, plies + 4).holds is False, state.position()
    assert within(DIPOLE, DIPOLE.new(), "win", 30, max_nodes=100) == (None, 100)
