"""A record's comments and marks survive the app: a game opened, played on and saved keeps them
where they stood, while they are still about its moves (`session.Notes`)."""

from __future__ import annotations

from paths import DATA

from dipole_tui.clock import TimeControl
from dipole_tui.records import parse_record
from dipole_tui.session import Session

BIPOD_SAMPLE = DATA / "sample-bipod.txt"

ANNOTATED = """[Game "Dipole"]
[Variant "8x8"]

{A quiet opening.}
1. e1-g3 {the usual} d8-b6 {+0.4} {Black's reply}
2. g3-g5 {threatens b6}
"""


def comments_of(text: str) -> list[list[str]]:
    return parse_record(text).comments


def test_a_records_comments_are_written_again_where_they_stood() -> None:
    session = Session.from_text(ANNOTATED)
    assert comments_of(session.record_text()) == comments_of(ANNOTATED)
    assert comments_of(ANNOTATED) == [
        ["A quiet opening."],
        ["the usual"],
        ["+0.4", "Black's reply"],
        ["threatens b6"],
    ]


def test_moves_played_on_add_no_comment_and_keep_the_old_ones() -> None:
    session = Session.from_text(ANNOTATED)
    session.play(session.game.parse_move("d8-c7", session.state))
    again = Session.from_text(session.record_text())  # saved, then opened again
    assert comments_of(again.record_text())[:4] == comments_of(ANNOTATED)
    assert comments_of(again.record_text())[4] == []


def test_a_comment_after_a_move_undone_and_replaced_is_not_the_games_any_more() -> None:
    session = Session.from_text(ANNOTATED)
    session.undo()
    assert comments_of(session.record_text()) == comments_of(ANNOTATED)[:3]
    session.redo()  # the same move again: its comment is the game's again
    assert comments_of(session.record_text()) == comments_of(ANNOTATED)
    session.undo()
    session.undo()
    session.play(session.game.parse_move("d8-c7", session.state))  # another reply
    session.play(session.game.parse_move("g3-g5", session.state))
    assert comments_of(session.record_text()) == [["A quiet opening."], ["the usual"], [], []]


def test_the_clocks_comments_are_written_anew_and_words_beside_them_kept() -> None:
    clocked = ANNOTATED.replace(
        '[Variant "8x8"]', '[Variant "8x8"]\n[TimeControl "300+3"]'
    ).replace("{the usual}", "{[%clk 0:04:58] the usual}")
    session = Session.from_text(clocked)
    assert session.clock is not None
    said = comments_of(session.record_text())
    assert said[1] == ["the usual", "[%clk 0:04:58]"]  # one clock comment, not two
    assert said[2][:2] == ["+0.4", "Black's reply"] and said[2][2].startswith("[%clk ")
    assert Session.from_text(session.record_text()).clock_times() == session.clock_times()


def test_a_clock_this_program_does_not_play_keeps_its_comments_as_they_were() -> None:
    other = ANNOTATED.replace('[Variant "8x8"]', '[Variant "8x8"]\n[TimeControl "40/7200"]')
    other = other.replace("{the usual}", "{[%clk 1:59:00]}")
    session = Session.from_text(other)
    assert session.clock is None
    assert comments_of(session.record_text())[1] == ["[%clk 1:59:00]"]


def test_a_new_game_has_no_comments_and_gets_only_its_clocks() -> None:
    session = Session.new(Session.from_text(ANNOTATED).game, None, time_control=TimeControl(5, 3))
    for text in ("e1-g3", "d8-d6", "g3-g5"):
        session.play(session.game.parse_move(text, session.state))
    assert comments_of(session.record_text()) == [  # untimed first moves, then the increment
        [],
        ["[%clk 0:05:00]"],
        ["[%clk 0:05:00]"],
        ["[%clk 0:05:03]"],
    ]


def test_a_moves_mark_goes_with_it_and_is_written_again() -> None:
    marked = ANNOTATED.replace("e1-g3 {", "e1-g3?! {").replace("d8-b6 {", "d8-b6! {")
    assert parse_record(marked).marks == ["?!", "!", ""]
    session = Session.from_text(marked)
    assert parse_record(session.record_text()).marks == ["?!", "!", ""]
    session.undo()
    session.undo()
    session.play(session.game.parse_move("d8-c7", session.state))  # another reply: no mark
    assert parse_record(session.record_text()).marks == ["?!", ""]


def test_a_mark_after_a_move_of_two_words_goes_with_it() -> None:
    text = BIPOD_SAMPLE.read_text(encoding="utf-8").replace("3. v2 O    j4", "3. v2 O?? j4!?")
    record = parse_record(text)
    assert record.marks[4:6] == ["??", "!?"]  # the fifth and sixth moves, v2 O and j4
    assert record.state.moves_played == parse_record(BIPOD_SAMPLE.read_text()).state.moves_played
    assert "v2 O?? j4!?" in Session.from_text(text).record_text()
