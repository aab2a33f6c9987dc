"""Every game's puzzles proved again (`disproof` of `scripts/make_puzzles.py`, whose `--check`
proves them all): the line is legal and ends the game with the side to move winning, the exact
solver agrees that it is a win in exactly its length, the defender holds out as long as it can
at every turn, and at each of the winner's turns the line's move is the only one that wins
within the plies that remain."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest
from game_samples import SAMPLES
from paths import ROOT

from dipole_tui.learn import Item, items
from dipole_tui.registry import REGISTRY

ROOT = ROOT
PUZZLES = items(kind="puzzle")
# The games whose puzzles are made: every registered game, each with what its puzzles reach in
# its samples (tests/support/game_samples.py). Checked below, so a file added without its game, or a
# game without its file or its figures, fails.
GAMES = list(REGISTRY)


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_puzzles", ROOT / "scripts" / "make_puzzles.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


MAKER = load_script()


def test_the_games_with_puzzles_are_the_ones_checked() -> None:
    assert sorted({puzzle.game for puzzle in PUZZLES}) == sorted(GAMES)
    assert all(SAMPLES[game].puzzles is not None for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_puzzles_short_and_long_and_of_several_difficulties(game: str) -> None:
    puzzles = items(game, "puzzle")
    expected = SAMPLES[game].puzzles
    assert expected is not None, f"{game} has no puzzles' figures in tests/support/game_samples.py"
    least, longest, difficulties = expected.least, expected.longest, expected.difficulties
    assert len(puzzles) >= least
    source = MAKER.SOURCES[game]
    lengths = sorted(puzzle.plies for puzzle in puzzles)
    assert lengths[0] == source.min_plies and lengths[-1] >= longest, lengths
    assert all(source.min_plies <= n <= source.max_plies for n in lengths), lengths
    assert len({puzzle.difficulty for puzzle in puzzles}) >= difficulties


@pytest.mark.parametrize("game", GAMES)
def test_the_puzzles_are_numbered_easiest_first(game: str) -> None:
    numbered = sorted(items(game, "puzzle"), key=lambda puzzle: puzzle.id)
    difficulties = [puzzle.difficulty for puzzle in numbered]
    assert difficulties == sorted(difficulties)
    assert [puzzle.id for puzzle in numbered] == [
        f"{game}-puzzle-{number:03}" for number in range(1, len(numbered) + 1)
    ]


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda puzzle: puzzle.id)
def test_a_puzzle_is_the_one_fastest_win(puzzle: Item) -> None:
    assert MAKER.disproof(puzzle) is None


def test_a_wrong_line_is_disproved() -> None:
    """The proof can fail: a puzzle whose line is cut short, or whose winning move is swapped
    for another, is refused."""
    puzzle = items("dipole", "puzzle")[0]
    game = REGISTRY["dipole"].game
    short = Item(**{**puzzle.__dict__, "solution": puzzle.solution[:-1]})
    assert MAKER.disproof(short) is not None
    state = puzzle.start()
    other = next(m for m in state.legal_moves() if game.format_move(m) != puzzle.solution[0])
    swapped = Item(**{**puzzle.__dict__, "solution": (game.format_move(other),)})
    assert MAKER.disproof(swapped) is not None
