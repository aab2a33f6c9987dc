"""`dipole-tui match`: paired openings, colours, reproducibility, records, the score and Elo."""

from __future__ import annotations

import math
import multiprocessing
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import cast

import pytest
from cli_steps import Cli

from dipole_tui import match as matches
from dipole_tui.bots import Bot, Budget, RandomBot
from dipole_tui.bots.search import Stop
from dipole_tui.games import DIPOLE
from dipole_tui.games.base import M, State
from dipole_tui.match import (
    GameResult,
    Match,
    elo_summary,
    format_summary,
    play_match,
    schedule,
)
from dipole_tui.orphans import abandon
from dipole_tui.records import load_record
from dipole_tui.registry import create_bot

DEPTH_1 = Budget(movetime=None, depth=1)


class FirstMoveBot:
    """Test-only: always the first legal move, so its games are easy to check."""

    name = "first"

    def choose(self, state: State[M], budget: Budget, stop: Stop | None = None) -> M:
        return state.legal_moves()[0]


def first_or_registered(name: str, game_key: str, seed: int | None) -> Bot:
    return FirstMoveBot() if name == "first" else create_bot(name, game_key, seed)


def fake_result(index: int, winner: int | None, a_is_white: bool = True) -> GameResult:
    white, black = ("hard", "ab4") if a_is_white else ("ab4", "hard")
    return GameResult(index, white, black, a_is_white, (), (), winner, "test", "")


def results_for_a(wins: int, draws: int, losses: int) -> list[GameResult]:
    """Games in which A (hard) wins, draws and loses, with both colours used."""
    outcomes = [True] * wins + [None] * draws + [False] * losses
    results = []
    for index, a_wins in enumerate(outcomes):
        a_is_white = index % 2 == 0
        winner = None if a_wins is None else (0 if a_wins == a_is_white else 1)
        results.append(fake_result(index, winner, a_is_white))
    return results


# -- Elo ---------------------------------------------------------------------------------------


def test_elo_of_hand_computed_scores() -> None:
    # 75%: 400·log10(3) = 190.85. Per-game variance 0.75 - 0.75² = 0.1875, standard error
    # sqrt(0.1875/20) = 0.09682, times 1.96 = 0.18977: scores 0.56023 and 0.93977, that is
    # 400·log10(0.56023/0.43977) = +42.06 and 400·log10(0.93977/0.06023) = +477.3.
    score, elo, low, high = elo_summary(15, 0, 5)
    assert score == 0.75
    assert elo == pytest.approx(190.85, abs=0.01)
    assert low == pytest.approx(42.06, abs=0.05)
    assert high == pytest.approx(477.3, abs=0.1)
    score, elo, low, high = elo_summary(10, 0, 10)
    assert (score, elo) == (0.5, 0.0) and low == pytest.approx(-high)
    # Draws count half and shrink the spread: variance (5·0.25 + 5·0.25)/20 = 0.125, margin
    # 1.96·sqrt(0.125/20) = 0.15495: score 0.34505 is 400·log10(0.34505/0.65495) = -111.3.
    score, elo, low, high = elo_summary(5, 10, 5)
    assert (score, elo) == (0.5, 0.0)
    assert low == pytest.approx(-111.3, abs=0.1) and high == pytest.approx(111.3, abs=0.1)
    # 64% - the usual "+100 Elo" score: 400·log10(0.64/0.36) = +99.95.
    assert elo_summary(16, 0, 9)[1] == pytest.approx(99.95, abs=0.01)


def test_elo_at_zero_and_full_score_is_unbounded_with_a_finite_bound() -> None:
    # 20 wins of 20: the exact binomial bound 0.025^(1/20) = 0.83161, i.e. +277.4.
    score, elo, low, high = elo_summary(20, 0, 0)
    assert score == 1.0 and elo == math.inf and high == math.inf
    assert low == pytest.approx(277.4, abs=0.1)
    score, elo, low, high = elo_summary(0, 0, 20)
    assert score == 0.0 and elo == -math.inf and low == -math.inf
    assert high == pytest.approx(-277.4, abs=0.1)
    # A bound past 100% of the normal approximation is open-ended, not an error.
    assert elo_summary(19, 0, 1)[3] == math.inf
    with pytest.raises(ValueError):
        elo_summary(0, 0, 0)


