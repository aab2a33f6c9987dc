"""Clocks: time controls as typed, two clocks on a fake time source (no test sleeps), and a
session played with them: pressed by each move, not by a forced pass, taken back by undo, kept
in the record and resumed from it."""

from __future__ import annotations

from typing import Any

import pytest

from dipole_tui.clock import Clock, TimeControl, clk_comment, read_clk, shown_time
from dipole_tui.games.base import GameError, Termination
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import parse_record
from dipole_tui.session import Session, clock_for


class FakeTime:
    """A time source the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


# -- time controls ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "minutes", "increment", "shown", "tag"),
    [
        ("5+3", 5, 3, "5+3", "300+3"),
        ("0.5+2", 0.5, 2, "0.5+2", "30+2"),
        ("10", 10, 0, "10+0", "600+0"),  # the increment always said, as lichess does
        (" 3 + 0.5 ", 3, 0.5, "3+0.5", "180+0.5"),
        (".25+0", 0.25, 0, "0.25+0", "15+0"),
    ],
)
def test_a_time_control_reads_as_typed_and_says_itself_back(
    text: str, minutes: float, increment: float, shown: str, tag: str
) -> None:
    control = TimeControl.parse(text)
    assert (control.minutes, control.increment) == (minutes, increment)
    assert str(control) == shown and control.tag() == tag
    assert TimeControl.from_tag(tag) == control
    assert control.seconds == minutes * 60


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("x", "'x' is not a time control; expected MINUTES+SECONDS, like 5+3 or 0.5+2"),
        ("-5+3", "'-5+3' is not a time control; expected MINUTES+SECONDS"),
        ("5+-3", "'5+-3' is not a time control"),
        ("inf", "'inf' is not a time control"),
        ("nan+1", "'nan+1' is not a time control"),
        ("1e3", "'1e3' is not a time control"),
        ("٣+2", "is not a time control"),
        ("5+3+1", "is not a time control"),
        ("", "'' is not a time control"),
        ("0+3", "a game needs some time: MINUTES must be more than 0"),
        ("0", "MINUTES must be more than 0"),
        ("601+0", "'601+0' is too long: at most 600 minutes and 600 seconds a move"),
        ("5+601", "is too long"),
    ],
)
def test_a_bad_time_control_is_one_line_saying_what_is_expected(text: str, said: str) -> None:
    with pytest.raises(GameError) as refused:
        TimeControl.parse(text)
    message = str(refused.value)
    assert said in message and "\n" not in message
    assert message.endswith("expected MINUTES+SECONDS, like 5+3 or 0.5+2")


@pytest.mark.parametrize("tag", ["40/7200", "?", "-", "0+3", "x", "36001+0"])
def test_a_time_control_tag_this_program_does_not_play_is_none(tag: str) -> None:
    assert TimeControl.from_tag(tag) is None


# -- faces and comments -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "face"),
    [
        (298.7, "4:58"),
        (300, "5:00"),
        (60, "1:00"),
        (10, "0:10"),
        (9.47, "0:09.4"),
        (0.05, "0:00.0"),
        (-3, "0:00.0"),
        (3723, "1:02:03"),
    ],
)
def test_a_clock_face_shows_tenths_only_under_ten_seconds(seconds: float, face: str) -> None:
    assert shown_time(seconds) == face


@pytest.mark.parametrize(
    ("seconds", "comment"),
    [
        (298, "[%clk 0:04:58]"),
        (9.44, "[%clk 0:00:09.4]"),
        (3723, "[%clk 1:02:03]"),
        (-1, "[%clk 0:00:00]"),
    ],
)
def test_clock_comments_are_written_as_pgn_does_and_read_back(seconds: float, comment: str) -> None:
    assert clk_comment(seconds) == comment
    assert read_clk(comment) == pytest.approx(max(round(seconds, 1), 0))
    assert read_clk(f"+0.4; mistake {comment} more") == read_clk(comment)


def test_a_comment_without_a_clock_gives_none() -> None:
    assert read_clk("+0.4") is None
    assert read_clk("[%clk 0:61:00]") is None
    assert read_clk("[%eval 0.3]") is None


# -- two clocks -------------------------------------------------------------------------------


def clock(text: str = "5+3") -> tuple[Clock, FakeTime]:
    """Two clocks past each side's untimed first move: White to move, both times whole."""
    source = FakeTime()
    timer = Clock(TimeControl.parse(text), source=source)
    timer.press(1)
    timer.press(0)
    return timer, source


