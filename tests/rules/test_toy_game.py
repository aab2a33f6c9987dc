"""A fourth game joins the program as docs/architecture.md (Adding a game) says: the toy of
toy_game.py, registered for these tests only with its entry in tests/support/game_samples.py, is
listed, counted, replayed and played by bots through the command line, kept by a session, and taken
by the generic tests through its samples, with no change to any module of the package (the
conformance suites check its rules' and its bots' side)."""

from __future__ import annotations

import re
from itertools import combinations, permutations
from pathlib import Path

import pytest
from cli_steps import Cli
from game_samples import SAMPLES, check_samples
from paths import module_of_room
from seats import seated
from toy_game import ENTRY, TOY, TOY_SAMPLES

from dipole_tui.perft import perft
from dipole_tui.records import format_record, parse_record
from dipole_tui.registry import REGISTRY
from dipole_tui.session import HUMAN, Session

# The 3x3 magic square: three cells are in a row exactly when their numbers add up to 15, a test
# of a line that owes nothing to the toy's own list of lines.
MAGIC = (8, 1, 6, 3, 5, 7, 4, 9, 2)  # a1 b1 c1 / a2 b2 c2 / a3 b3 c3


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy added as a game is: its entry in the registry (the command line builds its --game
    choices from the registry, so this is done before main() is called) and its samples' entry,
    both taken back after the test."""
    monkeypatch.setitem(REGISTRY, TOY.key, ENTRY)
    monkeypatch.setitem(SAMPLES, TOY.key, TOY_SAMPLES)


def three_in_a_row(cells: tuple[int, ...]) -> bool:
    return any(sum(MAGIC[c] for c in three) == 15 for three in combinations(cells, 3))


def brute_force_perft(depth: int) -> int:
    """Every sequence of `depth` distinct cells in which nobody has three in a row before the
    last mark (a game that ended earlier has no more plies)."""
    count = 0
    for cells in permutations(range(9), depth):
        # After k marks, the side that made the k-th has the marks k-1, k-3, ...
        ended = any(three_in_a_row(cells[(k - 1) % 2 : k : 2]) for k in range(1, depth))
        count += not ended
    return count


def test_the_toy_is_a_game_only_once_registered(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = cli("moves", "--game", "toy", ".../.../... x")
    assert status == 2 and "invalid choice: 'toy'" in err
    monkeypatch.setitem(REGISTRY, TOY.key, ENTRY)
    status, out, _ = cli("moves", "--game", "toy", ".../.../... x")
    lines = out.splitlines()
    assert status == 0 and lines == ["a1 b1 c1 a2 b2 c2 a3 b3 c3"]


def test_moves_lists_the_toys_moves(toy: None, cli: Cli) -> None:
    status, out, _ = cli(
        "moves", "--game", "toy", "x.o/.x./o.. x", "xxx/oo./... o", "oo./xx./x.. x misere"
    )
    lines = out.splitlines()
    assert status == 0
    # Crosses to move: the five empty cells, a1 first; then a game over (Crosses has a row);
    # then, misere, Crosses to move with no line yet.
    assert lines == ["b1 c1 a2 c2 b3", "", "b1 c1 c2 c3"]


def test_a_bad_toy_position_is_one_line(toy: None, cli: Cli) -> None:
    status, out, err = cli("moves", "--game", "toy", "xo/.../... x")
    lines = out.splitlines()
    assert status == 2 and lines == []
    assert (
        err == "dipole-tui: position 1: a Toy position has 3 ranks of 3 cells, not 'xo/.../...'\n"
    )


@pytest.mark.parametrize("variant", TOY.variants)
def test_perft_counts_what_brute_force_counts(toy: None, cli: Cli, variant: str) -> None:
    depth = 6  # the first depth at which games that ended (at ply 5) are left out
    status, out, _ = cli("perft", "--game", "toy", "--variant", variant, str(depth))
    lines = out.splitlines()
    assert status == 0 and lines[-1].startswith("time ")
    assert lines[:-1] == [f"{ply} {brute_force_perft(ply)}" for ply in range(1, depth + 1)]
    assert lines[depth - 1] == "6 54720"  # and what the literature counts


def test_replay_reads_a_toy_record(toy: None, cli: Cli, tmp_path: Path) -> None:
    state = TOY.new()
    for text in ("b2", "a1", "c3", "a3", "a2", "c2", "b3", "b1", "c1"):
        state.play(TOY.parse_move(text, state))
    record = tmp_path / "toy.txt"
    record.write_text(format_record(TOY, state, {"White": "Ann", "Black": "Bo"}))
    assert '[Game "Toy"]' in record.read_text()
    status, out, _ = cli("replay", str(record))
    lines = out.splitlines()
    assert status == 0
    assert lines == [
        "Toy standard: Ann (Crosses) v Bo (Noughts), result 1/2-1/2",
        "1. b2 a1",
        "2. c3 a3",
        "3. a2 c2",
        "4. b3 b1",
        "5. c1",
        "3 o x x",
        "2 x x o",
        "1 o o x",
        "  a b c",
        "Game over: drawn (the board is full)",
        "oxx/xxo/oox o",
    ]


def test_bots_play_the_toy_in_a_match(toy: None, cli: Cli) -> None:
    """The entry's ladder (its knowledge and styles) serves the bots of the match command."""
    status, out, _ = cli(
        "match",
        "--game",
        "toy",
        "hard",
        "random",
        "--games",
        "4",
        "--depth",
        "4",
        "--seed",
        "1",
    )
    lines = out.splitlines()
    assert status == 0
    assert lines[0].startswith("match: hard (A) v random (B), Toy standard, 4 games")
    games = [line for line in lines if line.startswith("game ")]
    assert len(games) == 4
    assert all(re.search(r": (1-0|0-1|1/2-1/2) in [5-9] plies \(", line) for line in games)
    assert lines[-1].startswith("hard ") and "random" in lines[-1]


