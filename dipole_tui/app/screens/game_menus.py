"""The game screen's questions and files: resuming at start-up, the end of a game, a new game,
saving, opening and reviewing. A part of `GameScreen` (`game_screen.py`), apart so that each
reads in one sitting; what it needs of the screen is declared here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.screen import Screen
from textual.widgets import Input

from ...control.analysis_mode import AnalysisMode
from ...control.changes import GameOver, Notice
from ...control.choice import GameChoice, LearnChoice, OnlineChoice
from ...control.keeper import Keeper, new_session
from ...games.base import State
from ...learn import Progress
from ...session import Session
from ...workers.tracker import Connect
from ..boards.registered import playable
from ..dialogs.choice import ChoiceScreen
from ..dialogs.file import FileScreen
from ..dialogs.new_game import NewGameScreen
from ..dialogs.online import DEFAULT_SERVER
from ..dialogs.open import OpenScreen
from ..widgets.play_area import PlayArea
from .editor import EditorScreen
from .learn_menu import LearnMenu
from .online_play import refusable
from .review import ReviewScreen


class GameMenus(Screen[None]):
    """The dialogs the game screen opens, and what their answers do."""

    keeper: Keeper
    reviewer: Connect
    analyst: Connect
    ascii_glyphs: bool
    learn: str | None
    area: PlayArea[Any]
    analysis: AnalysisMode

    @property
    def session(self) -> Session[Any]:
        return self.keeper.session

    if TYPE_CHECKING:  # the game screen's own

        def _start(self, session: Session[Any]) -> None: ...

        def _show_behind(self, saved: Session[Any]) -> None: ...

        def go_online(self, choice: OnlineChoice) -> None: ...

    def _offer_to_resume(self) -> None:
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
        self.app.push_screen(ChoiceScreen(title, resume.text, answers, escape="resume"), answered)

    def _learn_first(self) -> None:
        """`dipole-tui learn`: the lessons over the game in progress, resumed without a word."""
        saved, notices = self.keeper.saved_game()
        self._tell(notices)
        self._start(saved or self.session)
        self.open_lessons(self.learn or None)

    def _tell(self, notices: list[Notice]) -> None:
        for notice in notices:
            self.app.notify(
                notice.text,
                title=notice.title,
                severity=notice.severity,
                timeout=notice.timeout,
                markup=False,
            )

    def _game_over(self, over: GameOver, notices: list[Notice]) -> None:
        """The question at the end; the notices of the moment are lines of it (a toast would
        cover it)."""
        said = [
            f"{notice.title}: {notice.text}" if notice.title else notice.text for notice in notices
        ]
        text = "\n".join([over.text, *said])
        answers = [
            ("Rematch", "rematch"),
            ("New game", "new"),
            ("Review", "review"),
            ("Quit", "quit"),
        ]
        if not self.keeper.referee.offers_rematch:  # online the server's to offer
            answers = answers[1:]

        def answered(answer: str | None) -> None:
            if answer == "rematch":
                self._start(new_session(self.keeper.choice.rematch()))
            elif answer == "new":
                self.action_new_game()
            elif answer == "quit":
                self.app.exit()
            elif answer == "review":
                self.action_review()
            else:
                self.call_after_refresh(self.area.close_entry)  # Escape: look at the board

        self.app.push_screen(ChoiceScreen(over.headline, text, answers, escape="board"), answered)

    def open_lessons(self, game: str | None = None) -> None:
        """The lessons and puzzles of a game (None: of every game)."""
        progress = Progress(self.keeper.autosave.folder)
        self.app.push_screen(LearnMenu(game, progress, self.analyst, self.ascii_glyphs))

    def action_new_game(self) -> None:
        self._choose_new_game(starting=False)

    def _choose_new_game(self, starting: bool) -> None:
        """The new-game dialog; cancelled at start-up, the game on screen simply begins."""

        def chosen(choice: GameChoice | LearnChoice | OnlineChoice | None) -> None:
            if isinstance(choice, GameChoice):
                self._start(new_session(choice))
            elif isinstance(choice, OnlineChoice):
                self.go_online(choice)
            elif starting:
                self._start(self.session)
            if isinstance(choice, LearnChoice):
                self.open_lessons(choice.game_key)

        seats = self.keeper.seat_book.seats()
        self._tell(self.keeper.settings_notices())
        server = seats[-1].server if seats else DEFAULT_SERVER
        self.app.push_screen(NewGameScreen(self.keeper.choice, server), chosen)

    def action_save(self) -> None:
        default = str(self.keeper.autosave.save_name(self.session.game.key))

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._tell([self.keeper.save_as(path)])

        self.app.push_screen(FileScreen("Save the game as", default), chosen)

    def action_load(self) -> None:
        def chosen(path: Path | OnlineChoice | None) -> None:
            if isinstance(path, OnlineChoice):
                self.go_online(path)
            if not isinstance(path, Path):
                return
            session, notice = self.keeper.open(path, playable())
            if session is not None:
                self._start(session)
            self._tell([notice])

        autosave = self.keeper.autosave
        games = autosave.saved_games()
        default = str(Path.cwd()) + "/"
        online = self.keeper.seat_book.seats()
        self._tell(self.keeper.settings_notices())
        dialog = OpenScreen(games, autosave.folder, default, self.ascii_glyphs, online)
        self.app.push_screen(dialog, chosen)

    # -- positions in and out ----------------------------------------------------------------

    @refusable
    def action_edit(self) -> None:
        """The position editor, from the position on screen; what it gives back is played on
        with the same seats."""
        session = self.session

        def edited(state: State[Any] | None) -> None:
            if state is not None:
                self._start(Session(session.game, state, session.players))

        self.app.push_screen(EditorScreen(session.game, session.state, self.ascii_glyphs), edited)

    def action_copy_position(self) -> None:
        position = self.session.state.position()
        self.app.copy_to_clipboard(position)
        self._tell([Notice(f"Copied the position: {position}", "Copy", timeout=4)])

    def action_copy_record(self) -> None:
        self.app.copy_to_clipboard(self.session.whole_game().record_text())
        self._tell([Notice("Copied the game's record.", "Copy", timeout=4)])

    def on_paste(self, event: events.Paste) -> None:
        """A record or a position pasted over the board opens it (the entry takes its own)."""
        if isinstance(self.focused, Input):
            return
        event.stop()
        session, notice = self.keeper.pasted(event.text, playable())
        if session is not None:
            self._start(session)
        self._tell([notice])

    @refusable
    def action_review(self) -> None:
        """Review the whole game, undone moves too, on a screen of its own."""
        whole = self.session.whole_game()
        if not whole.state.moves_played:
            self.app.notify("Nothing to review yet: no move has been played")
            return
        # The review's process needs the processor more than the analysis behind it does: the
        # analysis stops, and starts again on the game's position when the review is closed.
        self.analysis.stop()
        review = ReviewScreen(whole.record_text(), self.reviewer, self.ascii_glyphs)
        self.app.push_screen(review, lambda _: self.analysis.follow(self.session))