def test_each_sides_first_move_is_untimed() -> None:
    """As lichess: no time used, no increment and no flag before each side has moved once."""
    source = FakeTime()
    timer = Clock(TimeControl.parse("0.5+3"), source=source)
    timer.start()
    source.wait(100)
    assert not timer.timed and timer.remaining(0) == 30 and timer.flagged() is None
    timer.press(1)
    source.wait(100)
    assert timer.remaining(1) == 30 and timer.flagged() is None
    timer.press(0)
    assert timer.marks[-1].times == (30, 30) and timer.timed
    source.wait(10)
    assert timer.remaining(0) == 20
    timer.press(1)
    assert timer.marks[-1].times == (23, 30)


def test_only_the_side_to_move_runs_and_a_move_adds_the_increment() -> None:
    timer, source = clock()
    assert not timer.running and timer.remaining(0) == 300
    source.wait(50)
    assert timer.remaining(0) == 300  # not started: nothing runs
    timer.start()
    source.wait(12)
    assert timer.remaining(0) == 288 and timer.remaining(1) == 300
    timer.press(1)
    assert timer.remaining(0) == 291 and timer.to_move == 1
    source.wait(20)
    assert timer.remaining(0) == 291 and timer.remaining(1) == 280
    timer.press(0)
    assert timer.remaining(1) == 283 and timer.after(3) == 291 and timer.after(4) == 283


def test_a_paused_clock_keeps_what_was_used_and_runs_on_from_it() -> None:
    timer, source = clock()
    timer.start()
    source.wait(10)
    timer.stop()
    source.wait(1000)  # paused: a dialog of the player's, or the app closed
    assert timer.remaining(0) == 290
    timer.start()
    source.wait(5)
    assert timer.remaining(0) == 285
    timer.press(1)
    assert timer.after(3) == 288


def test_the_flag_falls_for_the_side_to_move_only() -> None:
    timer, source = clock("0.5+0")
    timer.start()
    source.wait(29.9)
    assert timer.flagged() is None
    source.wait(0.1)
    assert timer.flagged() == 0
    assert timer.flagged(now=source.now - 1) is None  # `now` given is the time asked about


def test_a_press_that_costs_nothing_adds_no_increment() -> None:
    timer, source = clock()
    timer.start()
    source.wait(4)
    timer.press(1, charged=False)
    assert timer.marks[-1].times == (300, 300)


def test_back_to_shows_the_times_of_a_ply_and_a_new_press_forgets_the_later_ones() -> None:
    timer, source = clock()
    timer.start()
    for side in (1, 0, 1):
        source.wait(10)
        timer.press(side)
    assert [mark.times for mark in timer.marks[2:]] == [
        (300, 300),
        (293, 300),
        (293, 293),
        (286, 293),
    ]
    timer.back_to(3)
    assert timer.to_move == 1 and timer.remaining(1) == 300
    source.wait(2)
    assert timer.remaining(1) == 298  # it runs on from the times after ply 3
    timer.back_to(5)  # redo: as it was
    assert timer.remaining(1) == 293
    timer.back_to(3)
    source.wait(2)
    timer.press(0)
    assert len(timer.marks) == 5 and timer.marks[4].times == (293, 301)


# -- a session with clocks --------------------------------------------------------------------


def clocked(text: str = "5+3", opened: bool = True) -> tuple[Session[Any], FakeTime]:
    """A Dipole game with clocks; `opened`: past each side's untimed first move (OPENING)."""
    source = FakeTime()
    session = Session.new(DIPOLE, time_control=TimeControl.parse(text))
    assert session.clock is not None
    session.clock = Clock(session.clock.control, session.clock.marks, source)
    if opened:
        session.start_clock()
        source.wait(100)  # untimed
        play(session, *OPENING)
    return session, source


OPENING = ("e1-e3", "d8-d6")  # each side's first move: untimed


