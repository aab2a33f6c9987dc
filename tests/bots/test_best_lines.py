"""The analysis's best lines (`analysis.best_lines`, issue 28 point 16): exact scores, not the
bounds a search leaves on the moves it did not choose, best first, in every game."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from game_samples import SAMPLES

from dipole_tui import analysis
from dipole_tui.analysis import (
    BEST_LINES,
    Analysis,
    BestLine,
    analyse_position,
    analysis_search,
    best_lines,
    solve,
)
from dipole_tui.bots.score import Score
from dipole_tui.bots.search import as_score
from dipole_tui.games.base import State
from dipole_tui.registry import REGISTRY

DEPTH = 3
GAMES = list(REGISTRY)


def opening(game_key: str, plies: int = 2) -> State[Any]:
    """The start and the first few moves the search picks: a position of the game, not its start."""
    state: State[Any] = REGISTRY[game_key].game.new()
    for _ in range(plies):
        state.play(analysis_search(game_key).run(state, depth=2).move)
    return state


def plain_score(game_key: str, state: State[Any], move: Any, depth: int) -> Score:
    """The move's score `depth` plies deep, for the side to move: its position searched by a
    search of its own."""
    after = state.copy()
    after.play(move)
    return as_score(-analysis_search(game_key).score(after, depth - 1))


def assert_exact(game_key: str, state: State[Any], depth: int, lines: tuple[BestLine, ...]) -> None:
    game = REGISTRY[game_key].game
    moves = analysis_search(game_key).knowledge.candidates(state)
    assert len(lines) == min(BEST_LINES, len(moves))
    assert len({line.move for line in lines}) == len(lines)  # no move twice
    scores = [line.score for line in lines]
    assert scores == sorted(scores, reverse=True)  # best first
    by_text = {game.format_move(move): move for move in moves}
    for line in lines:
        assert line.score == plain_score(game_key, state, by_text[line.move], depth)
        work = state.copy()
        for text in line.line:  # a line of legal moves, the move first
            work.play(game.parse_move(text, work))
    every = sorted((plain_score(game_key, state, move, depth) for move in moves), reverse=True)
    assert scores == every[: len(lines)]  # the best of all the moves


@pytest.mark.parametrize("game_key", GAMES)
def test_the_best_lines_are_exact_and_best_first(game_key: str) -> None:
    state = opening(game_key)
    result = analysis_search(game_key).run(state, depth=DEPTH)
    ranked = sorted(result.scores.items(), key=lambda scored: -scored[1])
    lines = best_lines(REGISTRY[game_key].game, state, DEPTH, ranked, threading.Event())
    assert_exact(game_key, state, DEPTH, lines)


@pytest.mark.parametrize("game_key", GAMES)
def test_the_analysis_tells_each_depth_with_its_own_lines(game_key: str) -> None:
    state = opening(game_key)
    said: list[Analysis] = []
    stop = threading.Event()

    def report(analysis: Analysis) -> None:
        said.append(analysis)
        if analysis.depth >= DEPTH:
            stop.set()

    game = REGISTRY[game_key].game
    analyse_position(game, state, analysis_search(game_key), report, stop, 60.0, BEST_LINES)
    assert [told.depth for told in said] == list(range(1, DEPTH + 1))
    for told in said:  # each depth with its own lines
        assert_exact(game_key, state, told.depth, told.lines)


def test_one_line_asks_for_no_lines() -> None:
    said: list[Analysis] = []
    stop = threading.Event()

    def report(analysis: Analysis) -> None:
        said.append(analysis)
        if analysis.depth >= DEPTH:
            stop.set()

    state = REGISTRY["dipole"].game.new()
    analyse_position(REGISTRY["dipole"].game, state, analysis_search("dipole"), report, stop)
    assert [analysis.depth for analysis in said] == list(range(1, DEPTH + 1))
    assert all(analysis.lines == () for analysis in said)


def test_a_position_with_two_moves_has_two_lines() -> None:
    game = REGISTRY["dipole"].game
    state = game.parse_position("8:B:Wh4=1:Bb2=1")
    moves = analysis_search("dipole").knowledge.candidates(state)
    result = analysis_search("dipole").run(state, depth=DEPTH)
    ranked = sorted(result.scores.items(), key=lambda scored: -scored[1])
    lines = best_lines(game, state, DEPTH, ranked, threading.Event())
    assert len(moves) == len(lines) < BEST_LINES
    assert_exact("dipole", state, DEPTH, lines)


@pytest.mark.parametrize("game_key", GAMES)
def test_a_proved_position_shows_its_best_moves_proved(game_key: str) -> None:
    """`m` where the solver proves the result: up to three lines, each with its own proved
    result, best first, and no search's line left under the proof."""
    game = REGISTRY[game_key].game
    state = game.parse_position(SAMPLES[game_key].proved)
    said: list[Analysis] = []
    analyse_position(
        game, state, analysis_search(game_key), said.append, threading.Event(), 30.0, 3
    )
    last = said[-1]
    assert last.proved and last.depth == 0
    assert 1 <= len(last.lines) <= BEST_LINES
    scores = [line.score for line in last.lines]
    assert scores == sorted(scores, reverse=True) and scores[0] == last.score.relative
    assert all(score.proved or score == Score() for score in scores)
    for line in last.lines:  # legal lines, each proved to end as its score says
        work = state.copy()
        for text in line.line:
            work.play(game.parse_move(text, work))
        outcome = work.outcome()
        plies = line.score.plies
        if outcome is not None and plies is not None:  # played to the end: as it said
            assert len(line.line) == plies
            assert (outcome.winner == state.to_move) == line.score.wins
    if SAMPLES[game_key].proves_alternatives:
        assert len(last.lines) > 1


def test_a_proved_position_solves_each_position_of_its_lines_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The other moves' lines start from the answer that proved them: no position is solved
    twice with the same budget (each costs up to `FIRST_SOLVE` nodes)."""
    asked: Counter[tuple[str, int | None]] = Counter()

    def counted(game: Any, state: State[Any], max_nodes: int | None = None, **rest: Any) -> Any:
        asked[state.position(), max_nodes] += 1
        return solve(game, state, max_nodes, **rest)

    monkeypatch.setattr(analysis, "solve", counted)
    game = REGISTRY["dipole"].game
    state = game.parse_position(SAMPLES["dipole"].proved)
    said: list[Analysis] = []
    analyse_position(
        game, state, analysis_search("dipole"), said.append, threading.Event(), 30.0, 3
    )
    assert len(said[-1].lines) > 1 and asked
    assert max(asked.values()) == 1, asked.most_common(3)
