"""The keeper's remote seat: a game whose other player sits at the other end of a server.

No Textual. The server referees: a move of the player here is played here (the session is the
last guard) and sent; the server's messages (the opponent's moves, the whole game after a
reconnection, the end) come in through `from_server` and change the game as the keeper's own
changes do, ending in `after_change`. Nothing of an online game goes to the autosave: the
server keeps it, and the finished game is filed here once, like a game played here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games.base import GameError, IllegalMoveError
from ..online.client import Link
from ..online.protocol import CLIENT_TYPES, Move, Moved, Seated, ServerMessage
from ..online.seat import OnlineGame, SeatBook, Sending
from .changes import Change, Notice

NO_HELP = "No analysis while you play an online game: it comes back when the game ends."

if TYPE_CHECKING:
    from ..session import Session


class RemoteSeat:
    """The online half of the keeper (`Keeper` inherits it)."""

    online: OnlineGame | None
    link: Link | None
    seat_book: SeatBook
    session: Session[Any]
    _filed: bool

    if TYPE_CHECKING:

        def after_change(self, message: str = "") -> Change: ...
        def _shelve(self) -> list[Notice]: ...

    def go_online(self, room: OnlineGame, link: Link) -> list[Notice]:
        """This screen's game is now a room of a server: the unfinished game here is kept."""
        notices = self._shelve()
        self.online, self.link = room, link
        return notices

    def leave_room(self) -> Link | None:
        """Back to games played here; the link to close, if any."""
        link, self.online, self.link = self.link, None, None
        return link

    def from_server(self, message: ServerMessage) -> Change | None:
        """A message of the server: the game on screen follows it (None: nothing to show)."""
        room = self.online
        if room is None:
            return None
        try:
            got = room.receive(message, self.session)
        except (GameError, KeyError, TypeError, ValueError):  # out of step: the server's game
            if self.link is not None:
                self.link.resync()
            return None
        if got.resync and self.link is not None:
            self.link.resync()
        unkept: list[Notice] = []
        if isinstance(message, Seated):  # a reconnection asks for this seat (or place) again
            if self.link is not None:
                self.link.seated(room.code, room.secret)
            unkept = self._keep_seat()
        change: Change | None = Change(got.said) if got.said or unkept else None
        if got.session is not None:
            self.session = got.session
            change = self._online_change(got.said)
        elif got.move is not None and isinstance(message, Moved):
            mover = self.session.game.side_names[self.session.state.to_move]
            self.session.play(got.move)
            room.set_clocks(self.session, message)
            change = self._online_change(self.session.game.move_sentence(mover, got.move))
        if change is not None:
            change.notices += unkept
        return change

    def _online_change(self, said: str) -> Change:
        """`after_change` for an online game: its end (seen by a move, an `ended` or a whole
        game after a reconnection) is filed once, by a player; a watcher files nothing."""
        room = self.online
        first = False
        if room is not None and self.session.outcome is not None:
            first = room.side is not None and not room.filed
            self._filed = not first
            room.filed = True
        change = self.after_change(said)
        if first:
            change.notices += self._keep_seat()
        return change

    def why_no_help(self) -> str:
        """Why no hint, analysis nor review may be asked now: a player of a live online game
        plays on their own ("" when one may: watching, or once the game is over). Until the
        server has seated the player, the room is one played in."""
        room = self.online
        if room is None or (room.seated and room.side is None):
            return ""
        if room.seated and self.session.outcome is not None:
            return ""
        return NO_HELP

    def why_no_edit(self) -> str:
        """Why the position editor may not open: its Play starts a game here, and the game on
        screen is a server's ("" when it may)."""
        room = self.online
        if room is None:
            return ""
        return f"No editor in online room {room.code}: y copies the position, for a game here."

    def _play_online(self, move: Any) -> Change:
        """A move of the player here: played here (the last guard), then sent, and said as
        sending until the server acknowledges it (`moved`). One the server refuses, or never
        got (it went down meanwhile), is said when its game comes back on reconnection."""
        session, room = self.session, self.online
        assert room is not None
        if self.link is None or not self.link.connected or not room.current:
            raise IllegalMoveError("not connected to the server yet: wait a moment, then play")
        if room.sending is not None:
            raise IllegalMoveError(f"{room.sending.move} is on its way to the server: a moment")
        ply, mover = session.state.plies, session.game.side_names[session.state.to_move]
        session.play(move)
        text = session.game.format_move(move)
        room.sending = Sending(ply, text, session.game.move_sentence(mover, move))
        self.link.send(Move(room.code, ply, text))  # unsent: said on rejoin
        return self._online_change(f"{text}: sending...")

    def link_down(self) -> None:
        """The connection dropped: the clocks shown stop where they are, since nobody's time
        is charged while the server cannot hear the players; its game, on reconnection, says
        the times again."""
        room, clock = self.online, self.session.clock
        if room is None:
            return
        room.current = False  # a move waits for the server's game: the other may have moved
        if clock is not None:
            clock.stop()

    def _send(self, kind: str, **fields: Any) -> None:
        """The keeper's `resign` and `draw`, by their types (`Resign`, `Draw`)."""
        if self.link is None or not self.link.send(CLIENT_TYPES[kind](**fields)):
            raise GameError("not connected to the server: try again once it is back")

    def _keep_seat(self) -> list[Notice]:
        """The seat written to the seat book; a warning when it cannot be, as the player then
        cannot come back to the game after leaving it."""
        seat = self.online.seat() if self.online is not None else None
        if seat is None:
            return []
        try:
            self.seat_book.keep(seat)
        except OSError as error:
            said = (
                f"Your seat in room {seat.room} could not be kept ({error}): stay in the game,"
                " as you could not come back to it after leaving."
            )
            return [Notice(said, title="Seat not kept", severity="warning", timeout=12)]
        return []

    def _ended(self) -> Change:
        outcome = self.session.outcome
        return self.after_change(f"{outcome.reason}." if outcome is not None else "")
