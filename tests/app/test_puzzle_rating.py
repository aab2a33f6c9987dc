"""The puzzle rating: Glicko-2 against Glickman's worked example and its promises (a win never
lowers a rating), kept in `learned.json` with every figure bounded, and told where a player
looks: the Learn menu, and the end of a puzzle."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from app_steps import AppFactory, HandAnalyst, press, type_move, until
from hypothesis import given
from hypothesis import strategies as st
from test_app_learning import PUZZLE, open_puzzle, solve
from textual.widgets import Static

from dipole_tui.app.screens.learn_menu import LearnMenu
from dipole_tui.app.screens.puzzle import PuzzleScreen
from dipole_tui.learn import PUZZLE_RD, Item, Progress, item_named, items
from dipole_tui.learn.rating import (
    MOST_RATING,
    MOST_RD,
    MOST_VOLATILITY,
    PROVISIONAL_RD,
    Bout,
    Rating,
    update,
)

# -- Glicko-2 --------------------------------------------------------------------------------


def test_glickman_s_worked_example() -> None:
    """Glickman's "Example of the Glicko-2 system": 1464.06 / 151.52 / 0.05999 (the paper
    rounds at each step, so the last figure of the rating differs)."""
    games = [Bout(1400, 30, 1), Bout(1550, 100, 0), Bout(1700, 300, 0)]
    after = update(Rating(1500, 200, 0.06), games)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.rd == pytest.approx(math.hypot(200, 0.06 * 173.7178))


ratings = st.builds(
    Rating,
    st.floats(0, MOST_RATING),
    st.floats(0, MOST_RD),
    st.floats(0.0001, MOST_VOLATILITY),
)
opponents = st.tuples(st.floats(0, MOST_RATING), st.floats(0, MOST_RD))


@given(ratings, opponents)
def test_a_win_never_lowers_a_rating_nor_a_loss_raises_it(
    player: Rating, opponent: tuple[float, float]
) -> None:
    """Whatever the figures a file may hold: `update` keeps to the bounds (`Rating` refuses
    any other) and never fails."""
    won = update(player, [Bout(*opponent, 1)])
    lost = update(player, [Bout(*opponent, 0)])
    assert lost.rating <= player.rating <= won.rating


@given(
    st.builds(
        Rating, st.floats(500, 2500), st.floats(PROVISIONAL_RD, MOST_RD), st.floats(0.01, 0.1)
    ),
    st.floats(-400, 400),
    st.booleans(),
)
def test_a_game_shrinks_an_unsure_deviation(player: Rating, gap: float, won: bool) -> None:
    """While a rating is provisional, each puzzle near it says something: its deviation
    shrinks. (Not always: once it is low, volatility widens it again, and a game against an
    opponent 1000 points away says next to nothing.)"""
    after = update(player, [Bout(player.rating + gap, PUZZLE_RD, float(won))])
    assert after.rd < player.rd


@pytest.mark.parametrize(
    ("difficulty", "rating"), [(1, 1000), (2, 1250), (3, 1500), (4, 1750), (5, 2000)]
)
def test_a_puzzle_s_rating_comes_from_its_stars(difficulty: int, rating: float) -> None:
    assert any(item.difficulty == difficulty for item in items(kind="puzzle"))
    puzzle = next(item for item in items(kind="puzzle") if item.difficulty == difficulty)
    assert puzzle.rating == rating


# -- kept in learned.json --------------------------------------------------------------------


def _puzzle(id: str, difficulty: int = 3) -> Item:
    return Item(
        id=id,
        game="dipole",
        kind="puzzle",
        title=id,
        position="8:W:We1=12:Bd8=12",
        difficulty=difficulty,
    )


def test_a_file_of_before_the_rating_reads_as_a_new_player(tmp_path: Path) -> None:
    (tmp_path / Progress.FILE).write_text('{"done": ["p1"], "streak": 3, "best_streak": 4}')
    progress = Progress(tmp_path)
    assert (progress.done, progress.streak, progress.best_streak) == ({"p1"}, 3, 4)
    assert (progress.rating, progress.rated, progress.problem) == (
        Rating(1500, 350, 0.06),
        set(),
        "",
    )
    assert progress.rate(_puzzle("p1"), won=True) is None  # solved before: not rated now


def test_the_rating_is_kept_and_a_puzzle_rated_once(tmp_path: Path) -> None:
    progress = Progress(tmp_path)
    change = progress.rate(_puzzle("p1", difficulty=1), won=False)
    assert change is not None and change[0] == Rating()
    assert change[1].rating < 1500 and change[1] == progress.rating
    assert progress.rate(_puzzle("p1", difficulty=1), won=True) is None  # a try again
    progress.finished(_puzzle("p1"), first_try=False)
    again = Progress(tmp_path)
    assert (again.rating, again.rated, again.problem) == (progress.rating, {"p1"}, "")
    saved = json.loads((tmp_path / Progress.FILE).read_text())
    assert saved["puzzle_rating"]["rating"] == progress.rating.rating
    assert again.rate(_puzzle("p2", difficulty=5), won=True) is not None
    assert again.rating.rating > progress.rating.rating


GOOD = {"rating": 1623.5, "rd": 96.0, "volatility": 0.06}


@pytest.mark.parametrize(
    "rating",
    [
        {**GOOD, "rating": 4000.5},
        {**GOOD, "rating": -1},
        {**GOOD, "rating": "1500"},
        {**GOOD, "rating": True},
        {**GOOD, "rating": 1e400},  # JSON's 1e400 is infinity
        {**GOOD, "rd": 351},
        {**GOOD, "rd": None},
        {**GOOD, "volatility": 0},
        {**GOOD, "volatility": 1e-200},  # its square's logarithm would fail
        {**GOOD, "volatility": 1.5},
        {"rating": 1500, "rd": 350},
        {**GOOD, "deviation": 96},
        [1500, 350, 0.06],
        None,
    ],
)
def test_a_rating_out_of_bounds_sets_the_file_aside(tmp_path: Path, rating: object) -> None:
    path = tmp_path / Progress.FILE
    text = json.dumps({"done": ["p1"], "puzzle_rating": rating})
    path.write_text(text)
    progress = Progress(tmp_path)
    assert progress.rating == Rating() and progress.done == set()
    assert "is not a progress file" in progress.problem and "\n" not in progress.problem
    [kept] = tmp_path.glob(f"{Progress.FILE}.damaged-*")
    assert kept.read_text() == text


@pytest.mark.parametrize("rated", ['"p1"', "[1]", "{}"])
def test_a_bad_list_of_rated_puzzles_sets_the_file_aside(tmp_path: Path, rated: str) -> None:
    (tmp_path / Progress.FILE).write_text(f'{{"done": [], "rated": {rated}}}')
    progress = Progress(tmp_path)
    assert progress.rated == set() and "is not a progress file" in progress.problem


def test_a_nan_rating_sets_the_file_aside(tmp_path: Path) -> None:
    """Python's JSON reads NaN, which no comparison with a bound refuses by being false."""
    text = '{"done": [], "puzzle_rating": {"rating": NaN, "rd": 100, "volatility": 0.06}}'
    (tmp_path / Progress.FILE).write_text(text)
    assert "is not a progress file" in Progress(tmp_path).problem


