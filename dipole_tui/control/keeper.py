"""The game behind the screen: the session, its files, the adaptive seat and who sits where.

No Textual here. The game screen hands the keeper what the player did (a move, undo, a new game,
a file to open) and shows what it answers: a `Change` (the panel's message, notices, the end of
the game) or a refusal. So every rule of keeping a game (written after every change, filed once
when finished, never lost on quitting, the adaptive level moved once) is tested without an app.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, NamedTuple

from .. import storage
from ..adaptive import AdaptiveLevels
from ..games.base import GameError, title
from ..online.client import Link
from ..online.names import NameBook
from ..online.seat import OnlineGame, SeatBook
from ..records import RecordError, from_the_start, load_record
from ..saves import Autosave, refused
from ..session import HUMAN, KEPT_LIMIT, Seat, Session, game_named
from .changes import Change, GameOver, Notice
from .choice import GameChoice
from .rated import HomeRatings
from .referee import LocalReferee, Referee
from .server_referee import ServerReferee


class Resume(NamedTuple):
    """An unfinished game was found at start-up: the question to ask, and the game."""

    saved: Session[Any]
    text: str


def new_session(choice: GameChoice) -> Session[Any]:
    game = game_named(choice.game_key)
    return Session.new(game, choice.variant, choice.players, choice.time_control)


def cut_comments(session: Session[Any]) -> list[Notice]:
    """Said once when a game is taken up whose record had more comments than it may keep."""
    if not session.notes.cut:
        return []
    said = f"{session.notes.cut} comments past the first {KEPT_LIMIT // 1000} KB of the record"
    return [Notice(f"{said} are not kept with this game", "Comments", "warning", 12)]


class Keeper:
    """Holds the session and keeps it on disk: every change ends in `after_change`. Its
    referee (this program's rules, or a server's) decides what differs online."""

    def __init__(self, session: Session[Any], autosave: Autosave) -> None:
        self.session = session
        self.autosave = autosave
        self.adaptive = AdaptiveLevels(autosave.folder)
        # Where the workers write what went wrong when a bot or an analysis fails.
        self.error_log = autosave.folder / "bot-errors.log"
        self.filed = False  # the finished game is in finished/ already
        self._adapted = False  # the adaptive seat has followed this game's result
        self._played_at: str | None = None  # then, the adaptive level this game was played at
        self.referee: Referee = LocalReferee(self)
        self.seat_book = SeatBook(autosave.folder)
        self.name_book = NameBook(autosave.folder)
        self.ratings = HomeRatings(autosave.folder)  # your games against the ladder

    @property
    def online(self) -> OnlineGame | None:
        """The server's room the game on screen is played in (None: a game played here)."""
        return self.referee.room

    def go_online(self, room: OnlineGame, link: Link) -> list[Notice]:
        """This screen's game is now a room of a server: the unfinished game here is kept."""
        notices = self._shelve()
        self.referee = ServerReferee(self, room, link)
        return notices

    def leave_room(self) -> Link | None:
        """Back to games played here; the link to close, if any."""
        link, self.referee = self.referee.link, LocalReferee(self)
        return link

    @property
    def choice(self) -> GameChoice:
        """The game on screen as the new-game dialog offers it again."""
        session = self.session
        control = session.clock.control if session.clock is not None else None
        white, black = (HUMAN if seat.is_remote else seat for seat in session.players)
        return GameChoice(session.game.key, session.state.variant, (white, black), control)

    # -- seats -----------------------------------------------------------------------------

    def level_of(self, seat: Seat, game_key: str) -> str:
        """The bot level a bot seat plays at: the adaptive seat's is the one reached so far, but
        the game on screen keeps the level it was played at once its result has moved it."""
        if not seat.is_adaptive:
            return seat.level or str(seat)
        if self._played_at is not None and game_key == self.session.game.key:
            return self._played_at
        return self.adaptive.level(game_key)

    @property
    def human_to_move(self) -> bool:
        """A person may move now: the game goes on and the side to move is a human seat."""
        session = self.session
        return session.outcome is None and session.players[session.state.to_move].is_person

    def acting_side(self) -> int | None:
        """The side the person at the keyboard plays now, who may resign or offer a draw:
        against a bot the person's, in a hot-seat game the side to move; None when no person
        plays or the game is over."""
        session = self.session
        humans = session.human_sides()
        if session.outcome is not None or not humans:
            return None
        return session.state.to_move if len(humans) == 2 else humans[0]

    def waiting_for(self) -> str:
        """Why a person cannot move now, in words."""
        session = self.session
        if session.outcome is not None:
            return "the game is over"
        return self.referee.waiting_for(session.game.side_names[session.state.to_move])

    # -- start-up --------------------------------------------------------------------------

    def claim(self) -> list[Notice]:
        """This app's own game-in-progress file, and what to say about the others; and the
        settings files set aside, if any (the seat and name books are read now to know)."""
        notices = [Notice(text, "Autosave", timeout=8) for text in self.autosave.claim()]
        self.seat_book.seats()
        self.name_book.names()
        return notices + self.settings_notices()

    def settings_notices(self) -> list[Notice]:
        """The settings files set aside since last asked (`adaptive.json`, `online.json`,
        `names.json`, `results.json`)."""
        owners = (self.adaptive, self.seat_book, self.name_book, self.ratings)
        notices = [Notice(o.problem, "Settings", "warning", 12) for o in owners if o.problem]
        for owner in owners:
            owner.problem = ""
        return notices

    def saved_game(self) -> tuple[Session[Any] | None, list[Notice]]:
        """The game in progress the autosave holds (None: none, or none worth resuming)."""
        try:
            saved = self.autosave.load()
        except (RecordError, OSError) as error:  # damaged (set aside), or finished, not filed
            return None, [damaged(str(error))]
        if saved is None or saved.is_fresh:
            return None, []  # nothing played from the start: the next game's autosave replaces it
        return saved, []

    def resume_question(self) -> tuple[Resume | None, list[Notice]]:
        """The resume decision at start-up: a game to offer, or None (choose a new game)."""
        saved, notices = self.saved_game()
        if saved is None:
            return None, notices
        plies = saved.state.plies
        played = {0: "a set-up position, no move", 1: "1 ply"}.get(plies, f"{plies} plies")
        return Resume(saved, f"{title(saved.game, saved.state.variant)}, {played} played."), notices

    def begin_new(self) -> list[Notice]:
        """`--new`, or `play RECORD`: the game given starts now; an unfinished one on disk is
        kept first. A finished game opened is filed already (it is a file): not again."""
        notices = self._shelve() + cut_comments(self.session)
        self._take_up(self.session)
        if not self.filed:
            self.referee.keep()
        return notices

    # -- changing the game -----------------------------------------------------------------

    def start(self, session: Session[Any]) -> Change:
        """Another game in place of this one (new, loaded, resumed); an unfinished game it
        replaces is kept, not overwritten."""
        notices: list[Notice] = []
        replaced = self.session.whole_game()
        if session is not self.session and replaced.outcome is None and not replaced.is_slight:
            notices = self._shelve()
        notices += cut_comments(session)
        self._take_up(session)
        self.session = session
        last = session.last_move
        forced = last is not None and session.is_pass(last)
        change = self.after_change(self.pass_notice() if forced else "")
        change.notices[:0] = notices
        return change

    def _take_up(self, session: Session[Any]) -> None:
        """A game begins here: one already finished (loaded) is a file already, and its result
        has been counted; it is neither filed nor counted again."""
        self.filed = self._adapted = session.whole_game().outcome is not None
        self.ratings.take_up(self.filed)
        self._played_at = None

    def play(self, move: Any) -> Change:
        """Play a move from anywhere, as the referee plays it. A move that comes after the
        mover's flag fell is too late: the game is lost on time instead."""
        if (flagged := self.referee.flag()) is not None:
            return flagged
        session = self.session
        if session.game.is_resignation(move):  # `resign` typed: as R does (online too)
            return self.referee.resign(session.state.to_move)
        return self.referee.play(move)

    def tick(self) -> Change | None:
        """A tick of the running clock, as the referee counts it: a flag, the game kept."""
        return self.referee.tick()

    def why_no_undo(self) -> str:
        """Why no move can be taken back now; "" when one can."""
        if why := self.referee.why_no_take_back():
            return why
        return "" if self.session.can_undo() else "Nothing to undo."

    def undo(self) -> Change | None:
        """Take back a move, as the referee does (None: nothing to undo)."""
        return None if self.why_no_undo() else self.referee.take_back()

    def redo(self) -> Change | None:
        if not self.session.redo_moves:
            return None
        self.session.redo_to_human()
        return self.after_change()

    def pass_notice(self) -> str:
        """Said after the program passes for a side with no legal move."""
        side = self.session.game.side_names[1 - self.session.state.to_move]
        return f"{side} has no legal move and passes."

    def ended(self) -> Change:
        """The game ended here (a resignation, a draw, a flag): its reason said, and kept."""
        outcome = self.session.outcome
        return self.after_change(f"{outcome.reason}." if outcome is not None else "")

    def after_change(self, message: str = "") -> Change:
        """Every change of the game ends here: the game is kept safe.

        The autosave holds the whole game, undone moves included, so a review never loses
        them; a finished game is filed under finished/ once and no longer offered to resume."""
        change = Change(message)
        whole = self.session.whole_game()
        if whole.outcome is None:
            self.filed = False
            self.referee.keep()
        elif not self.filed:
            self.filed = True
            try:
                filed: Path | None = self.autosave.finish(whole)
            except (OSError, GameError):  # kept pending, and tried again: `unkept` says so
                filed = None
            change.notices += self.ratings.ended(whole, self.level_of)  # before: its level
            change.notices += self._adapt(whole)
            change.game_over = self._game_over(filed)
        else:
            change.notices += self.retry_filing()
        change.notices += self.settings_notices()
        return change

    # -- keeping it ------------------------------------------------------------------------

    @property
    def unkept(self) -> str:
        """Why the game is not safe on disk now; "" when it is."""
        return self.autosave.problem

    def retry_filing(self) -> list[Notice]:
        """A finished game that could not be filed, tried again (it is in the autosave)."""
        with contextlib.suppress(OSError, GameError):
            if (filed := self.autosave.retry()) is not None:
                return [
                    Notice(
                        f"The finished game is kept now, as {self.autosave.named(filed)}", timeout=6
                    )
                ]
        return []

    def may_quit(self) -> tuple[str, list[Notice]]:
        """Before quitting, what is not kept is tried once more; "" when nothing would be lost,
        else why the game is not kept."""
        notices: list[Notice] = []
        if self.autosave.problem:
            if self.autosave.pending is not None:
                notices = self.retry_filing()
            else:
                self.referee.keep()
        return self.autosave.problem, notices

    def save_as(self, path: Path) -> Notice:
        """The whole game written to a file the player named."""
        if refusal := refused(path):
            return Notice(refusal, severity="error")
        try:
            if path.parent == self.autosave.saved_folder:
                storage.make_folder(path.parent)  # made when first used
            self.session.whole_game().save(path)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            return Notice(f"could not save {path}: {reason}", severity="error")
        return Notice(f"Saved to {path}")

    def open(self, path: Path, playable: list[str]) -> tuple[Session[Any] | None, Notice]:
        """A record file read into a session (None, and why, when it cannot be played here)."""
        if refusal := refused(path):
            return None, Notice(refusal, "Load", "error", timeout=10)
        try:
            session = Session.from_record(load_record(path))
        except GameError as error:
            return None, Notice(str(error), "Load", "error", timeout=10)
        if session.game.key not in playable:
            text = f"{session.game.name} is not playable here yet: try dipole-tui replay"
            return None, Notice(text, "Load", "error", timeout=10)
        return session, Notice(f"Loaded {path}")

    def pasted(self, text: str, playable: list[str]) -> tuple[Session[Any] | None, Notice]:
        """A pasted record, or a position of the game on screen (then of any game played here),
        read into a session; None, and why, when it is neither."""
        text = text.strip()
        if not text:
            return None, Notice("Nothing was pasted.", "Paste", "error")
        try:
            session = Session.from_text(text)
        except GameError as error:
            position = self._pasted_position(text, playable)
            if position is None:
                said = f"the pasted text is neither a record nor a position ({error})"
                return None, Notice(said, "Paste", "error", timeout=10)
            session = position
        if session.game.key not in playable:
            text = f"{session.game.name} is not playable here yet: try dipole-tui replay"
            return None, Notice(text, "Paste", "error", timeout=10)
        kind = "position" if not session.state.moves_played else "game"
        return session, Notice(f"Opened the pasted {kind}.", "Paste")

    def _pasted_position(self, text: str, playable: list[str]) -> Session[Any] | None:
        here = self.session.game.key
        for key in sorted(playable, key=lambda key: key != here):
            game = game_named(key)
            try:
                state = game.parse_position(text)
            except GameError:
                continue
            players = self.session.players if key == here else (HUMAN, HUMAN)
            return Session(game, state, players)
        return None

    def release(self) -> None:
        """The app ends (`q`, a signal): a clock game going on is written once more with the
        time its side to move has used of this turn, so that quitting never gives it back; then
        the game-in-progress file is let go."""
        session = self.session
        if session.clock is not None and session.whole_game().outcome is None:
            session.stop_clock()
            self.referee.keep()
        self.autosave.release()

    def _shelve(self) -> list[Notice]:
        try:
            kept = self.autosave.shelve()
        except RecordError as error:  # damaged: set aside, and nothing to file
            return [damaged(str(error))]
        except OSError as error:
            return [Notice(f"could not keep the old game: {error.strerror}", severity="error")]
        if kept is None:
            return []
        return [
            Notice(
                f"The unfinished game is kept as {self.autosave.named(kept)} (o opens it)",
                timeout=6,
            )
        ]

    def _adapt(self, whole: Session[Any]) -> list[Notice]:
        """A game between a person and the adaptive bot is over: the bot's next level, once."""
        seats, outcome = whole.players, whole.outcome
        person = next((side for side, seat in enumerate(seats) if seat.is_person), None)
        if self._adapted or outcome is None or person is None or not seats[1 - person].is_adaptive:
            return []
        self._adapted = True
        key = whole.game.key
        before = self._played_at = self.adaptive.level(key)
        if not from_the_start(whole.game, whole.state):
            said = f"The adaptive bot stays at {before}: only games from the start count."
            return [Notice(said, "Adaptive", timeout=10)]
        won = None if outcome.winner is None else outcome.winner == person
        try:
            after = self.adaptive.after(key, won)
        except OSError as error:
            return [Notice(f"could not keep the adaptive level: {error.strerror or error}")]
        if after == before:
            said = f"The adaptive bot stays at {after}."
        else:
            said = f"The adaptive bot moves {'up' if won else 'down'} to {after} for the next game."
        return [Notice(said, "Adaptive", timeout=10)]

    def _game_over(self, filed: Path | None) -> GameOver | None:
        """The question at the end, when the game on screen (not only its whole) is over."""
        outcome = self.session.outcome
        if outcome is None:
            return None
        if outcome.winner is None:
            headline = "The game is drawn"
        else:
            headline = f"{self.session.game.side_names[outcome.winner]} wins"
        text = f"{outcome.reason}."
        if filed is not None:
            text += f"\nThe game is saved as {filed}."
        text += "\nReview judges every move; Escape goes back to the board."
        return GameOver(headline, text)


def damaged(message: str) -> Notice:
    """A damaged autosave, said as it is."""
    return Notice(message, "Autosave", "error", timeout=12)
