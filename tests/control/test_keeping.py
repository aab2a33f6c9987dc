"""Nothing is overwritten or dropped unasked, without an app: a second save gets a name of its
own, a set-up or pasted position is kept and resumed like any game, and a clock game keeps the
time its side to move has used of the turn (at quit, and every few seconds while it runs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from frozen_time import FrozenClock
from test_keeper import keeper_at, play, timed_keeper

import dipole_tui.saves as saves_module
from dipole_tui.control.keeper import Keeper
from dipole_tui.control.referee import KEEP_TURN
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import parse_record
from dipole_tui.saves import Autosave
from dipole_tui.session import TURN_CLOCK, Session

SET_UP = "8:B:We1=4,c3=2:Bf6=1,d8=3"  # no move played, and not the game's own start

# -- save names --------------------------------------------------------------------------------


def test_a_second_save_in_the_same_minute_gets_a_name_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(saves_module, "datetime", FrozenClock)
    keeper = keeper_at(tmp_path)
    play(keeper, "e1-e3")
    first = keeper.autosave.save_name("dipole")
    assert first == tmp_path / "saved" / "dipole-20261123-1234.txt"
    keeper.save_as(first)
    play(keeper, "d8-d6")
    second = keeper.autosave.save_name("dipole")
    assert second == tmp_path / "saved" / "dipole-20261123-1234-2.txt"
    keeper.save_as(second)
    plies = [Session.from_text(path.read_text()).state.plies for path in (first, second)]
    assert plies == [1, 2]  # the first save is still there, as it was
    (tmp_path / "saved" / "dipole-20261123-1234-3.txt").symlink_to(tmp_path / "nowhere")
    assert keeper.autosave.save_name("dipole").name == "dipole-20261123-1234-4.txt"


# -- set-up and pasted positions ---------------------------------------------------------------


def set_up(keeper: Keeper) -> Session[Any]:
    """The position editor's way: a session on the edited position, with the seats as they were."""
    return Session(DIPOLE, DIPOLE.parse_position(SET_UP), keeper.session.players)


def pasted_position(keeper: Keeper) -> Session[Any]:
    session, _ = keeper.pasted(SET_UP, ["dipole"])
    assert session is not None
    return session


def pasted_record(keeper: Keeper) -> Session[Any]:
    session, _ = keeper.pasted(f'[Game "Dipole"]\n[Position "{SET_UP}"]\n\n*\n', ["dipole"])
    assert session is not None
    return session


@pytest.mark.parametrize("made", [set_up, pasted_position, pasted_record])
def test_a_position_with_no_moves_yet_is_resumed_at_the_next_start(
    tmp_path: Path, made: Any
) -> None:
    first = keeper_at(tmp_path)
    first.start(made(first))
    first.release()
    second = keeper_at(tmp_path)
    resume, notices = second.resume_question()
    assert notices == [] and resume is not None
    assert resume.text == "Dipole 8x8, a set-up position, no move played."
    assert resume.saved.state.position() == SET_UP and resume.saved.state.plies == 0
    second.start(resume.saved)
    second.play(second.session.state.legal_moves()[0])  # played on from there, as any game
    assert Session.from_text(second.autosave.path.read_text()).state.plies == 1


def test_a_set_up_position_is_kept_when_another_game_takes_its_place(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path)
    keeper.start(set_up(keeper))
    change = keeper.start(Session.new(DIPOLE))
    (kept,) = (tmp_path / "unfinished").iterdir()
    assert any("unfinished" in notice.text for notice in change.notices)
    assert Session.from_text(kept.read_text()).state.position() == SET_UP
    keeper.start(Session.new(DIPOLE))  # the game's own start, no move: nothing to keep
    assert len(list((tmp_path / "unfinished").iterdir())) == 1


def test_a_set_up_position_left_by_another_app_is_filed(tmp_path: Path) -> None:
    mine = keeper_at(tmp_path)
    play(mine, "e1-e3")
    mine.release()
    left = Autosave(tmp_path)
    left.path = tmp_path / "autosave-2.txt"  # an app that ran alongside
    left.write(Session(DIPOLE, DIPOLE.parse_position(SET_UP)))
    keeper = keeper_at(tmp_path)  # takes autosave.txt again; autosave-2.txt is nobody's
    (kept,) = (tmp_path / "unfinished").iterdir()
    assert Session.from_text(kept.read_text()).state.position() == SET_UP
    assert keeper.autosave.path == tmp_path / "autosave.txt"


# -- the clock's running turn ------------------------------------------------------------------


def resumed(folder: Path) -> Session[Any]:
    saved = Autosave(folder).load()
    assert saved is not None and saved.clock is not None
    return saved


