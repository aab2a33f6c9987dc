"""Endings that are not in the position: a player resigns, the players agree a draw, a flag
falls. The game is over and stays over (no move, no undo), and its record says how it ended and
reads back so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dipole_tui.games.base import GameError, IllegalMoveError, Outcome, Termination
from dipole_tui.games.bipod import BIPOD, RESIGN
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import ENDINGS, RecordError, parse_record
from dipole_tui.registry import games
from dipole_tui.saves import Autosave
from dipole_tui.session import Session


def play(session: Session[Any], *texts: str) -> None:
    for text in texts:
        session.play(session.game.parse_move(text, session.state))


def test_the_games_that_can_be_drawn_say_so() -> None:
    assert {game.key for game in games() if game.can_draw} == {"death-stacks", "bipod"}


def test_only_bipod_has_a_word_for_resigning_among_its_moves() -> None:
    resigns = {g.key for g in games() if any(g.is_resignation(m) for m in [*g.new().legal_moves()])}
    assert resigns == set()  # never listed: no bot or search plays it
    assert BIPOD.is_resignation(RESIGN) and not BIPOD.is_resignation(BIPOD.new().legal_moves()[0])


@pytest.mark.parametrize("side", [0, 1])
def test_either_side_resigns_at_any_time_and_the_game_is_over(side: int) -> None:
    session = Session.new(DIPOLE)
    play(session, "e1-e3")  # Black to move: White resigns out of turn, Black on its turn
    session.resign(side)
    name = ("White", "Black")[side]
    assert session.outcome == Outcome(1 - side, Termination.RESIGNED, f"{name} resigned")
    assert session.state.outcome() is None  # the position itself goes on
    with pytest.raises(IllegalMoveError, match="the game is over"):
        session.play(session.state.legal_moves()[0])
    assert not session.can_undo() and session.undo() == [] and session.undo_to_human() == []
    assert session.state.plies == 1
    with pytest.raises(GameError, match="the game is over"):
        session.resign(1 - side)
    assert session.pass_if_forced() == []


def test_resigning_drops_the_moves_taken_back_before() -> None:
    session = Session.new(DIPOLE)
    play(session, "e1-e3", "d8-d6")
    session.undo()
    session.resign(1)
    assert session.redo_moves == [] and session.redo() == []
    assert session.whole_game() is session and session.whole_game().outcome is not None


def test_the_record_of_a_resigned_game_keeps_its_ending() -> None:
    session = Session.new(DIPOLE)
    play(session, "e1-e3")
    session.resign(0)
    text = session.checked_record()
    assert '[Result "0-1"]' in text and '[Termination "resigned"]' in text
    assert text.rstrip().endswith("0-1")
    back = Session.from_text(text)
    assert back.outcome == session.outcome and back.ending == session.ending
    assert "Termination" not in back.tags and "Result" not in back.tags
    assert back.record_text() == text


@pytest.mark.parametrize("how", ["R", "typed"])
def test_bipod_resigning_on_its_turn_ends_it_as_in_every_game(how: str) -> None:
    """Not a move: the review would judge it, Open count it, and the record lack its tags."""
    session = Session.new(BIPOD)
    play(session, "e1")
    if how == "R":
        session.resign(session.state.to_move)
    else:
        assert session.play(session.game.parse_move("resign", session.state)) == []
    assert session.state.plies == 1 and session.state.outcome() is None
    assert session.outcome == Outcome(0, Termination.RESIGNED, "Second resigned")
    text = session.checked_record()
    assert "resign" not in text.split("\n\n", 1)[1]
    assert '[Termination "resigned"]' in text and '[Result "1-0"]' in text
    assert Session.from_text(text).outcome == session.outcome


def test_bipod_resigning_out_of_turn_ends_the_game_outside_the_moves() -> None:
    session = Session.new(BIPOD)
    session.resign(1)  # Second resigns while First thinks
    assert session.state.moves_played == []
    assert session.outcome == Outcome(0, Termination.RESIGNED, "Second resigned")
    assert Session.from_text(session.checked_record()).outcome == session.outcome


def test_a_draw_is_agreed_only_where_the_game_can_be_drawn() -> None:
    session = Session.new(DEATH_STACKS)
    session.agree_draw()
    assert session.outcome == Outcome(None, Termination.AGREED, "Drawn by agreement")
    text = session.checked_record()
    assert '[Result "1/2-1/2"]' in text and '[Termination "agreed draw"]' in text
    assert Session.from_text(text).outcome == session.outcome
    with pytest.raises(GameError, match="the game is over"):
        session.agree_draw()
    dipole = Session.new(DIPOLE)
    with pytest.raises(GameError, match="Dipole has no draws"):
        dipole.agree_draw()
    assert dipole.outcome is None


def test_a_flag_loses_on_time() -> None:
    session = Session.new(DEATH_STACKS)
    session.flag(0)
    assert session.outcome == Outcome(1, Termination.TIME, "Red lost on time")
    text = session.checked_record()
    assert '[Termination "time forfeit"]' in text and '[Result "0-1"]' in text
    with pytest.raises(GameError):
        session.flag(1)


def test_a_game_over_by_its_rules_cannot_be_resigned_or_drawn() -> None:
    session = Session(DIPOLE, DIPOLE.parse_position("8:W:We1=1:B"))
    with pytest.raises(GameError, match="the game is over"):
        session.resign(1)
    assert session.ending is None


def test_a_result_without_termination_leaves_the_game_unfinished_as_before() -> None:
    text = '[Game "Dipole"]\n[Result "1-0"]\n\n1. e1-e3\n1-0\n'
    session = Session.from_text(text)
    assert session.outcome is None and session.ending is None


@pytest.mark.parametrize("word", ["Resigned", "TIME FORFEIT", "resigned"])
def test_the_termination_tag_is_read_in_any_letter_case(word: str) -> None:
    record = parse_record(f'[Game "Dipole"]\n[Result "1-0"]\n[Termination "{word}"]\n')
    assert record.ending is not None and record.ending.winner == 0
    assert record.ending.termination.value in ("resigned", "time")


def test_a_termination_of_another_program_is_kept_as_a_tag() -> None:
    text = '[Game "Dipole"]\n[Result "1-0"]\n[Termination "Normal"]\n\n1. e1-e3\n'
    session = Session.from_text(text)
    assert session.ending is None and session.tags["Termination"] == "Normal"
    assert '[Termination "Normal"]' in session.checked_record()


@pytest.mark.parametrize(
    ("tags", "moves", "said"),
    [
        ('[Result "1/2-1/2"][Termination "resigned"]', "", "says resigned but the Result is"),
        ('[Result "*"][Termination "time forfeit"]', "", "says time forfeit but the Result is *"),
        ('[Result "1-0"][Termination "agreed draw"]', "", "agreed draw but the Result is 1-0"),
        ('[Result "1/2-1/2"][Termination "agreed draw"]', "", "but Dipole has no draws"),
        ('[Result "0-1"][Termination "resigned"]', "1. e1-e3", ""),
    ],
)
def test_a_termination_that_contradicts_the_result_is_refused(
    tags: str, moves: str, said: str
) -> None:
    text = '[Game "Dipole"]\n' + tags.replace("][", "]\n[") + f"\n\n{moves}\n"
    if not said:
        assert parse_record(text).ending is not None
        return
    with pytest.raises(RecordError, match=said):
        parse_record(text)


def test_a_termination_after_moves_that_end_the_game_is_refused() -> None:
    text = '[Game "Dipole"]\n[Position "8:W:Wc3=2:Be5=2"]\n[Termination "resigned"]\n\n1. c3xe5\n'
    with pytest.raises(RecordError, match="the moves end the game"):
        parse_record(text)


def test_each_ending_outside_the_moves_has_its_words() -> None:
    assert ENDINGS == {
        Termination.RESIGNED: "resigned",
        Termination.TIME: "time forfeit",
        Termination.AGREED: "agreed draw",
    }


def test_an_ended_game_in_the_autosave_is_filed_as_finished(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path)
    session = Session.new(DIPOLE)
    play(session, "e1-e3")
    session.resign(1)
    autosave.write(session)  # the app closed before it was filed
    assert autosave.load() is None
    (filed,) = (tmp_path / "finished").iterdir()
    assert Session.from_text(filed.read_text()).outcome == session.outcome