def test_the_first_two_plies_are_untimed_and_the_record_says_so() -> None:
    session, source = clocked("1+2", opened=False)
    session.start_clock()
    source.wait(50)
    play(session, "e1-e3")
    source.wait(70)  # more than Black's minute: no flag before its first move
    assert not session.check_flag()
    play(session, "d8-d6")
    source.wait(5)
    play(session, "e3-e5")
    assert session.clock_times() == [60, 60, 57]
    assert "e1-e3 {[%clk 0:01:00]} d8-d6 {[%clk 0:01:00]}" in session.record_text()


def play(session: Session[Any], *texts: str) -> None:
    for text in texts:
        session.play(session.game.parse_move(text, session.state))


def test_without_a_clock_the_record_has_no_tag_nor_comment() -> None:
    session = Session.new(DIPOLE)
    play(session, "e1-e3", "d8-d6")
    text = session.record_text()
    assert session.clock is None and "TimeControl" not in text and "%clk" not in text
    assert not session.check_flag() and session.clock_times() == []


def test_each_move_presses_the_clock_and_the_record_keeps_the_times() -> None:
    session, source = clocked()
    source.wait(12)
    play(session, "e3-e5")
    source.wait(61.5)
    play(session, "d6-d4")
    text = session.record_text()
    assert '[TimeControl "300+3"]' in text
    assert "2. e3-e5 {[%clk 0:04:51]} d6-d4 {[%clk 0:04:01.5]}" in text
    assert session.checked_record() == text
    back = Session.from_text(text)
    assert back.clock is not None and not back.clock.running
    assert back.clock.control == TimeControl(5, 3)
    assert back.clock.remaining(0) == 291 and back.clock.remaining(1) == 241.5
    assert "TimeControl" not in back.tags  # it is the clock's, written from it
    assert back.record_text() == text


def test_a_loaded_game_with_clocks_undoes_to_the_times_its_record_gave() -> None:
    session, source = clocked()
    for text in ("e3-e5", "d6-d4", "e5-e7"):
        source.wait(20)
        play(session, text)
    back = Session.from_text(session.record_text())
    assert back.clock is not None
    back.undo()
    assert (back.clock.remaining(0), back.clock.remaining(1)) == (283, 283)
    back.redo()
    assert back.clock.remaining(0) == 266


def test_undo_gives_the_times_back_and_redo_replays_them() -> None:
    session, source = clocked()
    assert session.clock is not None
    source.wait(30)
    play(session, "e3-e5")
    source.wait(40)
    assert session.clock.remaining(1) == 260
    session.undo()
    assert session.clock.remaining(0) == 300 and session.clock.remaining(1) == 300
    source.wait(5)
    assert session.clock.remaining(0) == 295  # White thinks again, from where it stood
    session.redo()
    assert session.clock.remaining(0) == 273 and session.clock.remaining(1) == 300


def test_a_forced_pass_costs_no_time_and_earns_no_increment() -> None:
    source = FakeTime()
    state = DIPOLE.parse_position("8:W:We1=4,e5=2,e7=5,f8=1:Bc1=1,d2=1,h8=1")
    session = Session(DIPOLE, state)
    session.clock = Clock(TimeControl(1, 2), clock_for(TimeControl(1, 2), state).marks, source)
    session.start_clock()
    play(session, "e5-e7", "h8-off:1")  # each side's first move, untimed
    source.wait(3)
    passes = session.play(DIPOLE.parse_move("e1xc1", state))
    assert [DIPOLE.format_move(move) for move in passes] == ["pass"]
    assert session.clock_times() == [60, 60, 59, 60]  # 3 s used, 2 s added; the pass: nothing
    source.wait(4)
    assert session.clock.remaining(0) == 55  # White's turn again, running since its move
    assert "e1xc1 {[%clk 0:00:59]} pass {[%clk 0:00:60]}" not in session.record_text()
    assert "e1xc1 {[%clk 0:00:59]} pass {[%clk 0:01:00]}" in session.record_text()
    session.undo()
    assert session.state.plies == 2 and session.clock.remaining(0) == 60


