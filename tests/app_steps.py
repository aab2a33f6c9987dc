"""Steps of the app tests shared by every game's board: finding what was drawn, typing a move,
opening a record, reading the message line."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Static

from dipole_tui.app.app import GameApp
from dipole_tui.app.game_board import GameBoard


def drawn_offset(board: GameBoard, key: str, value: int) -> tuple[int, int]:
    """Where the board drew the square (or removal chip) with this meta data: found by what was
    rendered, as a click is."""
    for y in range(board.size.height):
        x = 0
        for segment in board.render_line(y):
            meta = segment.style.meta if segment.style else {}
            if meta.get(key) == value:
                return x + segment.cell_length // 2, y
            x += segment.cell_length
    raise AssertionError(f"nothing drawn with {key}={value}")


def drawn_text(board: GameBoard, key: str, value: int) -> str:
    """Everything drawn with this meta data (a square or cell), line by line, spaces dropped."""
    text = ""
    for y in range(board.size.height):
        for segment in board.render_line(y):
            if segment.style and segment.style.meta.get(key) == value:
                text += segment.text.strip()
    return text


def hinted(board: GameBoard, key: str, value: int) -> bool:
    """Whether the square (cell, removal chip) with this meta data is drawn as a hint's mark:
    the hint's own style, underlined (no other mark underlines, colours on)."""
    styles = [
        segment.style
        for y in range(board.size.height)
        for segment in board.render_line(y)
        if segment.style and segment.style.meta.get(key) == value
    ]
    assert styles, f"nothing drawn with {key}={value}"
    return all(style.underline for style in styles)


def answer_hint(app: GameApp, move: str) -> None:
    """The bots' process answers a hint with `move`, as its reading thread hands it over."""
    app._hint_request = 1000
    app._answered(1000, move)


def status_lines(board: GameBoard, letters: str) -> list[str]:
    """The board's lines under its last row of column `letters`: its status, as drawn."""
    lines = [board.render_line(y).text for y in range(board.size.height)]
    last = max(i for i, line in enumerate(lines) if "".join(line.split()) == letters)
    return [line.strip() for line in lines[last + 1 :] if line.strip()]


async def type_move(pilot: Pilot[None], text: str, leave: bool = True) -> None:
    """Type a move, then leave the entry (it keeps the focus for the next move until Escape)."""
    await pilot.press("colon", *text, "enter")
    await pilot.pause()
    if leave:
        await pilot.press("escape")


async def open_record(pilot: Pilot[None], app: GameApp, path: Path) -> None:
    """`o`, the file name in its box (below the list of kept games), Enter: as a player opens a
    saved game."""
    await pilot.press("o")
    await pilot.pause()
    entry = app.screen.query_one(Input)
    entry.focus()
    await pilot.pause()
    entry.value = str(path)
    await pilot.press("enter")
    await pilot.pause()


def message(app: GameApp) -> str:
    """The message, its wrapped lines joined again."""
    return " ".join(str(app.query_one("#message", Static).render()).split())


def step_toward(board: GameBoard, square: int) -> tuple[int, int] | None:
    """The cursor step (dx, dy on screen) toward `square`, None when there."""
    if board.cursor == square:
        return None
    column, row = board._screen(board.cursor)
    goal_column, goal_row = board._screen(square)
    if row != goal_row:
        return 0, -1 if goal_row < row else 1
    return -1 if goal_column < column else 1, 0


KEYS = {(0, -1): "up", (0, 1): "down", (-1, 0): "left", (1, 0): "right"}


async def walk_to(pilot: Pilot[None], board: GameBoard, square: int) -> None:
    """Move the cursor with the arrow keys, as a player would."""
    for _ in range(40):
        step = step_toward(board, square)
        if step is None:
            return
        await pilot.press(KEYS[step])
    raise AssertionError(f"the cursor did not reach square {square}")


def noticed(app: GameApp, text: str) -> bool:
    """Whether a notification says `text`; notices are wrapped to the toast's width (a path
    after a `/`), so line breaks and spaces are not compared."""
    wanted = "".join(text.split())
    return any(wanted in "".join(str(n.message).split()) for n in app._notifications)