def test_summary_line_begins_with_the_score_of_a_then_b() -> None:
    match = Match("dipole", "8x8", "hard", "ab4")
    assert format_summary(match, results_for_a(15, 0, 5)) == (
        "hard 15 - 5 ab4 (0 draws): hard scores 75.0%, Elo +191 (95%: +42 to +477)"
    )
    assert format_summary(match, results_for_a(5, 1, 4)).startswith(
        "hard 5 - 4 ab4 (1 draw): hard scores 55.0%, Elo +35 (95%: "
    )
    assert format_summary(match, results_for_a(20, 0, 0)) == (
        "hard 20 - 0 ab4 (0 draws): hard scores 100.0%, Elo +inf (95%: >= +277)"
    )
    # 0 of 3: the score is at most 1 - 0.025^(1/3) = 0.70760, 400·log10(0.7076/0.2924) = +153.5.
    assert format_summary(match, results_for_a(0, 0, 3)).endswith("Elo -inf (95%: <= +154)")
    # 2 - 2: margin 1.96·sqrt(0.25/4) = 0.48999, score 0.98999 is 400·log10(98.99) = +798.
    assert format_summary(match, results_for_a(2, 0, 2)).endswith("Elo 0 (95%: -798 to +798)")
    assert format_summary(match, []) == "hard 0 - 0 ab4 (0 draws): no games played"


# -- the schedule ------------------------------------------------------------------------------


def test_openings_are_paired_and_colours_alternate() -> None:
    match = Match("dipole", "8x8", "first", "random", games=9, seed=3)
    specs = schedule(match)
    assert [spec.index for spec in specs] == list(range(9))
    assert [spec.a_is_white for spec in specs] == [True, False] * 4 + [True]
    for spec in specs:
        assert (spec.white, spec.black) == (
            ("first", "random") if spec.a_is_white else ("random", "first")
        )
    for pair in range(4):
        assert specs[2 * pair].opening == specs[2 * pair + 1].opening
    openings = [spec.opening for spec in specs[::2]]
    assert len(set(openings)) == 5  # varied; the ninth game's opening is played once
    for opening in openings:
        assert 2 <= len(opening) <= 4
        state = DIPOLE.new()
        for text in opening:
            state.play(DIPOLE.parse_move(text, state))
            assert state.outcome() is None
    # The same seed gives the same schedule; another seed, other openings.
    assert schedule(match) == specs
    other = schedule(Match("dipole", "8x8", "first", "random", games=9, seed=4))
    assert [spec.opening for spec in other] != [spec.opening for spec in specs]
    # A long match does not repeat an opening by chance.
    long = schedule(Match("dipole", "8x8", "first", "random", games=100, seed=1))
    assert len({spec.opening for spec in long}) == 50
    # Every bot of every game has its own seed.
    seeds = [seed for spec in specs for seed in (spec.white_seed, spec.black_seed)]
    assert len(set(seeds)) == len(seeds)


def test_each_bot_plays_its_own_colour_from_the_shared_opening() -> None:
    match = Match("dipole", "8x8", "first", "random", games=4, budget=DEPTH_1, seed=11)
    results = list(play_match(match, factory=first_or_registered))
    assert [result.index for result in results] == [0, 1, 2, 3]
    for result in results:
        assert result.moves[: len(result.opening)] == result.opening
        first_side = 0 if result.white == "first" else 1
        state = DIPOLE.new()
        for ply, text in enumerate(result.moves):
            move = DIPOLE.parse_move(text, state)
            if ply >= len(result.opening) and state.to_move == first_side:
                assert move == state.legal_moves()[0]
            state.play(move)
        assert state.position() == result.final_position
        outcome = state.outcome()
        assert outcome is not None and (outcome.winner, outcome.reason) == (
            result.winner,
            result.reason,
        )


def test_a_match_with_a_seed_and_a_depth_is_reproducible() -> None:
    match = Match("dipole", "8x8", "random", "random", games=6, budget=DEPTH_1, seed=42)
    first = list(play_match(match))
    again = list(play_match(match))
    assert first == again
    assert len({result.moves for result in first}) == 6  # each game its own
    other = list(play_match(Match("dipole", "8x8", "random", "random", 6, DEPTH_1, seed=43)))
    assert [result.moves for result in other] != [result.moves for result in first]


def test_a_game_past_the_ply_cap_is_a_draw(tmp_path: Path) -> None:
    match = Match("dipole", "8x8", "random", "random", games=2, budget=DEPTH_1, max_plies=6)
    results = list(play_match(match, want_records=True))
    for result in results:
        assert result.plies == 6 and result.winner is None and result.result == "1/2-1/2"
        assert result.reason == "adjudicated a draw after 6 plies"
        assert result.record is not None
        path = tmp_path / f"{result.index}.txt"
        path.write_text(result.record)
        record = load_record(path)
        assert record.result == "1/2-1/2" and record.state.position() == result.final_position
    assert format_summary(match, results).startswith("random 0 - 0 random (2 draws): ")


