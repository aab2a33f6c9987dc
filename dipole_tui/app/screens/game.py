"""The game screen: the board, the side panel with the game's story, the move entry, and the keys
that play. The keeper (`keeper.py`) keeps the game; the bots' controller (`bot_controller.py`)
decides when a bot is asked and which answer still counts, and the analysis mode
(`analysis_mode.py`) which analysis is still wanted. This screen wires them to what is shown, and
once the app is closing it takes nothing more from any of them.

Its bindings are the screen's own: a dialog, a review or a lesson pushed over it never sees them.
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Static

from ...control.analysis_mode import AnalysisMode
from ...control.bot_controller import HINT_BOT, Answer, BotController, DrawAnswer
from ...control.changes import Change
from ...control.choice import OnlineChoice
from ...control.keeper import Keeper
from ...games.base import GameError, IllegalMoveError
from ...registry import REGISTRY
from ...session import HUMAN, Session
from ...workers.tracker import Connect, Tracker
from ..boards.game_board import GameBoard
from ..boards.registered import board_class, make_board
from ..commands import GAME_KEYS
from ..dialogs.choice import ChoiceScreen
from ..widgets.eval_bar import EvalBar
from ..widgets.footer import GameFooter
from ..widgets.play_area import PlayArea
from ..widgets.side_panel import SIDE_PANEL_WIDTH, SidePanel
from ..worker_messages import WorkerAnswered, answers_to
from .game_endings import GameEndings
from .game_menus import GameMenus
from .move_walk import MoveWalk
from .online_play import OnlinePlay, refusable
from .typed_moves import TypedMoves, while_running

WIDE = 100  # from this many columns the side panel is wide (game.tcss)
# From this many the panel is as wide as the widest board leaves it (Bi-Pod's, the evaluation
# bar beside it): three best lines of a few seconds' analysis fit whole.
WIDEST = 160


class GameScreen(TypedMoves, MoveWalk, GameEndings, GameMenus, OnlinePlay):
    """Any game with a board (`boards.playable`): two players, one against a bot, or bots."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide"), (WIDEST, "-widest")]
    BINDINGS = GAME_KEYS  # its parts' too: one table (commands.py)

    threats_on: reactive[bool] = reactive(False, init=False)  # the threat overlay (t)
    analysis_on: reactive[bool] = reactive(False, init=False, bindings=True)  # bar, lines (a)
    # Hot-seat: the board turns to the side to move after every move (F).
    auto_flip: reactive[bool] = reactive(False, init=False)

    def __init__(
        self,
        keeper: Keeper,
        *,
        think_time: float,
        thinker: Connect,
        reviewer: Connect,
        analyst: Connect,
        ascii_glyphs: bool,
        start_new: bool,
        learn: str | None,
        online: OnlineChoice | None = None,
    ) -> None:
        super().__init__()
        self.keeper = keeper
        self.reviewer = reviewer
        self.analyst = analyst
        self.ascii_glyphs = ascii_glyphs
        self.start_new = start_new
        self.learn = learn  # open the lessons first: of this game, or of every game ("")
        self.online_choice = online  # a room of a game server to play in first
        bots = Tracker(answers_to(self), thinker)
        self.bots = BotController(think_time, self._bots_answered, bots, keeper.level_of)
        analysis = Tracker(answers_to(self), analyst, latest_only=True)
        self.analysis = AnalysisMode(self._show_analysis, analysis)
        self.board = self._new_board(self.session)
        self.panel = SidePanel(self.bots, self.analysis)
        self.area: PlayArea[Any] = PlayArea(self.session.game, self.board, self.panel.entry)
        self.eval_bar = EvalBar(ascii_glyphs)
        self.too_small = Static(id="too-small")
        self.footer = GameFooter()

    def _new_board(self, session: Session[Any]) -> GameBoard[Any, Any]:
        return make_board(session.game.key, session.state, self.ascii_glyphs)

    # -- layout and start-up -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Textual sets the breakpoint's class on the first resize, after the first layout: set
        # before the widgets are styled, the first frame is laid out for the terminal's width.
        width = self.app.size.width
        self.add_class([name for least, name in self.HORIZONTAL_BREAKPOINTS if width >= least][-1])
        with Horizontal(id="main"):
            yield self.board
            yield self.eval_bar
            yield self.panel
        yield self.too_small
        yield self.footer

    def on_mount(self) -> None:
        self.board.focus()
        self._show()
        self._tell(self.keeper.claim())  # this app's own game-in-progress file
        if self.learn is not None:
            self._learn_first()
        elif self.online_choice is not None:
            self.go_online(self.online_choice)
        elif self.start_new:
            self._tell(self.keeper.begin_new())
            self.follow_clock()
            self._bot_turn()
        else:
            self._offer_to_resume()

    def _show_behind(self, saved: Session[Any]) -> None:
        """The saved game on screen behind the question, still: no bot moves, nothing written."""
        self.keeper.session = saved
        self._board_for(saved)
        self._show()
        self.call_after_refresh(self._show)  # once laid out, the move list shows its last moves

    def on_resize(self, event: events.Resize) -> None:
        self._check_fits()

    def _minimum_terminal(self) -> tuple[int, int]:
        board = self.board.minimum_size()
        bar = EvalBar.WIDTH if self.analysis.on else 0
        return board.width + bar + SIDE_PANEL_WIDTH, board.height + 1  # + the footer

    def _check_fits(self) -> None:
        """Hide the game behind a plain request to enlarge the terminal when the board won't fit
        (the game waits untouched and comes back on the next resize)."""
        terminal = self.app.size
        width, height = self._minimum_terminal()
        small = terminal.width < width or terminal.height < height
        self.set_class(small, "too-small")
        if small:
            self.too_small.update(
                f"The terminal is too small for this board.\n"
                f"Enlarge it to at least {width}x{height} (it is "
                f"{terminal.width}x{terminal.height}).\nThe game waits where it is."
            )

    # -- showing the game ------------------------------------------------------------------

    def _show(self, message: str = "") -> None:
        session = self.session
        # The board takes moves only from a human seat; a bot's seat plays itself. (Set first:
        # the board puts the cursor on a person's stacks when the turn passes to them.)
        self.board.interactive = self.keeper.human_to_move
        if self.auto_flip and session.players == (HUMAN, HUMAN):
            self.board.flipped = session.state.to_move == 1
        self.board.show_state(session.state, session.last_move)
        self.watch_threats_on()
        self.panel.show(session, (self.board.side_glyph(0), self.board.side_glyph(1)), message)
        self._show_bar()
        self._check_fits()

    def _show_analysis(self) -> None:
        """The analysis found more, or was turned on or off: its best move is marked on the
        board as a hint's is (gone with the analysis)."""
        self.panel.show_analysis()
        self._show_bar()
        found, session = self.analysis.latest, self.session
        if self.viewing is not None or not self.analysis.on:
            return
        move = None
        if found is not None and found.line:
            try:
                move = session.game.parse_move(found.line[0], session.state)
            except GameError:  # about another position after all
                move = None
        self.board.show_hint(move)

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
            share = found.score.first_side_share(unit)
        self.eval_bar.show(share, self.board.flipped)

    def watch_threats_on(self) -> None:
        """While on, the overlay follows every change of the game."""
        session = self.session
        self.board.show_threats(session.game.threats(session.state) if self.threats_on else None)

    # -- changing the game -----------------------------------------------------------------

    def _after_change(self, change: Change) -> None:
        """Every change of the game ends here (the keeper has kept it): redraw, tell, let a bot
        move."""
        self.stop_walking()
        self.analysis.follow(self.session)
        self._show(change.message)
        self.show_room()  # an online move of the player's is on its way
        if change.game_over is not None:  # what is said at the end is said in its dialog
            self._game_over(change.game_over, change.notices)
        else:
            self._tell(change.notices)
        self.panel.show_unkept(self.keeper.unkept)
        self.follow_clock()
        if self.session.outcome is None:
            self._bot_turn()

    def _start(self, session: Session[Any]) -> None:
        self.leave_online()
        self._show_game(session)
        self._after_change(self.keeper.start(session))

    def _show_game(self, session: Session[Any]) -> None:
        """Another game on the board (new, loaded, an online room's): its own board."""
        self.bots.cancel()
        self.bots.paused = False
        self._board_for(session)

    def _board_for(self, session: Session[Any]) -> None:
        """The board of the session's game on screen: another game's board gives way to it."""
        if type(self.board) is board_class(session.game.key):
            return
        old, self.board = self.board, self._new_board(session)
        self.area = PlayArea(session.game, self.board, self.panel.entry)
        self.query_one("#main").mount(self.board, before=old)
        old.remove()
        self.call_after_refresh(self.board.focus)

    def _still_here(self, position: Any) -> bool:
        """The game is still where a move was chosen: a board's choice that arrives after the
        game moved on (the second press of a double Enter, the second click of a double click,
        both queued before the first was played) is dropped, never played for the other side."""
        return self.board.interactive and self.area.here(position, self.session.state)

    # A board's move is taken in the app's own queue, where the keys of its burst are read (the
    # bindings run there): a key that came up from the board ahead of the move is taken first,
    # and finds the board still awaiting the move; taken here, the move would be played before
    # it, and the key would choose again in the next position.

    @on(GameBoard.MoveChosen)
    def move_chosen(self, event: GameBoard.MoveChosen[Any]) -> None:
        self.app.call_later(self._chosen, event)

    @on(GameBoard.MoveToConfirm)
    def move_to_confirm(self, event: GameBoard.MoveToConfirm[Any]) -> None:
        self.app.call_later(self._to_confirm, event)

    @while_running
    def _chosen(self, event: GameBoard.MoveChosen[Any]) -> None:
        if self._still_here(event.position):
            self._play(event.move)

    @while_running
    def _to_confirm(self, event: GameBoard.MoveToConfirm[Any]) -> None:
        if not self._still_here(event.position):
            return
        answers = [("Keep playing", "no"), (event.confirm, "yes")]

        def answered(answer: str | None) -> None:
            if answer == "yes" and self._still_here(event.position):
                self._play(event.move)
            else:
                self.board.choose_again()

        question = ChoiceScreen(event.question, event.text, answers, escape="no")
        self.app.push_screen(question, answered)

    def _play(self, move: Any) -> None:
        """Play a move from anywhere (the board, the entry, a bot): `Session.play` is the last
        guard, and a move it refuses (chosen for a position gone) changes nothing and is said."""
        try:
            change = self.keeper.play(move)
        except IllegalMoveError as error:
            self.board.choose_again()
            self.panel.say(f"Not played: {error}", "bold red", transient=True)
            self.app.bell()
            return
        self.bots.drop_questions()
        self._after_change(change)

    # -- bots ------------------------------------------------------------------------------

    @on(WorkerAnswered)
    @while_running
    def worker_answered(self, event: WorkerAnswered) -> None:
        """A reply of the bots' or the analysis's process: its owner takes it."""
        self.bots.take(event.tracker, event.reply)
        self.analysis.take(event.tracker, event.reply)

    def _bots_answered(self, answer: Answer | DrawAnswer) -> None:
        """An answer the game still waits for (about the position on the board: the controller
        drops the others): the bot's move is played, a hint marked, a draw offer answered."""
        if isinstance(answer, DrawAnswer):
            self._draw_answered(answer)
            return
        session = self.session
        if answer.text is None:  # the search failed
            who = "the hint" if answer.hint else "the bot"
            log = self.keeper.error_log
            self._show(f"Sorry: {who} found no move here; what went wrong is in {log}")
            return
        try:
            move = session.game.parse_move(answer.text, session.state)
        except GameError:  # the game moved on after all
            move = None
        if answer.hint:
            self.board.show_hint(move)  # not a move here after all: the words alone
            said = f"Hint: {HINT_BOT} would play {answer.text}."
            if len(answer.line) > 1:
                said += f" Best line: {session.game.move_separator.join(answer.line)}."
            self.panel.say(said)
        elif move is None:
            self._bot_turn()  # ask again
        else:
            self._play(move)

    def _bot_turn(self, step: bool = False) -> None:
        """If a bot is to move, let it think in its own process; the screen stays live."""
        self.bots.take_turn(self.session, step)
        self.panel.show_turn()

    def close(self) -> None:
        """The app is ending: the workers go with it."""
        self.bots.close()
        self.analysis.close()

    # -- actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Undo and redo wait for no move: typed in the burst right after a confirm, they reach
        the screen before the move chosen does (it comes up from the board after them), and
        would take back the move before it; they are dropped while the board awaits its move.
        Under a dialog (help, a question), ':' is not offered in the footer behind it."""
        if action == "type_move":
            return self.app.screen is self
        if action == "lines":
            return self.analysis.on
        return not (action in ("undo", "redo") and self.board.awaiting)

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

    @refusable
    def action_hint(self) -> None:
        """Ask `hard` what it would play here, without playing it."""
        if not self.bots.hint(self.session):
            self.app.bell()
            return
        self.panel.say("Thinking of a hint...")

    @refusable
    def action_analyse(self) -> None:
        """Analysis on or off: the bar, the score in words and the best line, live."""
        self.analysis.toggle(self.session)
        self.analysis_on = self.analysis.on
        if not self.analysis.on:
            self.board.show_hint(None)

    @refusable
    def action_lines(self) -> None:
        self.analysis.toggle_lines(self.session)

    def watch_analysis_on(self) -> None:
        """The bar takes room of its own: the board may no longer fit."""
        self._show_analysis()
        self._check_fits()

    def action_threats(self) -> None:
        self.threats_on = not self.threats_on

    def action_flip(self) -> None:
        self.board.flip()
        self._show_bar()

    def action_auto_flip(self) -> None:
        self.auto_flip = not self.auto_flip
        if self.auto_flip and self.session.players != (HUMAN, HUMAN):
            said = "Auto-flip is on, for hot-seat games: this game has a bot, so f flips."
        elif self.auto_flip:
            said = "Auto-flip on: the board turns to the side to move (F again: off)."
        else:
            said = "Auto-flip off."
        self.panel.say(said, transient=True)

    def watch_auto_flip(self) -> None:
        if self.viewing is None:
            self._show(self.panel.lasting[0])
