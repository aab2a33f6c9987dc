"""Issue 41's layout details, looked at on the screen a player sees: a tall Death Stacks stack read
at 80x24, the side panel's lines whole at 160x50, and the position editor drawing pieces as the
board does."""

from __future__ import annotations

import io
from typing import Any

import pytest
from app_steps import AppFactory, HandAnalyst, board_of, drawn_text, until
from rich.console import Console
from textual.app import App
from textual.widget import Widget
from textual.widgets import Static

from dipole_tui.analysis import Analysis, BestLine
from dipole_tui.app.boards import bipod_text
from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.screens.editor import EditorScreen
from dipole_tui.app.widgets.editor_grid import EditGrid
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.clock import TimeControl
from dipole_tui.games.bipod import parse_cell
from dipole_tui.games.death_stacks import parse_square
from dipole_tui.registry import REGISTRY
from dipole_tui.session import Session

# Black to move: c4 is twelve pieces (Black's, too tall), b5 four (r r b r, Red's).
TALL = "b,b,rb,,,/,rrbr,,,,/,,brrbrbrbrbrb,,,/b,,,,,/,rbr,,,,/,,,,, b"


def screen_lines(app: App[Any]) -> list[str]:
    """The terminal's lines as Textual sends them (dialogs over what is behind them)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text().splitlines()


def stack_text(board: DeathStacksBoard, name: str) -> str:
    return drawn_text(board, "square", parse_square(name))


# -- a tall Death Stacks stack at 80x24 ---------------------------------------------------------


@pytest.mark.parametrize(
    ("ascii_glyphs", "tall", "four"), [(False, "!12●", "4●◆"), (True, "!12b", "4br")]
)
async def test_a_tall_stack_in_the_smallest_cells_says_its_height_and_top_pieces(
    make_app: AppFactory, ascii_glyphs: bool, tall: str, four: str
) -> None:
    """With the analysis on, an 80x24 board has a line of three pieces a cell: a stack taller
    than that is its height and its top pieces, never an ellipsis whose count is a guess."""
    app = make_app("death-stacks", position=TALL, analyst=HandAnalyst(), ascii_glyphs=ascii_glyphs)
    async with app.run_test(size=(80, 24)) as pilot:
        board = board_of(app, DeathStacksBoard)
        await pilot.press("a")
        await pilot.pause()
        placement = board.placement()
        assert placement is not None and placement[:2] == (5, 2)
        assert stack_text(board, "c4") == tall  # too tall ("!"), twelve, Black on top
        assert stack_text(board, "b5") == four  # four: b r on top, the height in its place
        board_lines = "\n".join(screen_lines(app)[: board.size.height])
        assert "…" not in board_lines and "~" not in board_lines


async def test_a_stack_taller_than_its_cell_in_the_80x24_cells_says_its_height(
    make_app: AppFactory,
) -> None:
    """Ten pieces fit in an 80x24 cell; the height stands for the rest, and the part that moves
    reaching into them lights it too."""
    app = make_app("death-stacks", position=TALL)
    async with app.run_test(size=(80, 24)) as pilot:
        board = board_of(app, DeathStacksBoard)
        placement = board.placement()
        assert placement is not None and placement[:2] == (7, 3)
        assert stack_text(board, "c4") == "!●◆●◆●12◆●◆"
        assert stack_text(board, "b5") == "4◆◆●◆"  # all of it fits: the height over it
        await pilot.press("9", "right")  # nine of c4's twelve: more than the eight drawn
        await pilot.pause()
        assert board.selected == parse_square("c4") and board.count == 9
        moving = board.style_of("board--moving").bgcolor
        assert moving is not None and height_background(board, "c4") == moving


def height_background(board: DeathStacksBoard, name: str) -> object:
    """The background the height written among a stack's pieces is drawn on."""
    square = parse_square(name)
    for y in range(board.size.height):
        for segment in board.render_line(y):
            style = segment.style
            if style and style.meta.get("square") == square and segment.text.isdigit():
                return style.bgcolor
    raise AssertionError(f"no height drawn among {name}'s pieces")


# -- the side panel at 160x50 ---------------------------------------------------------------

