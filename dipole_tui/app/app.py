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
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.theme import ThemeProvider
from textual.widgets import Input, Static

from ..engine import first_side_share
from ..games.base import GameError, IllegalMoveError, shown
from ..learn import Progress
from ..orphans import END_SIGNALS
from ..registry import REGISTRY
from ..saves import Autosave
from ..session import HUMAN, Session, game_named
from ..workers.process import process
from ..workers.tracker import Connect, Tracker
from .analysis_mode import AnalysisMode
from .ascii import AsciiScrollBarRender, glyph_map
from .boards import board_class, make_board, playable
from .bot_controller import HINT_BOT, Answer, BotController
from .choice import GameChoice, LearnChoice
from .eval_bar import EvalBar
from .footer import GameFooter
from .game_board import GameBoard
from .keeper import Change, GameOver, Keeper, Notice, new_session
from .learning import LearnMenu
from .position import Position, position_of
from .review import ReviewScreen
from .screens import ChoiceScreen, CoveringScreen, FileScreen, HelpScreen, NewGameScreen, OpenScreen
from .side_panel import SIDE_PANEL_WIDTH, MoveEntry, SidePanel
from .worker_messages import WorkerAnswered, answers_to
from .wrapping import wrap

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
        thinker: Connect | None = None,
        reviewer: Connect | None = None,
        analyst: Connect | None = None,
        learn: str | None = None,
    ) -> None:
        """`thinker` connects to the bots' process, `reviewer` to the review's and `analyst` to
        the analysis's (a test gives stand-ins)."""
        super().__init__()
        if self.no_color:
            # Textual greys every colour under NO_COLOR, and the ANSI themes' colours all turn
            # black: black text on black. They are not offered then.
            for theme in ("ansi-dark", "ansi-light"):
                self.unregister_theme(theme)
        if choice is None:  # the command line always says; else the registry's first game
            first = game_named(playable()[0])
            choice = GameChoice(first.key, first.variants[0], (HUMAN, HUMAN))
        self.keeper = Keeper(session or new_session(choice), autosave or Autosave())
        self.start_new = new or session is not None
        self.ascii_glyphs = ascii_glyphs
        self.set_class(ascii_glyphs, "-ascii")  # app.tcss: every border in ASCII
        self.error_log = self.keeper.error_log
        bots = Tracker(answers_to(self), thinker or process("bot", self.error_log))
        self.bots = BotController(think_time, self._bots_answered, bots, self.keeper.level_of)
        self.reviewer = reviewer or process("reviewer", self.error_log)
        self.analyst = analyst or process("analyst", self.error_log)
        analysis = Tracker(answers_to(self), self.analyst, latest_only=True)
        self.analysis = AnalysisMode(self._show_analysis, analysis)
        self.learn = learn  # open the lessons first: of this game, or of every game ("")
        self.threats_on = False  # the threat overlay (t)
        self.board = self._new_board(self.session)
        self.panel = SidePanel(self.bots, self.analysis)
        self.eval_bar = EvalBar(ascii_glyphs)
        self.too_small = Static(id="too-small")
        self.footer = GameFooter()

    @property
    def session(self) -> Session[Any]:
        return self.keeper.session

    @property
    def autosave(self) -> Autosave:
        return self.keeper.autosave

    @property
    def choice(self) -> GameChoice:
        return self.keeper.choice

    def _new_board(self, session: Session[Any]) -> GameBoard[Any, Any]:
        return make_board(session.game.key, session.state, self.ascii_glyphs)

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
        self._tell(self.keeper.claim())  # this app's own game-in-progress file
        if self.learn is not None:
            self._learn_first()
            return
        if self.start_new:
            self._tell(self.keeper.begin_new())
            self._bot_turn()
            return
        resume, notices = self.keeper.resume_question()
        self._tell(notices)
        if resume is None:
            self._choose_new_game(starting=True)
            return
        saved = resume.saved
        self._show_behind(saved)
        answers = [("Resume", "resume"), ("New game", "new")]

        def answered(answer: str | None) -> None:
            if answer == "resume":
                self._start(saved)
            else:  # the game chosen next shelves this one; none chosen, this one goes on
                self._choose_new_game(starting=True)

        title = "Resume the game in progress?"
        self.push_screen(ChoiceScreen(title, resume.text, answers, escape="resume"), answered)

    def _learn_first(self) -> None:
        """`dipole-tui learn`: the lessons over the game in progress, resumed without a word."""
        saved, notices = self.keeper.saved_game()
        self._tell(notices)
        self._start(saved or self.session)
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
        self.keeper.session = saved
        if type(self.board) is not board_class(saved.game.key):
            self._swap_board(saved)
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

    def _after_change(self, change: Change) -> None:
        """Every change of the game ends here (the keeper has kept it): redraw, tell, let a bot
        move."""
        self.analysis.follow(self.session)
        self._show(change.message)
        self._tell(change.notices)
        if change.game_over is not None:
            self._game_over(change.game_over)
        self.panel.show_unkept(self.keeper.unkept)
        if self.session.outcome is None:
            self._bot_turn()

    def _tell(self, notices: list[Notice]) -> None:
        for notice in notices:
            self.notify(
                notice.text,
                title=notice.title,
                severity=notice.severity,
                timeout=notice.timeout,
                markup=False,
            )

    def _game_over(self, over: GameOver) -> None:
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

        self.push_screen(ChoiceScreen(over.headline, over.text, answers, escape="board"), answered)

    def _start(self, session: Session[Any]) -> None:
        self.bots.cancel()
        self.bots.paused = False
        if type(self.board) is not board_class(session.game.key):
            self._swap_board(session)
        self._after_change(self.keeper.start(session))

    def _swap_board(self, session: Session[Any]) -> None:
        """Another game: its own board takes the old one's place."""
        old, self.board = self.board, self._new_board(session)
        self.query_one("#main").mount(self.board, before=old)
        old.remove()
        self.call_after_refresh(self.board.focus)

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
        try:
            change = self.keeper.play(move)
        except IllegalMoveError as error:
            self.board.choose_again()
            self.panel.say(f"Not played: {error}", "bold red", transient=True)
            self.bell()
            return
        self.bots.drop_hint()
        self._after_change(change)

    # -- actions ---------------------------------------------------------------------------

    def action_undo(self) -> None:
        """Take back a move; against a bot, back to the human's previous turn."""
        if not self.session.can_undo():
            self.bell()
            self.panel.say("Nothing to undo.", transient=True)
            return
        self.bots.cancel()
        if not self.session.human_sides():
            self.bots.paused = True  # stepping back through a bots' game: watch on with p or .
        self._after_change(self.keeper.undo() or Change())

    def action_redo(self) -> None:
        if not self.session.redo_moves:
            self.bell()
            self.panel.say("Nothing to redo.", transient=True)
            return
        self.bots.cancel()
        self._after_change(self.keeper.redo() or Change())

    # -- bots ------------------------------------------------------------------------------

    @on(WorkerAnswered)
    @while_running
    def worker_answered(self, event: WorkerAnswered) -> None:
        """A reply of the bots' or the analysis's process: its owner takes it."""
        self.bots.take(event.tracker, event.reply)
        self.analysis.take(event.tracker, event.reply)

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
            waiting = self.keeper.waiting_for()
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
        problem, notices = self.keeper.may_quit()
        self._tell(notices)
        if not problem:
            self.exit()
            return
        answers = [("Stay", "stay"), ("Quit and lose it", "quit")]
        question = f"The game is not kept on disk: {problem}."
        text = "Quitting now loses what is not kept. Mend the cause (free some space?), then quit."

        def answered(answer: str | None) -> None:
            if answer == "quit":
                self.exit()
            else:
                self.panel.show_unkept(self.keeper.unkept)

        self.push_screen(ChoiceScreen(question, text, answers, escape="stay"), answered)

    def on_unmount(self) -> None:
        ScrollBar.renderer = ScrollBarRender
        self.keeper.release()
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
            if path is not None:
                self._tell([self.keeper.save_as(path)])

        self.push_screen(FileScreen("Save the game as", default), chosen)

    def action_load(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is None:
                return
            session, notice = self.keeper.open(path, playable())
            if session is not None:
                self._start(session)
            self._tell([notice])

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