class IllegalBot(FirstMoveBot):
    def choose(self, state: State[M], budget: Budget, stop: Stop | None = None) -> M:
        illegal = DIPOLE.parse_move("pass", DIPOLE.parse_position("8:W:Wc3=1:Bb4=2,d4=2"))
        return cast(M, illegal)  # a Dipole move: this bot only plays Dipole


def illegal_or_registered(name: str, game_key: str, seed: int | None) -> Bot:
    return IllegalBot() if name == "cheat" else create_bot(name, game_key, seed)


def test_an_illegal_move_loses_the_game(tmp_path: Path) -> None:
    match = Match("dipole", "8x8", "cheat", "random", games=2, budget=DEPTH_1, seed=2)
    results = list(play_match(match, factory=illegal_or_registered, want_records=True))
    assert [result.result for result in results] == ["0-1", "1-0"]
    assert results[0].reason.startswith("cheat (White) played an illegal move ")
    assert results[1].reason.startswith("cheat (Black) played an illegal move ")
    assert format_summary(match, results).startswith("cheat 0 - 2 random (0 draws)")
    assert results[0].record is not None
    (tmp_path / "forfeit.txt").write_text(results[0].record)
    assert load_record(tmp_path / "forfeit.txt").result == "0-1"


# -- the command -------------------------------------------------------------------------------


def test_the_command_prints_games_then_the_summary(cli: Cli) -> None:
    args = ("match", "random", "random", "--games", "5", "--depth", "1", "--seed", "9")
    status, out, err = cli(*args)
    lines = out.splitlines()
    assert status == 0 and err == ""
    assert lines[0] == "match: random (A) v random (B), Dipole 8x8, 5 games, depth 1 a move, seed 9"
    assert len(lines) == 1 + 5 + 2
    for number, line in enumerate(lines[1:6], 1):
        colours = "random (White) v random (Black)"
        assert line.startswith(f"game {number}: {colours}: "), line
        assert " plies (" in line and "has no checkers left) [opening " in line
    assert lines[6].startswith("by colour: White ")
    assert lines[7].split(" (")[0] in {f"random {w} - {5 - w} random" for w in range(6)}
    assert "draws): random scores " in lines[7] and ", Elo " in lines[7]
    # The same seed, the same output.
    assert cli(*args)[1] == out


def test_saved_games_replay_to_the_same_final_position(cli: Cli, tmp_path: Path) -> None:
    save_dir = tmp_path / "games" / "new"  # created as needed
    status, out, _ = cli("match", "random", "random", "--games", "3", "--depth", "1", "--seed", "5",
        "--save-dir", str(save_dir),
    )  # fmt: skip
    assert status == 0
    assert sorted(p.name for p in save_dir.iterdir()) == [f"game-00{n}.txt" for n in (1, 2, 3)]
    match = Match("dipole", "8x8", "random", "random", games=3, budget=DEPTH_1, seed=5)
    for result in play_match(match):
        record = load_record(save_dir / f"game-{result.index + 1:03d}.txt")
        assert record.state.position() == result.final_position
        assert record.result == result.result
        assert record.tags["White"] == record.tags["Black"] == "random"
        assert record.tags["Event"] == "random v random match, seed 5"
        assert record.tags["Round"] == str(result.index + 1)
        assert [DIPOLE.format_move(m) for m in record.state.moves_played] == list(result.moves)
        assert f"{result.result} in {result.plies} plies" in out


def test_two_jobs_give_the_same_results_as_one(cli: Cli) -> None:
    args = ["match", "random", "random", "--games", "6", "--depth", "1", "--seed", "21"]
    status, one, _ = cli(*args)
    status_two, two, _ = cli(*args, "--jobs", "2")
    assert status == status_two == 0
    assert two.splitlines()[0] == one.splitlines()[0] + ", 2 jobs"
    assert two.splitlines()[1:] == one.splitlines()[1:]


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_workers_started_either_way_agree_with_one_process(method: str) -> None:
    match = Match("dipole", "8x8", "first", "random", games=4, budget=DEPTH_1, seed=8)
    alone = list(play_match(match, factory=first_or_registered, want_records=True))
    pooled = play_match(match, 2, first_or_registered, want_records=True, start_method=method)
    assert [r.moves for r in pooled] == [r.moves for r in alone]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "random", "grandmaster"], "argument B: invalid choice: 'grandmaster'"),
        (["match", "random"], "the following arguments are required: B"),
        (["match", "random", "random", "--games", "0"], "argument --games: expected a whole"),
        (["match", "random", "random", "--games", "x"], "argument --games: expected a whole"),
        (["match", "random", "random", "--movetime", "-1"], "expected seconds greater than 0"),
        (["match", "random", "random", "--movetime", "nan"], "expected seconds greater than 0"),
        (["match", "random", "random", "--depth", "0"], "argument --depth: DEPTH must be"),
        (["match", "random", "random", "--seed", "1.5"], "argument --seed: expected a whole"),
        (["match", "random", "random", "--jobs", "0"], "argument --jobs: expected a whole"),
        (["match", "--game", "chess", "random", "random"], "argument --game: invalid choice"),
        (["match", "random", "random", "--variant", "9x9"], "Dipole has no variant '9x9'"),
    ],
)
def test_errors_are_one_line_with_status_2(cli: Cli, args: list[str], message: str) -> None:
    status, out, err = cli(*args)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("dipole-tui: ")
    assert message in err


