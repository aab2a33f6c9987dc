"""The Textual app: the shell around the game screen (`screens/game.py`), which plays the game the
keeper (`keeper.py`) keeps. The app holds what outlives a screen: the keeper, the workers'
connections, the glyphs (Unicode or ASCII), and what every screen shares: quitting (never losing a
game not kept on disk), help, the command palette and the notices.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Iterable
from typing import Any

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.markup import escape  # the palette's help is markup; a key may be `[`
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.theme import ThemeProvider

from ..control.analysis_mode import AnalysisMode
from ..control.bot_controller import BotController
from ..control.choice import GameChoice, OnlineChoice
from ..control.keeper import Keeper, new_session
from ..games.base import displayable
from ..orphans import END_SIGNALS
from ..saves import Autosave
from ..session import HUMAN, Session, game_named
from ..workers.process import process
from ..workers.tracker import Connect
from .ascii import AsciiScrollBarRender, glyph_map
from .boards.game_board import GameBoard
from .boards.registered import playable
from .closing import Dialog
from .commands import command, palette_words
from .dialogs.choice import ChoiceScreen
from .dialogs.help import HelpScreen
from .online_news import OnlineNews
from .screens.game import GameScreen
from .screens.online_play import RoomShown
from .widgets.eval_bar import EvalBar
from .widgets.footer import GameFooter
from .widgets.side_panel import SidePanel
from .widgets.wrapping import wrap


class GameApp(App[None]):
    """Any game with a board (`boards.playable`) at one terminal: two players, one against a
    bot, or bots to watch."""

    # The game screen's too: Textual reads a pushed screen's CSS_PATH, not the default screen's.
    CSS_PATH = ["css/game.tcss", "css/dialogs.tcss", "css/ascii.tcss"]
    # Every screen's: a notice at 80 columns stays beside the board over a dialog too (game.tcss).
    HORIZONTAL_BREAKPOINTS = GameScreen.HORIZONTAL_BREAKPOINTS
    TITLE = "dipole-tui"
    BINDINGS = [
        # Help and Quit are pinned to the footer's right end (footer.py), so never cut off.
        command("question_mark,f1", "help", "Help", "The rules and the keys", show=False),
        Binding("q", "quit", "Quit", show=False),
        Binding("ctrl+c", "interrupt", "Quit", show=False, priority=True),
    ]

    def __init__(
        self,
        *,
        choice: GameChoice | None = None,
        session: Session[Any] | None = None,
        new: bool = False,
        chosen: bool = False,
        ascii_glyphs: bool = False,
        autosave: Autosave | None = None,
        think_time: float = 1.0,
        thinker: Connect | None = None,
        reviewer: Connect | None = None,
        analyst: Connect | None = None,
        learn: str | None = None,
        online: OnlineChoice | None = None,
        web_tab: bool = False,
    ) -> None:
        """`thinker` connects to the bots' process, `reviewer` to the review's and `analyst` to
        the analysis's (a test gives stand-ins); `web_tab`: a tab of `dipole-tui web`. `new`
        starts `choice` at once; `chosen` (the command line named a game, a variant, a seat or
        a clock) starts it unless a game in progress is saved, which is offered first; neither
        offers the saved game, else opens the new-game dialog on `choice`."""
        super().__init__()
        self.web_tab = web_tab
        self._quit_question: ChoiceScreen | None = None
        if self.no_color:
            # Textual greys every colour under NO_COLOR, and the ANSI themes' colours all turn
            # black: black text on black. They are not offered then.
            for theme in ("ansi-dark", "ansi-light"):
                self.unregister_theme(theme)
        if choice is None:  # the command line always says; else the registry's first game
            first = game_named(playable()[0])
            choice = GameChoice(first.key, first.variants[0], (HUMAN, HUMAN))
        self.keeper = Keeper(session or new_session(choice), autosave or Autosave())
        self.ascii_glyphs = ascii_glyphs
        self._held: list[tuple[str, dict[str, Any]]] = []  # notices a dialog holds back
        self.set_class(ascii_glyphs, "-ascii")  # ascii.tcss: every border in ASCII
        self.error_log = self.keeper.error_log
        self.analyst = analyst or process("analyst", self.error_log)
        self.game_screen = GameScreen(
            self.keeper,
            think_time=think_time,
            thinker=thinker or process("bot", self.error_log),
            reviewer=reviewer or process("reviewer", self.error_log),
            analyst=self.analyst,
            ascii_glyphs=ascii_glyphs,
            start_new=new or session is not None,
            learn=learn,
            chosen=chosen,
            online=online,
        )
        self.online_news = OnlineNews(self)  # a move in another of the player's online games

    def get_default_screen(self) -> Screen[Any]:
        return self.game_screen

    # What the game screen shows, as tests and scripts read it.

    @property
    def session(self) -> Session[Any]:
        return self.keeper.session

    @property
    def autosave(self) -> Autosave:
        return self.keeper.autosave

    @property
    def choice(self) -> GameChoice:
        return self.keeper.choice

    @property
    def board(self) -> GameBoard[Any, Any]:
        return self.game_screen.board

    @property
    def panel(self) -> SidePanel:
        return self.game_screen.panel

    @property
    def bots(self) -> BotController:
        return self.game_screen.bots

    @property
    def analysis(self) -> AnalysisMode:
        return self.game_screen.analysis

    @property
    def eval_bar(self) -> EvalBar:
        return self.game_screen.eval_bar

    @property
    def footer(self) -> GameFooter:
        return self.game_screen.footer

    def _start(self, session: Session[Any]) -> None:
        """Another game on the game screen (tests start one as the dialogs do)."""
        self.game_screen.start(session)

    # -- the app's life --------------------------------------------------------------------

    def on_mount(self) -> None:
        self._end_on_signals()
        self.screen_change_signal.subscribe(self, self._screen_changed)
        if self.ascii_glyphs:
            ScrollBar.renderer = AsciiScrollBarRender  # Textual's way: class-wide, till unmount
        self.online_news.start()

    @on(RoomShown)
    def room_shown(self, event: RoomShown) -> None:
        self.online_news.shown(event.left)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        """A toast never covers a dialog: one opening clears the toasts (they were said; the
        dialog has the player's eyes now), and notices said while it is open wait for it to
        close (`notify`)."""
        if isinstance(screen, Dialog):
            self.clear_notifications()
            return
        held, self._held = self._held, []
        for message, kwargs in held:
            super().notify(message, **kwargs)

    def _end_on_signals(self) -> None:
        """SIGTERM and SIGHUP end the app as `q` does, so that Textual gives the terminal back
        as it found it (Python's default death leaves it in the alternate screen, the cursor
        hidden); the autosave, written after every move, keeps the game for the next start."""
        loop = asyncio.get_running_loop()
        for signum in END_SIGNALS:
            # NotImplementedError: no such handlers on Windows; RuntimeError: not the main thread
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signum, self.exit)

    async def action_quit(self) -> None:
        """Quit; when the game could not be kept on disk, try again, then ask before losing it."""
        problem, notices = self.keeper.may_quit()
        for notice in notices:
            self.notify(notice.text, timeout=notice.timeout, markup=False)
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

    async def action_interrupt(self) -> None:
        """Ctrl+C quits as `q` does; in a web tab it asks first, since a browser's user presses
        it to copy."""
        if not self.web_tab:
            await self.action_quit()
            return
        if self.screen is self._quit_question:  # pressed again while asked
            return
        question = "Quit the app in this tab?"
        text = "Ctrl+C quits. The game is kept: the page offers it again when reloaded."
        answers = [("Stay", "stay"), ("Quit", "quit")]

        async def answered(answer: str | None) -> None:
            self._quit_question = None
            if answer == "quit":
                await self.action_quit()

        self._quit_question = ChoiceScreen(question, text, answers, escape="stay")
        self.push_screen(self._quit_question, answered)

    def watch_app_focus(self, focus: bool) -> None:
        """Back in focus (a browser tab's page, clicked or typed into): a question put while it
        was not gets the focus where its screen asks (its first answer), as Textual gives it
        only to a screen composed in focus; else Enter would answer nothing."""
        screen = self.screen
        if focus and screen.focused is None and screen.AUTO_FOCUS:
            screen.focus_next(screen.AUTO_FOCUS)

    def on_unmount(self) -> None:
        ScrollBar.renderer = ScrollBarRender
        self.online_news.close()
        self.keeper.release()
        self.game_screen.close()

    def action_learn(self, game: str | None = None) -> None:
        """The lessons and puzzles of a game (None: of every game)."""
        self.game_screen.menus.open_lessons(game)

    def action_help(self) -> None:
        glyphs = glyph_map(*self.board.GLYPH_TABLES) if self.ascii_glyphs else None
        self.push_screen(HelpScreen(self.session.game.key, glyphs))

    async def on_event(self, event: events.Event) -> None:
        """A mouse press over a toast that has just gone is dropped: Textual 8.2.8 then reads
        the region of the toast's parent, None once it is removed, and the app ended with an
        AttributeError (Textual issue 6643, "'NoneType' object has no attribute 'region'")."""
        if isinstance(event, events.MouseDown) and not self.mouse_captured:
            widget, _ = self.screen.get_widget_and_offset_at(event.x, event.y)
            if widget is not None and widget is not self.screen and widget.parent is None:
                return
        await super().on_event(event)

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
        rather than mid-word (Textual's toast is 60 columns, at most half the screen). A notice
        may quote text from outside (a file name, a server's word): it goes through
        `displayable` and is never read as markup, whatever `markup` says."""
        width = min(60, self.size.width // 2) - 3  # its left border and padding
        text = "\n".join(wrap(displayable(message, lines=True), width))
        said: dict[str, Any] = {"title": displayable(title), "severity": severity}
        said.update(timeout=timeout, markup=False)
        if isinstance(self.screen, Dialog):  # it would cover the dialog: said once it closes
            self._held.append((text, said))
            return
        super().notify(text, **said)

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

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands, then the screen's: each binding active on `screen` that is a
        command (`commands.command`), run through `run_action` so that `check_action` refuses
        it as it refuses the key; then what has no key (`_unbound_commands`). Each says the
        keys that run it there after its help, "See the board from the other side  (f)":
        Textual's palette shows none. The keys are read from the bindings as they stand on
        `screen` (the focused widget's first, so Bi-Pod's `a`, the board's adopt, is not said
        for the analysis), never written a second time."""
        bound: dict[tuple[object, str], list[Binding]] = {}
        for active in screen.active_bindings.values():
            if active.enabled:
                bound.setdefault((active.node, active.binding.action), []).append(active.binding)
        for textuals in super().get_system_commands(screen):  # keys of their own: `q` for Quit
            owner = getattr(textuals.callback, "__self__", None)
            name = getattr(textuals.callback, "__name__", "").removeprefix("action_")
            yield self._with_keys(textuals, bound.get((owner, name), []))
        for (node, action), bindings in bound.items():
            if words := palette_words(bindings[0]):
                run = functools.partial(self.call_later, self.run_action, action, node)
                yield self._with_keys(SystemCommand(*words, run), bindings)
        yield from self._unbound_commands(screen)

    def _with_keys(self, said: SystemCommand, bindings: list[Binding]) -> SystemCommand:
        if not bindings:
            return said
        keys = sorted((self.get_key_display(binding) for binding in bindings), key=len)
        return said._replace(help=f"{said.help}  ({escape(', '.join(keys))})")

    def _unbound_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's commands that no key runs, over the game."""
        if screen is self.game_screen:
            about = "Lessons for every rule of this game, and puzzles"
            yield SystemCommand("Learn", about, lambda: self.action_learn(self.session.game.key))
