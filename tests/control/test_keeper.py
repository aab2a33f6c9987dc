"""The keeper without an app: what is kept on disk after each change, and what the screen is
told."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from game_files import a_move_from_a_win
from seats import seated

from dipole_tui.adaptive import AdaptiveLevels, rungs
from dipole_tui.clock import Clock, TimeControl
from dipole_tui.control.keeper import Keeper, new_session
from dipole_tui.games.base import GameError, IllegalMoveError
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.saves import Autosave
from dipole_tui.session import ADAPTIVE, HUMAN, Seat, Session

WON_IN_ONE = "8:W:Wc3=2:Be5=2"  # White takes Black's last stack with c3xe5


def at(position: str, players: tuple[str, str] = (HUMAN, HUMAN)) -> Session[Any]:
    session = Session(DIPOLE, DIPOLE.parse_position(position), seated(*players))
    session.pass_if_forced()
    return session


def keeper_at(folder: Path, position: str = "", **players: str) -> Keeper:
    seats = seated(players.get("white", HUMAN), players.get("black", HUMAN))
    session = at(position, seats) if position else Session.new(DIPOLE, players=seats)
    keeper = Keeper(session, Autosave(folder))
    keeper.claim()
    return keeper


def play(keeper: Keeper, *texts: str) -> Any:
    """The moves played in turn; the last one's change."""
    for text in texts:
        change = keeper.play(keeper.session.game.parse_move(text, keeper.session.state))
    return change


def test_every_move_is_in_the_autosave_at_once(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path)
    change = play(keeper, "e1-e3")
    assert change.message == "White played e1-e3."
    assert Session.from_text(keeper.autosave.path.read_text()).state == keeper.session.state
    assert change.game_over is None and keeper.unkept == ""


def test_an_illegal_move_changes_nothing_and_writes_nothing(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path)
    play(keeper, "e1-e3")
    written = keeper.autosave.path.read_text()
    stale = DIPOLE.parse_move("e1-e3", DIPOLE.new())  # White's, but Black moves
    with pytest.raises(IllegalMoveError):
        keeper.play(stale)
    assert keeper.session.state.plies == 1
    assert keeper.autosave.path.read_text() == written


def test_a_finished_game_is_filed_once_and_asked_about(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path, WON_IN_ONE)
    change = play(keeper, "c3xe5")
    assert change.game_over is not None
    assert change.game_over.headline == "White wins"
    filed = list((tmp_path / "finished").iterdir())
    assert len(filed) == 1 and str(filed[0]) in change.game_over.text
    assert not keeper.autosave.path.exists()  # no longer offered to resume
    again = keeper.after_change()  # a redraw of the finished game files nothing more
    assert again.game_over is None and len(list((tmp_path / "finished").iterdir())) == 1


def test_undo_and_redo_say_when_there_is_nothing(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path)
    assert keeper.undo() is None and keeper.redo() is None
    play(keeper, "e1-e3")
    undone = keeper.undo()
    assert undone is not None and "taken back" in undone.message
    assert keeper.session.state.plies == 0
    # The autosave holds the whole game, the undone move too: a review never loses it.
    assert Session.from_text(keeper.autosave.path.read_text()).state.plies == 1
    assert keeper.redo() is not None and keeper.session.state.plies == 1


def test_the_resume_question_offers_a_game_with_moves_only(tmp_path: Path) -> None:
    first = keeper_at(tmp_path)
    assert first.resume_question() == (None, [])  # nothing on disk
    play(first, "e1-e3")
    first.release()
    second = keeper_at(tmp_path)
    resume, notices = second.resume_question()
    assert notices == [] and resume is not None
    assert resume.text == "Dipole 8x8, 1 ply played."
    assert resume.saved.state == first.session.state


def test_a_damaged_autosave_is_said_and_set_aside(tmp_path: Path) -> None:
    (tmp_path / "autosave.txt").write_text('[Game "dipole"]\n\n1. z9-z9\n')
    keeper = keeper_at(tmp_path)
    resume, notices = keeper.resume_question()
    assert resume is None
    assert [notice.severity for notice in notices] == ["error"]
    assert "could not be read" in notices[0].text and "kept as" in notices[0].text


def test_a_new_game_keeps_the_unfinished_one(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path)
    play(keeper, "e1-e3", "d8-d6")
    change = keeper.start(Session.new(DIPOLE))
    kept = list((tmp_path / "unfinished").iterdir())
    named = str(kept[0].relative_to(tmp_path))  # named from the data folder
    assert len(kept) == 1 and any(named in notice.text for notice in change.notices)
    assert Session.from_text(kept[0].read_text()).state.plies == 2


