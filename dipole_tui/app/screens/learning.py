"""Learning by doing: the lessons and puzzles of `dipole_tui.learn`, on the real board.

`LearnMenu` (`learn_menu.py`) lists a game's lessons and puzzles with what is done. A lesson
(`LessonScreen`) gives a position and a task; only the moves that fulfil it are played, any other
is answered with the rules' own reason and the lesson's hint. A puzzle (`PuzzleScreen`, in
`puzzle_screen.py`) is played against the solver's longest defence. The screens take the rules
from the core and the words from the data: no rule is decided here.
Every move is played through one guard (`ExerciseScreen.play`), as the game's are through
`Session.play`: a move chosen for a position the exercise has left (the second press of a double
Enter) is dropped, never played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from ...control.position import position_of
from ...games.base import State
from ...learn import Item, Progress
from ...registry import REGISTRY
from ..ascii import glyph_map, plain
from ..boards.game_board import GameBoard
from ..boards.registered import make_board
from ..commands import command
from ..widgets.footer import KeysFooter
from ..widgets.play_area import PlayArea, TriesMoves
from ..widgets.side_panel import MoveEntry

REPLY_DELAY = 0.6  # seconds before the board plays its reply: the player sees their move first


class Words(VerticalScroll):
    """An exercise's words (title, text, task, moves, message). Once a message is said they
    follow their end: scrolled to it again whenever they or the panel change size, however
    Textual lays the change out (a reflow sets `virtual_size`, a refresh after a scroll only
    resizes: a scroll to the end after one refresh left a longer message's last line out of
    view when the panel was laid out again later, under load)."""

    following = False

    def follow(self) -> None:
        self.following = True
        self.scroll_end(animate=False)

    def watch_virtual_size(self) -> None:
        if self.following:
            self.scroll_end(animate=False)

    def on_resize(self) -> None:
        self.watch_virtual_size()


class ExerciseScreen(TriesMoves):
    """A lesson or a puzzle: the board beside a panel with its words, a typed-move entry, and the
    message that answers each try. Dismissed with "next" (go on) or None (back to the menu)."""

    CSS_PATH = "../css/learn.tcss"
    BINDINGS = [
        Binding("colon", "type", "Type", priority=True),
        command("r", "retry", "Again", "This exercise from its start", "Try again"),
        command("n", "next", "Next", "The next lesson or puzzle", "Next exercise"),
        command("m", "menu", "Menu", "Back to the lessons and puzzles", "Lessons and puzzles"),
    ]

    def __init__(self, item: Item, progress: Progress, ascii_glyphs: bool) -> None:
        super().__init__()
        self.item = item
        self.progress = progress
        self.game = REGISTRY[item.game].game
        self.state: State[Any] = item.start()
        self.ascii_glyphs = ascii_glyphs
        self.board: GameBoard[Any, Any] = make_board(item.game, self.state.copy(), ascii_glyphs)
        self.done = False
        self.tries = 0  # wrong tries so far
        self.message = ""  # the last thing said, as text (the tests read it)
        self.entry = MoveEntry(placeholder=MoveEntry.PLACEHOLDER, id="exercise-entry")
        self.area: PlayArea[Any] = PlayArea(self.game, self.board, self.entry)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield self.board
            with Vertical(id="exercise-side"):
                with Words(id="exercise-words"):
                    yield Static(self.shown(self.item.title), id="exercise-title")
                    text = Static(self.shown(self.item.text), id="exercise-text")
                    text.display = bool(self.item.text)
                    yield text
                    yield Static(self.shown(self.task_text()), id="exercise-task")
                    yield Static(id="exercise-moves", markup=False)
                    yield Static(id="exercise-message", markup=False)
                yield self.entry
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()
        self.board.focus()

    def task_text(self) -> str:
        return self.item.task

    def show(self, last: Any | None = None) -> None:
        """The position as it stands; the board takes moves only on the player's turn."""
        self.board.interactive = not self.done and self.players_turn()
        self.board.show_state(self.state.copy(), last)
        moves = self.query_one("#exercise-moves", Static)
        said = self.moves_text()
        moves.display = bool(said)
        moves.update(said)

    def moves_text(self) -> str:
        """The moves played so far and whose turn it is, where the exercise lists them."""
        return ""

    def players_turn(self) -> bool:
        return True

    def shown(self, text: str) -> str:
        """The words as the board draws: under --ascii the board's glyphs (a lesson's ○ is
        Bi-Pod's o there) and typography in ASCII."""
        if not self.ascii_glyphs:
            return text
        return plain(text, glyph_map(*type(self.board).GLYPH_TABLES))

    def say(self, text: str, style: str = "") -> None:
        """The message under the task, kept in view: at 80x24 the words above it may leave it
        below the panel's edge (the scroll bar says more is there). It is the last of the
        words, so they follow their end from the first message on (`Words`). The message is
        laid out again after the next refresh too: under load its new last line was left out
        of the layout for good (the words' height, and so the scroll, stayed the old message's;
        seen 2 times in 3 runs with two CPU hogs, then 0 in 6)."""
        self.message = text
        message = self.query_one("#exercise-message", Static)
        message.update(Text(self.shown(text), style=style))
        self.call_after_refresh(message.refresh, layout=True)
        self.query_one(Words).follow()

    # -- moves arriving ------------------------------------------------------------------------

    def not_now(self) -> str:
        if self.done:
            return "Not now: it is done; n goes on"
        return "" if self.players_turn() else "Not now: wait for the reply"

    def refused(self, refusal: str) -> None:
        self.tries += 1
        self.say(f"{refusal}\n{self.help_after_a_wrong_try()}", "red")

    def try_move(self, move: Any) -> None:
        if self.not_now() or not self.state.is_legal(move):
            self.board.choose_again()
            return
        self.attempt(move, self.game.format_move(move))

    def attempt(self, move: Any, text: str) -> None:
        raise NotImplementedError

    def help_after_a_wrong_try(self) -> str:
        """Said under the rules' reason when a typed move is refused."""
        return ""

    def keep(self, first_try: bool = True) -> None:
        """The item done, in the progress file; a file that cannot be written is said, once."""
        try:
            self.progress.finished(self.item, first_try)
        except OSError as error:
            self.notify(
                f"Your progress could not be saved: {error.strerror or error}", severity="error"
            )

    def play(self, text: str) -> None:
        """Every move of an exercise, the player's and the replies: `parse_move` finds only a
        move legal here (else GameError, nothing changed), as `Session.play` checks the game's."""
        move = self.game.parse_move(text, self.state)
        self.drop_explanation()
        self.state.play(move)
        self.show(move)

    def drop_explanation(self) -> None:
        """The position changes: what was being worked out about the one before is no use."""

    def reply_soon(self, reply: Callable[[], None]) -> None:
        """Run `reply` (the other side's move) after a moment, if the exercise is still in the
        position it answers: `r` may have begun it again meanwhile."""
        answered = position_of(self.state)

        def answer() -> None:
            if self.is_mounted and position_of(self.state) == answered:
                reply()

        self.set_timer(REPLY_DELAY, answer)

    # -- keys ----------------------------------------------------------------------------------

    def action_type(self) -> None:
        self.area.open_entry()
        self.say(f"Type a move: {self.game.move_examples}.")

    def action_retry(self) -> None:
        self.drop_explanation()
        self.state = self.item.start()
        self.done = False
        self.restart()
        self.show()
        self.area.close_entry()

    def restart(self) -> None:
        self.say("")

    def action_next(self) -> None:
        self.dismiss("next")

    def action_menu(self) -> None:
        self.dismiss(None)


