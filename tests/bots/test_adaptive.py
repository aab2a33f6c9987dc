"""The adaptive bot: one step up the ladder after the player wins, one down after a loss, kept
per game in the data folder, said in the side panel."""

from __future__ import annotations

import json
from pathlib import Path

from app_steps import AppFactory, ScriptedBots, type_move, until
from game_files import a_move_from_a_win
from textual.widgets import Static

from dipole_tui.adaptive import AdaptiveLevels, rungs
from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.choice import ChoiceScreen
from dipole_tui.registry import REGISTRY, levels, rating
from dipole_tui.session import ADAPTIVE, HUMAN, PLAYERS


def test_the_rungs_are_the_ladders_levels_weakest_first() -> None:
    for key in REGISTRY:
        assert rungs(key) == levels(key)[1:]
        assert [rating(key, level) for level in rungs(key)] == sorted(
            rating(key, level) for level in rungs(key)
        )


def test_up_after_a_win_down_after_a_loss_the_same_after_a_draw(tmp_path: Path) -> None:
    levels = AdaptiveLevels(tmp_path)
    ladder = rungs("dipole")
    assert levels.level("dipole") == ladder[0]  # a first game: the lowest rung
    assert [levels.after("dipole", True) for _ in ladder] == [*ladder[1:], ladder[-1]]
    assert levels.after("dipole", None) == ladder[-1]  # the top is the top; a draw keeps it
    assert [levels.after("dipole", False) for _ in ladder] == [*ladder[-2::-1], ladder[0]]
    assert levels.after("dipole", True) == ladder[1]
    assert levels.after("bipod", True) == rungs("bipod")[1]  # each game its own
    again = AdaptiveLevels(tmp_path)
    assert (again.level("dipole"), again.level("bipod"), again.level("death-stacks")) == (
        ladder[1],
        rungs("bipod")[1],
        rungs("death-stacks")[0],
    )


def test_a_damaged_file_starts_every_game_at_the_bottom(tmp_path: Path) -> None:
    (tmp_path / AdaptiveLevels.FILE).write_text('{"dipole": "grandmaster", "chess": "hard"')
    assert AdaptiveLevels(tmp_path).level("dipole") == rungs("dipole")[0]
    (tmp_path / AdaptiveLevels.FILE).write_text('{"dipole": "grandmaster", "bipod": "hard"}')
    levels = AdaptiveLevels(tmp_path)
    assert (levels.level("dipole"), levels.level("bipod")) == (rungs("dipole")[0], "hard")


def test_the_adaptive_seat_is_offered() -> None:
    assert ADAPTIVE in PLAYERS


async def test_a_win_moves_the_adaptive_bot_up(make_app: AppFactory, tmp_path: Path) -> None:
    # Black (the person) wins with the last move of a game from the start.
    session, winning = a_move_from_a_win((ADAPTIVE, HUMAN))
    app = make_app(session=session, thinker=ScriptedBots())
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        ladder = rungs("dipole")
        rated = rating("dipole", ladder[0])
        header = f"adaptive ({ladder[0]}, {rated:+d}) v human"

        def title() -> str:
            return " ".join(str(app.query_one("#title", Static).render()).split())

        assert header in title()
        await type_move(pilot, winning, leave=False)
        await until(lambda: said_at_the_end(app, f"moves up to {ladder[1]}"))
        assert header in title()  # the finished game keeps the level it was played at
    saved = json.loads((tmp_path / AdaptiveLevels.FILE).read_text())
    assert saved == {"dipole": ladder[1]}


def said_at_the_end(app: GameApp, text: str) -> bool:
    """Whether the game-over dialog says `text`: what is said at the end is said there (a
    toast would cover it), and no toast says it."""
    screen = app.screen
    toasts = " ".join(str(toast.message) for toast in app._notifications)
    return isinstance(screen, ChoiceScreen) and text in screen.text and text not in toasts


async def test_a_loss_moves_it_down_and_it_plays_at_its_level(
    make_app: AppFactory, tmp_path: Path
) -> None:
    (tmp_path / AdaptiveLevels.FILE).write_text('{"dipole": "hard"}')
    session, winning = a_move_from_a_win((HUMAN, ADAPTIVE))
    bots = ScriptedBots(winning)  # the bot, Black, wins with the game's last move
    app = make_app(session=session, thinker=bots)
    async with app.run_test(size=(100, 30), notifications=True):
        await until(lambda: said_at_the_end(app, f"moves down to {rungs('dipole')[-2]}"))
        assert bots.asked == ["hard"]
    assert AdaptiveLevels(tmp_path).level("dipole") == rungs("dipole")[-2]
