"""`hard`'s evaluation: its terms counted by hand, moves in hand, and its weights the logistic fit
of the proved positions kept in bench/data (`bench/fit_eval.py`), not numbers typed in."""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from types import ModuleType

import pytest
from paths import ROOT
from test_bots import random_positions

from dipole_tui.bots.dipole_eval import (
    LADDER,
    ExactRaceKnowledge,
    FittedKnowledge,
    Terms,
    in_hand,
    takeable,
    terms,
)
from dipole_tui.games.dipole import BLACK, DIPOLE, WHITE

ROOT = ROOT


def load_bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_terms_count_by_hand() -> None:
    # White: 3 on c3 (5 rows ahead), 1 on b8 (its far row). Black: 2 on f6 (5 rows ahead).
    state = DIPOLE.parse_position("8:W:Wc3=3,b8=1:Bf6=2")
    # Material 4 - 2; race (rows ahead + 1 a checker) 3 * 6 + 1 * 1 - 2 * 6; far row 1 - 0.
    # In hand: c3 may step to b4 or d4, which f6 (2 high) cannot take: 3 * 5. b8 has no rows
    # ahead. f6's steps to e5 or g5 are safe from c3 (its lines reach neither), so 2 * 5.
    # Stacks: 2 - 1. And White has the move.
    assert terms(state) == Terms(
        material=2, race=7, far_row=1, in_hand=15 - 10, stacks=1, to_move=1
    )
    # Seen from Black, to move: every term but the move changes sign.
    black = DIPOLE.parse_position("8:B:Wc3=3,b8=1:Bf6=2")
    assert terms(black) == Terms(-2, -7, -1, -5, -1, 1)


def test_a_stack_hemmed_in_has_no_moves_in_hand() -> None:
    # Black's single checker on d2 may step to c1 or e1, its far row: 1 row ahead, 1 checker.
    free = DIPOLE.parse_position("8:B:Wh8=1:Bd2=1")
    assert in_hand(free, BLACK, takeable(free, WHITE)) == 1
    # White's 2 on e3 takes a checker landing on c1 (2 squares) or e1 (2 squares straight).
    hemmed = DIPOLE.parse_position("8:B:We3=2:Bd2=1")
    assert in_hand(hemmed, BLACK, takeable(hemmed, WHITE)) == 0
    # A stack far from its last row has more in hand than one near it.
    far = DIPOLE.parse_position("8:W:Wc3=2:Bh8=1")
    near = DIPOLE.parse_position("8:W:Wc5=2:Bh8=1")
    assert in_hand(far, WHITE, takeable(far, BLACK)) > in_hand(near, WHITE, takeable(near, BLACK))


def test_what_is_takeable_is_what_the_captures_take() -> None:
    compared = 0
    for state in random_positions(80, seed=21):
        me = state.to_move
        tallest = takeable(state, me)
        taken = {move.target for move in state.captures()}
        for square in state.stacks[1 - me]:
            height = abs(state.cells[square])
            assert (tallest[square] >= height) == (square in taken), state.position()
            compared += 1
    assert compared > 200


def test_the_old_weights_give_the_old_evaluation() -> None:
    """The terms are what hard weighs (material 12, a step 1, a far-row checker 3 more),
    plus moves in hand: with its weights and none for moves in hand, the same numbers."""

    class Old(FittedKnowledge):
        weights = Terms(material=12, race=1, far_row=-3, in_hand=0, stacks=0, to_move=0)

    for state in random_positions(60, seed=4):
        assert Old().evaluate(state) == ExactRaceKnowledge().evaluate(state)


def test_the_fit_recovers_weights_it_was_made_from() -> None:
    fit_eval = load_bench("fit_eval")
    rng = random.Random(7)
    truth = [0.8, -0.3, 0.5]
    xs = [[rng.uniform(-4, 4) for _ in truth] for _ in range(3000)]
    ys = [
        rng.random() < 1 / (1 + math.exp(-sum(w * v for w, v in zip(truth, x, strict=True))))
        for x in xs
    ]
    found = fit_eval.fit(xs, ys)
    assert found == pytest.approx(truth, abs=0.1)


def test_hards_weights_are_the_fit_of_the_proved_positions() -> None:
    fit_eval = load_bench("fit_eval")
    rows = fit_eval.load(fit_eval.DATA)
    fitting = [row for row in rows if row[0] % 4]
    weights = fit_eval.fit(fit_eval.features(fitting), [won for _, _, won in fitting])
    assert fit_eval.scaled(weights) == LADDER["hard-fit"].knowledge().weights  # type: ignore[attr-defined]
    # The set is what label_positions.py says: 10 to 17 checkers, no capture to play, not
    # decided at once, and both results plentiful.
    knowledge = FittedKnowledge()
    wins = 0
    for _, position, won in rows:
        state = DIPOLE.parse_position(position)
        assert 10 <= sum(state.checkers) <= 17
        assert not state.captures() and knowledge.decided(state) is None
        wins += won
    assert 0.3 < wins / len(rows) < 0.7
