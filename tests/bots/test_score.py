"""Scores past the search (`bots.score`, issue 42): an evaluation or a result proved n plies
away, for one side; the search's ints become them where they leave it, keeping their order."""

from __future__ import annotations

import itertools
import pickle
import threading
from typing import Any

import pytest

from dipole_tui.analysis import Analysis, BestLine, analyse_position, analysis_search
from dipole_tui.bots.proof import Solution
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.bots.search import WIN, as_score
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.workers.protocol import Reply

# Worst first, for the side the scores are for.
ORDERED = [
    Score.loss(1),
    Score.loss(6),
    Score(-300),
    Score(0),
    Score(12),
    Score.win(9),
    Score.win(2),
    Score.win(0),
]


def test_scores_are_ordered_as_the_side_wants_them() -> None:
    assert sorted(reversed(ORDERED)) == ORDERED
    assert all(low < high for low, high in itertools.pairwise(ORDERED))
    assert max(ORDERED) == Score.win(0) and min(ORDERED) == Score.loss(1)


def test_the_search_scale_becomes_scores_in_the_same_order() -> None:
    """`as_score` is the search's boundary: a win n plies away is WIN - n inside."""
    inside = [-(WIN - 1), -(WIN - 6), -300, 0, 12, WIN - 9, WIN - 2, WIN]
    assert [as_score(value) for value in inside] == ORDERED
    assert as_score(-(WIN - 999)) == Score.loss(999) and as_score(WIN - 1000) == Score(WIN - 1000)


def test_the_other_side_sees_the_opposite() -> None:
    assert sorted(-score for score in ORDERED) == [-score for score in reversed(ORDERED)]
    assert -Score.win(3) == Score.loss(3) and -Score.loss(3) == Score.win(3)
    assert -Score(25) == Score(-25)
    said = PovScore(Score.win(2), 1)
    assert said.pov(1) == Score.win(2) and said.pov(0) == Score.loss(2)


def test_one_ply_back_a_proved_result_is_one_ply_further() -> None:
    """The position whose only move leads to a win in 3 is lost in 4, for the side that moves."""
    assert Score.win(3).earlier() == Score.loss(4)
    assert Score.loss(0).earlier() == Score.win(1)
    assert Score(40).earlier() == Score(-40)


@pytest.mark.parametrize(
    "fields",
    [{"units": 5, "plies": 2}, {"wins": True}, {"plies": -1}],
)
def test_what_is_no_score_is_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="not a score"):
        Score(**fields)


def test_the_solver_answers_in_scores() -> None:
    assert Solution("win", 5, None, 10).score == Score.win(5)
    assert Solution("loss", 2, None, 10).score == Score.loss(2)
    assert Solution("draw", 0, None, 10).score == Score()
    assert Solution(None, 0, None, 10).score is None


def test_an_analysis_holds_scores_for_the_side_to_move_and_crosses_processes() -> None:
    """A proved ending (Black, to move, loses in 3): every step's score is Black's, a `Score`,
    and each step pickles as the worker protocol sends it."""
    state = DIPOLE.parse_position("8:B:Wh4=1:Bb2=1")
    found: list[Analysis] = []
    search = analysis_search("dipole")
    analyse_position(DIPOLE, state, search, found.append, threading.Event(), 10.0, lines=3)
    assert found and all(step.score.side == 1 for step in found)
    assert found[-1].score.relative == Score.loss(3)
    assert all(isinstance(line, BestLine) and line.score.proved for line in found[-1].lines)
    reply = Reply(7, found[-1])
    assert pickle.loads(pickle.dumps(reply)) == reply


def test_a_search_result_is_in_scores() -> None:
    """The run's score and its root moves' scores leave the search as `Score`s."""
    state = DIPOLE.parse_position("8:W:Wc3=2:Bf6=2")
    result = analysis_search("dipole").run(state, depth=2)
    assert isinstance(result.score, Score) and not result.score.proved
    assert result.scores and all(isinstance(score, Score) for score in result.scores.values())
    assert max(result.scores.values()) == result.scores[result.move] == result.score
