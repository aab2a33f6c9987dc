"""The Open dialog over a folder of thousands of kept games: listed newest first at once, each
header read only when its row is shown (or a page ahead), a damaged file still listed with its
reason, and any row opened. No timing here: `bench/open_dialog.py` measures that."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from app_steps import AppFactory, noticed, until
from game_files import played
from textual.pilot import Pilot
from textual.widgets import Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.dialogs.open import GameList, OpenScreen
from dipole_tui.session import HUMAN

COUNT = 2000
DAMAGED = COUNT - 3  # the third newest


def a_folder_of_many_games(folder: Path) -> None:
    """COUNT games kept in finished/, game-0000.txt the oldest, a minute apart, one damaged."""
    text = played("dipole", ["e1-g3", "d8-e7"], "8x8", (HUMAN, "hard")).record_text()
    finished = folder / "finished"
    finished.mkdir()
    start = datetime(2026, 1, 1).timestamp()
    for number in range(COUNT):
        path = finished / f"game-{number:04d}.txt"
        path.write_text('[Game "Dipole"\n' if number == DAMAGED else text, encoding="utf-8")
        os.utime(path, (start + 60 * number, start + 60 * number))


def about(app: GameApp) -> str:
    return str(app.screen.query_one("#about", Static).render())


async def rows_read(pilot: Pilot[None], screen: OpenScreen) -> GameList:
    """The list, once the rows it shows are read and drawn."""
    games = screen.query_one(GameList)
    await until(lambda: all(screen.games[row].is_read for row in games.shown_rows()))
    await pilot.pause()
    return games


async def test_thousands_of_games_list_newest_first_and_open(
    make_app: AppFactory, tmp_path: Path
) -> None:
    a_folder_of_many_games(tmp_path)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        screen = app.screen
        assert isinstance(screen, OpenScreen)
        games = await rows_read(pilot, screen)
        assert games.row_count == COUNT
        names = [game.name for game in screen.games]
        assert names == [f"game-{number:04d}.txt" for number in reversed(range(COUNT))]
        first = games.row_text(0)
        assert first[:2] == ["finished", "Dipole 8x8"] and first[-2:] == ["2", "-"]
        # Only what was shown, and a page ahead, was read: not thousands of files.
        assert 0 < sum(game.is_read for game in screen.games) <= 2 * GameList.AHEAD

        await pilot.press("down", "down")  # the damaged one, listed with why
        await pilot.pause()
        assert games.row_text(2)[1] == "damaged"
        assert "finished/game-1997.txt" in about(app) and "damaged: " in about(app)

        await pilot.press("end")  # the oldest, read when it comes into view
        games = await rows_read(pilot, screen)
        assert games.cursor_row == COUNT - 1 and games.row_text(COUNT - 1)[1] == "Dipole 8x8"
        assert "finished/game-0000.txt" in about(app)

        await pilot.press("home", "down", "enter")  # the second newest opens
        await pilot.pause()
        assert not isinstance(app.screen, OpenScreen)
        assert app.session.players == (HUMAN, "hard")
        assert len(app.session.state.moves_played) == 2
        assert noticed(app, str(tmp_path / "finished" / "game-1998.txt"))
