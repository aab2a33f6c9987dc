"""Every figure read from a record is bounded, and whatever the program writes it can read back
(issue 40): a `[%clk]` with a 306-digit hour was a traceback in `play`, Open and paste (a
304-digit one at the autosave); a record of 300,000 comments was written back larger than the
read cap and could not be opened again."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dipole_tui.clock import MOST_CLK, TimeControl, clk_comment, read_clk, shown_time
from dipole_tui.control.keeper import Keeper
from dipole_tui.games.base import GameError
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.records import RECORD_LIMIT, read_record_file
from dipole_tui.registry import REGISTRY
from dipole_tui.saves import Autosave
from dipole_tui.session import KEPT_LIMIT, Notes, Session, clock_for

PLAYABLE = list(REGISTRY)


def clocked(hours: str) -> str:
    return (
        '[Game "Dipole"]\n[TimeControl "300+3"]\n\n'
        f"1. e1-g3 {{[%clk {hours}:00:00]}} d8-c7 {{[%clk 0:04:58]}}\n"
    )


def keeper(folder: Path) -> Keeper:
    kept = Keeper(Session.new(DIPOLE), Autosave(folder))
    kept.claim()
    return kept


@pytest.mark.parametrize("digits", [7, 304, 306, 5000])
def test_a_clock_figure_past_its_bound_is_no_clock_comment(tmp_path: Path, digits: int) -> None:
    """Ignored as a clock (the mover keeps the time it had), kept as the comment it is."""
    text = clocked("9" * digits)
    path = tmp_path / "game.txt"
    path.write_text(text)
    kept = keeper(tmp_path / "data")
    for session, said in (kept.open(path, PLAYABLE), kept.pasted(text, PLAYABLE)):
        assert session is not None and said.severity != "error", said.text
        assert session.clock_times() == [300.0, 298.0]
        assert "9" * digits in session.record_text()
        kept.start(session)  # written to the autosave, and read back
        assert not kept.unkept
        assert Session.from_text(read_record_file(kept.autosave.path)).clock_times() == [
            300.0,
            298.0,
        ]


def test_the_largest_clock_figure_reads_and_is_written_back() -> None:
    assert read_clk("[%clk 999999:59:59]") == MOST_CLK
    assert read_clk("[%clk 1000000:00:00]") is None
    assert read_clk("[%clk 0:00:01.1234567890]") is None  # ten digits of a second: no clock
    session = Session.from_text(clocked("999999"))
    assert session.clock_times()[0] == 999999 * 3600
    assert Session.from_text(session.checked_record()).clock_times() == session.clock_times()


@pytest.mark.parametrize("seconds", [float("inf"), 1e300, float("nan"), -1.0])
def test_a_clock_shows_and_writes_any_time_within_its_bounds(seconds: float) -> None:
    """A server's message may say any time: the face and the record stay readable."""
    written = clk_comment(seconds)
    assert read_clk(written) in (0.0, MOST_CLK)
    assert len(shown_time(seconds)) <= len("999999:59:59")


def records() -> list[str]:
    """A clock game of each game, from a position of its own (a Position tag): every kind of
    figure a record holds."""
    texts = []
    for entry in REGISTRY.values():
        game = entry.game
        opening = Session.new(game)
        for _ in range(4):
            opening.play(opening.state.legal_moves()[0])
        session = Session(game, game.parse_position(opening.state.position()))
        session.clock = clock_for(TimeControl(5, 3), session.state)
        for _ in range(3):
            session.play(session.state.legal_moves()[0])
        texts.append(session.record_text())
    return texts


RECORDS = records()