# Each game with the best lines its analysis gives from the start after a few seconds.
LINES = {
    ("dipole", "8x8"): [
        "e1-d2 d8-c7 e1-c3 d8-b6 c3-c5 c7-b6 d2-c3 d8-b6",
        "e1-f2 d8-c7 e1-f2 c7-d6 f2-e3 d8-c7 f2-e3 d8-c7",
        "e1-c3 d8-e7 e1-c3 d8-b6 c3-b4 e7-d6 e1-f2 d8-c7",
    ],
    ("dipole", "10x10"): [
        "e1-d2 f10-e9 e1-d2 e9-d8 d2-c3 d8-c7 d2-c3",
        "e1-f2 f10-e9 e1-d2 f10-e9 e1-d2 e9-d8 d2-c3",
        "e1-b4 f10-e9 e1-d2 e9-d8 e1-d2 d8-c7 d2-c3",
    ],
    ("death-stacks", "standard"): [
        "a1-1-a2 a6-1-a5 b1-1-b2 c6-1-c5 c1-1-c2 b6-1-b5",
        "a1-1-b2 a6-1-a5 b1-1-a2 d6-1-e5 c1-1-c2 c6-1-d5",
        "b1-1-a2 a6-1-a5 a1-1-b2 c6-1-c5 c1-1-c2 b6-1-b5",
    ],
    ("bipod", "multi"): [
        "m1|o1|j2|adopt|h2 o|r2",
        "g1|m1|k3|adopt|h2 o|u1",
        "h2|adopt|w1 O|g1|j2 o|u1",
    ],
}


@pytest.mark.parametrize(("game", "variant"), list(LINES))
async def test_at_160x50_no_line_of_the_side_panel_is_cut(
    make_app: AppFactory, game: str, variant: str
) -> None:
    """Names of a usual length, a clock and the analysis's three best lines: the panel is wide
    enough at 160 columns that each shows whole, none cut with `…`."""
    rules = REGISTRY[game].game
    variant = variant if variant in rules.variants else rules.variants[0]
    session = Session.new(rules, variant, time_control=TimeControl(5, 3))
    session.tags.update(White="Annabelle", Black="Bartholomew")
    analyst = HandAnalyst()
    app = make_app(game, variant, session=session, analyst=analyst)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("A")  # Bi-Pod's board takes a (adopt)
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        split = "|" if game == "bipod" else " "
        lines = tuple(
            BestLine(Score(10), tuple(line.split(split))) for line in LINES[game, variant]
        )
        score = PovScore(Score(10), session.state.to_move)
        analyst.tell(Analysis(8, score, lines[0].line, 90_000, lines))
        analysis = app.screen.query_one("#analysis", Static)
        await until(lambda: "depth 8" in str(analysis.render()))
        await pilot.pause()
        side = app.screen.query_one("#side").region
        shown = [line[side.x : side.right].rstrip() for line in screen_lines(app)]
        panel = shown[side.y : side.bottom]
        assert any("Annabelle v Bartholomew" in line for line in panel)
        assert any("5:00" in line for line in panel)  # the clocks
        rows = [line.lstrip("▏| ") for line in panel]
        for number, best in enumerate(lines, 1):
            assert any(row.startswith(f"{number} {best.move} ") for row in rows), number
        assert [line for line in panel if line.endswith("…")] == []


# -- the editor draws pieces as the board does ------------------------------------------------


def drawn_cells(widget: Widget, key: str) -> dict[int, str]:
    """What a board (or the editor's) drew on each square, by the meta data naming it."""
    drawn: dict[int, str] = {}
    for y in range(widget.size.height):
        for segment in widget.render_line(y):
            index = segment.style.meta.get(key) if segment.style else None
            if index is not None:
                drawn[index] = drawn.get(index, "") + segment.text.strip()
    return drawn


@pytest.mark.parametrize(("game", "key"), [("bipod", "cell"), ("death-stacks", "square")])
async def test_the_editor_draws_each_piece_as_the_board_does(
    make_app: AppFactory, game: str, key: str
) -> None:
    """Bi-Pod's start stones and every stone, Death Stacks' pieces: typed as letters, drawn in
    the editor with the board's own glyphs, square for square: its Unicode ones, and in ASCII
    its ASCII ones (which are the letters typed, so ASCII looked so before)."""
    named = parse_cell if game == "bipod" else parse_square
    for ascii_glyphs in (False, True):
        app = make_app(game, ascii_glyphs=ascii_glyphs)
        async with app.run_test(size=(100, 30)) as pilot:
            # The board's drawing of each square, without Death Stacks' height over its pieces.
            on_board = {
                square: text.lstrip("0123456789")
                for square, text in drawn_cells(app.board, key).items()
            }
            await pilot.press("e")
            await pilot.pause()
            assert isinstance(app.screen, EditorScreen)
            grid = app.screen.query_one(EditGrid)
            squares = [square.name for square in grid.squares]
            in_editor = drawn_cells(grid, "square")
            pieces = {squares[i]: text for i, text in in_editor.items() if text != grid.empty}
            assert pieces, ascii_glyphs
            for name, text in pieces.items():
                assert text == on_board[named(name)], (name, ascii_glyphs)
            assert grid.empty == ("." if ascii_glyphs else "·")
            if game == "bipod":  # the start stones, as the board draws them
                table = bipod_text.ASCII if ascii_glyphs else bipod_text.UNICODE
                assert sorted(pieces.values()) == sorted(table.starts.values())
                assert "@" not in pieces.values() or ascii_glyphs
