"""Learning by doing: the lessons and puzzles of `dipole_tui.learn`, on the real board.

`LearnMenu` (`learn_menu.py`) lists a game's lessons and puzzles with what is done. A lesson
(`LessonScreen`) gives a position and a task; only the moves that fulfil it are played, any other
is answered with the rules' own reason and the lesson's hint. A puzzle (`PuzzleScreen`) is played
against the solver's longest defence; a wrong move is not played but explained by the analysis
process (what it lets the other side do), and the player tries again or asks for the solution.
The screens take the rules from the core and the words from the data: no rule is decided here.
Every move is played through one guard (`ExerciseScreen.play`), as the game's are through
`Session.play`: a move chosen for a position the exercise has left (the second press of a double
Enter) is dropped, never played.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ..analysis import Analysis
from ..bots.search import plies_to_end
from ..games.base import State
from ..learn import Item, Progress
from ..records import format_record
from ..registry import REGISTRY
from ..workers.protocol import AnalysisRequest
from ..workers.tracker import Connect, Tracker
from .boards import make_board
from .game_board import GameBoard
from .play_area import PlayArea
from .position import Position, position_of
from .side_panel import MoveEntry
from .worker_messages import WorkerAnswered, answers_to

REPLY_DELAY = 0.6  # seconds before the board plays its reply: the player sees their move first
EXPLAIN_SECONDS = 3.0  # the analysis of a wrong move is cut short after this


class ExerciseScreen(Screen[Any]):
    """A lesson or a puzzle: the board beside a panel with its words, a typed-move entry, and the
    message that answers each try. Dismissed with "next" (go on) or None (back to the menu)."""

    CSS_PATH = "css/learn.tcss"
    BINDINGS = [
        Binding("colon", "type", "Type", priority=True),
        Binding("r", "retry", "Again"),
        Binding("n", "next", "Next"),
        Binding("m", "menu", "Menu"),
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
                with VerticalScroll(id="exercise-words"):
                    yield Static(self.item.title, id="exercise-title")
                    text = Static(self.item.text, id="exercise-text")
                    text.display = bool(self.item.text)
                    yield text
                    yield Static(self.task_text(), id="exercise-task")
                    yield Static(id="exercise-message")
                yield self.entry
        yield Footer()

    def on_mount(self) -> None:
        self.show()
        self.board.focus()

    def task_text(self) -> str:
        return self.item.task

    def show(self, last: Any | None = None) -> None:
        """The position as it stands; the board takes moves only on the player's turn."""
        self.board.interactive = not self.done and self.players_turn()
        self.board.show_state(self.state.copy(), last)

    def players_turn(self) -> bool:
        return True

    def say(self, text: str, style: str = "") -> None:
        """The message under the task, scrolled into view: at 80x24 the words above it may
        leave it below the panel's edge (the scroll bar says more is there)."""
        self.message = text
        message = self.query_one("#exercise-message", Static)
        message.update(Text(text, style=style))
        words = self.query_one("#exercise-words", VerticalScroll)
        self.call_after_refresh(words.scroll_to_widget, message, animate=False)

    # -- moves arriving ------------------------------------------------------------------------

    @on(GameBoard.MoveChosen)
    def chosen(self, event: GameBoard.MoveChosen[Any]) -> None:
        event.stop()
        self._chosen(event.move, event.position)

    @on(GameBoard.MoveToConfirm)
    def confirm(self, event: GameBoard.MoveToConfirm[Any]) -> None:
        event.stop()
        self._chosen(event.move, event.position)

    def _chosen(self, move: Any, position: Position) -> None:
        """A move from the board, tried only in the position it was chosen in: keys and clicks
        of one burst are all read before the first move is played."""
        if self.area.here(position, self.state):
            self._try(move)
        else:
            self.board.choose_again()

    @on(Input.Submitted, "#exercise-entry")
    def typed(self, event: Input.Submitted) -> None:
        event.stop()
        text = self.area.text_of(event.value)
        if not text:
            self.area.close_entry()
            return
        if self.done or not self.players_turn():
            self.say("Not now: " + ("it is done; n goes on" if self.done else "wait for the reply"))
            return
        typed = self.area.read(text, self.state)
        if typed.move is None:
            self.tries += 1
            self.say(f"{typed.refusal}\n{self.help_after_a_wrong_try()}", "red")
            self.app.bell()
            return
        self._try(typed.move)

    @on(MoveEntry.Left)
    def left_entry(self) -> None:
        self.area.close_entry()

    def _try(self, move: Any) -> None:
        if self.done or not self.players_turn() or not self.state.is_legal(move):
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
    BINDINGS = [Binding("i", "hint", "Hint")]

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
        self.say(f"{ended}Done: {self.item.summary}\nn: next lesson   r: again   m: menu", "green")

    def help_after_a_wrong_try(self) -> str:
        return self.item.hint

    def action_hint(self) -> None:
        self.say(self.item.hint)


