"""The keeper's remote seat without a server: what each server message does to the game here,
what the player's moves send, and the finished game filed once."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from dipole_tui.clock import TimeControl
from dipole_tui.control.keeper import Keeper
from dipole_tui.control.server_referee import NO_HELP
from dipole_tui.games.base import GameError, IllegalMoveError
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.online.client import Link
from dipole_tui.online.protocol import (
    ClientMessage,
    Clocks,
    Ended,
    Error,
    Join,
    Move,
    Moved,
    Offer,
    Resign,
    Seated,
    Sought,
    TakeBack,
    Watch,
    WholeGame,
)
from dipole_tui.online.seat import OnlineGame, RoomSeat, SeatBook, normalised
from dipole_tui.saves import Autosave
from dipole_tui.session import HUMAN, REMOTE, Session

SECRET = "s3cr3t-s3cr3t-s3cr3t"


class SentLink(Link):
    """A link that records what it would send, connected or not as the test says."""

    def __init__(self) -> None:
        super().__init__("ws://127.0.0.1:1", Watch("ABCDEF"), lambda m: None)
        self.connected = True
        self.sent: list[ClientMessage] = []
        self.resyncs = 0

    def send(self, message: ClientMessage) -> bool:
        if self.connected:
            self.sent.append(message)
        return self.connected

    def resync(self) -> None:
        self.resyncs += 1


def online_keeper(folder: Path, side: int | None = 0) -> tuple[Keeper, SentLink]:
    keeper = Keeper(Session.new(DIPOLE), Autosave(folder))
    keeper.claim()
    link = SentLink()
    keeper.go_online(OnlineGame("ws://127.0.0.1:1"), link)
    secret = SECRET if side is not None else None
    keeper.referee.from_server(Seated("ABCDEF", side, secret, None, "dipole", "8x8", None, 0))
    return keeper, link


def whole_game(
    session: Session[Any], clocks: Clocks | None = None, running: int | None = None
) -> WholeGame:
    """The server's whole game, at the version its moves made (no offers)."""
    record, plies = session.record_text(), session.state.plies
    both = (True, True)
    return WholeGame("ABCDEF", record, plies, clocks, running, both, both, 0, None, plies)


def ended(session: Session[Any], reason: str, version: int | None = None) -> Ended:
    """The end, by default the event after the last move's."""
    version = session.state.plies + 1 if version is None else version
    return Ended("ABCDEF", "1-0", reason, session.record_text(), version)


def moved(ply: int, move: str, version: int | None = None) -> Moved:
    """A move's event, by default the room's only events being moves."""
    return Moved("ABCDEF", ply, move, ply % 2, None, None, ply + 1 if version is None else version)


def test_the_server_game_takes_the_screen_with_the_seats_here_and_there(tmp_path: Path) -> None:
    keeper, _ = online_keeper(tmp_path, side=1)
    server = Session.new(DIPOLE)
    server.play(server.game.parse_move("e1-e3", server.state))
    change = keeper.referee.from_server(whole_game(server))
    assert change is not None
    assert keeper.session.state == server.state
    assert keeper.session.players == (REMOTE, HUMAN)
    assert keeper.human_to_move
    assert keeper.online is not None and keeper.online.code == "ABCDEF"
    assert SeatBook(tmp_path).find("ws://127.0.0.1:1", "ABCDEF") == RoomSeat(
        "ws://127.0.0.1:1", "ABCDEF", SECRET, 1, "dipole"
    )


def test_a_move_here_is_sending_until_the_server_acknowledges_it(tmp_path: Path) -> None:
    """Played here, sent, and said as sending (one at a time) until its `moved` comes back."""
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    room = keeper.online
    assert room is not None
    change = keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    assert change.message == "e1-e3: sending..."
    assert room.sending is not None and room.sending.move == "e1-e3"
    assert link.sent == [Move("ABCDEF", 0, "e1-e3")]
    acknowledged = keeper.referee.from_server(moved(0, "e1-e3"))
    assert acknowledged is not None and acknowledged.message == "White played e1-e3."
    assert room.sending is None
    assert keeper.session.state.plies == 1 and not keeper.human_to_move
    assert not keeper.autosave.path.exists() or "e1-e3" not in keeper.autosave.path.read_text()


