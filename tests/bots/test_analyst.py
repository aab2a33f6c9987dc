"""The analysis of a position: depth by depth, proved where the solver reaches, said in words.
(In its own process, where a newer request stops the one before at once: test_workers.py.)"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from dipole_tui.analysis import Analysis, analyse_position, analysis_search, solve
from dipole_tui.bots.score import PovScore, Score, ScoreUnit
from dipole_tui.games.base import State
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.registry import game_named

CHECKERS = ScoreUnit("checkers", 12)
SIDES = ("White", "Black")


@pytest.mark.parametrize(
    ("score", "to_move", "words"),
    [
        (Score(0), 0, "Even, 0.0"),
        (Score(0), 1, "Even, 0.0"),
        (Score(-1), 0, "Even, -0.1"),
        (Score(5), 1, "Even, -0.4"),
        (Score(6), 0, "White is slightly better, +0.5"),
        (Score(25), 0, "White is better, +2.1"),
        (Score(25), 1, "Black is better, -2.1"),
        (Score(36), 0, "White is winning, +3.0"),
        (Score(-60), 0, "Black is winning, -5.0"),
        (Score.win(7), 0, "White wins in 7 plies"),
        (Score.win(7), 1, "Black wins in 7 plies"),
        (Score.loss(1), 1, "White wins in 1 ply"),
    ],
)
def test_a_score_in_words_from_the_first_sides_view(score: Score, to_move: int, words: str) -> None:
    assert PovScore(score, to_move).in_words(SIDES, CHECKERS) == words


def test_a_score_that_rounds_to_nothing_has_no_sign() -> None:
    said = PovScore(Score(-4), 0).in_words(("First", "Second"), ScoreUnit("stones", 100))
    assert said == "Even, 0.0"


def test_the_bars_share_grows_with_the_first_sides_score() -> None:
    scores = (Score.loss(3), Score(-60), Score(-12), Score(0), Score(12), Score(60), Score.win(3))
    shares = [PovScore(s, 0).first_side_share(CHECKERS) for s in scores]
    assert shares[0] == 0.0 and shares[3] == 0.5 and shares[-1] == 1.0
    assert shares == sorted(shares) and len(set(shares)) == len(shares)
    ahead = PovScore(Score(12), 1).first_side_share(CHECKERS)
    assert ahead == PovScore(Score(-12), 0).first_side_share(CHECKERS)


def analysed(game_key: str, state: State[Any], seconds: float) -> list[Analysis]:
    """Every step told, in the app's own thread, until `seconds` pass or the result is proved."""
    found: list[Analysis] = []
    game = game_named(game_key)
    search = analysis_search(game_key)
    analyse_position(game, state, search, found.append, threading.Event(), seconds)
    return found


def test_an_ending_is_proved_with_its_line() -> None:
    position = "8:W:Wa1=1:Bh8=1"
    found = analysed("dipole", DIPOLE.parse_position(position), 5.0)
    assert found and all(step.proved and step.depth == 0 for step in found)
    solution = solve(DIPOLE, DIPOLE.parse_position(position))
    assert solution.result == "loss" and found[-1].score.relative == Score.loss(solution.plies)
    state = DIPOLE.parse_position(position)
    for text in found[-1].line:  # the proved line: one legal move after another
        state.play(DIPOLE.parse_move(text, state))
    assert len(found[-1].line) > 1


def test_a_middle_game_is_told_depth_by_depth() -> None:
    found = analysed(
        "death-stacks", DEATH_STACKS.new(), 0.5
    )  # no solver for Death Stacks: the search alone
    assert [step.depth for step in found] == list(range(1, len(found) + 1))
    assert len(found) >= 2 and not any(step.proved for step in found)
    assert all(len(step.line) >= 1 for step in found)