def test_a_new_game_replaces_a_one_ply_game_without_a_word(tmp_path: Path) -> None:
    """A game of fewer than two moves is one lichess would abort: nothing of it is filed."""
    keeper = keeper_at(tmp_path)
    play(keeper, "e1-e3")
    change = keeper.start(Session.new(DIPOLE))
    assert change.notices == [] and not (tmp_path / "unfinished").exists()
    set_up = Keeper(Session(DIPOLE, DIPOLE.parse_position(WON_IN_ONE)), Autosave(tmp_path))
    set_up.claim()
    set_up.start(set_up.session)
    change = set_up.start(Session.new(DIPOLE))  # a set-up position is kept, even unplayed
    assert len(list((tmp_path / "unfinished").iterdir())) == 1 and change.notices


def adaptive_keeper(folder: Path) -> tuple[Keeper, str]:
    """A person (Black) one move from beating the adaptive bot in a game from the start."""
    session, winning = a_move_from_a_win((ADAPTIVE, HUMAN))
    keeper = Keeper(session, Autosave(folder))
    keeper.claim()
    return keeper, winning


def test_the_adaptive_seat_moves_once_per_game(tmp_path: Path) -> None:
    keeper, winning = adaptive_keeper(tmp_path)
    ladder = rungs("dipole")
    assert keeper.level_of(ADAPTIVE, "dipole") == ladder[0]
    assert keeper.level_of(Seat("hard"), "dipole") == "hard"
    change = play(keeper, winning)
    assert [notice.title for notice in change.notices] == ["Rating", "Adaptive"]
    assert f"moves up to {ladder[1]}" in change.notices[1].text
    assert AdaptiveLevels(tmp_path).level("dipole") == ladder[1]
    # The finished game keeps the level it was played at; the next game plays the new one.
    assert keeper.level_of(ADAPTIVE, "dipole") == ladder[0]
    keeper.undo()
    assert not play(keeper, winning).notices  # the same game, won again: no second step
    keeper.start(Session.new(DIPOLE, players=(HUMAN, ADAPTIVE)))
    assert keeper.level_of(ADAPTIVE, "dipole") == ladder[1]


def test_only_a_game_from_the_start_moves_the_adaptive_seat(tmp_path: Path) -> None:
    """A position set up (or pasted) one move from a win would promote the bot for nothing."""
    keeper = keeper_at(tmp_path, WON_IN_ONE, black=ADAPTIVE)
    change = play(keeper, "c3xe5")
    assert "stays at" in change.notices[0].text and "from the start" in change.notices[0].text
    assert AdaptiveLevels(tmp_path).level("dipole") == rungs("dipole")[0]


def test_whose_turn_it_is(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path, black="easy")
    assert keeper.human_to_move
    play(keeper, "e1-e3")
    assert not keeper.human_to_move
    assert keeper.waiting_for() == "it is Black's bot's turn"


def test_quitting_is_questioned_while_the_game_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keeper = keeper_at(tmp_path)

    def full(path: object, text: str) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr("dipole_tui.saves.storage.write_text", full)
        play(keeper, "e1-e3")
        problem, _ = keeper.may_quit()
        assert "No space left on device" in problem and problem == keeper.unkept
    assert keeper.may_quit() == ("", [])  # tried again before quitting: kept now
    assert Session.from_text(keeper.autosave.path.read_text()).state.plies == 1


# -- endings outside the position: resigning, an agreed draw, a flag ----------------------------


def test_resigning_files_the_game_once_and_says_who_won(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path, black="easy")
    play(keeper, "e1-e3")
    change = keeper.referee.resign(0)  # while Black's bot thinks
    assert change.message == "White resigned."
    assert change.game_over is not None and change.game_over.headline == "Black wins"
    (filed,) = (tmp_path / "finished").iterdir()
    assert str(filed) in change.game_over.text
    assert '[Termination "resigned"]' in filed.read_text()
    assert not keeper.autosave.path.exists()
    assert keeper.undo() is None and not keeper.human_to_move
    assert keeper.waiting_for() == "the game is over"
    with pytest.raises(GameError, match="the game is over"):
        keeper.referee.resign(1)
    assert keeper.after_change().game_over is None  # filed once
    assert len(list((tmp_path / "finished").iterdir())) == 1


def test_an_agreed_draw_is_filed_and_refused_where_the_game_has_none(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path)
    with pytest.raises(GameError, match="Dipole has no draws"):
        keeper.referee.draw()
    assert keeper.session.outcome is None
    keeper.start(Session.new(DEATH_STACKS))
    change = keeper.referee.draw()
    assert change.message == "Drawn by agreement."
    assert change.game_over is not None and change.game_over.headline == "The game is drawn"
    assert len(list((tmp_path / "finished").iterdir())) == 1