def test_one_move_on_its_way_at_a_time(tmp_path: Path) -> None:
    """(A forced pass can give the player the next move before the first is acknowledged.)"""
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    with pytest.raises(IllegalMoveError, match="e1-e3 is on its way to the server"):
        keeper.play(keeper.session.game.parse_move("d8-d6", keeper.session.state))
    assert len(link.sent) == 1 and keeper.session.state.plies == 1


@pytest.mark.parametrize("stored", [True, False])
def test_a_move_the_server_never_got_is_said_on_reconnection(tmp_path: Path, stored: bool) -> None:
    """The server went down with the move on its way: its whole game on rejoin has the move
    (stored; the acknowledgement was lost) or not (said, and the board is the server's)."""
    keeper, _ = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    keeper.referee.link_down()
    server = Session.new(DIPOLE)
    if stored:
        server.play(server.game.parse_move("e1-e3", server.state))
    change = keeper.referee.from_server(whole_game(server))
    assert change is not None and keeper.online is not None and keeper.online.sending is None
    assert keeper.session.state.plies == (1 if stored else 0)
    said = "e1-e3 was not received by the server; play it again."
    assert change.message == ("" if stored else said)


def test_a_move_the_server_refuses_brings_its_game_back(tmp_path: Path) -> None:
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    change = keeper.referee.from_server(Error("refused", "the game is over", "ABCDEF"))
    assert change is not None and change.message == "the game is over"
    assert link.resyncs == 1
    change = keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    assert change is not None and keeper.session.state.plies == 0
    assert change.message == "e1-e3 was refused by the server: the game is over"


def test_the_clocks_shown_stop_while_the_link_is_down(tmp_path: Path) -> None:
    """Nobody's time is charged for a connection down: the clocks stop where they were, and
    the server's game on reconnection sets them."""
    keeper, _ = online_keeper(tmp_path)
    server = Session.new(DIPOLE, time_control=TimeControl(5, 3))
    keeper.referee.from_server(whole_game(server, clocks=(250.0, 300.0), running=0))
    clock = keeper.session.clock
    assert clock is not None and clock.running
    keeper.referee.link_down()
    left = clock.remaining(0)
    assert not clock.running and clock.remaining(0, now=clock.now() + 1000) == left
    keeper.referee.from_server(whole_game(server, clocks=(240.0, 300.0), running=0))
    clock = keeper.session.clock
    assert clock is not None and clock.running and 239.0 < clock.remaining(0) <= 240.0


def test_the_opponents_move_is_played_through_the_session(tmp_path: Path) -> None:
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    keeper.referee.from_server(moved(0, "e1-e3"))
    change = keeper.referee.from_server(moved(1, "d8-d6"))
    assert change is not None and change.message == "Black played d8-d6."
    assert [DIPOLE.format_move(m) for m in keeper.session.state.moves_played] == ["e1-e3", "d8-d6"]
    # A move the rules refuse here, or one for another ply, is no move: the server's game again.
    assert keeper.referee.from_server(moved(2, "a1-a8")) is None
    assert keeper.referee.from_server(moved(7, "e3-e5")) is None
    assert link.resyncs == 2 and keeper.session.state.plies == 2


def test_an_event_told_again_is_passed_over_and_a_gap_asks_for_the_whole_game(
    tmp_path: Path,
) -> None:
    """Each event once, in order (protocol 3): a duplicate changes nothing; one after a gap is
    not applied, and the rejoin asks for the whole game (no `since`)."""
    keeper, link = online_keeper(tmp_path, side=1)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    room = keeper.online
    assert room is not None and room.version == 0 and room.current
    assert keeper.referee.from_server(moved(0, "e1-e3")) is not None
    assert keeper.referee.from_server(moved(0, "e1-e3")) is None  # told again
    assert keeper.session.state.plies == 1 and room.version == 1 and link.resyncs == 0
    assert room.rejoin() == Join("ABCDEF", SECRET, since=1)
    keeper.play(keeper.session.game.parse_move("d8-d6", keeper.session.state))
    assert keeper.referee.from_server(moved(1, "d8-d6")) is not None  # acknowledged
    assert keeper.referee.from_server(moved(3, "d6-d4", version=4)) is None  # 3 is missing
    assert keeper.session.state.plies == 2 and link.resyncs == 1
    assert room.version is None and room.rejoin() == Join("ABCDEF", SECRET, since=None)


