"""Your games against the ladder (issue 43, at home): the entries of `results.json`, kept whole or
set aside, never lost; the rating per game from them by Glicko-2's own `update`; the record per
level, the rating over time and the longest streak."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from dipole_tui import results
from dipole_tui.learn.rating import Bout, Rating, update
from dipole_tui.registry import rating
from dipole_tui.results import LEVEL_RD, Result, Results, games_played, rating_words, stats

GAME = Result("2026-12-07 10:50", "dipole", "8x8", "easy", 628, "win", 41)


def played(*outcomes: tuple[str, str], game: str = "dipole") -> list[Result]:
    """Entries of `game`, each (level, result), a minute apart, the level rated as the ladder
    rates it."""
    return [
        Result(f"2026-12-07 10:{m:02d}", game, "", level, rating(game, level), result, 30)
        for m, (level, result) in enumerate(outcomes)
    ]


def test_a_game_is_kept_and_read_back_whole(tmp_path: Path) -> None:
    kept = Results(tmp_path)
    assert kept.entries == [] and kept.problem == ""
    kept.add(GAME)
    kept.add(replace(GAME, result="loss", level="hard", level_rating=2105))
    again = Results(tmp_path)
    assert again.entries == kept.entries
    assert [e.result for e in again.entries] == ["win", "loss"]
    assert json.loads((tmp_path / "results.json").read_text())["results"][0] == asdict(GAME)


def test_another_window_s_game_is_not_written_over(tmp_path: Path) -> None:
    """Each adds after reading the file again: two apps on one data folder keep both games."""
    one, other = Results(tmp_path), Results(tmp_path)
    one.add(GAME)
    other.add(replace(GAME, result="draw"))
    assert [e.result for e in Results(tmp_path).entries] == ["win", "draw"]


@pytest.mark.parametrize(
    "damage",
    [
        "not json",
        '{"results": 3}',
        '{"results": [{"date": "yesterday"}]}',
        '[{"game": "dipole"}]',
        json.dumps({"results": [{**asdict(GAME), "plies": -1}]}),
        json.dumps({"results": [{**asdict(GAME), "plies": True}]}),
        json.dumps({"results": [{**asdict(GAME), "level_rating": 10**9}]}),
        json.dumps({"results": [{**asdict(GAME), "result": "won"}]}),
        json.dumps({"results": [{**asdict(GAME), "game": "Dip\u001b]2;x"}]}),
        json.dumps({"results": [{**asdict(GAME), "variant": "x" * 41}]}),
    ],
)
def test_a_damaged_file_is_set_aside_in_one_line_and_kept(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "results.json"
    path.write_text(damage)
    kept = Results(tmp_path)
    assert kept.entries == []
    assert "\n" not in kept.problem and "\x1b" not in kept.problem
    assert "results file" in kept.problem and "set aside as" in kept.problem
    (aside,) = tmp_path.glob("results.json.damaged-*")
    assert aside.read_text() == damage  # never lost
    kept.add(GAME)  # a new file begins
    assert Results(tmp_path).entries == [GAME]


def test_a_file_past_its_bound_is_not_read_and_a_fifo_never_waited_on(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text(" " * (results.LIMIT + 1))
    assert "larger than" in Results(tmp_path).problem
    os.mkfifo(path)
    kept = Results(tmp_path)
    assert "pipe" in kept.problem and not path.exists()


def test_a_full_file_refuses_the_next_game_and_keeps_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(results, "MOST_ENTRIES", 2)
    kept = Results(tmp_path)
    kept.add(GAME)
    kept.add(GAME)
    with pytest.raises(OSError, match="holds 2 games"):
        kept.add(GAME)
    assert len(Results(tmp_path).entries) == 2


def test_the_rating_is_glicko_2_one_period_a_game_against_the_level_s_rating() -> None:
    entries = played(("easy", "win"), ("hard", "loss"), ("medium", "draw"))
    found = stats(entries, "dipole")
    expected = [Rating()]
    for level, score in (("easy", 1.0), ("hard", 0.0), ("medium", 0.5)):
        expected.append(update(expected[-1], [Bout(rating("dipole", level), LEVEL_RD, score)]))
    assert found.ratings == expected
    assert found.rating == expected[-1]
    # a win raises it, a loss lowers it: the bout's score reaches the update
    assert expected[1].rating > 1500 > expected[2].rating


def test_a_new_player_is_provisional_until_the_games_say_enough() -> None:
    assert rating_words(Rating()) == "1500?"
    assert rating_words(Rating(1432.4, 80)) == "1432"
    assert rating_words(Rating(1432.6, 111)) == "1433?"
    many = stats(played(*[("medium", "win"), ("medium", "loss")] * 10), "dipole")
    assert many.ratings[1].provisional and not many.rating.provisional


def test_the_record_per_level_weakest_first_and_in_all() -> None:
    entries = played(("hard", "loss"), ("easy", "win"), ("hard", "draw"), ("easy", "win"))
    entries += played(("easy", "loss"), game="bipod")
    found = stats(entries, "dipole")
    assert list(found.levels) == ["easy", "hard"]
    easy, hard = found.levels["easy"], found.levels["hard"]
    assert (easy.games, easy.wins, easy.losses, easy.draws) == (2, 2, 0, 0)
    assert (hard.games, hard.wins, hard.losses, hard.draws) == (2, 0, 1, 1)
    assert (found.total.games, found.total.wins) == (4, 2)
    assert len(found.ratings) == 5  # the start and one a game of Dipole's, not Bi-Pod's
    assert stats(entries, "bipod").total.losses == 1
    assert games_played(entries) == ["dipole", "bipod"]


@pytest.mark.parametrize(
    ("results_in_order", "longest"),
    [
        ("", 0),
        ("L", 0),
        ("WWLWWW", 3),
        ("WWWDW", 3),
        ("WLWLW", 1),
    ],
)
def test_the_longest_streak_is_of_wins_a_draw_or_loss_ends_it(
    results_in_order: str, longest: int
) -> None:
    words = {"W": "win", "L": "loss", "D": "draw"}
    entries = played(*[("easy", words[r]) for r in results_in_order])
    assert stats(entries, "dipole").longest_streak == longest


def test_a_level_the_ladder_no_longer_has_still_counts_after_the_known_ones() -> None:
    entries = [replace(GAME, level="grandmaster", level_rating=2500), GAME]
    assert list(stats(entries, "dipole").levels) == ["easy", "grandmaster"]