def test_the_flag_ends_the_game_lost_on_time_and_stops_the_clock() -> None:
    session, source = clocked("0.5+0")
    source.wait(10)
    play(session, "e3-e5")
    source.wait(29)
    assert not session.check_flag()
    source.wait(1)
    assert session.check_flag()
    assert session.outcome is not None
    assert session.outcome.termination is Termination.TIME
    assert (session.outcome.winner, session.outcome.reason) == (0, "Black lost on time")
    assert session.clock is not None and not session.clock.running
    assert not session.check_flag()  # once
    text = session.checked_record()
    assert '[Result "1-0"]' in text and '[Termination "time forfeit"]' in text
    back = Session.from_text(text)
    assert back.outcome == session.outcome and back.clock is not None
    session.start_clock()
    assert not session.clock.running  # a finished game's clock stays stopped


def test_a_game_that_ends_by_its_rules_stops_the_clock() -> None:
    source = FakeTime()
    state = DIPOLE.parse_position("8:W:Wc3=2:Be5=2")
    session = Session(DIPOLE, state)
    session.clock = Clock(TimeControl(1, 0), clock_for(TimeControl(1, 0), state).marks, source)
    session.start_clock()
    play(session, "c3xe5")
    assert session.outcome is not None and not session.clock.running


def test_a_record_without_clock_comments_starts_each_side_with_its_time() -> None:
    text = '[Game "Dipole"]\n[TimeControl "60+1"]\n\n1. e1-e3 d8-d6 {[%clk 0:00:42]}\n*\n'
    session = Session.from_text(text)
    assert session.clock is not None
    assert session.clock.remaining(0) == 60 and session.clock.remaining(1) == 42


def test_a_time_control_this_program_does_not_play_stays_a_tag_and_no_clock() -> None:
    text = '[Game "Dipole"]\n[TimeControl "40/7200"]\n\n1. e1-e3\n*\n'
    session = Session.from_text(text)
    assert session.clock is None and session.tags["TimeControl"] == "40/7200"
    assert '[TimeControl "40/7200"]' in session.checked_record()


def test_the_clock_comments_of_a_record_are_read_by_the_records_too() -> None:
    session, source = clocked()
    source.wait(1.25)
    play(session, "e3-e5")
    record = parse_record(session.record_text())
    assert record.comments[3] == ["[%clk 0:05:01.8]"]


# -- the time each move took (the move list's figures) -----------------------------------------


def test_a_moves_time_is_what_it_used_with_the_increment_it_earned_given_back() -> None:
    from dipole_tui.clock import time_used

    session, source = clocked("5+3")
    source.wait(12)
    play(session, "e3-e5")
    source.wait(61.5)
    play(session, "d6-d4")
    source.wait(0.4)
    play(session, "e5-e7")
    assert session.clock is not None
    marks = session.clock.marks
    assert [time_used(marks, 3, ply) for ply in range(1, 6)] == [
        None,
        None,
        12,
        61.5,
        pytest.approx(0.4),
    ]
    assert time_used(marks, 3, 6) is None  # not played yet
    assert time_used(marks, 3, 0) is None  # the start: no move


def test_a_records_moves_take_their_time_from_its_clock_comments() -> None:
    from dipole_tui.clock import time_used

    moves = ["e1-e3", "d8-d6", "e3-e5", "d6-d4", "e5-e7", "d8-c7", "e1-d2"]
    clocks = ["0:01:00", "0:01:00", "0:00:55", "0:00:48.5", None, "0:00:50.5", "0:00:40"]
    text = '[Game "Dipole"]\n[TimeControl "60+2"]\n\n'
    for move, left in zip(moves, clocks, strict=True):
        text += (move if left is None else f"{move} {{[%clk {left}]}}") + " "
    session = Session.from_text(text + "*\n")
    assert session.clock is not None
    marks = session.clock.marks
    used = [time_used(marks, 2, ply) for ply in range(1, 8)]
    # Ply 5 has no `[%clk]`: unknown, and so is White's next move (its time before is the one
    # before ply 5, not 17 s). Black's second move: 60 - 48.5 + 2; its third: 48.5 - 50.5 + 2.
    assert used == [None, None, 7, 13.5, None, 0.0, None]