def test_a_reconnection_is_current_once_it_reaches_the_seated_version(tmp_path: Path) -> None:
    """Back with since=1, seated at 3: the events 2 and 3 bring it up to date, and only then
    may the player move; a move on its way makes the rejoin ask for the whole game."""
    keeper, link = online_keeper(tmp_path, side=0)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    room = keeper.online
    assert room is not None
    keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    assert room.rejoin() == Join("ABCDEF", SECRET, since=None)  # the move on its way
    keeper.referee.from_server(moved(0, "e1-e3"))
    assert room.rejoin() == Join("ABCDEF", SECRET, since=1)
    keeper.referee.link_down()
    keeper.referee.from_server(Seated("ABCDEF", 0, SECRET, None, "dipole", "8x8", None, 3))
    keeper.referee.from_server(moved(1, "d8-d6"))
    with pytest.raises(IllegalMoveError, match="not connected"):
        keeper.play(keeper.session.game.parse_move("e3-e5", keeper.session.state))
    change = keeper.referee.from_server(Offer("ABCDEF", 1, 3))
    assert change is not None and change.message.startswith("Black offers a draw")
    assert room.current and room.offer == 1 and link.resyncs == 0
    keeper.play(keeper.session.game.parse_move("e3-e5", keeper.session.state))
    assert link.sent[-1] == Move("ABCDEF", 2, "e3-e5")
    watcher, _ = online_keeper(tmp_path / "watcher", side=None)
    assert watcher.online is not None and watcher.online.rejoin() == Watch("ABCDEF", None)


def test_no_move_while_the_link_is_down_and_a_take_back_is_asked(tmp_path: Path) -> None:
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    link.connected = False
    with pytest.raises(IllegalMoveError, match="not connected"):
        keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    assert keeper.session.state.plies == 0 and link.sent == []
    link.connected = True
    keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    assert keeper.why_no_undo() == ""  # a casual game: the other player is asked
    change = keeper.undo()
    assert change is not None and change.message.startswith("Take-back asked")
    assert keeper.session.state.plies == 1 and isinstance(link.sent[-1], TakeBack)
    room = keeper.online
    assert room is not None
    room.rated = True
    assert keeper.why_no_undo() == "No take-backs in a rated game."
    assert keeper.undo() is None and len(link.sent) == 2


def test_back_online_no_move_before_the_servers_game(tmp_path: Path) -> None:
    """Connected again, the game here may be behind the server's (the opponent moved
    meanwhile): a move waits for the server's whole game."""
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    keeper.referee.link_down()
    assert link.connected  # the link is back, its `game` not yet
    with pytest.raises(IllegalMoveError, match="not connected"):
        keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    keeper.play(keeper.session.game.parse_move("e1-e3", keeper.session.state))
    assert link.sent == [Move("ABCDEF", 0, "e1-e3")]


def test_no_move_while_a_seek_waits_in_the_lobby(tmp_path: Path) -> None:
    keeper = Keeper(Session.new(DIPOLE), Autosave(tmp_path))
    keeper.claim()
    keeper.go_online(OnlineGame("ws://127.0.0.1:1"), SentLink())
    keeper.referee.from_server(Sought("Q2W3E4"))
    move = keeper.session.state.legal_moves()[0]
    with pytest.raises(IllegalMoveError, match="your seek waits in the lobby"):
        keeper.referee.play(move)
    keeper.referee.from_server(Seated("ABCDEF", 0, SECRET, None, "dipole", "8x8", None, 0))
    assert keeper.online is not None and keeper.online.seeking == ""


