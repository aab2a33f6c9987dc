"""`hard` plays what the exact solver proves: a won position's win kept, a lost one's longest
defence; and it asks the solver only where its knowledge says a proof may come in time."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from dipole_tui.analysis import within
from dipole_tui.bots import Budget, proof
from dipole_tui.bots.dipole_eval import PROVABLE
from dipole_tui.bots.levels import SearchBot
from dipole_tui.games.dipole import DIPOLE, DipoleState, Move
from dipole_tui.registry import create_bot

# The solver proves these in well under a second: (position, its result for the side to move).
ENDINGS = [
    ("8:W:Wc3=1,b4=3,c7=1,d8=1:Bf2=3,e3=1", "win"),
    ("8:B:Wc3=1,b4=3,c7=1,d8=1:Bf2=3,e3=1", "loss"),
    ("8:B:Wa5=1,c7=2,e7=2,b8=2:Bb2=4,e5=1", "loss"),
    ("8:W:Wa5=1,c7=2,e7=2,b8=2:Bb2=4,d4=1", "win"),
    ("8:W:We7=2:Bc1=1,d2=1,f2=4,f4=1,d6=2,d8=2", "loss"),
    ("8:B:Wf6=5,h6=2,h8=1:Bc7=2", "loss"),
]


def hard() -> SearchBot:
    bot = create_bot("hard", "dipole", seed=1)
    assert isinstance(bot, SearchBot)
    return bot


def after(state: DipoleState, move: Move) -> DipoleState:
    twin = state.copy()
    twin.play(move)
    return twin


@pytest.mark.parametrize(("position", "result"), ENDINGS)
def test_hard_keeps_a_proved_win_and_holds_a_proved_loss_longest(
    position: str, result: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = DIPOLE.parse_position(position)
    # The position is solved once, by the bot itself (with `hard`'s knowledge, as `solve` has):
    # its solution is read on the way rather than computed a second time.
    solutions: list[proof.Solution[Move]] = []
    proving = proof.solve

    def recorded(*args: Any, **kwargs: Any) -> proof.Solution[Move]:
        solutions.append(proving(*args, **kwargs))
        return solutions[-1]

    bot = hard()
    bot.solve = recorded
    move = bot._proved_move(state, 600.0, None)
    (solved,) = solutions
    assert solved.result == result
    assert move is not None and move == solved.move
    # The opponent's result after the move is the other one, one ply shorter: the win is kept
    # as fast as it goes, and the loss is held as long as it can be. Dipole has no draws, so
    # that is the other result within those plies and not within one fewer (two null windows,
    # cheaper than solving the position for its length).
    reply = after(state, move)
    other: Literal["win", "loss"] = "loss" if result == "win" else "win"
    assert within(DIPOLE, reply, other, solved.plies - 1).holds is True
    assert within(DIPOLE, reply, other, solved.plies - 2).holds is False


def test_hard_asks_the_solver_first_only_where_a_proof_may_come(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []
    small = DIPOLE.parse_position(ENDINGS[0][0])
    chosen = small.legal_moves()[-1]

    def solver(game: Any, state: DipoleState, *args: Any, **kwargs: Any) -> proof.Solution[Move]:
        asked.append(sum(state.checkers))
        return proof.Solution("win", 9, chosen, 1)

    bots = [hard(), hard(), hard()]
    for bot in bots:
        bot.solve = solver
    # A small position, by the clock: the solver's move is played.
    assert sum(small.checkers) <= PROVABLE
    assert bots[0].choose(small, Budget(movetime=0.05)) == chosen
    assert bots[0].search.nodes == 0  # played without a search
    # A fixed depth has no time to share, and a full board is beyond the solver's reach.
    bots[1].choose(small, Budget(movetime=None, depth=1))
    bots[2].choose(DIPOLE.new("8x8"), Budget(movetime=0.05))
    assert asked == [sum(small.checkers)]


def test_hard_searches_on_when_the_solver_does_not_prove_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = DIPOLE.parse_position(ENDINGS[0][0])
    bot = hard()
    bot.solve = lambda *args, **kwargs: proof.Solution(None, 0, None, 1_000)
    move = bot.choose(state, Budget(movetime=0.1))
    assert move in state.legal_moves()
    assert bot.search.nodes > 0  # the search chose it
