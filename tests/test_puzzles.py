"""Every puzzle proved again: its line is legal and ends the game with the side to move winning,
and for Dipole the exact solver agrees that it is a win in exactly its length, that the defender
holds out as long as it can at every turn, and that at each of the winner's turns the line's
move is the only one that wins within the plies that remain (`scripts/make_puzzles.py`)."""

from __future__ import annotations

import pytest

from dipole_tui.learn import Item, items
from dipole_tui.registry import REGISTRY
from dipole_tui.solver import solve, within

PUZZLES = items(kind="puzzle")
DIPOLE_PUZZLES = items("dipole", "puzzle")


def test_there_are_dipole_puzzles_short_and_long_and_of_every_difficulty() -> None:
    assert len(DIPOLE_PUZZLES) >= 30
    lengths = [puzzle.plies for puzzle in DIPOLE_PUZZLES]
    assert min(lengths) == 2 and max(lengths) >= 9, sorted(lengths)
    assert {puzzle.difficulty for puzzle in DIPOLE_PUZZLES} == {1, 2, 3, 4, 5}


def test_the_dipole_puzzles_are_numbered_easiest_first() -> None:
    numbered = sorted(DIPOLE_PUZZLES, key=lambda puzzle: puzzle.id)
    difficulties = [puzzle.difficulty for puzzle in numbered]
    assert difficulties == sorted(difficulties)
    assert [puzzle.id for puzzle in numbered] == [
        f"dipole-puzzle-{number:03}" for number in range(1, len(numbered) + 1)
    ]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda puzzle: puzzle.id)
def test_a_puzzle_line_ends_the_game_with_the_side_to_move_winning(puzzle: Item) -> None:
    game = REGISTRY[puzzle.game].game
    state = puzzle.start()
    winner = state.to_move
    assert len(state.legal_moves()) > 1, "a single legal move is no puzzle"
    assert puzzle.title.startswith(f"{game.side_names[winner]} to play"), puzzle.title
    for text in puzzle.solution:
        assert state.outcome() is None, f"the game is over before {text}"
        state.play(game.parse_move(text, state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == winner


@pytest.mark.parametrize("puzzle", DIPOLE_PUZZLES, ids=lambda puzzle: puzzle.id)
def test_a_dipole_puzzle_is_the_one_fastest_win(puzzle: Item) -> None:
    game = REGISTRY[puzzle.game].game
    state = puzzle.start()
    winner = state.to_move
    assert puzzle.title.endswith(f"win in {puzzle.plies} plies"), puzzle.title
    for number, text in enumerate(puzzle.solution):
        remaining = puzzle.plies - number
        solved = solve(game, state)
        expected = "win" if state.to_move == winner else "loss"
        assert (solved.result, solved.plies) == (expected, remaining), (number, state.position())
        move = game.parse_move(text, state)
        if state.to_move == winner:
            winning = []
            for candidate in state.legal_moves():
                state.play(candidate)
                if within(game, state, "loss", remaining - 1).holds:
                    winning.append(candidate)
                state.undo()
            assert winning == [move], (number, [game.format_move(m) for m in winning])
        state.play(move)
