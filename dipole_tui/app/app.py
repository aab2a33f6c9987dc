"""The Textual app: a board, a side panel with the game's story, and the dialogs around them.

The app holds a `Session` (the game, its history and players) and an `Autosave`; every change to
the game goes through `_after_change`, which redraws, autosaves and notices the end of the game.
The side panel (`side_panel.py`) words what the app shows it; the bots' controller
(`bot_controller.py`) decides when a bot is asked and which answer still counts, and the analysis
mode (`analysis_mode.py`) which analysis is still wanted. The app wires
them to the screen, and once it is closing it takes nothing more from either.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec

from textual import events, on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.containers import Horizontal
from textual.events import Resize
from textual.geometry import Size
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.theme import ThemeProvider
from textual.widgets import Input, Static

from ..adaptive import ADAPTIVE, AdaptiveLevels
from ..bots.analyst import Analyst
from ..bots.orphans import END_SIGNALS
from ..bots.process import Thinker
from ..bots.reviewer import Reviewer
from ..engine import first_side_share
from ..games.base import GameError, IllegalMoveError, shown, title
from ..learn import Progress
from ..records import RecordError, load_record
from ..registry import REGISTRY
from ..session import HUMAN, Autosave, Session, game_named
from .analysis_mode import AnalysisMode, AnalystLike, UpdateHandler
from .ascii import AsciiScrollBarRender, glyph_map
from .boards import board_class, make_board, playable
from .bot_controller import HINT_BOT, Answer, AnswerHandler, BotController, ThinkerLike
from .choice import GameChoice, LearnChoice
from .eval_bar import EvalBar
from .footer import GameFooter
from .game_board import GameBoard
from .learning import LearnMenu
from .position import Position, position_of
from .review import ReviewScreen, SourceFactory
from .screens import ChoiceScreen, CoveringScreen, FileScreen, HelpScreen, NewGameScreen, OpenScreen
from .side_panel import SIDE_PANEL_WIDTH, MoveEntry, SidePanel
from .wrapping import wrap


class BotAnswered(Message):
    """An answer from the bots' process, handed to the app's thread through its queue."""

    def __init__(self, take: Callable[[], None]) -> None:
        super().__init__()
        self.take = take


P = ParamSpec("P")


def while_running(
    handler: Callable[Concatenate[GameApp, P], None],
) -> Callable[Concatenate[GameApp, P], None]:
    """For what reaches the app from the screen or the bots: dropped once the app is closing,
    when the screen it would change is being taken down (what was still queued then)."""

    @functools.wraps(handler)
    def run(app: GameApp, /, *args: P.args, **kwargs: P.kwargs) -> None:
        if app.is_running:
            handler(app, *args, **kwargs)

    return run


def new_session(choice: GameChoice) -> Session[Any]:
    return Session.new(game_named(choice.game_key), choice.variant, choice.players)


class GameApp(App[None]):
    """Any game with a board (`boards.playable`) at one terminal: two players, one against a
    bot, or bots to watch."""

    CSS_PATH = "app.tcss"
    TITLE = "dipole-tui"
    BINDINGS = [
        # In the footer's order: at 80 columns it shows up to Review, the rest are in the help.
        Binding("u", "undo", "Undo"),
        Binding("U,ctrl+r", "redo", "Redo", show=False),
        Binding("f", "flip", "Flip", show=False),
        Binding("i", "hint", "Hint"),
        Binding("a,A", "analyse", "Analyse"),  # A: Bi-Pod's board takes a (adopt)
        Binding("t", "threats", "Threats"),
        Binding("r", "review", "Review"),
        Binding("p", "pause", "Pause", show=False),
        Binding("full_stop", "step", "Step", show=False),
        # A priority binding runs in the app's own queue, so the keys typed right after it
        # already go to the entry instead of racing to the board.
        Binding("colon", "type_move", "Type", priority=True),
        Binding("s", "save", "Save"),
        Binding("o", "load", "Open"),
        Binding("n", "new_game", "New"),
        # Help and Quit are pinned to the footer's right end (footer.py), so never cut off.
        Binding("question_mark,f1", "help", "Help", show=False),
        Binding("q", "quit", "Quit", show=False),
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        *,
        choice: GameChoice | None = None,
        session: Session[Any] | None = None,
        new: bool = False,
        ascii_glyphs: bool = False,
        autosave: Autosave | None = None,
        think_time: float = 1.0,
        thinker: Callable[[AnswerHandler], ThinkerLike] | None = None,
        reviewer: SourceFactory | None = None,
        analyst: Callable[[UpdateHandler], AnalystLike] | None = None,
        learn: str | None = None,
    ) -> None:
        """`thinker` makes the bots' process, `reviewer` the review's and `analyst` the
        analysis's (a test gives stand-ins)."""
        super().__init__()
        if self.no_color:
            # Textual greys every colour under NO_COLOR, and the ANSI themes' colours all turn
            # black: black text on black. They are not offered then.
            for theme in ("ansi-dark", "ansi-light"):
                self.unregister_theme(theme)
        if choice is None:  # the command line always says; else the registry's first game
            first = game_named(playable()[0])
            choice = GameChoice(first.key, first.variants[0], (HUMAN, HUMAN))
        self.choice = choice
        self.start_new = new or session is not None
        self.ascii_glyphs = ascii_glyphs
        self.set_class(ascii_glyphs, "-ascii")  # app.tcss: every border in ASCII
        self.autosave = autosave or Autosave()
        # Where the bots' process writes what went wrong when a bot fails.
        self.error_log = self.autosave.folder / "bot-errors.log"
        thinker = thinker or functools.partial(Thinker, error_log=self.error_log)
        self.adaptive = AdaptiveLevels(self.autosave.folder)  # the adaptive seat's levels
        self._adapted = False  # the adaptive seat has followed this game's result
        self.bots = BotController(
            think_time, self._bots_answered, self._hand_over, thinker, self._level_of
        )
        self.reviewer = reviewer or functools.partial(Reviewer, error_log=self.error_log)
        self.analyst = analyst or functools.partial(Analyst, error_log=self.error_log)
        self.analysis = AnalysisMode(self._show_analysis, self._hand_over, self.analyst)
        self.learn = learn  # open the lessons first: of this game, or of every game ("")
        self._filed = False  # the finished game is in finished/ already
        self.threats_on = False  # the threat overlay (t)
        self.session = session or new_session(self.choice)
        if session is not None:
            self.choice = GameChoice(session.game.key, session.state.variant, session.players)
        self.board = self._new_board()
        self.panel = SidePanel(self.bots, self.analysis)
        self.eval_bar = EvalBar(ascii_glyphs)
        self.too_small = Static(id="too-small")
        self.footer = GameFooter()

    def _new_board(self) -> GameBoard[Any, Any]:
        return make_board(self.session.game.key, self.session.state, self.ascii_glyphs)

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield self.board
            yield self.eval_bar
            yield self.panel
        yield self.too_small
        yield self.footer

    def on_mount(self) -> None:
        self._end_on_signals()
        if self.ascii_glyphs:
            ScrollBar.renderer = AsciiScrollBarRender  # Textual's way: class-wide, till unmount
        self.board.focus()
        self._show()
        for notice in self.autosave.claim():  # this app's own game-in-progress file
            self.notify(notice, title="Autosave", timeout=12, markup=False)
        if self.learn is not None:
            self._learn_first()
            return
        if self.start_new:
            self._shelve_autosave()
            self._write_autosave()
            self._bot_turn()
            return
        try:
            saved = self.autosave.load()
        except (RecordError, OSError) as error:  # damaged (set aside), or a finished one not filed
            self._autosave_failed(str(error))
            saved = None
        if saved is None or not saved.state.moves_played:
            # A game with no moves is not worth a question: the next game's autosave replaces it.
            self._choose_new_game(starting=True)
            return
        self._show_behind(saved)
        moves = saved.state.plies
        plies = "1 ply" if moves == 1 else f"{moves} plies"
        text = f"{title(saved.game, saved.state.variant)}, {plies} played."
        answers = [("Resume", "resume"), ("New game", "new")]

        def answered(answer: str | None) -> None:
            if answer == "resume":
                self._start(saved)
            else:  # the game chosen next shelves this one; none chosen, this one goes on
                self._choose_new_game(starting=True)

        question = ChoiceScreen("Resume the game in progress?", text, answers, escape="resume")
        self.push_screen(question, answered)

    def _learn_first(self) -> None:
        """`dipole-tui learn`: the lessons over the game in progress, resumed without a word."""
        try:
            saved = self.autosave.load()
        except (RecordError, OSError) as error:
            self._autosave_failed(str(error))
            saved = None
        self._start(saved if saved is not None and saved.state.moves_played else self.session)
        self.action_learn(self.learn or None)

    def action_learn(self, game: str | None = None) -> None:
        """The lessons and puzzles of a game (None: of every game)."""
        progress = Progress(self.autosave.folder)
        self.push_screen(LearnMenu(game, progress, self.analyst, self.ascii_glyphs))

    def _end_on_signals(self) -> None:
        """SIGTERM and SIGHUP end the app as `q` does, so that Textual gives the terminal back
        as it found it (Python's default death leaves it in the alternate screen, the cursor
        hidden); the autosave, written after every move, keeps the game for the next start."""
        loop = asyncio.get_running_loop()
        for signum in END_SIGNALS:
            # NotImplementedError: no such handlers on Windows; RuntimeError: not the main thread
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, self.exit)

    def _show_behind(self, saved: Session[Any]) -> None:
        """The saved game on screen behind the question, still: no bot moves, nothing written."""
        self.session = saved
        self.choice = GameChoice(saved.game.key, saved.state.variant, saved.players)
        if type(self.board) is not board_class(saved.game.key):
            self._swap_board()
        self._show()
        self.call_after_refresh(self._show)  # once laid out, the move list shows its last moves

    def on_resize(self, event: Resize) -> None:
        self.panel.fit_to(event.size.width)
        self.footer.compact = event.size.width < 120  # more keys in view
        self._check_fits(event.size)

    def _minimum_terminal(self) -> tuple[int, int]:
        board = self.board.minimum_size()
        bar = EvalBar.WIDTH if self.analysis.on else 0
        return board.width + bar + SIDE_PANEL_WIDTH, board.height + 1  # + the footer

    def _check_fits(self, terminal: Size | None = None) -> None:
        """Hide the game behind a plain request to enlarge the terminal when the board won't fit
        (the game waits untouched and comes back on the next resize)."""
        terminal = terminal or self.size
        width, height = self._minimum_terminal()
        small = terminal.width < width or terminal.height < height
        self.default_screen.set_class(small, "too-small")
        if small:
            self.too_small.update(
                f"The terminal is too small for this board.\n"
                f"Enlarge it to at least {width}x{height} (it is "
                f"{terminal.width}x{terminal.height}).\nThe game waits where it is."
            )

    # -- showing the game ------------------------------------------------------------------

    def _show(self, message: str = "") -> None:
        session = self.session
        state = session.state
        # The board takes moves only from a human seat; a bot's seat plays itself. (Set first:
        # the board puts the cursor on a person's stacks when the turn passes to them.)
        seat = session.players[state.to_move]
        self.board.interactive = session.outcome is None and seat == HUMAN
        self.board.show_state(state, session.last_move)
        self._show_threats()
        self.panel.show(session, (self.board.side_glyph(0), self.board.side_glyph(1)), message)
        self._show_bar()
        self._check_fits()

    def _show_analysis(self) -> None:
        """The analysis found more, or was turned on or off."""
        self.panel.show_analysis()
        self._show_bar()

    def _show_bar(self) -> None:
        """The evaluation bar: the latest score's share, the winner's whole bar once the game is
        over; the last share kept while the new position's first depth is awaited."""
        self.eval_bar.display = self.analysis.on
        session = self.session
        share: float | None = None
        if session.outcome is not None:
            winner = session.outcome.winner
            share = 0.5 if winner is None else float(winner == 0)
        elif (found := self.analysis.latest) is not None:
            unit = REGISTRY[session.game.key].unit
            share = first_side_share(found.score, session.state.to_move, unit)
        self.eval_bar.show(share, self.board.flipped)

    # -- changing the game -----------------------------------------------------------------

    def _after_change(self, message: str = "") -> None:
        """Every change of the game ends here: redraw, keep the game safe, let a bot move.

        The autosave holds the whole game, undone moves included, so a review never loses
        them; a finished game is filed under finished/ once and no longer offered to resume."""
        self.analysis.follow(self.session)
        self._show(message)
        whole = self.session.whole_game()
        if whole.outcome is None:
            self._filed = False
            self._write_autosave()
        elif not self._filed:
            self._filed = True
            try:
                filed: Path | None = self.autosave.finish(whole)
            except (OSError, GameError):  # kept pending, and tried again: the panel says so
                filed = None
            self._adapt(whole)
            if self.session.outcome is not None:
                self._game_over(filed)
        else:
            self._retry_filing()
        self.panel.show_unkept(self.autosave.problem)
        if self.session.outcome is None:
            self._bot_turn()

    def _level_of(self, seat: str, game_key: str) -> str:
        return self.adaptive.level(game_key) if seat == ADAPTIVE else seat

    def _adapt(self, whole: Session[Any]) -> None:
        """A game between a person and the adaptive bot is over: the bot's next level, once."""
        players, outcome = whole.players, whole.outcome
        if self._adapted or outcome is None or sorted(players) != sorted((HUMAN, ADAPTIVE)):
            return
        self._adapted = True
        key = whole.game.key
        before = self.adaptive.level(key)
        won = None if outcome.winner is None else outcome.winner == players.index(HUMAN)
        try:
            after = self.adaptive.after(key, won)
        except OSError as error:
            self.notify(f"could not keep the adaptive level: {error.strerror or error}")
            return
        if after == before:
            said = f"The adaptive bot stays at {after}."
        else:
            said = f"The adaptive bot moves {'up' if won else 'down'} to {after} for the next game."
        self.notify(said, title="Adaptive", timeout=10)

    def _shelve_autosave(self) -> None:
        try:
            kept = self.autosave.shelve()
        except RecordError as error:  # damaged: set aside, and nothing to file
            self._autosave_failed(str(error))
            return
        except OSError as error:
            self.notify(f"could not keep the old game: {error.strerror}", severity="error")
            return
        if kept is not None:
            self.notify(f"The unfinished game is kept as {kept}", timeout=8)

    def _autosave_failed(self, message: str) -> None:
        """A damaged autosave, said as it is: its text may hold brackets, never markup."""
        self.notify(message, title="Autosave", severity="error", timeout=12, markup=False)

    def _write_autosave(self) -> None:
        """The panel says when this fails, until it succeeds (see `_after_change`)."""
        with contextlib.suppress(OSError, GameError):
            self.autosave.write(self.session.whole_game())

    def _retry_filing(self) -> None:
        """A finished game that could not be filed, tried again (it is in the autosave)."""
        with contextlib.suppress(OSError, GameError):
            if (filed := self.autosave.retry()) is not None:
                self.notify(f"The finished game is kept now, as {filed}", timeout=8)

    def _game_over(self, filed: Path | None) -> None:
        outcome = self.session.outcome
        if outcome is None:
            return
        if outcome.winner is None:
            headline = "The game is drawn"
        else:
            headline = f"{self.session.game.side_names[outcome.winner]} wins"
        text = f"{outcome.reason}."
        if filed is not None:
            text += f"\nThe game is saved as {filed}."
        text += "\nReview judges every move; Escape goes back to the board."
        answers = [("New game", "new"), ("Review", "review"), ("Quit", "quit")]

        def answered(answer: str | None) -> None:
            if answer == "new":
                self.action_new_game()
            elif answer == "quit":
                self.exit()
            elif answer == "review":
                self.action_review()
            else:
                self.call_after_refresh(self._close_entry)  # Escape: look at the board

        self.push_screen(ChoiceScreen(headline, text, answers, escape="board"), answered)

    def _start(self, session: Session[Any]) -> None:
        replaced = self.session.whole_game()
        if session is not self.session and replaced.outcome is None and replaced.state.moves_played:
            self._shelve_autosave()  # the game being replaced is kept, not overwritten
        self.bots.cancel()
        self.bots.paused = False
        self._filed = session.whole_game().outcome is not None  # loaded finished: filed already
        self._adapted = self._filed
        self.session = session
        self.choice = GameChoice(session.game.key, session.state.variant, session.players)
        if type(self.board) is not board_class(session.game.key):
            self._swap_board()
        last = session.last_move
        forced = last is not None and session.is_pass(last)
        self._after_change(self._pass_notice() if forced else "")

    def _swap_board(self) -> None:
        """Another game: its own board takes the old one's place."""
        old, self.board = self.board, self._new_board()
        self.query_one("#main").mount(self.board, before=old)
        old.remove()
        self.call_after_refresh(self.board.focus)

    def _pass_notice(self) -> str:
        """Said after the program passes for a side with no legal move."""
        side = self.session.game.side_names[1 - self.session.state.to_move]
        return f"{side} has no legal move and passes."

    def _still_here(self, position: Position) -> bool:
        """The game is still where a move was chosen: a board's choice that arrives after the
        game moved on (the second press of a double Enter, the second click of a double click,
        both queued before the first was played) is dropped, never played for the other side."""
        return self.board.interactive and position == position_of(self.session.state)

    @on(GameBoard.MoveChosen)
    @while_running
    def move_chosen(self, event: GameBoard.MoveChosen[Any]) -> None:
        if self._still_here(event.position):
            self._play(event.move)

    @on(GameBoard.MoveToConfirm)
    @while_running
    def move_to_confirm(self, event: GameBoard.MoveToConfirm[Any]) -> None:
        if not self._still_here(event.position):
            return
        answers = [("Keep playing", "no"), (event.confirm, "yes")]

        def answered(answer: str | None) -> None:
            if answer == "yes" and self._still_here(event.position):
                self._play(event.move)
            else:
                self.board.choose_again()

        self.push_screen(ChoiceScreen(event.question, event.text, answers, escape="no"), answered)

    def _play(self, move: object) -> None:
        """Play a move from anywhere (the board, the entry, a bot): `Session.play` is the last
        guard, and a move it refuses (chosen for a position gone) changes nothing and is said."""
        session = self.session
        mover = session.game.side_names[session.state.to_move]
        try:
            passes = session.play(move)
        except IllegalMoveError as error:
            self.board.choose_again()
            self.panel.say(f"Not played: {error}", "bold red", transient=True)
            self.bell()
            return
        self.bots.drop_hint()
        message = f"{mover} played {session.game.format_move(move)}."
        if passes:
            message += " " + self._pass_notice()
        self._after_change(message)

    # -- actions ---------------------------------------------------------------------------

    def action_undo(self) -> None:
        """Take back a move; against a bot, back to the human's previous turn."""
        session = self.session
        if not session.can_undo():
            self.bell()
            self.panel.say("Nothing to undo.", transient=True)
            return
        self.bots.cancel()
        session.undo_to_human()
        if not session.human_sides():
            self.bots.paused = True  # stepping back through a bots' game: watch on with p or .
        self._after_change("Move taken back (U or ctrl+r replays it).")

    def action_redo(self) -> None:
        if not self.session.redo_moves:
            self.bell()
            self.panel.say("Nothing to redo.", transient=True)
            return
        self.bots.cancel()
        self.session.redo_to_human()
        self._after_change()

    # -- bots ------------------------------------------------------------------------------

    def _hand_over(self, take: Callable[[], None]) -> None:
        """On the bots' reading thread: the answer joins the app's queue (posting is safe from
        any thread) and is taken on the app's thread."""
        with contextlib.suppress(RuntimeError):  # the app has stopped: nobody waits for it
            self.post_message(BotAnswered(take))

    @on(BotAnswered)
    @while_running
    def bot_answered(self, event: BotAnswered) -> None:
        event.take()

    def _bots_answered(self, answer: Answer) -> None:
        """An answer the game still waits for (about the position on the board: the controller
        drops the others): the bot's move is played, a hint marked."""
        session = self.session
        if answer.text is None:  # the search failed
            who = "the hint" if answer.hint else "the bot"
            self._show(f"Sorry: {who} found no move here; what went wrong is in {self.error_log}")
            return
        try:
            move: object | None = session.game.parse_move(answer.text, session.state)
        except GameError:  # the game moved on after all
            move = None
        if answer.hint:
            self.board.show_hint(move)  # not a move here after all: the words alone
            said = f"Hint: {HINT_BOT} would play {answer.text}."
            if len(answer.line) > 1:
                said += f" Best line: {' '.join(answer.line)}."
            self.panel.say(said)
        elif move is None:
            self._bot_turn()  # ask again
        else:
            self._play(move)

    def _bot_turn(self, step: bool = False) -> None:
        """If a bot is to move, let it think in its own process; the screen stays live."""
        self.bots.take_turn(self.session, step)
        self.panel.show_turn()

    async def on_event(self, event: events.Event) -> None:
        """A key or click on the board is the player moving on: a transient message is done.
        Keys and clicks still queued when the app closes are dropped: the screen they were for
        is being taken down."""
        if isinstance(event, events.InputEvent) and not self.is_running:
            return
        if (
            isinstance(event, events.Key | events.MouseDown)
            and self.panel.transient
            and self.screen is self.screen_stack[0]
            and self.focused is self.board
        ):
            self.panel.say_lasting()
        await super().on_event(event)

    def action_pause(self) -> None:
        """Bot against bot: stop watching between moves, or go on."""
        if self.bots.paused:
            self.bots.paused = False
            self._bot_turn()
        else:
            self.bots.pause()
            self.panel.show_turn()

    def action_step(self) -> None:
        """While paused: let the bot to move play one move."""
        self._bot_turn(step=True)

    def action_hint(self) -> None:
        """Ask `hard` what it would play here, without playing it."""
        if not self.bots.hint(self.session):
            self.bell()
            return
        self.panel.say("Thinking of a hint...")

    def action_analyse(self) -> None:
        """Analysis on or off: the bar, the score in words and the best line, live."""
        self.analysis.toggle(self.session)
        self._show_analysis()
        self._check_fits()

    def action_threats(self) -> None:
        """The threat overlay on or off; while on, it follows every change of the game."""
        self.threats_on = not self.threats_on
        self._show_threats()

    def _show_threats(self) -> None:
        session = self.session
        threats = session.game.threats(session.state) if self.threats_on else None
        self.board.show_threats(threats)

    def action_flip(self) -> None:
        self.board.flip()
        self._show_bar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """':' types a move only on the game screen; in a dialog it is just a character. A
        review or a lesson leaves the game behind it alone: only quitting, help and the palette
        reach it. Undo and redo wait for no move: typed in the burst right after a confirm, they
        reach the app before the move chosen does (it comes up from the board after them), and
        would take back the move before it; they are dropped while the board awaits its move."""
        if action == "type_move":
            return self.screen is self.screen_stack[0]
        if action in ("undo", "redo") and self.board.awaiting:
            return False
        if isinstance(self.screen, CoveringScreen):
            return action in ("quit", "help", "command_palette")
        return True

    def action_type_move(self) -> None:
        """The entry is always on screen, so keys typed right after ':' all reach it."""
        entry = self.panel.entry
        entry.placeholder = ""
        self.screen.set_focus(entry)  # at once, not later: keys typed fast follow the ':'
        if not self.panel.transient:  # a refusal being corrected stays up
            self.panel.say(
                f"Type a move: {self.session.game.move_examples}.", "dim", transient=True
            )

    @on(Input.Submitted, "#move-input")
    @while_running
    def typed_move(self, event: Input.Submitted) -> None:
        """Play a typed move; the entry keeps the focus for the next one (Escape leaves)."""
        text = event.value.strip().lstrip(":").strip()
        if not text:
            self._close_entry()
            return
        if not self.board.interactive:
            side = self.session.game.side_names[self.session.state.to_move]
            waiting = "the game is over" if self.session.outcome else f"it is {side}'s bot's turn"
            self.panel.say(f"{shown(text)}: {waiting}", "bold red", transient=True)
            self.bell()
            return
        try:
            move = self.session.game.parse_move(text, self.session.state)
        except GameError as error:
            reason = str(error)  # the typed text first, unless the reason starts with it
            said = reason if reason.startswith(shown(text)) else f"{shown(text)}: {reason}"
            self.panel.say(said, "bold red", transient=True)
            self.panel.entry.give_back(text)
            self.bell()
            return
        self._play(move)

    def _close_entry(self) -> None:
        entry = self.panel.entry
        entry.placeholder = MoveEntry.PLACEHOLDER
        entry.value = ""
        self.screen.set_focus(self.board)

    @on(MoveEntry.Left, "#move-input")  # the game's own entry, not a lesson's
    @while_running
    def entry_left(self) -> None:
        self._close_entry()

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A notice wrapped to the toast's width here, so that a path breaks after a `/`
        rather than mid-word (Textual's toast is 60 columns, at most half the screen)."""
        width = min(60, self.size.width // 2) - 3  # its left border and padding
        text = "\n".join(wrap(message, width))
        super().notify(text, title=title, severity=severity, timeout=timeout, markup=markup)

    async def action_quit(self) -> None:
        """Quit; when the game could not be kept on disk, try again, then ask before losing it."""
        if self.autosave.problem:
            if self.autosave.pending is not None:
                self._retry_filing()
            else:
                self._write_autosave()
        if not self.autosave.problem:
            self.exit()
            return
        answers = [("Stay", "stay"), ("Quit and lose it", "quit")]
        question = f"The game is not kept on disk: {self.autosave.problem}."
        text = "Quitting now loses what is not kept. Mend the cause (free some space?), then quit."

        def answered(answer: str | None) -> None:
            if answer == "quit":
                self.exit()
            else:
                self.panel.show_unkept(self.autosave.problem)

        self.push_screen(ChoiceScreen(question, text, answers, escape="stay"), answered)

    def on_unmount(self) -> None:
        ScrollBar.renderer = ScrollBarRender
        self.autosave.release()
        self.bots.close()
        self.analysis.close()

    def action_new_game(self) -> None:
        self._choose_new_game(starting=False)

    def _choose_new_game(self, starting: bool) -> None:
        """The new-game dialog; cancelled at start-up, the game on screen simply begins."""

        def chosen(choice: GameChoice | LearnChoice | None) -> None:
            if isinstance(choice, GameChoice):
                self._start(new_session(choice))
            elif starting:
                self._start(self.session)
            if isinstance(choice, LearnChoice):
                self.action_learn(choice.game_key)

        self.push_screen(NewGameScreen(self.choice), chosen)

    def action_save(self) -> None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        default = str(Path.cwd() / f"{self.session.game.key}-{stamp}.txt")

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                self.session.whole_game().save(path)
            except (OSError, ValueError) as error:
                reason = getattr(error, "strerror", None) or error
                self.notify(f"could not save {path}: {reason}", severity="error")
                return
            self.notify(f"Saved to {path}")

        self.push_screen(FileScreen("Save the game as", default), chosen)

    def action_load(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                session = Session.from_record(load_record(path))
            except GameError as error:
                self.notify(str(error), title="Load", severity="error", timeout=10)
                return
            if session.game.key not in playable():
                message = f"{session.game.name} is not playable here yet: try dipole-tui replay"
                self.notify(message, title="Load", severity="error", timeout=10)
                return
            self._start(session)
            self.notify(f"Loaded {path}")

        folder = self.autosave.folder
        games = self.autosave.saved_games()
        default = str(Path.cwd()) + "/"
        self.push_screen(OpenScreen(games, folder, default, self.ascii_glyphs), chosen)

    def action_review(self) -> None:
        """Review the whole game, undone moves too, on a screen of its own."""
        whole = self.session.whole_game()
        if not whole.state.moves_played:
            self.notify("Nothing to review yet: no move has been played")
            return
        self.push_screen(ReviewScreen(whole.record_text(), self.reviewer, self.ascii_glyphs))

    def action_help(self) -> None:
        glyphs = glyph_map(*self.board.GLYPH_TABLES) if self.ascii_glyphs else None
        self.push_screen(HelpScreen(self.session.game.key, glyphs))

    def get_key_display(self, binding: Binding) -> str:
        """Under --ascii, a key Textual shows as a symbol (Enter as ⏎, arrows) goes by its name."""
        display = super().get_key_display(binding)
        if self.ascii_glyphs and not display.isascii():
            modifiers, key = binding.parse_key()
            return "+".join([*modifiers, key])
        return display

    # Textual's palettes as Textual opens them; under --ascii their placeholders end in '...'.

    def action_command_palette(self) -> None:
        if not self.ascii_glyphs:
            super().action_command_palette()
        elif self.use_command_palette and not isinstance(self.screen, CommandPalette):
            palette = CommandPalette(id="--command-palette", placeholder="Search for commands...")
            self.push_screen(palette)

    def search_themes(self) -> None:
        if not self.ascii_glyphs:
            super().search_themes()
        else:
            palette = CommandPalette([ThemeProvider], placeholder="Search for themes...")
            self.push_screen(palette)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Choose a board and players", self.action_new_game)
        yield SystemCommand(
            "Learn",
            "Lessons for every rule of this game, and puzzles",
            lambda: self.action_learn(self.session.game.key),
        )
        yield SystemCommand(
            "Analysis",
            "Turn the analysis on or off: the evaluation bar and the best line",
            self.action_analyse,
        )
        yield SystemCommand("Flip the board", "See the board from the other side", self.action_flip)
        yield SystemCommand(
            "Threats", "Mark what each side can take next move", self.action_threats
        )
        yield SystemCommand("Undo", "Take back the last move", self.action_undo)
        yield SystemCommand("Redo", "Replay a move taken back", self.action_redo)
        yield SystemCommand("Save game", "Write the game to a record file", self.action_save)
        yield SystemCommand("Load game", "Read a game from a record file", self.action_load)
        yield SystemCommand("Help", "The rules and the keys", self.action_help)