def test_a_resignation_against_the_adaptive_bot_is_a_loss(tmp_path: Path) -> None:
    keeper, winning = adaptive_keeper(tmp_path)
    ladder = rungs("dipole")
    play(keeper, winning)  # a win: up one rung
    assert keeper.adaptive.level("dipole") == ladder[1]
    keeper.start(Session.new(DIPOLE, players=(HUMAN, ADAPTIVE)))
    change = keeper.referee.resign(0)
    assert f"moves down to {ladder[0]}" in change.notices[-1].text
    assert AdaptiveLevels(tmp_path).level("dipole") == ladder[0]


def test_the_adaptive_bot_resigning_out_of_turn_counts_as_the_persons_win(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path, white=ADAPTIVE)
    keeper.referee.resign(0)
    assert AdaptiveLevels(tmp_path).level("dipole") == rungs("dipole")[1]


def timed_keeper(folder: Path, control: str = "0.5+0") -> tuple[Keeper, list[float]]:
    """A keeper whose game has clocks on a time source the test moves (`now[0]`)."""
    now = [100.0]
    session = Session.new(DIPOLE, time_control=TimeControl.parse(control))
    assert session.clock is not None
    session.clock = Clock(session.clock.control, session.clock.marks, lambda: now[0])
    keeper = Keeper(session, Autosave(folder))
    keeper.claim()
    keeper.start(session)
    session.start_clock()
    now[0] += 100  # each side's first move is untimed
    play(keeper, "e1-e3", "d8-d6")
    return keeper, now


def test_a_flag_loses_the_game_on_time_once(tmp_path: Path) -> None:
    keeper, now = timed_keeper(tmp_path)
    now[0] += 29
    assert keeper.referee.flag() is None
    play(keeper, "e3-e5")
    assert "[%clk 0:00:01]" in keeper.autosave.path.read_text()
    now[0] += 30
    change = keeper.referee.flag()
    assert change is not None and change.message == "Black lost on time."
    assert change.game_over is not None and change.game_over.headline == "White wins"
    assert keeper.referee.flag() is None
    assert len(list((tmp_path / "finished").iterdir())) == 1


def test_a_move_after_the_flag_fell_is_too_late(tmp_path: Path) -> None:
    keeper, now = timed_keeper(tmp_path)
    now[0] += 31
    change = play(keeper, "e3-e5")
    assert change.message == "White lost on time."
    assert keeper.session.state.plies == 2
    with pytest.raises(IllegalMoveError, match="the game is over"):
        play(keeper, "e3-e5")


def test_the_clock_of_a_new_game_comes_from_the_choice(tmp_path: Path) -> None:
    keeper, _ = timed_keeper(tmp_path, "5+3")
    assert keeper.choice.time_control == TimeControl(5, 3)
    again = new_session(keeper.choice)
    assert again.clock is not None and again.clock.control == TimeControl(5, 3)
    assert new_session(keeper_at(tmp_path / "other").choice).clock is None


def test_the_autosave_resumes_the_clocks_as_they_were(tmp_path: Path) -> None:
    keeper, now = timed_keeper(tmp_path, "5+3")
    now[0] += 12
    play(keeper, "e3-e5")
    now[0] += 20
    play(keeper, "d6-d4")
    saved, _ = Keeper(Session.new(DIPOLE), Autosave(tmp_path)).saved_game()
    assert saved is not None and saved.clock is not None and not saved.clock.running
    assert (saved.clock.remaining(0), saved.clock.remaining(1)) == (291, 283)


def test_the_side_that_may_resign_is_the_person_at_the_keyboard(tmp_path: Path) -> None:
    hot_seat = keeper_at(tmp_path / "a")
    assert hot_seat.acting_side() == 0
    play(hot_seat, "e1-e3")
    assert hot_seat.acting_side() == 1  # hot-seat: the side to move
    against = keeper_at(tmp_path / "b", white="easy")
    assert against.acting_side() == 1  # the person plays Black, also on White's turn
    bots = keeper_at(tmp_path / "c", white="easy", black="hard")
    assert bots.acting_side() is None
    hot_seat.referee.resign(1)
    assert hot_seat.acting_side() is None  # over


def test_an_undo_says_how_many_moves_it_took_back(tmp_path: Path) -> None:
    alone = keeper_at(tmp_path / "one")
    play(alone, "e1-e3")
    undone = alone.undo()
    assert undone is not None and undone.message.startswith("Move taken back")
    against_a_bot = keeper_at(tmp_path / "two", black="easy")
    play(against_a_bot, "e1-e3")
    play(against_a_bot, "d8-d6")  # the bot's reply
    undone = against_a_bot.undo()  # back to the person's turn: two moves
    assert undone is not None and undone.message.startswith("2 moves taken back")
