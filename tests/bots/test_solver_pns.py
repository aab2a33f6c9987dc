"""The proof-number search that proves the solver's result (`bots/pns.py`) against a plain
minimax, and the solver's answers with it against alpha-beta alone: the result, a true bound on
the distance, and the exact distance and move."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from test_solver import Known, random_position, reference

from dipole_tui.analysis import proof_knowledge, solve
from dipole_tui.bots import pns, proof
from dipole_tui.games.dipole import DIPOLE, DipoleState


def endings(
    seed: int, sizes: tuple[int, ...], rounds: int
) -> Iterator[tuple[DipoleState, tuple[str, int], Known]]:
    """Random endings of `sizes` checkers, `rounds` times over, with their minimax value where
    minimax settles it, and the values it met on the way (for the positions after a move)."""
    rng = random.Random(seed)
    for checkers in sizes * rounds:
        state = random_position(rng, checkers)
        known: Known = {}
        expected = reference(state, known)
        if expected is not None:
            yield state, expected, known


def proof_numbers(most: int = 1 << 20) -> pns.ProofNumbers[Any]:
    return pns.ProofNumbers(proof_knowledge(DIPOLE), lambda: None, most)


def test_proof_numbers_prove_what_minimax_finds_and_bound_its_length() -> None:
    """Win, loss, and within how many plies the proof wins: never fewer than the shortest win
    (the longest loss), and the proof's move keeps to it; every position the proof gives
    `keep` is bounded so too (checked where it is the root's own)."""
    compared, longer = 0, 0
    for state, expected, known in endings(44, (3, 4, 5), 60):
        search = proof_numbers()
        wins = search.prove(state, 1)
        loses = not wins and search.prove(state, 0)
        assert (wins, loses) == (expected[0] == "win", expected[0] == "loss"), state.position()
        kept: dict[int, tuple[int, int, int]] = {}

        def keep(key: int, win: int, plies: int, index: int, kept: dict[int, Any] = kept) -> None:
            kept[key] = (win, plies, index)

        plies, chosen = search.length(state, int(wins), keep)
        assert kept[state.key] == (int(wins), plies, chosen)
        assert plies >= expected[1], state.position()
        longer += plies > expected[1]
        state.play(state.legal_moves()[chosen])
        after = reference(state, known)
        state.undo()
        assert after is not None and after[0] != expected[0], state.position()
        assert after[1] <= plies - 1, state.position()
        compared += 1
    assert compared > 60 and longer  # some proofs are slower than best play: the bound matters


def test_a_search_that_would_keep_too_much_gives_up() -> None:
    state = DIPOLE.parse_position("8:W:Wd6=3,a7=2:Be7=3,b8=1")
    with pytest.raises(pns.Full):
        proof_numbers(most=10).prove(state, 1)


def alpha_beta_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver as before the proof numbers: the null window at 0, then bisection."""
    monkeypatch.setattr(proof, "_proved", lambda *args: None)


def test_the_solver_with_proof_numbers_agrees_with_alpha_beta_alone_on_bigger_endings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Endings of 6 to 9 checkers, too big for the minimax: the same result and distance either
    way, and the move keeps to it (the position after it is solved one ply shorter, the other
    way round)."""
    rng = random.Random(16)
    compared, long = 0, 0
    while compared < 12:
        state = random_position(rng, rng.randint(6, 9))
        with_numbers = solve(DIPOLE, state, max_nodes=20_000)
        if with_numbers.result is None:
            continue
        with monkeypatch.context() as patched:
            alpha_beta_only(patched)
            alone = solve(DIPOLE, state, max_nodes=200_000)
            if with_numbers.move is not None:
                state.play(with_numbers.move)
                after = solve(DIPOLE, state, max_nodes=200_000)
                state.undo()
        assert (with_numbers.result, with_numbers.plies) == (alone.result, alone.plies)
        if with_numbers.move is not None:
            assert after.result == ("loss" if alone.result == "win" else "win")
            assert after.plies == alone.plies - 1, state.position()
        compared += 1
        long += with_numbers.plies >= 7
    assert long >= 3


def test_a_proof_too_big_for_the_memory_leaves_the_result_to_alpha_beta(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(proof, "PROOF_BYTES", 1 << 40)  # room for none
    compared = 0
    for state, expected, _ in endings(45, (3, 4), 60):
        solution = solve(DIPOLE, state)
        assert (solution.result, solution.plies) == expected, state.position()
        compared += 1
    assert compared > 40


def score(value: tuple[str, int]) -> int:
    """A minimax value as the solver scores it: WIN - n for a win in n, -(WIN - n) a loss."""
    result, plies = value
    return proof.WIN - plies if result == "win" else -(proof.WIN - plies)


def test_the_windows_proof_numbers_answer_as_minimax_with_true_bounds() -> None:
    """The distance's windows by df-pn (`_Solver.reach`): whether a win comes within d plies
    (a defence lasts past d), for d around the true distance, as minimax says; the bound it
    gives is true (a win within it, or none sooner), and its root move keeps to it."""
    compared, held, failed = 0, 0, 0
    for state, expected, known in endings(46, (3, 4, 5), 40):
        true = score(expected)
        for plies in range(max(1, expected[1] - 2), expected[1] + 3):
            beta = proof.WIN - plies if true > 0 else -(proof.WIN - plies) + 1
            solver = proof._solver(
                DIPOLE, state, proof_knowledge(DIPOLE), None, None, None, 1 << 24
            )
            solver.window_end = 1 << 40
            bound = solver.reach(state, beta)
            solver.table.close()
            assert (bound >= beta) == (true >= beta), (state.position(), plies)
            if bound >= beta:
                assert true >= bound, (state.position(), plies)
                move = state.legal_moves()[solver.root_move]
                state.play(move)
                after = reference(state, known)
                state.undo()
                assert after is not None and proof._lifted(score(after)) >= beta
                held += 1
            else:
                assert true <= bound, (state.position(), plies)
                failed += 1
        compared += 1
    assert compared > 30 and held > 30 and failed > 30


def test_windows_taken_in_turn_by_df_pn_and_alpha_beta_agree_with_minimax(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With shares of a node or two, every window changes hands between df-pn and alpha-beta
    many times, each resuming where the table left it: the answers are still minimax's."""
    monkeypatch.setattr(proof, "WINDOW_LEAST", 1)
    monkeypatch.setattr(proof, "WINDOW_RATIO", 1)
    compared = 0
    for state, expected, known in endings(47, (3, 4, 5), 40):
        solution = solve(DIPOLE, state)
        assert (solution.result, solution.plies) == expected, state.position()
        assert solution.move is not None
        state.play(solution.move)
        after = reference(state, known)
        state.undo()
        assert after == ("loss" if expected[0] == "win" else "win", expected[1] - 1)
        compared += 1
    assert compared > 30


def test_a_budget_spent_inside_a_window_ends_the_solve_unknown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The windows' own shares never hide the caller's budget: short of the nodes the whole
    solve takes, the result is unknown; with them, the same answer."""
    monkeypatch.setattr(proof, "WINDOW_LEAST", 3)
    state = DIPOLE.parse_position("8:W:Wa1=1,d2=3,e5=1:Bb2=4")
    full = solve(DIPOLE, state)
    assert (full.result, full.plies) == ("win", 9)
    for budget in range(full.nodes - 400, full.nodes, 37):
        assert solve(DIPOLE, state, max_nodes=budget).result is None
    again = solve(DIPOLE, state, max_nodes=full.nodes)
    assert (again.result, again.plies, again.move) == ("win", 9, full.move)
