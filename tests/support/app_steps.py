"""Steps of the app tests shared by every game's board: finding what was drawn, typing a move,
opening a record, reading the message line, waiting for the app, and stand-ins for the bots and
the analysis."""

from __future__ import annotations

import asyncio
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from textual import events
from textual._compositor import LayoutUpdate
from textual.app import App
from textual.geometry import Offset
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.widgets import Input, Static

from dipole_tui.analysis import Analysis
from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.game_board import GameBoard
from dipole_tui.games.base import State
from dipole_tui.workers.protocol import AnalysisRequest, MoveFound, MoveRequest, Reply, Request

AnyBoard = GameBoard[Any, Any]  # the app's board, whatever its game
B = TypeVar("B", bound=AnyBoard)
S = TypeVar("S", bound=State[Any])


def board_of(app: GameApp, kind: type[B]) -> B:
    """The app's board as its game's own, to read what only that board has."""
    board = app.board
    assert isinstance(board, kind), f"the board is a {type(board).__name__}, not a {kind.__name__}"
    return board


def state_of(app: GameApp, kind: type[S]) -> S:
    """The position in play as its game's own state, to read what only that game has."""
    state = app.session.state
    assert isinstance(state, kind), f"the state is a {type(state).__name__}, not a {kind.__name__}"
    return state


@runtime_checkable
class Walkable(Protocol):
    """A board whose cursor the arrow keys walk (every game's so far): where its cursor is, and
    where it draws a square."""

    cursor: int

    def screen_cell(self, square: int, /) -> tuple[int, int]: ...


def drawn_offset(board: AnyBoard, key: str, value: int) -> tuple[int, int]:
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


def drawn_text(board: AnyBoard, key: str, value: int) -> str:
    """Everything drawn with this meta data (a square or cell), line by line, spaces dropped."""
    text = ""
    for y in range(board.size.height):
        for segment in board.render_line(y):
            if segment.style and segment.style.meta.get(key) == value:
                text += segment.text.strip()
    return text


def hinted(board: AnyBoard, key: str, value: int) -> bool:
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


AppFactory = Callable[..., GameApp]  # the `make_app` fixture (conftest.py)


OnReply = Callable[[Reply], None]


def answer_move(on_reply: OnReply, number: int, move: str | None) -> None:
    """A bots' process answering request `number`: the move (None: none found), then the end."""
    if move is not None:
        on_reply(Reply(number, MoveFound(move, ())))
    on_reply(Reply(number, None))


class StandIn:
    """What every stand-in for a worker's process (`workers.process.Process`) shares: the
    tracker connects by calling it with its reply callback; nothing to stop or close; alive."""

    on_reply: OnReply | None = None
    cancelled = 0  # every request up to this number is stopped

    def __call__(self, on_reply: OnReply) -> Self:
        self.on_reply = on_reply
        return self

    def cancel(self, upto: int) -> None:
        self.cancelled = upto

    def close(self) -> None:
        pass

    @property
    def alive(self) -> bool:
        return True


class ScriptedBots(StandIn):
    """Stands in for the bots' process (`workers.process.Process`): each request is answered
    with the next of `replies` (None: no move found), from a thread of its own as the process's
    answers come; `held`, only when the test says (`release`)."""

    def __init__(self, *replies: str | None, held: bool = False) -> None:
        self.replies = list(replies)
        self.held = held
        self.waiting: list[tuple[int, str | None]] = []  # held answers
        self.asked: list[str] = []  # the bots asked, in turn

    def send(self, number: int, request: Request) -> None:
        assert self.on_reply is not None and isinstance(request, MoveRequest)
        assert self.replies, f"{request.bot} asked, with no reply left"
        self.asked.append(request.bot)
        reply = self.replies.pop(0)
        if self.held:
            self.waiting.append((number, reply))
        else:
            threading.Thread(target=answer_move, args=(self.on_reply, number, reply)).start()

    def release(self) -> None:
        """The oldest held answer arrives, now and on this thread."""
        assert self.on_reply is not None
        answer_move(self.on_reply, *self.waiting.pop(0))


class HandAnalyst(StandIn):
    """Stands in for the analysis process (`workers.process.Process`): requests are kept (the
    records asked about), and the test tells the app each update with `tell`, on the test's own
    thread, so updates arrive in the order told."""

    def __init__(self) -> None:
        self.records: list[str] = []
        self.numbers: list[int] = []  # the requests' numbers, in turn

    def send(self, number: int, request: Request) -> None:
        assert isinstance(request, AnalysisRequest)
        self.records.append(request.record)
        self.numbers.append(number)

    def tell(self, analysis: Analysis | None, number: int | None = None) -> None:
        """An update (None: the end of an analysis) for request `number`, the latest if None."""
        assert self.on_reply is not None and self.records, "nothing was asked"
        self.on_reply(Reply(number or self.numbers[-1], analysis))


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait for something the app will do, by its public state, as long as `seconds`."""
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out waiting")


def type_ahead(app: GameApp, keys: str) -> None:
    """Keys posted as a terminal sends them, all at once: none waits for the one before."""
    for char in keys:
        key = {"\r": "enter", ":": "colon", "-": "minus"}.get(char, char)
        app.post_message(events.Key(key, char))


def burst(app: GameApp, *keys: str) -> None:
    """Keys as a terminal delivers a burst (a double press, keys typed ahead): posted together,
    none waiting for the app to take the one before, as `pilot.press` waits."""
    characters = {"enter": "\r", "space": " ", "escape": "\x1b", "plus": "+", "minus": "-"}
    for key in keys:
        character = characters.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))


def clicks(app: GameApp, board: AnyBoard, key: str, value: int, times: int = 2) -> None:
    """Clicks on what the board drew with this meta data, as a terminal sends them: `times`
    presses and releases at once (2: a double click); the app makes the clicks of them (the
    second of chain 2), as it does of a real terminal's."""
    x, y = drawn_offset(board, key, value)
    at = board.region.offset + Offset(x, y)
    for _ in range(times):
        for kind in (events.MouseDown, events.MouseUp):
            mouse = kind(None, at.x, at.y, 0, 0, 1, False, False, False, at.x, at.y)
            app.post_message(mouse)