@pytest.mark.parametrize("digits", [306, 5000])
@pytest.mark.parametrize("number", range(len(RECORDS)), ids=list(REGISTRY))
def test_every_figure_of_a_record_made_huge_is_refused_in_one_line_or_kept(
    number: int, digits: int
) -> None:
    """Each run of digits in turn (move numbers, positions, counts, dates, clocks, the time
    control) made absurd: the record is refused with a GameError, or read and written back."""
    text = RECORDS[number]
    runs = list(re.finditer(r"[0-9]+", text))
    assert len(runs) > 10
    for run in runs:
        hostile = text[: run.start()] + "9" * digits + text[run.end() :]
        try:
            session = Session.from_text(hostile)
        except GameError as error:
            assert "\n" not in str(error) and len(str(error)) < 400
            continue
        Session.from_text(session.checked_record())


# -- write caps below read caps -------------------------------------------------------------


def commented(count: int, body: str = "c") -> str:
    """A record of two plies and `count` one-line comments before them."""
    lines = ['[Game "Dipole"]', "", *([f";{body}"] * count), "1. e1-g3 d8-c7", ""]
    return "\n".join(lines)


def test_a_record_of_300000_comments_is_written_back_under_the_read_cap(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(commented(300_000))
    assert path.stat().st_size < RECORD_LIMIT
    kept = keeper(tmp_path / "data")
    session, _ = kept.open(path, PLAYABLE)
    assert session is not None and 0 < session.notes.cut < 300_000
    change = kept.start(session)
    assert any("comments past the first 900 KB" in notice.text for notice in change.notices)
    written = read_record_file(kept.autosave.path)  # read back: under the cap
    assert KEPT_LIMIT - 10 < len(written.encode()) <= KEPT_LIMIT
    again = Session.from_text(written)
    assert again.state.moves_played == session.state.moves_played
    assert again.notes.comments[0] == session.notes.comments[0]


def test_a_record_at_the_read_cap_round_trips(tmp_path: Path) -> None:
    """Exactly as large as a record may be: opened, saved, and opened again, its moves and tags
    the same, its comments the first of the ones it had."""
    comment = "x" * 98
    text = commented((RECORD_LIMIT - len(commented(0))) // (len(comment) + 2), comment)
    filler = ";" + "y" * (RECORD_LIMIT - len(text) - 2) + "\n"  # up to the last byte
    text = text.replace("\n", "\n" + filler, 1)
    assert len(text.encode()) == RECORD_LIMIT
    path = tmp_path / "game.txt"
    path.write_text(text)
    kept = keeper(tmp_path / "data")
    session, _ = kept.open(path, PLAYABLE)
    assert session is not None and session.notes.cut > 0
    kept.start(session)
    saved = tmp_path / "saved.txt"
    assert kept.save_as(saved).text == f"Saved to {saved}"
    reopened, said = kept.open(saved, PLAYABLE)
    assert reopened is not None, said.text
    assert reopened.state.moves_played == session.state.moves_played
    assert session.tags.items() <= reopened.tags.items()
    assert reopened.notes.cut == 0  # written within the budget: read back whole
    assert reopened.notes.comments[0] == session.notes.comments[0]


def test_a_record_that_would_not_read_back_is_never_written(tmp_path: Path) -> None:
    session = Session.from_text(commented(1))
    big: Any = (("z" * RECORD_LIMIT,),)
    session.notes = Notes(session.notes.moves, big)
    with pytest.raises(GameError, match=r"larger than the 1 MB a record may be"):
        session.checked_record()
    autosave = Autosave(tmp_path)
    autosave.claim()
    with pytest.raises(GameError):
        autosave.write(session)
    assert not autosave.path.exists()


def test_a_record_whose_tags_alone_would_be_written_past_the_cap_is_refused() -> None:
    """Line breaks in a tag are written escaped, six bytes for three: 400 KB of them would be
    written 800 KB... and with a comment, a record past the cap."""
    tag = "\u2028" * 340_000  # 1.02 MB read, 2.04 MB written
    text = f'[Game "Dipole"]\n[Event "{tag}"]\n\n1. e1-g3 {{c}}\n'
    with pytest.raises(GameError, match=r"the game's record would be 2\d\d\d KB, more than"):
        Session.from_text(text)
