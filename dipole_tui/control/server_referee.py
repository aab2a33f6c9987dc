"""The server's referee: a game whose other player sits at the other end of a server.

No Textual. The server referees: a move of the player here is played here (the session is the
last guard) and sent, as are a resignation and a draw offer; the server's messages (the
opponent's moves, the whole game after a reconnection, the end) come in through `from_server` and
change the game as the keeper's own changes do, ending in `after_change`. Nothing of an online
game goes to the autosave: the server keeps it, and the finished game is filed here once, like a
game played here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games.base import GameError, IllegalMoveError
from ..online.client import Link
from ..online.protocol import (
    Decline,
    Draw,
    Move,
    Moved,
    Named,
    Rematch,
    Resign,
    Say,
    Seated,
    ServerMessage,
    TakeBack,
)
from ..online.seat import WORDS, OnlineGame, Sending
from .changes import Change, Notice, Question

if TYPE_CHECKING:
    from .keeper import Keeper

NO_HELP = "No analysis while you play an online game: it comes back when the game ends."


class ServerReferee:
    """A room of a server, and the link its moves go through (a `referee.Referee`)."""

    relays_offers = True  # the server asks the other player

    def __init__(self, keeper: Keeper, room: OnlineGame, link: Link) -> None:
        self.keeper, self.room, self.link = keeper, room, link

    @property
    def offers_rematch(self) -> bool:
        """A player (not a watcher) may ask the other for a rematch."""
        return self.room.side is not None

    def from_server(self, message: ServerMessage) -> Change | None:
        keeper, room = self.keeper, self.room
        try:
            got = room.receive(message, keeper.session)
        except ValueError:  # GameError, a move or an event out of step: the server's whole game
            room.version = None
            self.link.resync()
            return None
        if got.resync:
            self.link.resync()
        unkept: list[Notice] = []
        if isinstance(message, Seated):  # a reconnection asks for this seat (or place) again
            self.link.seated(room.rejoin)
            unkept = self._keep_seat()
        if isinstance(message, Named) and message.token is not None:
            unkept = self._keep_name(message.name, message.token)
        change: Change | None = Change(got.said) if got.said or unkept else None
        if got.session is not None:
            keeper.session = got.session
            change = self._online_change(got.said)
        elif got.move is not None and isinstance(message, Moved):
            session = keeper.session
            mover = session.game.side_names[session.state.to_move]
            session.play(got.move)
            room.set_clocks(session, message)
            change = self._online_change(session.game.move_sentence(mover, got.move))
        if change is not None:
            change.notices += unkept
            if got.asked:
                change.question = self._question(got.asked, got.said)
        return change

    def _question(self, what: str, said: str) -> Question:
        """The other player's take-back or rematch, put to the player here."""
        if what == "rematch":
            room = self.room
            side = (
                self.keeper.session.game.side_names[1 - room.side] if room.side is not None else ""
            )
            text = f"{said}\nThe same game again, with you as {side}."
            return Question("A rematch?", text, what)
        text = f"{said}\nAccepting goes back to before their last move."
        return Question("A take-back?", text, what)

    def _online_change(self, said: str) -> Change:
        """`after_change` for an online game: its end (seen by a move, an `ended` or a whole
        game after a reconnection) is filed once, by a player; a watcher files nothing."""
        room, keeper = self.room, self.keeper
        first = False
        if keeper.session.outcome is not None:
            first = room.side is not None and not room.filed
            keeper.filed = not first
            room.filed = True
        change = keeper.after_change(said)
        if first:
            change.notices += self._keep_seat()
        over, rated = change.game_over, [line for line in said.splitlines() if line.startswith(
            "Ratings: ")]  # fmt: skip
        if over is not None and rated:  # the end's dialog says the ratings' changes too
            reason, _, rest = over.text.partition("\n")
            change.game_over = over._replace(text="\n".join([reason, *rated, rest]).rstrip())
        return change

    def why_no_help(self) -> str:
        """A player of a live online game plays on their own ("" when watching, or once the
        game is over). Until the server has seated the player, the room is one played in."""
        room = self.room
        if room.seated and (room.side is None or self.keeper.session.outcome is not None):
            return ""
        return NO_HELP

    def why_no_edit(self) -> str:
        """The editor's Play starts a game here, and the game on screen is a server's."""
        return f"No editor in online room {self.room.code}: y copies the position, for a game here."

    def why_no_take_back(self) -> str:
        """The other player is asked: a player of a casual game may ask."""
        if self.room.side is None:
            return "You are watching: only the players take moves back."
        if self.room.rated:
            return "No take-backs in a rated game."
        return ""

    def take_back(self) -> Change:
        room = self.room
        self._send(TakeBack(room.code))
        if room.asked == ("takeback", 1 - (room.side or 0)):
            return Change("Take-back accepted...")
        return Change("Take-back asked: the other player accepts or declines.")

    def answer(self, what: str, yes: bool) -> Change:
        """Yes is asking the same (the server takes it as the acceptance), no a `decline`."""
        code = self.room.code
        if not yes:
            self._send(Decline(code, what))
            return Change(f"You declined the {WORDS[what]}.")
        self._send(TakeBack(code) if what == "takeback" else Rematch(code))
        return Change(f"{WORDS[what].capitalize()} accepted...")

    def rematch(self) -> Change:
        self._send(Rematch(self.room.code))
        return Change("Rematch offered: waiting for the other player's answer.")

    def say(self, text: str) -> Change:
        self._send(Say(self.room.code, text))
        return Change()

    def waiting_for(self, name: str) -> str:
        return "you are watching" if self.room.side is None else f"it is {name}'s turn"

    def play(self, move: Any) -> Change:
        """A move of the player here: played here (the last guard), then sent, and said as
        sending until the server acknowledges it (`moved`). One the server refuses, or never
        got (it went down meanwhile), is said when its game comes back on reconnection."""
        session, room = self.keeper.session, self.room
        if room.seeking:
            raise IllegalMoveError("your seek waits in the lobby: the game starts when it is taken")
        if not self.link.connected or not room.current:
            raise IllegalMoveError("not connected to the server yet: wait a moment, then play")
        if room.sending is not None:
            raise IllegalMoveError(f"{room.sending.move} is on its way to the server: a moment")
        ply, mover = session.state.plies, session.game.side_names[session.state.to_move]
        session.play(move)
        text = session.game.format_move(move)
        room.sending = Sending(ply, text, session.game.move_sentence(mover, move))
        self.link.send(Move(room.code, ply, text))  # unsent: said on rejoin
        return self._online_change(f"{text}: sending...")

    def resign(self, side: int) -> Change:
        """The server ends the game, and says so to both."""
        self._send(Resign(self.room.code))
        return Change("Resigned; the server ends the game...")

    def draw(self) -> Change:
        """An offer to the server, which ends the game when the other side offers too."""
        self._send(Draw(self.room.code))
        return Change("Draw offered: it stands until the next move.")

    def flag(self, now: float | None = None) -> Change | None:
        """The server's clocks are the ones that count: it says when a flag fell."""
        return None

    def tick(self) -> Change | None:
        return None

    def keep(self) -> None:
        """Never an online game's: its server keeps it."""

    def start_clock(self) -> None:
        """The server's clocks say when they run."""

    def may_abort(self) -> bool:
        """The server has no abort: `R` resigns."""
        return False

    def abort(self) -> Change:
        raise GameError("a game server's room has no abort: R resigns")

    def link_down(self) -> None:
        """The clocks shown stop where they are, since nobody's time is charged while the
        server cannot hear the players; its game, on reconnection, says the times again."""
        self.room.current = False  # a move waits for the server's game: the other may have moved
        if (clock := self.keeper.session.clock) is not None:
            clock.stop()

    def _send(self, message: Resign | Draw | TakeBack | Rematch | Decline | Say) -> None:
        if not self.link.send(message):
            raise GameError("not connected to the server: try again once it is back")

    def _keep_name(self, name: str, token: str) -> list[Notice]:
        """A new name's token written to the name book; a warning when it cannot be, as the
        name is then this app's only as long as it runs."""
        try:
            self.keeper.name_book.keep(self.room.server, name, token)
        except OSError as error:
            said = f"Your name {name} could not be kept ({error}): it is yours until you quit."
            return [Notice(said, title="Name not kept", severity="warning", timeout=12)]
        return [Notice(f"You play as {name} on this server now.", title="Online", timeout=8)]

    def _keep_seat(self) -> list[Notice]:
        """The seat written to the seat book; a warning when it cannot be, as the player then
        cannot come back to the game after leaving it."""
        seat = self.room.seat()
        if seat is None:
            return []
        try:
            self.keeper.seat_book.keep(seat)
        except OSError as error:
            said = (
                f"Your seat in room {seat.room} could not be kept ({error}): stay in the game,"
                " as you could not come back to it after leaving."
            )
            return [Notice(said, title="Seat not kept", severity="warning", timeout=12)]
        return []
