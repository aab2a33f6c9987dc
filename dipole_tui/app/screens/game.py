"""The game screen: the board, the side panel with the game's story, the move entry, and the keys
that play. The keeper (`keeper.py`) keeps the game; the bots' controller (`bot_controller.py`)
decides when a bot is asked and which answer still counts, and the analysis mode
(`analysis_mode.py`) which analysis is still wanted. This screen wires them to what is shown, and
once the app is closing it takes nothing more from any of them.

Its parts are objects it owns, each holding the screen: typed moves (`typed_moves.py`), the walk
back through the game and undo (`move_walk.py`), the bots' turns (`bot_turns.py`), the analysis
shown (`analysis_view.py`), the endings and clocks (`game_endings.py`), the dialogs and files
(`game_menus.py`), online play (`online_play.py`). The keys are all the screen's, from one
table (`commands.py`): a part's action is a line here that hands it on.

Its bindings are the screen's own: a dialog, a review or a lesson pushed over it never sees them.
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.screen import Screen

from ...control.analysis_mode import AnalysisMode
from ...control.bot_controller import BotController
from ...control.changes import Change
from ...control.choice import OnlineChoice
from ...control.keeper import Keeper
from ...control.ply_walker import PlyWalker
from ...games.base import IllegalMoveError
from ...online.client import Link
from ...session import Session
from ...workers.tracker import Connect, Tracker
from ..boards.game_board import GameBoard
from ..boards.registered import board_class, make_board
from ..commands import GAME_KEYS
from ..widgets.eval_bar import EvalBar
from ..widgets.footer import GameFooter
from ..widgets.move_list import MoveList
from ..widgets.play_area import PlayArea
from ..widgets.side_panel import SIDE_PANEL_WIDTH, MoveEntry, MoveTyped, SidePanel
from ..widgets.too_small import TooSmall
from ..worker_messages import WorkerAnswered, answers_to
from .analysis_view import AnalysisView
from .bot_turns import BotTurns
from .game_endings import GameEndings
from .game_menus import GameMenus
from .move_walk import MoveWalk
from .online_play import OnlinePlay, refusable
from .typed_moves import TypedMoves, while_running

WIDE = 100  # from this many columns the side panel is wide (game.tcss)
# From this many the panel is as wide as the widest board leaves it (Bi-Pod's, the evaluation
# bar beside it): three best lines of a few seconds' analysis fit whole.
WIDEST = 160


class GameScreen(Screen[None]):
    """Any game with a board (`boards.playable`): two players, one against a bot, or bots."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE, "-wide"), (WIDEST, "-widest")]
    BINDINGS = GAME_KEYS  # its parts' too: one table (commands.py)
    link_class: type[Link] = Link  # how the screen reaches a server (a scene's stand-in)

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
        chosen: bool = False,
        online: OnlineChoice | None = None,
    ) -> None:
        super().__init__()
        self.keeper = keeper
        self.reviewer = reviewer
        self.analyst = analyst
        self.ascii_glyphs = ascii_glyphs
        self.start_new = start_new
        self.chosen = chosen  # the command line chose the game: nothing saved, it starts
        self.learn = learn  # open the lessons first: of this game, or of every game ("")
        self.online_choice = online  # a room of a game server to play in first
        bots = Tracker(answers_to(self), thinker)
        self.turns = BotTurns(self)
        self.bots = BotController(think_time, self.turns.answered, bots, keeper.level_of)
        analysis = Tracker(answers_to(self), analyst, latest_only=True)
        self.analysis_view = AnalysisView(self)
        self.analysis = AnalysisMode(self.analysis_view.show, analysis)
        self.board = self._new_board(self.session)
        self.panel = SidePanel(self.bots, self.analysis, keeper.ratings.line)
        self.area: PlayArea[Any] = PlayArea(self.session.game, self.board, self.panel.entry)
        self.eval_bar = EvalBar(ascii_glyphs)
        self.too_small = TooSmall(id="too-small")
        self.footer = GameFooter()
        self.typing = TypedMoves(self)
        self.walk = MoveWalk(self)
        self.endings = GameEndings(self)
        self.menus = GameMenus(self)
        self.online = OnlinePlay(self)

    @property
    def session(self) -> Session[Any]:
        return self.keeper.session

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
        self.show()
        self.menus.tell(self.keeper.claim())  # this app's own game-in-progress file
        if self.learn is not None:
            self.menus.learn_first()
        elif self.online_choice is not None:
            self.online.go_online(self.online_choice)
        elif self.start_new:
            self.begin()
        else:
            self.menus.offer_to_resume()

    def begin(self) -> None:
        """The game on screen starts now: its clock, and a bot's move if a bot is to move."""
        self.menus.tell(self.keeper.begin_new())
        self.endings.follow_clock()
        self.turns.turn()

    def show_behind(self, saved: Session[Any]) -> None:
        """The saved game on screen behind the question, still: no bot moves, nothing written."""
        self.keeper.session = saved
        self._board_for(saved)
        self.show()
        self.call_after_refresh(self.show)  # once laid out, the move list shows its last moves

    def on_resize(self, event: events.Resize) -> None:
        self._check_fits()

    def _check_fits(self) -> None:
        board, bar = self.board.minimum_size(), EvalBar.WIDTH if self.analysis.on else 0
        self.too_small.check(self, (board.width + bar + SIDE_PANEL_WIDTH, board.height + 1))

    # -- showing the game ------------------------------------------------------------------

    def show(self, message: str = "") -> None:
        session = self.session
        # The board takes moves only from a human seat; a bot's seat plays itself. (Set first:
        # the board puts the cursor on a person's stacks when the turn passes to them.)
        self.board.interactive = self.keeper.human_to_move
        if self.auto_flip and all(seat.is_person for seat in session.players):
            self.board.flipped = session.state.to_move == 1
        self.board.show_state(session.state, session.last_move)
        self.watch_threats_on()
        self.panel.show(session, (self.board.side_glyph(0), self.board.side_glyph(1)), message)
        self.analysis_view.show_bar()
        self._check_fits()

    def watch_threats_on(self) -> None:
        """While on, the overlay follows every change of the game."""
        session = self.session
        self.board.show_threats(session.game.threats(session.state) if self.threats_on else None)

    # -- changing the game -----------------------------------------------------------------

    def after_change(self, change: Change) -> None:
        """Every change of the game ends here (the keeper has kept it): redraw, tell, let a bot
        move."""
        self.walk.stop()
        self.analysis.follow(self.session)
        self.show(change.message)
        self.online.show_room()  # an online move of the player's is on its way
        if change.game_over is not None:  # what is said at the end is said in its dialog
            self.menus.game_over(change.game_over, change.notices)
        else:
            self.menus.tell(change.notices, change.question)
        self.panel.show_unkept(self.keeper.unkept)
        self.endings.follow_clock()
        if self.session.outcome is None:
            self.turns.turn()

    def start(self, session: Session[Any]) -> None:
        self.online.leave_online()
        self.show_game(session)
        self.after_change(self.keeper.start(session))

    def show_game(self, session: Session[Any]) -> None:
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

    def still_here(self, position: Any) -> bool:
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
        if self.still_here(event.position):
            self.play(event.move)

    @while_running
    def _to_confirm(self, event: GameBoard.MoveToConfirm[Any]) -> None:
        if self.still_here(event.position):
            self.menus.confirm(event)

    def play(self, move: Any) -> None:
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
        self.after_change(change)

    def refuse(self, said: str) -> None:
        """What may not be done now, said (and rung) until the player moves on."""
        self.app.bell()
        self.panel.say(said, transient=True)

    # -- moves typed (the entry: `MoveEntry`) --------------------------------------------------

    def action_type_move(self) -> None:
        self.typing.open()

    @on(MoveTyped, "#move-input")
    @while_running
    def typed_move(self, event: MoveTyped) -> None:
        self.typing.typed(event)

    @on(MoveEntry.Left, "#move-input")
    @while_running
    def entry_left(self) -> None:
        self.area.close_entry()

    @on(events.Key)
    @on(events.MouseDown)
    def _moving_on(self, event: events.Key | events.MouseDown) -> None:
        """A key or click on the board is the player moving on: a transient message is done
        (this comes before any binding of the key runs). Keys and clicks still queued when the
        app closes go no further: the screen they were for is being taken down."""
        if not self.app.is_running:
            event.stop()
            event.prevent_default()
        elif self.panel.transient and self.focused is self.board:
            self.panel.say_lasting()

    # -- bots ------------------------------------------------------------------------------

    @on(WorkerAnswered)
    @while_running
    def worker_answered(self, event: WorkerAnswered) -> None:
        """A reply of the bots' or the analysis's process: its owner takes it."""
        self.bots.take(event.tracker, event.reply)
        self.analysis.take(event.tracker, event.reply)

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
        self.turns.pause()

    def action_step(self) -> None:
        """While paused: let the bot to move play one move."""
        self.turns.turn(step=True)

    @refusable
    def action_hint(self) -> None:
        self.turns.hint()

    @refusable
    def action_analyse(self) -> None:
        self.analysis_view.toggle()

    @refusable
    def action_lines(self) -> None:
        self.analysis.toggle_lines(self.session)

    def watch_analysis_on(self) -> None:
        """The bar takes room of its own: the board may no longer fit."""
        self.analysis_view.show()
        self._check_fits()

    def action_threats(self) -> None:
        self.threats_on = not self.threats_on

    def action_flip(self) -> None:
        self.board.flip()
        self.analysis_view.show_bar()

    def action_auto_flip(self) -> None:
        self.auto_flip = not self.auto_flip
        if self.auto_flip and not all(seat.is_person for seat in self.session.players):
            said = "Auto-flip is on, for hot-seat games: this game has a bot, so f flips."
        elif self.auto_flip:
            said = "Auto-flip on: the board turns to the side to move (F again: off)."
        else:
            said = "Auto-flip off."
        self.panel.say(said, transient=True)

    def watch_auto_flip(self) -> None:
        if self.walk.viewing is None:
            self.show(self.panel.lasting[0])

    # -- the parts' keys -----------------------------------------------------------------------

    def action_walk_back(self) -> None:
        self.walk.go(PlyWalker.back)

    def action_walk_forward(self) -> None:
        self.walk.go(PlyWalker.forward)

    def action_walk_first(self) -> None:
        self.walk.go(PlyWalker.first)

    def action_walk_end(self) -> None:
        self.walk.end()

    @on(MoveEntry.End)
    def entry_end(self) -> None:
        self.walk.end()

    @on(MoveList.Picked)
    def move_picked(self, event: MoveList.Picked) -> None:
        self.walk.to(event.ply)

    def action_undo(self) -> None:
        self.walk.undo()

    def action_redo(self) -> None:
        self.walk.redo()

    def action_resign(self) -> None:
        self.endings.resign()

    def action_offer_draw(self) -> None:
        self.endings.offer_draw()

    def action_new_game(self) -> None:
        self.menus.new_game()

    def action_save(self) -> None:
        self.menus.save()

    def action_load(self) -> None:
        self.menus.load()

    @refusable
    def action_edit(self) -> None:
        self.menus.edit()

    def action_stats(self) -> None:
        self.menus.stats()

    def action_chat(self) -> None:
        self.online.chat()

    def action_copy_position(self) -> None:
        self.menus.copy_position()

    def action_copy_record(self) -> None:
        self.menus.copy_record()

    @refusable
    def action_review(self) -> None:
        self.menus.review()

    def on_paste(self, event: events.Paste) -> None:
        self.menus.paste(event)

    def go_online(self, choice: OnlineChoice) -> None:
        self.online.go_online(choice)

    def leave_online(self) -> None:
        self.online.leave_online()