async def settle(pilot: Pilot[None]) -> None:
    """Until the app has taken all it was sent and all that followed from it (a key goes to
    the board, comes up to the app, a move chosen there comes up after it, the app answers):
    no message waiting anywhere, and nothing left to run after the next refresh of the screen
    in front (`call_after_refresh`: the focus given back to the board after a dialog; a screen
    behind a dialog runs its own at its next refresh, which may be when the dialog closes),
    twice running.
    Quicker than `pilot.pause`, which waits for the processor to idle; a state machine's
    preconditions read the app then, so each run of the same steps sees the same app."""
    app = pilot.app
    calm = 0
    for _ in range(100):
        await pilot._wait_for_screen()
        nodes = [app, *(node for s in app.screen_stack for node in s.walk_children(with_self=True))]
        waiting = any(node.message_queue_size for node in nodes)
        after_refresh = bool(app.screen._callbacks)
        if after_refresh:
            await asyncio.sleep(1 / 60)  # a screen refreshes up to 60 times a second
        calm = 0 if waiting or after_refresh else calm + 1
        if calm == 2:
            return
    raise AssertionError("the app never settled")


async def ask_hint(pilot: Pilot[None], app: GameApp) -> None:
    """`i`, then the hint as the app's bots answer it (`ScriptedBots` in tests), marked."""
    await pilot.press("i")
    await until(lambda: app.bots.unanswered == 0)
    await pilot.pause()


def status_lines(board: AnyBoard, letters: str) -> list[str]:
    """The board's lines under its last row of column `letters`: its status, as drawn."""
    lines = [board.render_line(y).text for y in range(board.size.height)]
    last = max(i for i, line in enumerate(lines) if "".join(line.split()) == letters)
    return [line.strip() for line in lines[last + 1 :] if line.strip()]


async def press(pilot: Pilot[Any], *keys: str) -> None:
    """Keys pressed one by one, each taken by the app before the next is sent (`settle`, then
    any animation it started): the events `pilot.press` sends (a named key with its character:
    `colon` is ":"), without its waits for the process to idle, twice a key and at least 20 ms
    each, which the app's refreshes after a key stretch to a quarter of a second. conftest.py
    has every `pilot.press` run this."""
    for key in keys:
        assert not key.startswith("wait:"), "a pause is pilot.pause, not a key"
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)  # "/" is "slash", as a terminal names it
        try:
            character: str | None = unicodedata.lookup(
                _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
            )
        except KeyError:
            character = key if len(key) == 1 else None
        pilot.app.post_message(events.Key(key, character))
        await settle(pilot)
        await pilot.app.animator.wait_until_complete()


async def type_move(pilot: Pilot[None], text: str, leave: bool = True) -> None:
    """Type a move, then leave the entry if it kept the focus (a refused move stays in it)."""
    await pilot.press("colon")
    await press(pilot, *text)
    await pilot.press("enter")
    await pilot.pause()
    if leave and isinstance(pilot.app.focused, Input):
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


def screen_text(app: App[Any]) -> str:
    """Every character on the terminal: the screen and the screens showing through behind a
    dialog, composed as Textual sends them to the terminal, line by line: the composed strips'
    text, the same as a recording console's export of them (checked on every screen the tests
    read), without the printing (a quarter of this function's time)."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    assert isinstance(update, LayoutUpdate)
    return "\n".join("".join(strip.text for strip in line) for line in update.strips)


def message(app: GameApp) -> str:
    """The message, its wrapped lines joined again."""
    return " ".join(str(app.query_one("#message", Static).render()).split())


def step_toward(board: Walkable, square: int) -> tuple[int, int] | None:
    """The cursor step (dx, dy on screen) toward `square`, None when there."""
    if board.cursor == square:
        return None
    column, row = board.screen_cell(board.cursor)
    goal_column, goal_row = board.screen_cell(square)
    if row != goal_row:
        return 0, -1 if goal_row < row else 1
    return -1 if goal_column < column else 1, 0


KEYS = {(0, -1): "up", (0, 1): "down", (-1, 0): "left", (1, 0): "right"}


async def walk_to(pilot: Pilot[None], board: Walkable, square: int) -> None:
    """Move the cursor with the arrow keys, as a player would."""
    for _ in range(40):
        step = step_toward(board, square)
        if step is None:
            return
        await press(pilot, KEYS[step])
    raise AssertionError(f"the cursor did not reach square {square}")


def noticed(app: GameApp, text: str) -> bool:
    """Whether a notification says `text`; notices are wrapped to the toast's width (a path
    after a `/`), so line breaks and spaces are not compared."""
    wanted = "".join(text.split())
    return any(wanted in "".join(str(n.message).split()) for n in app._notifications)
