"""The solver's retrograde analysis against the test's own (`test_solver_draws.retrograde`) on
an ending of three pieces (49,248 positions), where losses run to 20 plies: the longest loss and
a draw, with the analysis deciding at once (after d = 1) rather than the deepened search."""

from __future__ import annotations

import pytest
from test_solver_draws import Value, ending, retrograde

from dipole_tui.analysis import solve
from dipole_tui.bots import proof
from dipole_tui.games.death_stacks import DEATH_STACKS


@pytest.mark.long
def test_the_longest_loss_and_a_draw_of_three_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    values = retrograde(ending({0: "br", 35: "b"}, "r"))
    longest = max((v for v in values.items() if v[1][0] == "loss"), key=lambda v: v[1][1])
    drawn = min(text for text, value in values.items() if value[0] == "draw")
    monkeypatch.setattr(proof, "RETROGRADE_AFTER", 1)
    for text in (longest[0], drawn):
        state = DEATH_STACKS.parse_position(text)
        solution = solve(DEATH_STACKS, state)
        assert (solution.result, solution.plies) == values[text], text
        assert solution.move is not None
        state.play(solution.move)
        reply: Value = values[state.position()]
        if solution.result == "draw":
            assert reply[0] == "draw"
        else:
            assert reply == ("win", solution.plies - 1)