class LessonScreen(ExerciseScreen):
    BINDINGS = [command("i", "hint", "Hint", "The lesson's hint")]

    def attempt(self, move: Any, text: str) -> None:
        if text not in self.item.accept:
            self.tries += 1
            self.say(
                f"{text} is a legal move, but not what the task asks.\n{self.item.hint}", "red"
            )
            self.show()  # the board as it was, for another try
            return
        self.play(text)
        replies = list(self.item.solution[1:])
        self.board.interactive = False
        self.say("Yes!" + (" ..." if replies else ""), "green")
        self._reply(replies)

    def _reply(self, replies: list[str]) -> None:
        if not replies:
            self._finish()
            return
        self.reply_soon(lambda: self._replied(replies))

    def _replied(self, replies: list[str]) -> None:
        self.play(replies[0])
        self._reply(replies[1:])

    def _finish(self) -> None:
        self.done = True
        self.board.interactive = False
        self.area.close_entry()  # n, r and m are keys again, not letters of a move
        self.keep()
        outcome = self.state.outcome()
        ended = f"{outcome.reason}.\n" if outcome is not None else ""
        self.say(f"{ended}Done: {self.item.summary}\nn: next   r: again   m: menu", "green")

    def help_after_a_wrong_try(self) -> str:
        return self.item.hint

    def action_hint(self) -> None:
        self.say(self.item.hint)