# -- told in the app -------------------------------------------------------------------------


def saved(tmp_path: Path) -> tuple[float, list[str]]:
    data = json.loads((tmp_path / Progress.FILE).read_text())
    return data["puzzle_rating"]["rating"], data["rated"]


async def test_a_puzzle_solved_at_the_first_try_tells_the_gain_once(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await open_puzzle(app, pilot, tmp_path)
        await solve(pilot, puzzle)
        after = round(puzzle.progress.rating.rating)
        assert after > 1500
        assert puzzle.message.endswith(f"\nRating 1500 → {after} (+{after - 1500}).")
        rating, rated = saved(tmp_path)
        assert round(rating) == after and rated == [PUZZLE.id]
        await pilot.press("r")  # again, in the same sitting: not rated again
        await pilot.pause()
        await solve(pilot, puzzle)
        assert puzzle.message.endswith(f"\nRating {after}, unchanged: a puzzle is rated once.")
        assert round(saved(tmp_path)[0]) == after


async def test_a_wrong_first_try_is_a_loss_kept_at_once(
    make_app: AppFactory, tmp_path: Path
) -> None:
    """Leaving after a wrong move does not undo the loss; solving after it gains nothing."""
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await open_puzzle(app, pilot, tmp_path)
        await type_move(pilot, "e7-d6", leave=False)
        assert "e7-d6 is not the fastest win" in puzzle.message
        lost, rated = saved(tmp_path)
        assert lost < 1500 and rated == [PUZZLE.id]
        await type_move(pilot, "e7-c5", leave=False)  # a second wrong move costs nothing
        assert saved(tmp_path)[0] == lost
        await solve(pilot, puzzle)
        assert puzzle.message.endswith(f"\nRating 1500 → {round(lost)} (-{1500 - round(lost)}).")
        assert saved(tmp_path)[0] == lost


async def test_a_hint_is_a_loss(make_app: AppFactory, tmp_path: Path) -> None:
    app = make_app(analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        puzzle = await open_puzzle(app, pilot, tmp_path)
        await press(pilot, "i")
        assert puzzle.message.startswith("Hint 1 of 3")
        assert saved(tmp_path)[0] < 1500


def summary(menu: LearnMenu) -> str:
    return str(menu.query_one("#learn-summary", Static).render())


@pytest.mark.parametrize(
    ("rating", "ascii_glyphs", "shown"),
    [
        (None, False, "\nPuzzle rating 1500? (provisional, ± 350)\n"),
        (
            {"rating": 1623.5, "rd": 109.6, "volatility": 0.06},
            False,
            "\nPuzzle rating 1624 ± 110\n",
        ),
        (
            {"rating": 987.2, "rd": 110.6, "volatility": 0.06},
            False,
            "\nPuzzle rating 987? (provisional, ± 111)\n",
        ),
        ({"rating": 1623.5, "rd": 96.0, "volatility": 0.06}, True, "\nPuzzle rating 1624 +/- 96\n"),
    ],
)
async def test_the_learn_menu_shows_the_rating_marked_while_provisional(
    make_app: AppFactory,
    tmp_path: Path,
    rating: dict[str, float] | None,
    ascii_glyphs: bool,
    shown: str,
) -> None:
    """Marked "?" above a deviation of 110, as lichess marks a provisional rating."""
    if rating is not None:
        data = {"done": [], "puzzle_rating": rating}
        (tmp_path / Progress.FILE).write_text(json.dumps(data))
    app = make_app(learn="dipole", ascii_glyphs=ascii_glyphs)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, LearnMenu) and not menu.progress.problem
        assert shown in summary(menu)


async def test_the_menu_shows_the_rating_a_puzzle_changed(
    make_app: AppFactory, tmp_path: Path
) -> None:
    item = item_named("dipole-puzzle-001")  # Black: f4xd4, and White must remove its last
    app = make_app(learn="dipole", analyst=HandAnalyst())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, LearnMenu)
        menu.open(menu.items.index(item))
        await pilot.pause()
        puzzle = app.screen
        assert isinstance(puzzle, PuzzleScreen)
        await type_move(pilot, "f4xd4", leave=False)
        await until(lambda: puzzle.done)
        await pilot.press("m")
        await pilot.pause()
        after = menu.progress.rating
        assert after.rating > 1500
        assert (
            f"Puzzle rating {round(after.rating)}? (provisional, ± {round(after.rd)})"
            in summary(menu)
        )
