"""`dipole-tui stats` (issue 43): your statistics against the bots printed as tables, from the
data folder's results, as the app's `S` shows them; a damaged file is set aside in one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_steps import Cli

from dipole_tui.registry import rating
from dipole_tui.results import Result, Results, rating_words, stats
from dipole_tui.saves import DATA_DIR_VARIABLE


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(tmp_path))
    return tmp_path


def kept(folder: Path, *games: tuple[str, str, str]) -> list[Result]:
    results = Results(folder)
    for day, (game, level, result) in enumerate(games, 1):
        results.add(
            Result(f"2026-12-{day:02d} 20:00", game, "8x8", level, rating(game, level), result, 33)
        )
    return results.entries


def test_with_no_games_it_says_so(cli: Cli, folder: Path) -> None:
    ran = cli("stats")
    assert ran.status == 0 and ran.out.startswith("No games against the bots yet")
    ran = cli("stats", "--game", "bipod")
    assert "No games of Bi-Pod" in ran.out and "--game bipod" in ran.out


def test_each_game_s_rating_record_per_level_and_last_games(cli: Cli, folder: Path) -> None:
    entries = kept(
        folder,
        ("dipole", "easy", "win"),
        ("dipole", "hard", "loss"),
        ("death-stacks", "easy", "draw"),
        ("dipole", "easy", "win"),
    )
    ran = cli("stats")
    assert ran.status == 0 and ran.err == ""
    lines = [" ".join(line.split()) for line in ran.out.splitlines()]
    dipole = stats(entries, "dipole")
    rating_now = rating_words(dipole.rating)
    assert lines[0] == (
        f"Dipole: Rating {rating_now} ± {round(dipole.rating.rd)}, 3 games: 2 won, 1 lost, "
        "0 drawn. Longest winning streak: 1."
    )
    hard = f"10 hard (+{rating('dipole', 'hard')}) 1 0 1 0"  # the ladder's, as measured
    assert "3 easy (+628) 2 2 0 0" in lines and hard in lines
    after = [rating_words(r) for r in dipole.ratings[1:]]
    assert f"2026-12-04 20:00 8x8 easy win 33 {after[2]}" in lines
    assert f"2026-12-02 20:00 8x8 hard loss 33 {after[1]}" in lines
    assert any(line.startswith("Death Stacks: Rating") for line in lines)
    only = cli("stats", "--game", "death-stacks").out
    assert "Dipole" not in only and "1 game: 0 won, 0 lost, 1 drawn" in only


def test_ascii_and_no_color(cli: Cli, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    kept(folder, ("dipole", "easy", "win"))
    ran = cli("--ascii", "stats")
    assert ran.out.isascii() and "+/-" in ran.out and "\x1b" not in ran.out
    assert "|" in ran.out  # the tables' columns, framed in ASCII


def test_a_damaged_file_is_set_aside_in_one_line(cli: Cli, folder: Path) -> None:
    (folder / "results.json").write_text('{"results": [{"game": "\\u001b]2;owned\\u0007"}]}')
    ran = cli("stats")
    assert ran.status == 0 and "No games" in ran.out
    assert ran.err.count("\n") == 1 and "set aside as" in ran.err and "\x1b" not in ran.err
    assert list(folder.glob("results.json.damaged-*"))