def test_a_record_whose_clock_gained_more_than_the_increment_gives_no_time() -> None:
    from dipole_tui.clock import Mark, time_used

    marks = [Mark((60, 60), 0), Mark((60, 60), 1), Mark((60, 60), 0)]
    marks += [Mark((70, 60), 1), Mark((70, 59.9), 0), Mark((70.1, 59.9), 1)]
    assert time_used(marks, 2, 3) is None  # ten seconds given back: not a thinking time
    assert time_used(marks, 0, 4) == pytest.approx(0.1)
    assert time_used(marks, 0, 5) == 0.0  # a tenth under nothing is a record's rounding


# -- days a move (correspondence) -------------------------------------------------------------

DAY = 86_400


@pytest.mark.parametrize("days", [1, 2, 3, 5, 7, 14])
def test_days_a_move_read_as_typed_and_say_themselves_back(days: int) -> None:
    control = TimeControl.parse(f"{days}d")
    assert control == TimeControl.per_move(days) == TimeControl(0, 0, days)
    assert str(control) == f"{days}d" and control.tag() == f"1/{days * DAY}"
    assert TimeControl.from_tag(control.tag()) == control
    assert TimeControl.parse(f" {days} d ") == control and control.seconds == days * DAY


@pytest.mark.parametrize("text", ["4d", "0d", "30d", "1000d", "3.5d", "d", "3dd", "٣d", "-3d"])
def test_days_a_move_other_than_lichesss_are_one_line_refusals(text: str) -> None:
    with pytest.raises(GameError) as refused:
        TimeControl.parse(text)
    message = str(refused.value)
    assert "is not a time control" in message and "\n" not in message
    with pytest.raises(GameError, match="1, 2, 3, 5, 7 or 14 days"):
        TimeControl.per_move(4)


@pytest.mark.parametrize("tag", ["1/100000", "1/0", "2/259200", "1/345600", "1/99999999999"])
def test_a_tag_of_one_move_in_other_seconds_is_none(tag: str) -> None:
    assert TimeControl.from_tag(tag) is None  # 4 days, not a whole day, not one move


def test_days_reset_after_each_move_and_run_from_the_first() -> None:
    """Not added up: whatever a move took, its mover has the whole days again; the first moves
    are timed, so a side that never moves loses on time too."""
    source = FakeTime()
    timer = Clock(TimeControl.parse("3d"), source=source)
    timer.start()
    assert timer.timed and timer.ticking
    source.wait(2 * DAY)
    assert timer.remaining(0) == DAY
    timer.press(1)
    assert timer.marks[-1].times == (3 * DAY, 3 * DAY)
    source.wait(3 * DAY - 1)
    assert timer.flagged() is None and timer.remaining(1) == 1
    source.wait(1)
    assert timer.flagged() == 1


def test_a_clock_counted_by_another_source_keeps_what_was_used() -> None:
    first, second = FakeTime(), FakeTime()
    second.now = 5_000_000.0
    timer = Clock(TimeControl.parse("1d"), source=first)
    timer.start()
    first.wait(3600)
    timer.count_by(second)
    second.wait(1800)
    assert timer.running and timer.remaining(0) == DAY - 5400


def test_a_clock_of_days_shows_days_and_hours() -> None:
    assert shown_time(3 * DAY) == "3d 0h"
    assert shown_time(2 * DAY + 23 * 3600 + 59 * 60) == "2d 23h"
    assert shown_time(DAY - 1) == "23:59:59"


def test_a_game_of_days_round_trips_through_its_record_mid_turn() -> None:
    session, source = clocked("2d", opened=False)
    session.start_clock()
    source.wait(DAY)
    play(session, "e1-e3")
    source.wait(5 * 3600)
    play(session, "d8-d6")
    source.wait(10 * 3600 + 0.25)  # White has used ten hours of its two days, and a bit
    text = session.checked_record()
    assert '[TimeControl "1/172800"]' in text and '[TurnClock "37:59:59.7"]' in text
    assert "e1-e3 {[%clk 48:00:00]} d8-d6 {[%clk 48:00:00]}" in text
    back = Session.from_text(text)
    assert back.clock is not None and back.clock.control == TimeControl.per_move(2)
    assert back.clock.remaining(0) == pytest.approx(38 * 3600 - 0.3)
    assert back.clock.remaining(1) == 2 * DAY
    assert back.record_text() == text
