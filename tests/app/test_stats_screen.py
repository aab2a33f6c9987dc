"""Your statistics at home (issue 43): `S` opens them over the game, a game at a time (the
record per level, the rating over time drawn by textual-plotext); with none yet the screen says
so in words; your rating stands in the side panel and the new-game dialog, and moves when a
game against a level ends."""

from __future__ import annotations

from pathlib import Path

from app_steps import AppFactory, ScriptedBots, screen_text, type_move, until
from game_files import a_move_from_a_win
from textual.widgets import Label, Static

from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.app.dialogs.new_game import NewGameScreen
from dipole_tui.app.screens.game import GameScreen
from dipole_tui.app.screens.stats import StatsScreen
from dipole_tui.app.widgets.rating_plot import RatingPlot
from dipole_tui.registry import rating
from dipole_tui.results import Result, Results, rating_words, stats
from dipole_tui.session import HUMAN

SIZE = (80, 24)


def kept(folder: Path, *games: tuple[str, str, str]) -> list[Result]:
    """Games (game, level, result) kept in the data folder, as if played."""
    results = Results(folder)
    for minute, (game, level, result) in enumerate(games):
        entry = Result(
            f"2026-12-01 20:{minute:02d}", game, "", level, rating(game, level), result, 40
        )
        results.add(entry)
    return results.entries


async def test_with_no_games_the_screen_says_so_in_words(make_app: AppFactory) -> None:
    app = make_app(players=(HUMAN, "easy"), thinker=ScriptedBots())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "No games against the bots yet." in text and "Play one" in text
        assert not app.screen.query_one("#stats-body").display  # no empty plot
        assert "Next game" not in text  # nothing to go to
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


async def test_the_record_per_level_and_the_rating_over_time(
    make_app: AppFactory, tmp_path: Path
) -> None:
    entries = kept(
        tmp_path,
        ("dipole", "hard", "loss"),
        ("dipole", "easy", "win"),
        ("bipod", "club", "draw"),
        ("dipole", "easy", "win"),
    )
    app = make_app("bipod", players=(HUMAN, "easy"), thinker=ScriptedBots())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        text = screen_text(app)
        assert "Your statistics: Bi-Pod  (g: 1 more)" in text  # the game on screen first
        assert "1 game: 0 won, 0 lost, 1 drawn" in text
        await pilot.press("g")
        await pilot.pause()  # laid out again: the summary takes two lines now
        text = screen_text(app)
        found = stats(entries, "dipole")
        assert f"Rating {rating_words(found.rating)} ± {round(found.rating.rd)}" in text
        assert "3 games: 2 won, 1 lost, 0 drawn. Longest winning streak: 2." in " ".join(
            text.split()
        )
        rows = [" ".join(line.split()) for line in text.splitlines()]
        assert any(row.startswith("3 easy (+628) 2 2 0 0") for row in rows), rows
        hard = f"10 hard (+{rating('dipole', 'hard')}) 1 0 1 0"  # the ladder's, as measured
        assert any(row.startswith(hard) for row in rows), rows
        # the plot is of the ratings the games made, one point a game after the start
        plot = screen.query_one(RatingPlot)
        assert "Rating over time" in text and "games" in text
        assert plot.points == [round(r.rating) for r in found.ratings]
        assert len(plot.points) == 4
        await pilot.press("g")
        assert "Bi-Pod" in screen_text(app)


async def test_the_statistics_are_ascii_under_ascii(make_app: AppFactory, tmp_path: Path) -> None:
    kept(tmp_path, ("dipole", "easy", "win"), ("dipole", "club", "loss"))
    app = make_app(players=(HUMAN, "easy"), thinker=ScriptedBots(), ascii_glyphs=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        for size in (SIZE, (160, 50)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            text = screen_text(app)
            assert "Rating over time" in text and "+/-" in text
            assert text.isascii(), [line for line in text.splitlines() if not line.isascii()]


async def test_a_win_against_a_level_moves_the_rating_shown(
    make_app: AppFactory, tmp_path: Path
) -> None:
    session, winning = a_move_from_a_win(("easy", HUMAN))
    app = make_app(session=session, thinker=ScriptedBots())
    async with app.run_test(size=SIZE) as pilot:
        title = app.screen.query_one("#title", Static)
        assert "Your rating 1500?" in str(title.render())
        await type_move(pilot, winning, leave=False)
        await until(lambda: app.session.outcome is not None)
        (entry,) = Results(tmp_path).entries
        after = rating_words(stats([entry], "dipole").rating)
        await pilot.press("escape")  # the game-over dialog
        await until(lambda: f"Your rating {after}" in str(title.render()))
        await pilot.press("n")
        await until(lambda: isinstance(app.screen, NewGameScreen))
        said = app.screen.query_one("#your-rating", Label)
        assert str(said.render()) == f"Your rating in Dipole: {after} (1 game)"
        assert screen_text(app).count("Your rating in Dipole") == 1  # whole, at 80x24


async def test_the_change_said_at_the_end_is_ascii_under_ascii(make_app: AppFactory) -> None:
    session, winning = a_move_from_a_win(("easy", HUMAN))
    app = make_app(session=session, thinker=ScriptedBots(), ascii_glyphs=True)
    async with app.run_test(size=SIZE) as pilot:
        await type_move(pilot, winning, leave=False)
        await until(lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "Rating: Your Dipole rating: 1500? > " in text  # the arrow as ASCII
        assert text.isascii(), [line for line in text.splitlines() if not line.isascii()]


async def test_no_rating_line_in_a_hot_seat_game(make_app: AppFactory) -> None:
    app = make_app(players=(HUMAN, HUMAN))
    async with app.run_test(size=SIZE):
        assert "Your rating" not in screen_text(app)
