"""Who sits at a side is a `Seat`, asked what it is rather than compared as text, and read from
and written to records exactly as the plain strings it replaced."""

from __future__ import annotations

import pickle

import pytest

from dipole_tui.bots import LEVELS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.session import ADAPTIVE, HUMAN, PLAYERS, REMOTE, Seat, Session


def test_each_kind_of_seat_answers_for_itself() -> None:
    kinds = {
        seat: (seat.is_person, seat.is_remote, seat.is_bot, seat.is_adaptive, seat.level)
        for seat in (HUMAN, REMOTE, ADAPTIVE, Seat("hard"), Seat("random"))
    }
    assert kinds == {
        "human": (True, False, False, False, None),
        "remote": (False, True, False, False, None),
        "adaptive": (False, False, True, True, None),
        "hard": (False, False, True, False, "hard"),
        "random": (False, False, True, False, "random"),
    }


def test_a_seat_is_its_own_text() -> None:
    """Records, saves and the command line keep the strings they had: a seat reads back from
    its text (and from a worker's pickle) as itself, and its text is the old string."""
    for text in ("human", "remote", "adaptive", *LEVELS):
        seat = Seat(text)
        assert seat == text and str(seat) == text and type(str(seat)) is str
        assert Seat(str(seat)) == seat and pickle.loads(pickle.dumps(seat)).level == seat.level
    assert [str(seat) for seat in PLAYERS] == ["human", *LEVELS, "adaptive"]


@pytest.mark.parametrize("text", ["", "Human", "hard-v1", "ab4", "x" * 10_000, "a\nb"])
def test_a_seat_there_is_not_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(ValueError) as refused:
        Seat(text)
    said = str(refused.value)
    assert said.startswith("no seat called '") and "human" in said and "adaptive" in said
    assert "\n" not in said and len(said) < 300


def test_a_record_s_seats_are_read_as_seats_and_written_as_before() -> None:
    session = Session.new(DIPOLE, None, (ADAPTIVE, Seat("easy")))
    text = session.record_text()
    assert '[White "adaptive"]' in text and '[Black "easy"]' in text
    read = Session.from_text(text)
    assert read.players == (ADAPTIVE, Seat("easy")) and read.players[1].level == "easy"
    # A person's name, or a seat this game does not offer, is a person here.
    named = Session.from_text(text.replace('"adaptive"', '"Ann"').replace('"easy"', '"remote"'))
    assert [seat.is_person for seat in named.players] == [True, True]
    assert (named.player_name(0), named.player_name(1)) == ("Ann", "human")
