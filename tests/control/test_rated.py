"""Which games rate you at home (issue 43): a person against a level, from the start, ended
with a result, counted once; what is said of the rating, and the panel's line."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from game_files import a_move_from_a_win
from seats import seated
from test_keeper import WON_IN_ONE, keeper_at, play

from dipole_tui.control.keeper import Keeper
from dipole_tui.control.rated import HomeRatings, rated_result
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.learn.rating import Rating, update
from dipole_tui.registry import rating
from dipole_tui.results import Results, rating_words
from dipole_tui.saves import Autosave
from dipole_tui.session import ADAPTIVE, HUMAN, REMOTE, Session

NOW = datetime(2026, 12, 7, 10, 50)


def beating(folder: Path, bot: str, person_side: int = 1) -> tuple[Keeper, str]:
    """A person one move from beating `bot` (Black wins the sample game) from the start."""
    players = (bot, HUMAN) if person_side == 1 else (HUMAN, bot)
    session, winning = a_move_from_a_win(players)
    keeper = Keeper(session, Autosave(folder))
    keeper.claim()
    keeper.start(session)
    return keeper, winning


def test_a_win_against_a_level_is_kept_with_its_level_s_rating(tmp_path: Path) -> None:
    keeper, winning = beating(tmp_path, "easy")
    change = play(keeper, winning)
    (entry,) = Results(tmp_path).entries
    assert (entry.game, entry.level, entry.level_rating) == (
        "dipole",
        "easy",
        rating("dipole", "easy"),
    )
    assert (entry.result, entry.plies, entry.variant) == ("win", 26, "8x8")
    after = update(Rating(), [entry.bout])
    (notice,) = [n for n in change.notices if n.title == "Rating"]
    assert notice.text.startswith(f"Your Dipole rating: 1500? → {rating_words(after)} (+")
    assert keeper.ratings.line(keeper.session) == f"Your rating {rating_words(after)}"


def test_a_game_counts_once_even_when_its_end_is_undone_and_played_again(tmp_path: Path) -> None:
    keeper, winning = beating(tmp_path, "hard")
    play(keeper, winning)
    keeper.undo()
    change = play(keeper, winning)
    assert len(Results(tmp_path).entries) == 1
    assert not [n for n in change.notices if n.title == "Rating"]


def test_a_loss_by_resigning_counts_as_a_loss(tmp_path: Path) -> None:
    keeper = keeper_at(tmp_path, black="medium")
    play(keeper, "e1-e3")
    keeper.referee.resign(0)
    (entry,) = Results(tmp_path).entries
    assert (entry.result, entry.level) == ("loss", "medium")


def test_the_adaptive_bot_counts_at_the_level_it_played(tmp_path: Path) -> None:
    keeper, winning = beating(tmp_path, ADAPTIVE)
    level = keeper.level_of(ADAPTIVE, "dipole")
    play(keeper, winning)  # the adaptive bot moves up meanwhile
    assert keeper.adaptive.level("dipole") != level
    assert Results(tmp_path).entries[0].level == level


def test_games_that_do_not_rate(tmp_path: Path) -> None:
    # hot-seat, bots against each other, online: no single person against a level
    for players in ((HUMAN, HUMAN), ("easy", "hard"), (HUMAN, REMOTE)):
        session, winning = a_move_from_a_win(players)
        session.play(session.game.parse_move(winning, session.state))
        assert session.outcome is not None
        assert rated_result(session, lambda seat, key: str(seat), NOW) is None, players
    # a set-up position one move from a win
    keeper = keeper_at(tmp_path, WON_IN_ONE, black="easy")
    play(keeper, "c3xe5")
    # an aborted game has no result
    aborted = keeper_at(tmp_path / "other", black="easy")
    play(aborted, "e1-e3")
    aborted.referee.abort()
    assert Results(tmp_path).entries == [] and Results(tmp_path / "other").entries == []


def test_a_finished_game_opened_is_not_counted_again(tmp_path: Path) -> None:
    session, winning = a_move_from_a_win((HUMAN, "easy"))
    session.play(session.game.parse_move(winning, session.state))
    keeper = Keeper(Session.new(DIPOLE), Autosave(tmp_path))
    keeper.claim()
    keeper.start(Session.from_text(session.record_text()))
    keeper.after_change()
    assert Results(tmp_path).entries == []


def test_a_results_file_set_aside_is_said_once_with_the_settings_files(tmp_path: Path) -> None:
    (tmp_path / "results.json").write_text("{")
    keeper = Keeper(Session.new(DIPOLE), Autosave(tmp_path))
    notices = keeper.claim()
    assert any("results file" in n.text and "set aside" in n.text for n in notices)
    assert keeper.settings_notices() == []


def test_a_result_that_cannot_be_kept_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keeper, winning = beating(tmp_path, "easy")

    def full(path: object, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("dipole_tui.results.storage.write_settings", full)
    change = play(keeper, winning)
    (notice,) = [n for n in change.notices if n.title == "Rating"]
    assert notice.text == "could not keep the result: No space left on device"
    assert keeper.ratings.line(keeper.session) == "Your rating 1500?"  # nothing counted


def test_the_panel_s_line_is_for_a_person_against_a_bot_only(tmp_path: Path) -> None:
    ratings = HomeRatings(tmp_path)
    line = ratings.line
    assert line(Session.new(DIPOLE, players=seated(HUMAN, "easy"))) == "Your rating 1500?"
    assert line(Session.new(DIPOLE, players=seated(ADAPTIVE, HUMAN))) == "Your rating 1500?"
    assert line(Session.new(DIPOLE, players=seated(HUMAN, HUMAN))) == ""
    assert line(Session.new(DIPOLE, players=seated("easy", "hard"))) == ""
    assert line(Session.new(DIPOLE, players=seated(HUMAN, REMOTE))) == ""
