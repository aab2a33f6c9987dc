"""The games kept in the data folder, as the Open dialog lists them: read from their headers,
newest first, damaged files listed with their reason; and an empty game is not shelved."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from game_files import kept, played
from paths import DATA

from dipole_tui.records import RecordError, parse_record, read_header
from dipole_tui.saves import Autosave

SAMPLES = DATA


@pytest.mark.parametrize("sample", sorted(p.name for p in SAMPLES.glob("sample-*.txt")))
def test_a_header_tells_game_variant_plies_and_result_as_a_replay_does(sample: str) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    record = parse_record(text)
    header = read_header(text)
    assert header.game is record.game
    assert header.variant == record.state.variant
    assert header.plies == len(record.state.moves_played) > 0
    assert header.result == record.result
    assert header.tags["White"] == record.tags["White"]


def test_a_header_counts_passes_and_skips_numbers_comments_and_the_result() -> None:
    text = (
        '[Game "Dipole"]\n[Variant "10x10"]\n\n'
        "1. e1-g3 {a comment} d10-c9 ; to the end of the line\n2. pass\n*\n"
    )
    header = read_header(text)
    assert (header.variant, header.plies, header.result) == ("10x10", 3, "*")


def test_a_header_takes_the_variant_from_the_position_and_the_result_from_the_moves() -> None:
    text = '[Game "Dipole"]\n[Position "10:W:We1=20:Bf10=20"]\n\n1. e1-g3 1-0\n'
    header = read_header(text)
    assert (header.variant, header.plies, header.result) == ("10x10", 1, "1-0")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[Game "Dipole"\n\n1. e1-g3\n', "line 1: expected a tag"),
        ('[Game "Chess"]\n\n1. e4\n', "'Chess'"),
        ('[Game "Dipole"]\n[Variant "9x9"]\n', "no variant '9x9'"),
        ('[Game "Dipole"]\n[Result "2-0"]\n', "the Result tag is '2-0'"),
    ],
)
def test_a_header_that_cannot_be_read_says_why(text: str, reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        read_header(text)


def test_the_kept_games_are_listed_newest_first_without_the_autosave(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path)
    autosave.write(played("dipole", ["e1-g3"]))  # the game on screen: not listed
    older = kept(
        tmp_path / "finished" / "a.txt",
        played("death-stacks", ["a1-2-a3", "f6-1-f5"]).record_text(),
        "2026-03-01 10:00",
    )
    newer = kept(
        tmp_path / "unfinished" / "b.txt",
        played("dipole", ["e1-g3"], "10x10").record_text(),
        "2026-03-02 09:00",
    )
    newest = kept(
        tmp_path / "finished" / "c.txt",
        (SAMPLES / "sample-bipod.txt").read_text(),
        "2026-03-03 08:00",
    )
    kept(tmp_path / "finished" / "notes.md", "not a game", "2026-03-04 08:00")
    games = autosave.saved_games()
    assert [game.path for game in games] == [newest, newer, older]
    assert [game.kept for game in games] == ["finished", "unfinished", "finished"]
    assert games[1].modified == datetime(2026, 3, 2, 9, 0)
    summaries = [
        (g.header.game.name, g.header.variant, g.header.plies, g.header.result)
        for g in games
        if g.header is not None
    ]
    assert summaries[1:] == [("Dipole", "10x10", 1, "*"), ("Death Stacks", "standard", 2, "*")]
    assert summaries[0][0] == "Bi-Pod"
    assert games[1].header is not None and games[1].header.tags["Black"] == "hard"


def test_damaged_files_are_listed_with_a_one_line_reason(tmp_path: Path) -> None:
    tmp_path /= "a folder with a long name " * 6  # the reason is never cut short by it
    tmp_path.mkdir()
    autosave = Autosave(tmp_path)
    good = kept(
        tmp_path / "finished" / "good.txt",
        played("dipole", ["e1-g3"]).record_text(),
        "2026-03-01 10:00",
    )
    bad_tag = kept(
        tmp_path / "finished" / "bad-tag.txt", '[Game "Dipole"\n\n1. e1-g3\n', "2026-03-02 10:00"
    )
    binary = tmp_path / "unfinished" / "binary.txt"
    binary.parent.mkdir()
    binary.write_bytes(b'[Game "Dipole"]\n\xff\xfe\x80\n')
    folder = tmp_path / "finished" / "folder.txt"
    folder.mkdir()
    set_aside = kept(
        tmp_path / "autosave-unreadable-20260301-100000.txt", "garbage", "2026-03-01 09:00"
    )
    games = {game.path: game for game in autosave.saved_games()}
    assert set(games) == {good, bad_tag, binary, folder, set_aside}
    assert games[good].header is not None and games[good].problem == ""
    problems = {path: games[path].problem for path in (bad_tag, binary, folder)}
    assert "line 1: expected a tag" in problems[bad_tag]
    assert problems[binary].endswith(
        "is not a text file (line 2 is not UTF-8; expected a game record)"
    )
    assert problems[folder].endswith("is a folder, not a game record")  # never opened as a file
    assert all(games[path].header is None and "\n" not in problems[path] for path in problems)
    assert games[set_aside].kept == "set aside"
    # 'garbage' says no game: even its header cannot be read.
    assert games[set_aside].header is None
    assert games[set_aside].problem.startswith("the record has no Game tag")


def test_an_empty_data_folder_lists_nothing(tmp_path: Path) -> None:
    assert Autosave(tmp_path / "never-made").saved_games() == []


def test_a_game_with_no_moves_is_not_shelved(tmp_path: Path) -> None:
    autosave = Autosave(tmp_path)
    autosave.write(played("dipole", [], "10x10"))
    assert autosave.shelve() is None
    assert not (tmp_path / "unfinished").exists()
    autosave.write(played("dipole", ["e1-g3"]))
    assert autosave.shelve() is None  # one move: a game lichess would abort, nothing to keep
    autosave.write(played("dipole", ["e1-g3", "d8-d6"]))
    shelved = autosave.shelve()
    assert shelved is not None and shelved.parent == tmp_path / "unfinished"
    autosave.path.write_text('[Game "Dipole"\n')  # unreadable: set aside, never filed as a game
    with pytest.raises(RecordError, match=r"kept as .*autosave-unreadable-"):
        autosave.shelve()
    assert len(list(tmp_path.glob("autosave-unreadable-*.txt"))) == 1
    assert len(list((tmp_path / "unfinished").iterdir())) == 1