def test_a_game_with_no_board_is_refused_by_play_in_one_line(toy: None, cli: Cli) -> None:
    """The toy names no board the app can import: `play` says so, and the app never starts."""
    code, out, err = cli("play", "--game", "toy", "--new")
    lines = out.splitlines()
    assert code == 2 and lines == []
    assert err == "dipole-tui: Toy can be studied with moves, perft and replay, not played yet\n"


def test_a_game_registered_without_its_samples_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """The step the generic tests need: without it, each of them fails for the toy, saying
    where its entry goes; with it, the samples hold by the toy's rules."""
    monkeypatch.setitem(REGISTRY, TOY.key, ENTRY)
    assert [key for key in REGISTRY if key not in SAMPLES] == ["toy"]
    with pytest.raises(
        KeyError, match="toy has no samples: give it an entry in tests/support/game_sam"
    ):
        SAMPLES[TOY.key]
    monkeypatch.setitem(SAMPLES, TOY.key, TOY_SAMPLES)
    assert [key for key in REGISTRY if key not in SAMPLES] == []
    check_samples(TOY, SAMPLES[TOY.key])


def test_a_session_keeps_the_toy(toy: None) -> None:
    """Played, taken back, replayed, written and read again: the session and its record."""
    session = Session.new(TOY, "misere", seated(HUMAN, "hard"))
    for text in TOY_SAMPLES.opening:
        session.play(session.game.parse_move(text, session.state))
    assert session.undo() and session.state.plies == 3
    assert session.redo() and session.state.plies == 4
    again = Session.from_text(session.record_text())
    assert again.game is TOY and again.state == session.state
    assert again.state.variant == "misere" and again.players == (HUMAN, "hard")
    assert [TOY.format_move(move) for move in again.state.moves_played] == list(TOY_SAMPLES.opening)


def test_perft_counts_the_toy_from_any_position(toy: None) -> None:
    """The library's perft, from a sample position (the command line's starts from the start)."""
    state = TOY.parse_position(TOY_SAMPLES.middle_game)
    assert [perft(state, depth) for depth in (1, 2, 3)] == [8, 8 * 7, 8 * 7 * 6]
    assert state.position() == TOY_SAMPLES.middle_game


def test_the_records_tests_take_the_toy_by_its_samples(toy: None, tmp_path: Path) -> None:
    """The generic records tests, run as they run for each registered game."""
    faults = module_of_room("engine", "test_records_faults")
    faults.test_a_byte_order_mark_is_passed_over(TOY.key, tmp_path)
    faults.test_a_finished_game_with_no_result_takes_the_result_of_its_moves(TOY.key)
    faults.test_comment_lines_may_stand_before_and_among_the_tags(TOY.key)
    assert parse_record(TOY_SAMPLES.finished).result == "1-0"


def test_best_and_the_analysis_take_the_toy_by_its_samples(toy: None, cli: Cli) -> None:
    """`best` at its middle game and the analysis's lines at its opening: the generic tests, run
    as they run for each registered game. (Not those that time the analysis: the toy's search
    goes through its whole tree before the solver answers, or a stop is seen.)"""
    best = module_of_room("cli", "test_best")
    best_lines = module_of_room("bots", "test_best_lines")
    best.test_a_line_per_depth_then_the_move(cli, TOY.key)
    best.test_a_level_plays_its_move_from_the_app(cli, TOY.key, "medium", [1, 2])
    best_lines.test_the_best_lines_are_exact_and_best_first(TOY.key)