def test_a_watcher_moves_for_nobody(tmp_path: Path) -> None:
    keeper, _ = online_keeper(tmp_path, side=None)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    assert keeper.session.players == (REMOTE, REMOTE)
    assert not keeper.human_to_move and keeper.acting_side() is None
    assert keeper.waiting_for() == "you are watching"
    assert SeatBook(tmp_path).seats() == []


def test_resigning_and_offering_go_to_the_server(tmp_path: Path) -> None:
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    keeper.referee.resign(0)
    assert link.sent == [Resign("ABCDEF")]
    assert keeper.session.outcome is None  # until the server says the game ended
    link.connected = False
    with pytest.raises(GameError, match="not connected"):
        keeper.referee.resign(0)


def test_the_end_is_filed_once_and_the_seat_remembers(tmp_path: Path) -> None:
    keeper, _ = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE)))
    over = Session.new(DIPOLE)
    over.play(over.game.parse_move("e1-e3", over.state))
    over.resign(1)
    change = keeper.referee.from_server(ended(over, "Black resigned", version=1))
    assert change is not None and change.game_over is not None
    assert change.game_over.headline == "White wins"
    filed = list((tmp_path / "finished").iterdir())
    assert len(filed) == 1 and "Termination" in filed[0].read_text()
    seat = SeatBook(tmp_path).find("ws://127.0.0.1:1", "ABCDEF")
    assert seat is not None and seat.filed
    # The whole game sent again (a reconnection) is not filed twice.
    keeper.referee.from_server(whole_game(over))
    assert len(list((tmp_path / "finished").iterdir())) == 1


def test_the_server_clocks_are_the_ones_shown(tmp_path: Path) -> None:
    keeper, _ = online_keeper(tmp_path)
    server = Session.new(DIPOLE, time_control=TimeControl(5, 3))
    keeper.referee.from_server(whole_game(server, clocks=(123.5, 300.0), running=0))
    clock = keeper.session.clock
    assert clock is not None and clock.running
    assert 123.0 < clock.remaining(0) <= 123.5 and clock.remaining(1) == 300.0
    assert keeper.referee.flag(now=clock.now() + 1000) is None  # only the server's flag counts


def test_a_damaged_seat_book_reads_as_empty_and_is_replaced(tmp_path: Path) -> None:
    book = SeatBook(tmp_path)
    book.path.write_text('[{"server": 1}, "x", {"server": "a", "room": "B"}]')
    assert book.seats() == []
    book.keep(RoomSeat("ws://h:1", "ABCD", SECRET, 0, "dipole"))
    assert [s.room for s in book.seats()] == ["ABCD"]
    book.path.write_text("{not json")
    assert book.seats() == []


def won_by_a_move() -> Session[Any]:
    """A Dipole game White wins by taking Black's last stack."""
    game = Session(DIPOLE, DIPOLE.parse_position("8:W:Wc3=2:Be5=2"))
    game.play(game.game.parse_move("c3xe5", game.state))
    return game


@pytest.mark.parametrize("side", [0, None])
def test_an_end_seen_twice_is_filed_once_and_never_by_a_watcher(
    tmp_path: Path, side: int | None
) -> None:
    """The last move ends the game, then `ended` says so again: one file for a player, none for
    a watcher."""
    keeper, _ = online_keeper(tmp_path, side=side)
    over = won_by_a_move()
    before = Session(over.game, over.state.copy())
    last = before.state.undo()
    keeper.referee.from_server(whole_game(before))
    change = keeper.referee.from_server(moved(0, over.game.format_move(last)))
    assert change is not None and keeper.session.outcome is not None
    reason = "Black has no checkers left"
    keeper.referee.from_server(ended(over, reason))
    finished = tmp_path / "finished"
    assert len(list(finished.iterdir()) if finished.exists() else []) == (0 if side is None else 1)


def test_no_hints_for_a_player_online_but_for_a_watcher(tmp_path: Path) -> None:
    player, _ = online_keeper(tmp_path / "player")
    player.referee.from_server(whole_game(Session.new(DIPOLE)))
    assert player.referee.why_no_help() == NO_HELP
    watcher, _ = online_keeper(tmp_path / "watcher", side=None)
    watcher.referee.from_server(whole_game(Session.new(DIPOLE)))
    assert watcher.referee.why_no_help() == ""
    over = Session.new(DIPOLE)
    over.resign(1)
    player.referee.from_server(ended(over, "Black resigned"))
    assert player.referee.why_no_help() == ""  # the game is over: study it