def times(session: Session[Any], now: float | None = None) -> tuple[float, float]:
    clock = session.clock
    assert clock is not None
    return clock.remaining(0, now), clock.remaining(1, now)


def test_quitting_mid_turn_keeps_the_time_used(tmp_path: Path) -> None:
    keeper, now = timed_keeper(tmp_path, "5+0")
    now[0] += 12
    play(keeper, "e3-e5")
    now[0] += 40  # Black thinks, then the app is closed
    keeper.release()
    assert f'[{TURN_CLOCK} "0:04:20"]' in keeper.autosave.path.read_text()
    saved = resumed(tmp_path)  # its clocks on the real time source: given times below
    assert times(saved, now=1000.0) == (288, 260)  # not running: the app was closed meanwhile
    saved.start_clock(now=1000.0)
    assert times(saved, now=1005.0) == (288, 255)
    assert saved.clock is not None
    saved.clock.press(0, now=1005.0)  # Black moves
    assert saved.clock.marks[-1].times == (288, 255)


def test_a_killed_app_loses_no_more_than_the_last_few_seconds(tmp_path: Path) -> None:
    keeper, now = timed_keeper(tmp_path, "5+0")
    for _ in range(97):  # 9.7 s of White's turn, the screen's ticks every 0.1 s
        now[0] += 0.1
        assert keeper.tick() is None
    # Killed here (no release): the autosave was written at most KEEP_TURN seconds ago.
    white, _ = times(resumed(tmp_path))
    assert 300 - 9.7 <= white <= 300 - (9.7 - KEEP_TURN)
    assert times(keeper.session)[0] == pytest.approx(300 - 9.7)


def test_the_ticks_write_the_game_only_every_few_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keeper, now = timed_keeper(tmp_path, "5+0")
    writes: list[str] = []
    monkeypatch.setattr(
        keeper.autosave, "write", lambda session: writes.append(session.record_text())
    )
    for _ in range(200):  # 20 s
        now[0] += 0.1
        keeper.tick()
    assert 3 <= len(writes) <= 20 / KEEP_TURN
    play(keeper, "e1-e3")  # a move is written at once, as always
    assert len(writes) <= 20 / KEEP_TURN + 1 and TURN_CLOCK not in writes[-1]


def test_a_flag_that_fell_while_the_app_was_closed_falls_on_resuming(tmp_path: Path) -> None:
    keeper, now = timed_keeper(tmp_path)
    now[0] += 31
    keeper.release()  # White's flag fell and nobody looked
    saved = resumed(tmp_path)
    assert times(saved)[0] == 0
    assert saved.check_flag() and saved.outcome is not None
    assert saved.outcome.reason == "White lost on time"


def test_a_record_without_a_turn_clock_is_as_before(tmp_path: Path) -> None:
    keeper, now = timed_keeper(tmp_path, "5+0")
    assert TURN_CLOCK not in keeper.session.record_text()  # no time used yet
    now[0] += 3
    play(keeper, "e3-e5")
    assert TURN_CLOCK not in keeper.autosave.path.read_text()  # the turn has just begun
    keeper.undo()
    now[0] += 3
    # The autosave ends after the undone move, a turn not running: no time of this one in it.
    assert keeper.session.turn_clock() == "0:04:57"
    assert keeper.session.whole_game().turn_clock() is None


GAME = (
    '[Game "Dipole"]\n[TimeControl "300+0"]\n{0}\n\n'
    "1. e1-e3 d8-d6 2. e3-e5 {{[%clk 0:04:48]}} *\n"  # each side's first move untimed
)


@pytest.mark.parametrize(
    ("tag", "black"),
    [
        ("0:04:20", 260),
        ("0:04:20.5", 260.5),
        ("0:00:00", 0),
        ("9:00:00", 300),  # more than the turn began with: nothing given back
        pytest.param("1" * 400 + ":00:00", 300, id="an hour of 400 digits: nothing read"),
        ("soon", 300),
        ("", 300),
    ],
)
def test_a_turn_clock_read_is_bounded_by_the_turn(tag: str, black: float) -> None:
    session = Session.from_text(GAME.format(f'[{TURN_CLOCK} "{tag}"]'))
    assert times(session) == (288, black)
    assert TURN_CLOCK not in session.tags  # written anew from the clock
    assert parse_record(session.checked_record()).state == session.state


def test_a_turn_clock_without_clocks_is_a_tag_like_any_other() -> None:
    session = Session.from_text(f'[Game "Dipole"]\n[{TURN_CLOCK} "0:01:00"]\n\n1. e1-e3 *\n')
    assert session.clock is None and session.tags[TURN_CLOCK] == "0:01:00"