def test_an_unwritable_save_dir_fails_before_any_game(cli: Cli, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    status, out, err = cli("match", "random", "random", "--save-dir", str(blocker / "d"))
    assert status == 2 and out == ""
    assert err == f"dipole-tui: cannot write to {blocker / 'd'}: Not a directory\n"


def test_an_unavailable_bot_is_one_line(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str, game_key: str = "dipole", seed: int | None = None) -> Bot:
        raise ImportError("No module named 'dipole_tui.bots.levels'")

    monkeypatch.setattr(matches, "create_bot", missing)
    status, out, err = cli("match", "hard", "random", "--games", "2")
    assert status == 2 and out == ""
    assert err == (
        "dipole-tui: bot 'hard' is not available for dipole: "
        "No module named 'dipole_tui.bots.levels'\n"
    )


def test_ctrl_c_prints_the_summary_so_far(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = iter(range(1000))

    class InterruptedBot(RandomBot):
        def choose(self, state: State[M], budget: Budget, stop: Stop | None = None) -> M:
            if next(calls) == 100:  # Ctrl+C in the middle of a game, a few games in
                raise KeyboardInterrupt
            return super().choose(state, budget, stop)

    def factory(name: str, game_key: str = "dipole", seed: int | None = None) -> Bot:
        return InterruptedBot(seed)

    monkeypatch.setattr(matches, "create_bot", factory)
    status, out, err = cli("match", "random", "random", "--games", "10", "--seed", "1")
    lines = out.splitlines()
    assert status == 130 and err == "dipole-tui: interrupted\n"
    played = sum(1 for line in lines if line.startswith("game "))
    assert 0 < played < 10
    assert lines[-3] == f"interrupted after {played} of 10 games"
    summary = re.match(r"random (\d+) - (\d+) random \((\d+) draws?\): random scores ", lines[-1])
    assert summary is not None and sum(map(int, summary.groups())) == played


def test_the_module_entry_point_runs_a_match() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dipole_tui", "match", "random", "random", "--games", "2",
         "--depth", "1", "--seed", "3", "--jobs", "2"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.splitlines()[-1].startswith("random ")
    bad = subprocess.run(
        [sys.executable, "-m", "dipole_tui", "match", "random", "random", "--games", "-3"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.count("\n") == 1


def test_an_abandoned_pool_ends_its_busy_workers_without_waiting_for_them() -> None:
    """What Ctrl+C or a time limit asks of a long job's pool (`orphans.abandon`): the work in
    hand is dropped, not waited for (`shutdown` would wait ten minutes here)."""
    before = set(multiprocessing.active_children())  # another test's, if any: not the pool's
    executor = ProcessPoolExecutor(2)
    futures = [executor.submit(time.sleep, 600) for _ in range(4)]
    deadline = time.monotonic() + 30
    while sum(future.running() for future in futures) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = set(multiprocessing.active_children()) - before
    assert len(workers) == 2
    stopping = threading.Thread(target=abandon, args=(executor,))
    stopping.start()
    stopping.join(timeout=30)
    assert not stopping.is_alive()
    # The pool's own thread may reap a worker first: its exit is seen a moment later here.
    deadline = time.monotonic() + 10
    while any(worker.is_alive() for worker in workers) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(worker.is_alive() for worker in workers)
    # None of the sleeps was waited for: each was cancelled or ended with the broken pool.
    # (Not `wait`: a future the shutdown cancelled before the pool took it stays pending for
    # `wait`, which then sleeps its whole timeout, though `done()` says it is.)
    deadline = time.monotonic() + 10
    while not all(future.done() for future in futures) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert all(future.done() for future in futures)
    assert all(future.cancelled() or future.exception() is not None for future in futures)
