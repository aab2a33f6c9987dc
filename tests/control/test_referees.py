"""The keeper's referee: this program's for a game played here, the server's for a room. What
differs online (abort, rematch, draw offers, the clock, the autosave) is the referee's to say,
so it is tested here without an app, and the screen asks it instead of telling games apart."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from test_online_seat import SentLink, online_keeper, whole_game

from dipole_tui.clock import TimeControl
from dipole_tui.control.keeper import Keeper
from dipole_tui.control.referee import LocalReferee, Referee
from dipole_tui.control.server_referee import ServerReferee
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.online.protocol import Draw, Rematch
from dipole_tui.online.seat import OnlineGame
from dipole_tui.saves import Autosave
from dipole_tui.session import Session

PROBE = """
import json, sys
import dipole_tui.control.keeper, dipole_tui.control.referee, dipole_tui.control.server_referee
ui = sorted(name for name in sys.modules if name.split(".")[0] in ("textual", "rich"))
print(json.dumps({"ui": ui, "loaded": sorted(sys.modules)}))
"""


def test_the_keeper_and_its_referees_import_no_ui_library() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    report = json.loads(result.stdout)
    assert "dipole_tui.control.referee" in report["loaded"]
    assert "dipole_tui.control.server_referee" in report["loaded"]
    assert report["ui"] == []


def test_the_keeper_swaps_its_referee_as_it_joins_and_leaves_a_room(tmp_path: Path) -> None:
    keeper = Keeper(Session.new(DIPOLE), Autosave(tmp_path))
    assert isinstance(keeper.referee, LocalReferee)
    assert keeper.online is None and keeper.referee.link is None
    room, link = OnlineGame("ws://127.0.0.1:1"), SentLink()
    keeper.go_online(room, link)
    assert isinstance(keeper.referee, ServerReferee)
    assert keeper.online is room and keeper.referee.link is link
    assert keeper.leave_room() is link
    assert isinstance(keeper.referee, LocalReferee) and keeper.online is None


def test_a_game_here_is_refereed_here(tmp_path: Path) -> None:
    """Aborted before each side has moved, rematched, a draw offer put to the other player by
    the screen first, the clock run here."""
    session = Session.new(DIPOLE, time_control=TimeControl(5, 3))
    keeper = Keeper(session, Autosave(tmp_path))
    referee: Referee = keeper.referee
    assert referee.may_abort() and referee.offers_rematch and not referee.relays_offers
    assert referee.why_no_take_back() == referee.why_no_help() == referee.why_no_edit() == ""
    assert referee.waiting_for("Black") == "it is Black's bot's turn"
    referee.start_clock()
    assert session.clock is not None and session.clock.running
    for text in ("e1-e3", "d8-d6"):
        referee.play(keeper.session.game.parse_move(text, keeper.session.state))
    assert not referee.may_abort()  # each side has moved once


def test_a_room_is_refereed_by_its_server(tmp_path: Path) -> None:
    """Never aborted (the server has no abort); a draw offer goes to the server as a `Draw`,
    a rematch is asked of the other player through it; the server's clocks run, not this
    one's."""
    keeper, link = online_keeper(tmp_path)
    keeper.referee.from_server(whole_game(Session.new(DIPOLE, time_control=TimeControl(5, 3))))
    referee: Referee = keeper.referee
    assert keeper.session.abortable and not referee.may_abort()
    assert referee.relays_offers and referee.offers_rematch  # a player's, asked of the other
    referee.start_clock()
    assert keeper.session.clock is not None and not keeper.session.clock.running
    change = referee.draw()
    assert link.sent == [Draw("ABCDEF")]
    assert change.message == "Draw offered: it stands until the next move."
    assert keeper.session.outcome is None  # until the other side offers too
    referee.rematch()
    assert link.sent[-1] == Rematch("ABCDEF")