def test_no_hints_while_the_server_has_not_seated_the_player_yet(tmp_path: Path) -> None:
    """Between asking for a room and the server's answer, the game on screen (a finished one
    here) is no game to study: the next message may be the room's live game."""
    over = Session.new(DIPOLE)
    over.resign(1)
    keeper = Keeper(over, Autosave(tmp_path))
    keeper.go_online(OnlineGame("ws://127.0.0.1:1"), SentLink())
    assert keeper.referee.why_no_help() == NO_HELP
    assert keeper.referee.why_no_edit().startswith("No editor in online room")
    keeper.leave_room()
    assert keeper.referee.why_no_help() == keeper.referee.why_no_edit() == ""


@pytest.mark.parametrize(
    ("kept", "asked"),
    [
        ("ws://localhost:8765", "ws://127.0.0.1:8765"),
        ("ws://127.0.0.1:8765/", "ws://[::1]:8765"),
        ("WS://LocalHost:8765", "ws://localhost:8765"),
        ("ws://Games.Example.org", "ws://games.example.org:80/"),
        ("wss://games.example.org:443", "wss://GAMES.example.org"),
    ],
)
def test_a_seat_is_found_by_its_servers_normalised_address(
    tmp_path: Path, kept: str, asked: str
) -> None:
    """`localhost` and `127.0.0.1` are one server: the player gets their own seat back, never
    a watcher's place; kept again, the seat replaces the one of that room."""
    book = SeatBook(tmp_path)
    book.keep(RoomSeat(kept, "ABCDEF", SECRET, 1, "dipole"))
    found = book.find(asked, "ABCDEF")
    assert found is not None and found.secret == SECRET
    book.keep(RoomSeat(asked, "ABCDEF", SECRET, 1, "dipole", filed=True))
    assert [(s.server, s.filed) for s in book.seats()] == [(asked, True)]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("ws://127.0.0.1:8765", "ws://127.0.0.1:8766"),
        ("ws://games.example.org", "wss://games.example.org"),
        ("ws://games.example.org", "ws://games.example.net"),
    ],
)
def test_other_servers_stay_other(tmp_path: Path, one: str, other: str) -> None:
    book = SeatBook(tmp_path)
    book.keep(RoomSeat(one, "ABCDEF", SECRET, 1, "dipole"))
    assert book.find(other, "ABCDEF") is None
    assert normalised(one) != normalised(other)


def test_the_seat_book_is_its_owners_alone(tmp_path: Path) -> None:
    """It holds the secrets: written 0600, and an older book readable by others is tightened."""
    book = SeatBook(tmp_path)
    book.keep(RoomSeat("ws://h:1", "ABCD", SECRET, 0, "dipole"))
    assert stat.S_IMODE(book.path.stat().st_mode) == 0o600
    book.path.chmod(0o644)
    assert [s.room for s in book.seats()] == ["ABCD"]
    assert stat.S_IMODE(book.path.stat().st_mode) == 0o600
    book.path.chmod(0o644)
    book.keep(RoomSeat("ws://h:1", "EFGH", SECRET, 0, "dipole"))
    assert stat.S_IMODE(book.path.stat().st_mode) == 0o600


def test_a_seat_that_cannot_be_kept_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without its secret kept, the player could not come back to the game: they are told."""

    def disk_full(book: SeatBook, seat: RoomSeat) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SeatBook, "keep", disk_full)
    keeper = Keeper(Session.new(DIPOLE), Autosave(tmp_path))
    keeper.claim()
    keeper.go_online(OnlineGame("ws://127.0.0.1:1"), SentLink())
    change = keeper.referee.from_server(Seated("ABCDEF", 0, SECRET, None, "dipole", "8x8", None, 0))
    assert change is not None
    [notice] = change.notices
    assert notice.severity == "warning" and "room ABCDEF could not be kept" in notice.text