class PuzzleScreen(ExerciseScreen):
    BINDINGS = [Binding("s", "solution", "Solution")]

    def __init__(
        self, item: Item, progress: Progress, ascii_glyphs: bool, analyst: Connect
    ) -> None:
        super().__init__(item, progress, ascii_glyphs)
        self.step = 0  # moves of the line played
        self.player = self.state.to_move
        self.shown_solution = False
        self._tracker = Tracker(answers_to(self), analyst, latest_only=True)
        self._asked: int | None = None  # the analysis request still wanted
        self._wrong = ""  # the wrong move it explains
        self._latest: Analysis | None = None

    def task_text(self) -> str:
        side = self.game.side_names[self.player]
        return (
            f"Play {side}: win in {_plies(self.item.plies)} (passes count) against the best "
            "defence. At each turn one move only wins that fast."
        )

    def players_turn(self) -> bool:
        return self.state.to_move == self.player and self.step < len(self.item.solution)

    def attempt(self, move: Any, text: str) -> None:
        if text == self.item.solution[self.step]:
            self.step += 1
            self.play(text)
            self._go_on()
            return
        self.tries += 1
        self.show()
        self._explain(move, text)

    def _go_on(self) -> None:
        """After the player's move: solved, or the defence's reply after a moment."""
        if self.step == len(self.item.solution):
            self._solved()
            return
        self.board.interactive = False
        self.say("Right. ...", "green")
        self.reply_soon(self._defend)

    def _defend(self) -> None:
        if self.step >= len(self.item.solution):
            return
        text = self.item.solution[self.step]
        self.step += 1
        self.play(text)
        if self.step == len(self.item.solution):
            self._solved()
            return
        side = self.game.side_names[1 - self.player]
        left = len(self.item.solution) - self.step
        self.say(f"{side} defends with {text}. Win in {_plies(left)} more.")
        if self.shown_solution:
            self._mark_next()

    def _solved(self) -> None:
        self.done = True
        self.board.interactive = False
        self.area.close_entry()
        first_try = self.tries == 0 and not self.shown_solution
        self.keep(first_try)
        how = "at the first try" if first_try else "(not at the first try: the streak starts again)"
        streak = f"streak {self.progress.streak}, best {self.progress.best_streak}"
        self.say(f"Solved {how}: {streak}.\nn: next puzzle   r: again   m: menu", "green")

    def _explain(self, move: Any, text: str) -> None:
        """What the wrong move allows: asked of the analysis process, said as it answers."""
        work = self.state.copy()
        work.play(move)
        self.say(f"{text} is not the fastest win. Looking at why...", "red")
        self._wrong, self._latest = text, None
        request = AnalysisRequest(self.item.game, format_record(self.game, work))
        self._asked = self._tracker.ask(request)
        asked = self._asked
        self.set_timer(EXPLAIN_SECONDS, lambda: self._cut_short(asked))

    @on(WorkerAnswered)
    def _take(self, event: WorkerAnswered) -> None:
        """An update of the analysis process, on the screen's own thread."""
        reply, analysis = event.reply, event.reply.answer
        if event.tracker is not self._tracker or not self._tracker.take(reply):
            return
        if reply.number != self._asked or not (analysis is None or isinstance(analysis, Analysis)):
            return
        if analysis is not None:
            self._latest = analysis
            if not analysis.proved:
                return
        self._asked = None
        self._say_why()

    def _cut_short(self, asked: int) -> None:
        """The explanation asked as `asked` has had its time (a later one keeps its own)."""
        if self._asked == asked:
            self._tracker.cancel()
            self._asked = None
            self._say_why()

    def _say_why(self) -> None:
        found, text = self._latest, self._wrong
        defender = self.game.side_names[1 - self.player]
        if found is None:
            why = f"{text} does not win in time."
        else:
            plies = plies_to_end(found.score)
            line = " ".join(found.line[:6])
            if plies is not None and found.score < 0:  # the defender, to move, loses
                need = len(self.item.solution) - self.step
                why = f"{text} still wins, but in {_plies(plies + 1)}, not {need}: {line}"
            elif plies is not None:
                why = f"{text} loses: {defender} wins in {_plies(plies)}: {line}"
            else:
                why = f"{text} lets {defender} survive: {line}"
        self.say(f"{why}\nTry again, or s for the solution.", "red")

    def drop_explanation(self) -> None:
        """A wrong move's explanation still being worked out would be said over what follows
        (the right move played, the puzzle begun again): it is stopped and dropped."""
        if self._asked is not None:
            self._tracker.cancel()
        self._asked = None

    def _mark_next(self) -> None:
        if self.players_turn():
            self.board.show_hint(self.game.parse_move(self.item.solution[self.step], self.state))

    def restart(self) -> None:
        super().restart()
        self.step = 0

    def action_solution(self) -> None:
        self.shown_solution = True
        line = " ".join(self.item.solution)
        self.say(f"The solution: {line}\nThe next move is marked on the board.")
        self._mark_next()

    def on_unmount(self) -> None:
        self._tracker.close()


def _plies(count: int) -> str:
    return f"{count} ply" if count == 1 else f"{count} plies"
