"""Who rules the game on screen: this program, or a server (`remote_seat.ServerReferee`).

No Textual. The keeper holds one referee and swaps it when the screen joins or leaves a room; the
keeper and the screen ask it whatever differs between a game played here and one played at a
server (a move, a resignation, a draw, a flag, take-backs, help, the clock, the autosave), so
neither tells the two apart itself.
"""

from __future__ import annotations

import contextlib
import math
from typing import TYPE_CHECKING, Any, Protocol

from ..games.base import GameError
from ..online.client import Link
from ..online.protocol import ServerMessage
from ..online.seat import OnlineGame
from .changes import Change, Notice

if TYPE_CHECKING:
    from .keeper import Keeper

KEEP_TURN = 5.0  # seconds: while a clock runs, the game is written again this often


class Referee(Protocol):
    """What only the referee decides; every change it makes ends in the keeper's
    `after_change`, as the keeper's own do."""

    relays_offers: bool  # a draw offer goes to the opponent through the referee, unasked here

    @property
    def offers_rematch(self) -> bool:
        """The game-over dialog may start the same game again (here, or asked of the other)."""

    @property
    def room(self) -> OnlineGame | None:
        """The server's room the game is played in (None: played here)."""

    @property
    def link(self) -> Link | None:
        """The connection to that server (None: none)."""

    def play(self, move: Any) -> Change:
        """A legal move of the player here (IllegalMoveError when it may not be played)."""

    def resign(self, side: int) -> Change:
        """`side` resigns (GameError when the game is over or the server cannot be told)."""

    def draw(self) -> Change:
        """A draw: agreed by both players here, offered by this one to a server."""

    def flag(self, now: float | None = None) -> Change | None:
        """The side to move lost on time (None: it has not)."""

    def tick(self) -> Change | None:
        """A tick of a running clock: the flag, when it falls (None: nothing to show)."""

    def keep(self) -> None:
        """The game in progress written to the autosave, where it is kept here."""

    def start_clock(self) -> None:
        """A game goes on: its clock runs, where this referee runs it."""

    def may_abort(self) -> bool:
        """The game may be called off with no result now."""

    def abort(self) -> Change:
        """Call the game off (GameError when `may_abort` says no)."""

    def why_no_take_back(self) -> str:
        """Why no move may be taken back, whatever was played ("" when one may)."""

    def take_back(self) -> Change:
        """Take back a move (the keeper checked one may): here at once, at a server asked."""

    def answer(self, what: str, yes: bool) -> Change:
        """The player's answer to the other's `Question` (GameError when nobody asks here)."""

    def rematch(self) -> Change:
        """Ask the server for a rematch (GameError where the screen starts it itself)."""

    def say(self, text: str) -> Change:
        """A chat line to the room (GameError where there is none)."""

    def why_no_help(self) -> str:
        """Why no hint, analysis nor review may be asked now ("" when one may)."""

    def why_no_edit(self) -> str:
        """Why the position editor may not open ("" when it may)."""

    def waiting_for(self, name: str) -> str:
        """Why the person here cannot move while the game goes on, `name` to move."""

    def from_server(self, message: ServerMessage) -> Change | None:
        """A message of the server: the game on screen follows it (None: nothing to show)."""

    def link_down(self) -> None:
        """The connection to the server dropped."""


class LocalReferee:
    """A game refereed here: the session's own rules and clock, and the autosave."""

    room: OnlineGame | None = None
    link: Link | None = None
    relays_offers = False  # the screen asks the other player first: a person, or a bot
    offers_rematch = True

    def __init__(self, keeper: Keeper) -> None:
        self.keeper = keeper
        self._written_at = -math.inf  # when the clock's source last saw the autosave written

    def play(self, move: Any) -> Change:
        """`Session.play` refuses a move not legal here (IllegalMoveError, nothing changed)."""
        keeper, session = self.keeper, self.keeper.session
        mover = session.game.side_names[session.state.to_move]
        passes = session.play(move)
        message = session.game.move_sentence(mover, move)
        if passes:
            message += " " + keeper.pass_notice()
        return keeper.after_change(message)

    def resign(self, side: int) -> Change:
        self.keeper.session.resign(side)
        return self.keeper.ended()

    def draw(self) -> Change:
        """GameError where the game has no draws, or is over."""
        self.keeper.session.agree_draw()
        return self.keeper.ended()

    def flag(self, now: float | None = None) -> Change | None:
        return self.keeper.ended() if self.keeper.session.check_flag(now) else None

    def tick(self) -> Change | None:
        """The flag, when it falls; else, every `KEEP_TURN` seconds, the game written again
        with the time the side to move has used so far, so that an app killed mid-turn resumes
        it with all but those last seconds charged."""
        if (flagged := self.flag()) is not None:
            return flagged
        clock = self.keeper.session.clock
        if clock is not None and clock.running and clock.now() - self._written_at >= KEEP_TURN:
            self.keep()
        return None

    def keep(self) -> None:
        """A failure is kept in the keeper's `unkept` until a write succeeds."""
        keeper = self.keeper
        if keeper.session.clock is not None:
            self._written_at = keeper.session.clock.now()
        with contextlib.suppress(OSError, GameError):
            keeper.autosave.write(keeper.session.whole_game())

    def start_clock(self) -> None:
        self.keeper.session.start_clock()

    def may_abort(self) -> bool:
        return self.keeper.session.abortable

    def abort(self) -> Change:
        self.keeper.session.abort()
        change = self.keeper.after_change()
        said = "No result, and nothing of it is kept."
        change.notices.append(Notice(said, "Game aborted", timeout=6))
        return change

    def why_no_take_back(self) -> str:
        return ""

    def take_back(self) -> Change:
        """Against a bot, back to the person's previous turn; redo replays what was undone."""
        session = self.keeper.session
        undone = [move for move in session.undo_to_human() if not session.is_pass(move)]
        if len(undone) == 1:
            return self.keeper.after_change("Move taken back (U or ctrl+r replays it).")
        return self.keeper.after_change(
            f"{len(undone)} moves taken back (U or ctrl+r replays them)."
        )

    def answer(self, what: str, yes: bool) -> Change:
        raise GameError("nobody asks anything of a game played here")

    def rematch(self) -> Change:
        raise GameError("a rematch here is a new game: the screen starts it")

    def say(self, text: str) -> Change:
        raise GameError("chat is for online games: there is nobody to read it here")

    def why_no_help(self) -> str:
        return ""

    def why_no_edit(self) -> str:
        return ""

    def waiting_for(self, name: str) -> str:
        return f"it is {name}'s bot's turn"

    def from_server(self, message: ServerMessage) -> Change | None:
        """A late message of a room the screen left: nothing here follows it."""
        return None

    def link_down(self) -> None:
        """A link closed after its room was left: nothing here runs on it."""
