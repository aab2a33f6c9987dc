"""The game screen's questions and files: resuming at start-up, the end of a game, a new game,
saving, opening and reviewing. A part the game screen owns (`game.py`): the answers go back to
the screen (a game started, a room joined), and what is said is the keeper's.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.widgets import Input

from ...control.changes import GameOver, Notice, Question
from ...control.choice import GameChoice, LearnChoice, OnlineChoice
from ...control.keeper import new_session
from ...games.base import GameError, State
from ...learn import Progress
from ...session import Session
from ..ascii import plain
from ..boards.game_board import GameBoard
from ..boards.registered import playable
from ..dialogs.choice import ChoiceScreen
from ..dialogs.file import FileScreen
from ..dialogs.new_game import NewGameScreen
from ..dialogs.online import DEFAULT_SERVER
from ..dialogs.open import OpenScreen
from .editor import EditorScreen
from .learn_menu import LearnMenu
from .review import ReviewScreen
from .stats import StatsScreen

if TYPE_CHECKING:
    from .game import GameScreen


class GameMenus:
    """The dialogs the game screen opens, and what their answers do."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.keeper = screen.keeper

    @property
    def session(self) -> Session[Any]:
        return self.keeper.session

    @property
    def app(self) -> App[Any]:
        return self.screen.app

    def offer_to_resume(self) -> None:
        resume, notices = self.keeper.resume_question()
        self.tell(notices)
        if resume is None:  # the game the command line chose starts; else the dialog asks
            if self.screen.chosen:
                self.screen.begin()
            else:
                self._choose_new_game(starting=True)
            return
        saved = resume.saved
        self.screen.show_behind(saved)
        answers = [("Resume", "resume"), ("New game", "new")]

        def answered(answer: str | None) -> None:
            if answer == "resume":
                self.screen.start(saved)
            else:  # the game chosen next shelves this one; none chosen, this one goes on
                self._choose_new_game(starting=True)

        title = "Resume the game in progress?"
        self.app.push_screen(ChoiceScreen(title, resume.text, answers, escape="resume"), answered)

    def learn_first(self) -> None:
        """`dipole-tui learn`: the lessons over the game in progress, resumed without a word."""
        saved, notices = self.keeper.saved_game()
        self.tell(notices)
        self.screen.start(saved or self.session)
        self.open_lessons(self.screen.learn or None)

    def tell(self, notices: list[Notice], question: Question | None = None) -> None:
        """The notices, as toasts; the other player's question, put at once."""
        for notice in notices:
            self.app.notify(
                notice.text,
                title=notice.title,
                severity=notice.severity,
                timeout=notice.timeout,
                markup=False,
            )
        if question is not None:
            self._put(question)

    def _put(self, question: Question) -> None:
        def answered(answer: str | None) -> None:
            try:
                self.screen.after_change(self.keeper.referee.answer(question.what, answer == "yes"))
            except GameError as error:
                self.screen.refuse(f"{error}.")

        answers = [("Accept", "yes"), ("Decline", "no")]
        screen = ChoiceScreen(question.headline, question.text, answers, escape="no")
        self.app.push_screen(screen, answered)

    def game_over(self, over: GameOver, notices: list[Notice]) -> None:
        """The question at the end; the notices of the moment are lines of it (a toast would
        cover it)."""
        said = [
            f"{notice.title}: {notice.text}" if notice.title else notice.text for notice in notices
        ]
        text = "\n".join([over.text, *said])
        text = plain(text) if self.screen.ascii_glyphs else text  # a rating's change: 1500 → 1512
        answers = [
            ("Rematch", "rematch"),
            ("New game", "new"),
            ("Review", "review"),
            ("Quit", "quit"),
        ]
        if not self.keeper.referee.offers_rematch:  # online the server's to offer
            answers = answers[1:]

        def answered(answer: str | None) -> None:
            if answer == "rematch" and self.keeper.referee.relays_offers:  # the other is asked
                self._rematch_asked()
            elif answer == "rematch":
                self.screen.start(new_session(self.keeper.choice.rematch()))
            elif answer == "new":
                self.new_game()
            elif answer == "quit":
                self.app.exit()
            elif answer == "review":
                self.screen.action_review()
            else:
                self.screen.call_after_refresh(
                    self.screen.area.close_entry
                )  # Escape: look at the board

        self.app.push_screen(ChoiceScreen(over.headline, text, answers, escape="board"), answered)

    def _rematch_asked(self) -> None:
        try:
            self.screen.after_change(self.keeper.referee.rematch())
        except GameError as error:
            self.screen.refuse(f"{error}.")

    def confirm(self, event: GameBoard.MoveToConfirm[Any]) -> None:
        """A move the board asks to confirm (one that ends the game for the mover): played only
        if the game is still where it was chosen."""
        screen = self.screen
        answers = [("Keep playing", "no"), (event.confirm, "yes")]

        def answered(answer: str | None) -> None:
            if answer == "yes" and screen.still_here(event.position):
                screen.play(event.move)
            else:
                screen.board.choose_again()

        question = ChoiceScreen(event.question, event.text, answers, escape="no")
        self.app.push_screen(question, answered)

    def open_lessons(self, game: str | None = None) -> None:
        """The lessons and puzzles of a game (None: of every game)."""
        progress = Progress(self.keeper.autosave.folder)
        self.app.push_screen(
            LearnMenu(game, progress, self.screen.analyst, self.screen.ascii_glyphs)
        )

    def new_game(self) -> None:
        self._choose_new_game(starting=False)

    def _choose_new_game(self, starting: bool) -> None:
        """The new-game dialog; cancelled at start-up, the game on screen simply begins."""

        def chosen(choice: GameChoice | LearnChoice | OnlineChoice | None) -> None:
            if isinstance(choice, GameChoice):
                self.screen.start(new_session(choice))
            elif isinstance(choice, OnlineChoice):
                self.screen.online.go_online(choice)
            elif starting:
                self.screen.start(self.session)
            if isinstance(choice, LearnChoice):
                self.open_lessons(choice.game_key)

        seats = self.keeper.seat_book.seats()
        self.tell(self.keeper.settings_notices())
        server = seats[-1].server if seats else DEFAULT_SERVER
        dialog = NewGameScreen(
            self.keeper.choice, server, self.keeper.ratings.said, self.keeper.name_book
        )
        self.app.push_screen(dialog, chosen)

    def stats(self) -> None:
        """Your statistics against the bots, the game on screen first."""
        results, key = self.keeper.ratings.results, self.session.game.key
        self.app.push_screen(StatsScreen(results, key, self.screen.ascii_glyphs))

    def save(self) -> None:
        default = str(self.keeper.autosave.save_name(self.session.game.key))

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.tell([self.keeper.save_as(path)])

        self.app.push_screen(FileScreen("Save the game as", default), chosen)

    def load(self) -> None:
        def chosen(path: Path | OnlineChoice | None) -> None:
            if isinstance(path, OnlineChoice):
                self.screen.online.go_online(path)
            if not isinstance(path, Path):
                return
            session, notice = self.keeper.open(path, playable())
            if session is not None:
                self.screen.start(session)
            self.tell([notice])

        autosave = self.keeper.autosave
        games = autosave.saved_games()
        default = str(Path.cwd()) + "/"
        online = self.keeper.seat_book.seats()
        self.tell(self.keeper.settings_notices())
        dialog = OpenScreen(games, autosave.folder, default, self.screen.ascii_glyphs, online)
        self.app.push_screen(dialog, chosen)

    # -- positions in and out ----------------------------------------------------------------

    def edit(self) -> None:
        """The position editor, from the position on screen; what it gives back is played on
        with the same seats."""
        session = self.session

        def edited(state: State[Any] | None) -> None:
            if state is not None:
                self.screen.start(Session(session.game, state, session.players))

        self.app.push_screen(
            EditorScreen(session.game, session.state, self.screen.ascii_glyphs), edited
        )

    def copy_position(self) -> None:
        position = self.session.state.position()
        self.app.copy_to_clipboard(position)
        self.tell([Notice(f"Copied the position: {position}", "Copy", timeout=4)])

    def copy_record(self) -> None:
        self.app.copy_to_clipboard(self.session.whole_game().record_text())
        self.tell([Notice("Copied the game's record.", "Copy", timeout=4)])

    def paste(self, event: events.Paste) -> None:
        """A record or a position pasted over the board opens it (the entry takes its own)."""
        if isinstance(self.screen.focused, Input):
            return
        event.stop()
        session, notice = self.keeper.pasted(event.text, playable())
        if session is not None:
            self.screen.start(session)
        self.tell([notice])

    def review(self) -> None:
        """Review the whole game, undone moves too, on a screen of its own."""
        whole = self.session.whole_game()
        if not whole.state.moves_played:
            self.app.notify("Nothing to review yet: no move has been played")
            return
        # The review's process needs the processor more than the analysis behind it does: the
        # analysis stops, and starts again on the game's position when the review is closed.
        self.screen.analysis.stop()
        review = ReviewScreen(whole.record_text(), self.screen.reviewer, self.screen.ascii_glyphs)
        self.app.push_screen(review, lambda _: self.screen.analysis.follow(self.session))
