"""The tests' fixtures: every app test builds its app with `make_app`, which keeps the app's files
in the test's own folder and lets its bots think briefly; a command-line test runs `dipole-tui`
with `cli`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_steps import AppFactory
from cli_steps import Cli, Ran

from dipole_tui.app.app import GameApp
from dipole_tui.app.choice import GameChoice, OnlineChoice
from dipole_tui.cli import main
from dipole_tui.registry import REGISTRY
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, Session
from dipole_tui.workers.tracker import Connect


@pytest.fixture
def make_app(tmp_path: Path) -> AppFactory:
    """Build an app, as `play` would with these options:

    - `game`, `variant` (its default when empty) and `players` choose a new game; `position`
      sets its start, or `session` gives the whole game;
    - `new`: the game starts at once (`play --new`); otherwise the autosave in the folder is
      offered first, and with none the new-game dialog opens on that choice;
    - `folder`: where the autosave and kept games are (the test's `tmp_path`);
    - `thinker`: a stand-in for the bots' process (`app_steps.ScriptedBots`); the real one if
      None;
    - `reviewer`: one for the review's process (the real one unless given);
    - `analyst`: a stand-in for the analysis's (`app_steps.HandAnalyst`); the real one if None;
    - `learn`: open the lessons first, of that game or ("") of every game (`dipole-tui learn`);
    - `online`: a room of a game server to play in (`play --server ... --new-room`)."""

    def make(
        game: str = "dipole",
        variant: str = "",
        players: tuple[str, str] = (HUMAN, HUMAN),
        *,
        position: str | None = None,
        session: Session[Any] | None = None,
        new: bool = True,
        folder: Path | None = None,
        ascii_glyphs: bool = False,
        think_time: float = 0.2,
        thinker: Connect | None = None,
        reviewer: Connect | None = None,
        analyst: Connect | None = None,
        learn: str | None = None,
        online: OnlineChoice | None = None,
    ) -> GameApp:
        rules = REGISTRY[game].game
        if position is not None:
            session = Session(rules, rules.parse_position(position), players)
        return GameApp(
            choice=GameChoice(game, variant or rules.variants[0], players),
            session=session,
            new=new,
            ascii_glyphs=ascii_glyphs,
            autosave=Autosave(folder or tmp_path),
            think_time=think_time,
            thinker=thinker,
            reviewer=reviewer,
            analyst=analyst,
            learn=learn,
            online=online,
        )

    return make


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    """Run `dipole-tui` in the test's process: its exit status and what it printed."""

    def run(*args: str) -> Ran:
        status = main(list(args))
        out, err = capsys.readouterr()
        return Ran(status, out, err)

    return run
