"""The threat overlay (`t`), played as a person would, in every game: a known position with known
threats, the marks on the board with the side that can take each, gone at the second `t`, and
following the game after a move while the overlay is on."""

from __future__ import annotations

import re

import pytest
from app_steps import AnyBoard, AppFactory, board_of, drawn_text, type_move, walk_to
from game_samples import SAMPLES, board_samples

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.bipod import BipodBoard
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.games import bipod
from dipole_tui.games.base import AnyGame
from dipole_tui.games.bipod import BIPOD
from dipole_tui.registry import REGISTRY


def index_of(game: AnyGame, name: str) -> tuple[str, int]:
    """The meta data a board draws the square so named with."""
    return board_samples(game.key).square(name)


def chip(board: AnyBoard, game: AnyGame, side: int) -> str:
    """What marks a square that `side` can take: its piece's glyph in the corner, or Bi-Pod's
    cut mark."""
    if isinstance(board, DipoleBoard):
        return board.threat_chip(side)
    return "!" if game is BIPOD else board.side_glyph(side)


def drawn_marks(app: GameApp, game: AnyGame, names: list[str]) -> dict[str, int]:
    """Of these squares, those drawn with a threat's mark, each with the side its mark shows."""
    board = app.board
    marks = {}
    for name in names:
        text = drawn_text(board, *index_of(game, name))
        for side in (0, 1):
            if text.startswith(chip(board, game, side)) and not (game is BIPOD and side != 0):
                marks[name] = side
    return marks


def said(app: GameApp) -> str:
    """All the board draws, its words joined by single spaces (a status wraps)."""
    lines = [app.board.render_line(y).text for y in range(app.board.size.height)]
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("game_key", list(REGISTRY))
async def test_t_marks_each_threat_with_who_can_take_it_and_follows_the_game(
    make_app: AppFactory, game_key: str
) -> None:
    game, case = REGISTRY[game_key].game, SAMPLES[game_key].threats
    before, after = case.before, case.after
    app = make_app(game_key, position=case.position)
    watched = sorted({*before, *after})
    async with app.run_test(size=(80, 24)) as pilot:
        if game is BIPOD:  # the cursor shows the stone Enter places, over any mark
            await walk_to(pilot, board_of(app, BipodBoard), bipod.parse_cell("n4"))
        assert app.board.threats is None
        assert drawn_marks(app, game, watched) == {}
        await pilot.press("t")
        await pilot.pause()
        assert app.board.threats == before
        assert drawn_marks(app, game, watched) == before
        assert "Threats:" in said(app)
        await pilot.press("t")  # off again: no marks, no legend
        await pilot.pause()
        assert app.board.threats is None
        assert drawn_marks(app, game, watched) == {}
        assert "Threats:" not in said(app)
        await pilot.press("t")
        await pilot.pause()
        await type_move(pilot, case.move)  # the overlay stays on and follows the move
        assert app.session.state.plies == 1
        assert app.board.threats == after
        assert drawn_marks(app, game, watched) == after


async def test_the_legend_names_the_sides_in_ascii_too(make_app: AppFactory) -> None:
    game, case = REGISTRY["dipole"].game, SAMPLES["dipole"].threats
    before = case.before
    app = make_app("dipole", position=case.position, ascii_glyphs=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert "Threats: ! the opponent can take this stack" in said(app)
        # one chip for both sides in ASCII: the taker is the owner's opponent
        assert set(drawn_marks(app, game, sorted(before))) == set(before)
        assert all(line.isascii() for line in (app.board.render_line(y).text for y in range(23)))


@pytest.mark.parametrize("game_key", ["dipole", "death-stacks"])
async def test_an_ascii_threat_chip_does_not_read_as_a_capture(
    make_app: AppFactory, game_key: str
) -> None:
    """A capture's destination says `x1`; a chip before a stack's height must not say `x 1`."""
    game, case = REGISTRY[game_key].game, SAMPLES[game_key].threats
    before = case.before
    app = make_app(game_key, position=case.position, ascii_glyphs=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        for name in before:
            text = drawn_text(app.board, *index_of(game, name))
            assert not re.match(r"x\d", "".join(text.split())), f"{name}: {text!r}"


async def test_a_position_without_threats_says_so(make_app: AppFactory) -> None:
    app = make_app("dipole")  # the start: the two stacks are far apart
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert app.board.threats == {}
        assert "Threats: none now" in said(app)
