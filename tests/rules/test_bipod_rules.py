"""Bi-Pod's rules, clause by clause, and the sheet's sample game with its four diagrams.

Expected values are reasoned out by hand from the rule sheet and the decisions in docs/rules.md
(the reasoning is in the comments); move lists are also compared with
tests/support/bipod_reference.py.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from bipod_reference import read_position, ref_moves
from paths import DATA
from perft_table import load_perft_table

from dipole_tui.games.base import GameError, IllegalMoveError, NotationError, Outcome, Termination
from dipole_tui.games.bipod import (
    ADOPT,
    BIPOD,
    CELL_COUNT,
    CELL_NAMES,
    CELLS,
    GOALS,
    NAME_INDEX,
    NEIGHBOURS,
    RESIGN,
    START_CELLS,
    START_POSITION,
    BipodState,
    Move,
    cell_name,
    format_cells,
    format_move,
    normalise_variant,
    parse_cell,
    parse_cells,
    read_move,
)
from dipole_tui.perft import perft
from dipole_tui.records import format_record, load_record, parse_record
from dipole_tui.registry import REGISTRY

DATA = DATA
TABLE = DATA / "perft_bipod.txt"
SAMPLE = DATA / "sample-bipod.txt"


def c(name: str) -> int:
    return NAME_INDEX[name]


def names(cells: Iterable[int]) -> set[str]:
    return {cell_name(cell) for cell in cells}


def board(
    stones: dict[str, str],
    to_move: int = 0,
    runner: int | None = None,
    variant: str = "",
    fill: str = ".",
) -> BipodState:
    """A position from {cells: stone}, e.g. {"j2 k3": "o"}; other cells `fill` (start stones
    always stand)."""
    cells = [fill] * CELL_COUNT
    cells[START_CELLS["o"]], cells[START_CELLS["O"]] = "o", "O"
    for group, stone in stones.items():
        for cell in group.split():
            cells[c(cell)] = stone
    state = BipodState(cells, to_move, runner, variant)
    return BIPOD.parse_position(state.position())  # through the position string, as a check


def play(state: BipodState, *texts: str) -> None:
    for text in texts:
        state.play(BIPOD.parse_move(text, state))


def legal_texts(state: BipodState) -> list[str]:
    return [format_move(move) for move in state.legal_moves()]


def same_as_reference(state: BipodState) -> bool:
    engine = {(m.kind, frozenset(names(m.cells))) for m in state.legal_moves()}
    return engine == ref_moves(read_position(state.position()))


# -- the game object -----------------------------------------------------------------------------


def test_game_object_and_registration() -> None:
    assert BIPOD.key == "bipod" and BIPOD.name == "Bi-Pod"
    assert BIPOD.variants == ("", "multi", "adopter-runs", "multi,adopter-runs")
    assert BIPOD.side_names == ("First", "Second")
    assert REGISTRY["bipod"].game is BIPOD and next(iter(REGISTRY)) == "dipole"


@pytest.mark.parametrize(
    ("given", "canonical"),
    [
        (None, ""),
        ("", ""),
        ("multi", "multi"),
        ("adopter-runs", "adopter-runs"),
        ("multi,adopter-runs", "multi,adopter-runs"),
        ("adopter-runs,multi", "multi,adopter-runs"),
        (" multi , adopter-runs ", "multi,adopter-runs"),
        ("multi,multi", "multi"),
    ],
)
def test_variants_are_normalised(given: str | None, canonical: str) -> None:
    assert normalise_variant(given) == canonical
    assert BIPOD.new(given).variant == canonical


@pytest.mark.parametrize("bad", ["big", "multi,big", "Multi", "3"])
def test_an_unknown_variant_option_is_one_line(bad: str) -> None:
    with pytest.raises(GameError, match="Bi-Pod has no variant option") as error:
        BIPOD.new(bad)
    assert "\n" not in str(error.value) and "multi and adopter-runs" in str(error.value)


# -- the board -----------------------------------------------------------------------------------


def test_rows_have_17_minus_r_cells_at_the_sheets_columns() -> None:
    assert CELL_COUNT == 81
    for row in range(1, 7):
        columns = [col for r, col in CELLS if r == row]
        assert columns == list(range(row - 1, 32 - row, 2)) and len(columns) == 17 - row
    assert tuple(sorted(CELLS)) == CELLS  # canonical order: row by row, left to right


def test_cells_are_named_by_the_label_line() -> None:
    row1 = [n for n in CELL_NAMES if n.endswith("1")]
    row2 = [n for n in CELL_NAMES if n.endswith("2")]
    assert " ".join(n[0] for n in row1) == "= a c e g i k m o q s u w y - ;"
    assert " ".join(n[0] for n in row2) == "` b d f h j l n p r t v x z '"
    assert [n for n in CELL_NAMES if n.endswith("6")] == [
        "d6", "f6", "h6", "j6", "l6", "n6", "p6", "r6", "t6", "v6", "x6"
    ]  # fmt: skip
    assert len(set(CELL_NAMES)) == 81
    assert c("i1") == START_CELLS["o"] and c("s1") == START_CELLS["O"]


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        ("=1", {"a1", "`2"}),  # a corner of the long side
        (";1", {"-1", "'2"}),  # the other corner
        ("i1", {"g1", "k1", "h2", "j2"}),  # the o start stone, on the long side
        ("`2", {"=1", "a1", "b2", "a3"}),  # first cell of row 2
        ("'2", {"-1", ";1", "z2", "-3"}),  # last cell of row 2
        ("k3", {"i3", "m3", "j2", "l2", "j4", "l4"}),  # inner cells have six
        ("d6", {"f6", "c5", "e5"}),  # first of row 6
        ("x6", {"v6", "w5", "y5"}),  # last of row 6
        ("n6", {"l6", "p6", "m5", "o5"}),
    ],
)
def test_neighbours(cell: str, expected: set[str]) -> None:
    assert names(NEIGHBOURS[c(cell)]) == expected


def test_neighbours_are_mutual_and_rows_apart_by_at_most_one() -> None:
    for cell, around in enumerate(NEIGHBOURS):
        for other in around:
            assert cell in NEIGHBOURS[other]
            assert abs(CELLS[cell][0] - CELLS[other][0]) <= 1


def test_the_short_sides_are_the_row_ends_and_row_6() -> None:
    ends = {"=1", ";1", "`2", "'2", "a3", "-3", "b4", "z4", "c5", "y5"}
    row6 = {n for n in CELL_NAMES if n.endswith("6")}
    assert names(GOALS) == ends | row6 and len(GOALS) == 21
    assert c("i1") not in GOALS and c("s1") not in GOALS  # the long side is no goal


# -- the start and the opening phase -------------------------------------------------------------


def test_the_start() -> None:
    state = BIPOD.new()
    assert state.position() == START_POSITION
    assert state.to_move == 0 and state.runner is None and state.blocker is None
    assert state.stone(c("i1")) == "o" and state.stone(c("s1")) == "O"
    assert state.outcome() is None and state.moves_played == [] and state.variant == ""
    moves = state.legal_moves()
    # 79 blocking stones, one per empty cell in canonical order, then adopt.
    assert len(moves) == state.count_moves() == 80 and moves[-1] == ADOPT
    assert moves[:3] == [Move("x", (c("=1"),)), Move("x", (c("a1"),)), Move("x", (c("c1"),))]
    assert RESIGN not in moves  # resigning is allowed but never listed
    assert same_as_reference(state)
    lines = state.diagram().splitlines()  # the sheet's first diagram, then the roles
    assert (
        lines[1] == ". . . . . @ . . . . Q . . . . . 1"
        and lines[6] == "     . . . . . . . . . . .      6"
    )
    assert lines[7] == "=`abcdefghijklmnopqrstuvwxyz-';" and lines[8] == "nobody has adopted yet"


def test_both_players_place_blocking_stones_before_adoption() -> None:
    state = BIPOD.new()
    play(state, "e1", "s3")
    assert state.stone(c("e1")) == state.stone(c("s3")) == "x" and state.to_move == 0
    assert len(state.legal_moves()) == 78 and same_as_reference(state)


def test_default_the_adopter_blocks_and_the_runner_moves_next() -> None:
    state = BIPOD.new()
    play(state, "e1", "adopt")  # Second adopts, as in the sample game
    assert state.runner == 0 and state.blocker == 1 and state.to_move == 0
    assert legal_texts(state)[:4] == ["=1 o", "=1 O", "a1 o", "a1 O"]  # by cell, o before O
    assert len(state.legal_moves()) == 2 * 78 and same_as_reference(state)
    play(state, "v2 O")
    assert state.to_move == 1 and legal_texts(state)[:2] == ["=1", "a1"]
    assert len(state.legal_moves()) == 77 and same_as_reference(state)


def test_adopter_runs_the_adopter_runs_and_the_blocker_moves_next() -> None:
    state = BIPOD.new("adopter-runs")
    play(state, "e1", "adopt")
    assert state.runner == 1 and state.blocker == 0 and state.to_move == 0
    assert len(state.legal_moves()) == 78 and all(m.kind == "x" for m in state.legal_moves())
    play(state, "j4")
    assert state.to_move == 1 and len(state.legal_moves()) == 2 * 77
    assert same_as_reference(state)


def test_first_may_adopt_at_once() -> None:
    state = BIPOD.new()
    play(state, "adopt")
    assert state.runner == 1 and state.to_move == 1 and state.count_moves() == 158
    state = BIPOD.new("adopter-runs")
    play(state, "adopt")
    assert state.runner == 0 and state.to_move == 1 and state.count_moves() == 79


def test_multi_places_one_to_three_stones_before_adoption_only() -> None:
    state = BIPOD.new("multi")
    moves = state.legal_moves()
    # C(79,1) + C(79,2) + C(79,3) + adopt, by number of stones, then cells in order.
    assert len(moves) == state.count_moves() == 79 + 3081 + 79079 + 1
    assert moves[78] == Move("x", (c("x6"),)) and moves[79] == Move("x", (c("=1"), c("a1")))
    assert moves[3160] == Move("x", (c("=1"), c("a1"), c("c1"))) and moves[-1] == ADOPT
    assert len(set(moves)) == len(moves)
    play(state, "e13f2", "su3", "a3c3")
    assert names(c for c in range(81) if state.stone(c) == "x") == {
        "e1", "e3", "f2", "s3", "u3", "a3", "c3"
    }  # fmt: skip
    play(state, "adopt")
    assert state.count_moves() == 2 * 72  # after adoption one stone a turn
    play(state, "v2 O")
    assert state.count_moves() == 71
    with pytest.raises(IllegalMoveError, match="the Blocker places one blocking stone a turn"):
        BIPOD.parse_move("j4k5", state)


def test_canonical_order_is_by_cell_whatever_order_the_text_gives() -> None:
    state = BIPOD.new("multi")
    move = BIPOD.parse_move("f2e13", state)
    assert move == Move("x", (c("e1"), c("f2"), c("e3"))) and move in state.legal_moves()
    assert format_move(move) == "e13f2"


# -- the end of the game -------------------------------------------------------------------------

O_HOME = "j2 k3 l4 m5 n6"  # i1 j2 k3 l4 m5 n6: n6 is on row 6
O_ALMOST = "t2 u3 v4 w5"  # s1 t2 u3 v4 w5: w5 touches v6, x6 (row 6) and y5 (end of row 5)


def test_the_runner_wins_with_both_chains_home() -> None:
    state = board({O_HOME: "o", O_ALMOST: "O"}, to_move=0, runner=0)
    assert state.outcome() is None
    winners = [m for m in legal_texts(state) if _ends(state, m)]
    assert winners == ["y5 O", "v6 O", "x6 O"]
    play(state, "x6 O")
    assert state.outcome() == Outcome(
        0,
        Termination.CHAINS_HOME,
        "the o chain from i1 and the O chain from s1 both reach a short side",
    )
    assert state.legal_moves() == [] and state.count_moves() == 0
    assert names(state.chains()["o"]) == {"i1", *O_HOME.split()}
    assert names(state.chains()["O"]) == {"s1", *O_ALMOST.split(), "x6"}


def _ends(state: BipodState, text: str) -> bool:
    state.play(BIPOD.parse_move(text, state))
    ended = state.outcome() is not None
    state.undo()
    return ended


def test_one_chain_home_is_not_enough_and_a_colour_only_links_its_own_chain() -> None:
    state = board({O_HOME: "o", O_ALMOST: "O"}, to_move=0, runner=0)
    play(state, "x6 o")  # an o stone does not extend the O chain
    assert state.outcome() is None
    # The second runner may be Second: the winner is the Runner's side index.
    state = board({O_HOME: "o", O_ALMOST: "O"}, to_move=1, runner=1)
    play(state, "v6 O")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 1


def test_the_blocker_wins_as_soon_as_the_o_chain_is_cut() -> None:
    state = board({"g1 k1 h2": "x"}, to_move=1, runner=0)
    assert state.outcome() is None
    play(state, "j2")
    assert state.outcome() == Outcome(
        1, Termination.CHAIN_CUT, "the o chain from i1 can no longer reach a short side"
    )
    assert state.legal_moves() == []


def test_the_blocker_wins_as_soon_as_the_big_o_chain_is_cut() -> None:
    state = board({"q1 u1 r2": "x"}, to_move=0, runner=1)
    play(state, "t2")
    assert state.outcome() == Outcome(
        0, Termination.CHAIN_CUT, "the O chain from s1 can no longer reach a short side"
    )


def test_both_chains_cut_are_both_named() -> None:
    state = board({"g1 k1 h2 j2 q1 u1 r2 t2": "x"})  # both walled in before adoption
    play(state, "adopt")  # First adopts, so First blocks and wins at once
    assert state.outcome() == Outcome(
        0,
        Termination.CHAIN_CUT,
        "the o chain from i1 and the O chain from s1 can no longer reach a short side",
    )


def test_stones_of_the_other_colour_block_a_chain_even_the_runners_own() -> None:
    state = board({"g1 k1 h2": "x"}, to_move=0, runner=0)
    play(state, "j2 O")  # the Runner walls in its own o start stone
    assert state.outcome() == Outcome(
        1, Termination.CHAIN_CUT, "the o chain from i1 can no longer reach a short side"
    )


def test_a_chain_may_run_along_the_long_side_to_its_corner() -> None:
    # Every cell x but the o route i1 g1 e1 c1 a1 =1 (=1 is a corner, a short side) and the O
    # route s1 u1 w1 y1 -1 ;1: both chains are still possible.
    route = "g1 e1 c1 a1 =1 u1 w1 y1 -1 ;1"
    state = board({route: "."}, to_move=1, runner=0, fill="x")
    assert state.outcome() is None and state.dead_cells() == frozenset()
    play(state, "c1")
    assert state.outcome() == Outcome(
        1, Termination.CHAIN_CUT, "the o chain from i1 can no longer reach a short side"
    )


def test_joint_impossibility_is_not_detected_early() -> None:
    # Every cell x but the o chain i1 j2 k3 l4 m5, the O chain s1 r2 q3 p4 o5 and two empty
    # cells: n6 (row 6), which touches both m5 and o5, and the walled-in '2. Each chain alone
    # can still reach n6, so the game goes on, although n6 takes one colour only.
    stones = {"j2 k3 l4 m5": "o", "r2 q3 p4 o5": "O", "n6 '2": "."}
    state = board(stones, runner=0, fill="x")
    assert state.outcome() is None and names(state.dead_cells()) == {"'2"}
    play(state, "n6 o")
    assert state.outcome() == Outcome(
        1, Termination.CHAIN_CUT, "the O chain from s1 can no longer reach a short side"
    )
    state.undo()
    play(state, "n6 O")
    assert state.outcome() == Outcome(
        1, Termination.CHAIN_CUT, "the o chain from i1 can no longer reach a short side"
    )


def test_a_full_board_wins_for_the_blocker_unless_the_last_stone_wins() -> None:
    around = {O_HOME: "o", O_ALMOST: "O", "x6": "."}  # every other cell x: x6 is the last one
    state = board(around, to_move=0, runner=0, fill="x")
    assert state.outcome() is None and legal_texts(state) == ["x6 o", "x6 O"]
    play(state, "x6 o")
    assert state.outcome() == Outcome(
        1,
        Termination.CHAIN_CUT,
        "the board is full and the O chain from s1 does not reach a short side",
    )
    state.undo()
    play(state, "x6 O")  # the last stone both fills the board and wins
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0
    assert outcome.termination is Termination.CHAINS_HOME
    state = board(around, to_move=1, runner=0, fill="x")
    play(state, "x6")
    assert state.outcome() == Outcome(
        1,
        Termination.CHAIN_CUT,
        "the board is full and the O chain from s1 does not reach a short side",
    )


def test_a_board_full_before_anyone_adopted_is_a_draw() -> None:
    state = board({"n6 p6": "."}, fill="x")
    assert legal_texts(state) == ["n6", "p6", "adopt"]
    play(state, "n6")
    assert legal_texts(state) == ["p6", "adopt"]
    play(state, "p6")
    assert state.outcome() == Outcome(
        None, Termination.BOARD_FULL, "the board is full and nobody adopted, so nobody has a role"
    )
    assert state.legal_moves() == [] and state.count_moves() == 0  # no adopt on a full board
    with pytest.raises(IllegalMoveError, match="the game is over: the board is full and nobody"):
        BIPOD.parse_move("adopt", state)


def test_adopting_when_a_chain_is_already_cut_loses_for_the_runner_at_once() -> None:
    state = board({"g1 k1 h2 j2": "x"})  # before adoption the cut decides nothing
    assert state.outcome() is None and len(state.legal_moves()) == 76
    play(state, "adopt")  # First adopts and blocks: Second runs, and has already lost
    assert state.outcome() == Outcome(
        0, Termination.CHAIN_CUT, "the o chain from i1 can no longer reach a short side"
    )
    state = board({"g1 k1 h2 j2": "x"}, variant="adopter-runs")
    play(state, "adopt")  # First adopts and runs: First has lost
    assert state.outcome() == Outcome(
        1, Termination.CHAIN_CUT, "the o chain from i1 can no longer reach a short side"
    )


@pytest.mark.parametrize("moves", [[], ["e1"], ["e1", "adopt"], ["e1", "adopt", "v2 O"]])
def test_either_player_may_resign_at_their_turn(moves: list[str]) -> None:
    state = BIPOD.new()
    play(state, *moves)
    resigner = state.to_move
    before = (state.position(), state.key)
    assert state.is_legal(RESIGN) and RESIGN not in state.legal_moves()
    play(state, "resign")
    name = BIPOD.side_names[resigner]
    assert state.outcome() == Outcome(1 - resigner, Termination.RESIGNED, f"{name} resigned")
    assert state.legal_moves() == [] and not state.is_legal(RESIGN)
    assert state.position().endswith(" resigned") and state.key == state.zobrist_key()
    again = BIPOD.parse_position(state.position())
    assert again.outcome() == state.outcome() and again.position() == state.position()
    with pytest.raises(IllegalMoveError, match=f"the game is over: {name} resigned"):
        BIPOD.parse_move("resign", state)
    assert state.undo() == RESIGN and (state.position(), state.key) == before
    assert state.outcome() is None


# -- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cells"),
    [
        ("e13f2", ["e1", "e3", "f2"]),
        ("su3", ["s3", "u3"]),
        ("a3c3", ["a3", "c3"]),
        ("=1", ["=1"]),
        ("`2", ["`2"]),
        (";1", [";1"]),
        ("'2", ["'2"]),
        ("-1", ["-1"]),
        ("s;1", ["s1", ";1"]),
        ("ac13", ["a1", "a3", "c1", "c3"]),
        (" j4 ", ["j4"]),
    ],
)
def test_cells_share_the_digits_that_follow_them(text: str, cells: list[str]) -> None:
    assert [cell_name(cell) for cell in parse_cells(text)] == cells


@pytest.mark.parametrize(
    ("cells", "text"),
    [
        (["e1", "e3", "f2"], "e13f2"),
        (["f2", "e3", "e1"], "e13f2"),
        (["s3", "u3"], "su3"),
        (["a3", "c3"], "ac3"),  # the sheet's a3c3, written the canonical way
        (["=1", "a1"], "=a1"),
        (["a1", "c1", "a3"], "a13c1"),
        (["j4"], "j4"),
        (["-1", ";1", "'2"], "-1'2;1"),  # by column: - ' ;
    ],
)
def test_cells_are_written_by_column_sharing_digits(cells: list[str], text: str) -> None:
    assert format_cells([c(n) for n in cells]) == text
    assert sorted(parse_cells(text)) == sorted(c(n) for n in cells)


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("v2 O", Move("O", (c("v2"),))),
        ("v2 o", Move("o", (c("v2"),))),
        ("v2O", Move("O", (c("v2"),))),
        ("v2o", Move("o", (c("v2"),))),
        ("  v2   O ", Move("O", (c("v2"),))),
        ("j4", Move("x", (c("j4"),))),
        ("adopt", ADOPT),
        ("ADOPT", ADOPT),
        ("adopts", ADOPT),
        ("resign", RESIGN),
        ("Resigns", RESIGN),
    ],
)
def test_moves_are_read_as_the_sheet_writes_them(text: str, move: Move) -> None:
    assert read_move(text) == move


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move("O", (c("v2"),)), "v2 O"),
        (Move("o", (c("m3"),)), "m3 o"),
        (Move("x", (c("e1"), c("f2"), c("e3"))), "e13f2"),
        (ADOPT, "adopt"),
        (RESIGN, "resign"),
    ],
)
def test_moves_are_written_canonically(move: Move, text: str) -> None:
    assert format_move(move) == text == BIPOD.format_move(move)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected a move: blocking stones as cells like e13f2"),
        ("z7", "z7 is off the board; rows run 1 to 6"),
        ("e0", "e0 is off the board; rows run 1 to 6"),
        ("e17", "e7 is off the board; rows run 1 to 6"),
        ("a2", "a2 is not a cell; row 2's cells are ` b d f h j l n p r t v x z '"),
        ("=3", "=3 is not a cell; row 3's cells are a c e g i k m o q s u w y -"),
        ("e", "'e' is not a move: e needs a row number after it, like e1"),
        ("e1f", "f needs a row number after it, like f1"),
        ("1e", "'1' is not a cell letter"),
        ("E1", "'E' is not a cell letter"),
        ("e1!", "'!' is not a cell letter"),
        ("e!", "'!' is not a cell letter or a row"),
        ("v2 X", "'X' is not a runner colour; a runner stone is its cell and o or O, like v2 O"),
        ("v2 o o", "'v2 o o' is not a move; expected blocking stones"),
        ("pass", "pass needs a row number after it, like p1"),
        ("e\u00b2", "'e\u00b2' is not a move: '\u00b2' is not a cell letter or a row"),
        ("e1\u0663", "'\u0663' is not a cell letter"),  # an Arabic-Indic 3
        ("e1\x1b[2J", "'e1\\x1b[2J' is not a move: '\\x1b' is not a cell letter"),
        pytest.param(
            "a" * 99 + "1" * 99,
            "'" + "a" * 39 + "…' names more cells than the board has",
            id="99 letters and 99 rows",
        ),
    ],
)
def test_malformed_moves_are_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError) as error:
        BIPOD.parse_move(text, BIPOD.new())
    assert message in str(error.value) and "\n" not in str(error.value)


def test_parse_cell_reads_exactly_one_cell() -> None:
    assert parse_cell("`2") == c("`2")
    with pytest.raises(NotationError, match="'e13' is not one cell"):
        parse_cell("e13")


def _sample_after_adoption(variant: str = "multi") -> BipodState:
    state = BIPOD.new(variant)
    play(state, "e13f2", "su3", "a3c3", "adopt")
    return state


@pytest.mark.parametrize(
    ("setup", "text", "message"),
    [
        ("start", "e1e1", "the same cell twice: e1; each stone goes on its own empty cell"),
        ("start", "e13 o", "the Runner places one stone a turn, with its colour, like e1 o"),
        ("start", "i1", "the cell i1 is taken"),
        ("start", "s1", "the cell s1 is taken"),
        ("start", "e1f2", "one blocking stone a turn, like e1 (one to three stones a turn only"),
        ("start", "v2 O", "only the Runner places o/O stones, and nobody has adopted yet"),
        ("multi", "e13f2g1", "one to three stones a turn in the multi variant"),
        ("runner", "e1", "the cell e1 is taken"),
        ("runner", "v2", "a runner stone needs its colour: v2 o or v2 O"),
        ("runner", "v2w3", "the Runner places one stone a turn, with its colour: v2 o or v2 O"),
        ("runner", "adopt", "adopt only before anyone has adopted; First is already the Runner"),
        ("blocker", "j4 o", "only the Runner places o/O stones; Second is the Blocker"),
        ("blocker", "j4k5", "the Blocker places one blocking stone a turn, like j4"),
        ("blocker", "v2", "the cell v2 is taken"),
        ("over", "j4", "the game is over: First resigned"),
        ("over", "adopt", "the game is over: First resigned"),
    ],
)
def test_illegal_moves_say_why(setup: str, text: str, message: str) -> None:
    if setup == "start":
        state = BIPOD.new()
    elif setup == "multi":
        state = BIPOD.new("multi")
    else:
        state = _sample_after_adoption()
        if setup in ("blocker", "over"):
            play(state, "v2 O")
        if setup == "over":
            play(state, "j4", "resign")
    with pytest.raises(IllegalMoveError) as error:
        BIPOD.parse_move(text, state)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_is_legal_agrees_with_the_list_on_odd_values() -> None:
    state = BIPOD.new()
    assert not state.is_legal(Move("x", ()))
    assert not state.is_legal(Move("x", (81,)))
    assert not state.is_legal(Move("x", (-1,)))
    assert not state.is_legal(Move("q", (3,)))
    assert not state.is_legal(Move("adopt", (3,)))
    assert not state.is_legal(("x", (3,)))  # type: ignore[arg-type]  # a plain tuple is no move
    multi = BIPOD.new("multi")
    assert multi.is_legal(Move("x", (1, 2, 3)))
    assert not multi.is_legal(Move("x", (3, 2, 1)))  # cells out of canonical order
    assert not multi.is_legal(Move("x", (2, 2)))


def test_split_moves_keeps_a_runner_stone_in_one_token() -> None:
    split = BIPOD.split_moves
    assert split("3. v2 O    j4") == ["3.", "v2 O", "j4"]
    assert split("6. m3 o") == ["6.", "m3 o"]
    assert split("6...     m5") == ["6...", "m5"]
    assert split("1. e13f2 su3") == ["1.", "e13f2", "su3"]
    assert split("3.v2 O j4 0-1") == ["3.v2 O", "j4", "0-1"]
    assert split("1. O") == ["1.", "O"]  # a colour after a bare number is left alone
    assert split("12. resign") == ["12.", "resign"]
    assert split("p2, o1 o, e13f2") == ["p2", "o1 o", "e13f2"]  # a line as the program writes it


# -- position strings ----------------------------------------------------------------------------


def test_position_strings_round_trip_and_carry_the_variant() -> None:
    for variant in BIPOD.variants:
        state = BIPOD.new(variant)
        text = state.position()
        assert text == (START_POSITION + (f" {variant}" if variant else ""))
        again = BIPOD.parse_position(text)
        assert again.position() == text and again.variant == variant and again.key == state.key
    state = _sample_after_adoption()
    play(state, "v2 O")
    assert state.position().endswith(" 2 1 multi")
    assert BIPOD.parse_position("  " + state.position() + "  ") == state


START_ROWS = START_POSITION.split()[0].split("/")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a Bi-Pod position; expected six rows (row 1 first)"),
        (".....@....Q..... 1", "is not a Bi-Pod position"),
        (START_POSITION.replace(" 1 -", " 3 -"), "the side to move must be 1 (First) or 2"),
        (START_POSITION.replace(" 1 -", " 1 x"), "the Runner must be - (nobody has adopted), 1"),
        (START_POSITION + " big", "Bi-Pod has no variant option 'big'"),
        (START_POSITION + " multi extra", "'multi extra' is not a variant"),
        ("/".join(START_ROWS[:5]) + " 1 -", "a position has 6 rows separated by /, not 5"),
        ("/".join([START_ROWS[0], "." * 14, *START_ROWS[2:]]) + " 1 -", "row 2 has 14 cells"),
        (START_POSITION.replace("@", "."), "i1 holds the start stone @, not '.'"),
        (START_POSITION.replace("Q", "x"), "s1 holds the start stone Q, not 'x'"),
        (START_POSITION.replace(".....@", "@....@"), "@ on =1: the start stones are @ on i1"),
        (START_POSITION.replace("Q....", "QQ..."), "Q on u1: the start stones are @ on i1"),
        (START_POSITION.replace(".....@", "z....@"), "'z' on =1 is not a stone; expected . x o"),
        (START_POSITION.replace(".....@", "o....@"), "there are o/O stones but nobody has adopted"),
    ],
)
def test_malformed_positions_say_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(NotationError) as error:
        BIPOD.parse_position(text)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_runner_stones_are_fine_after_adoption() -> None:
    text = START_POSITION.replace(".....@", "o....@").replace(" 1 -", " 2 1")
    assert BIPOD.parse_position(text).stone(c("=1")) == "o"


# -- dead cells and chains -----------------------------------------------------------------------


def test_no_cell_is_dead_at_the_start_and_chains_are_the_start_stones() -> None:
    state = BIPOD.new()
    assert state.dead_cells() == frozenset()
    assert state.chains() == {"o": {c("i1")}, "O": {c("s1")}}


def test_a_cell_cut_off_from_one_start_stone_lives_while_the_other_reaches_it() -> None:
    state = board({"g1 k1 h2 j2": "x"}, runner=0)
    assert state.dead_cells() == frozenset()  # every empty cell is open to s1's O chain
    state = board({"q1 u1 r2 t2": "x", "g1 k1 h2 j2": "x"}, runner=0)
    assert len(state.dead_cells()) == 81 - 2 - 8  # both walled in: every empty cell is dead


def test_chains_follow_own_stones_only() -> None:
    state = board({"j2 k3": "o", "l4 x4 t2": "O"}, to_move=1, runner=0)
    assert names(state.chains()["o"]) == {"i1", "j2", "k3"}  # l4 is O: not in the o chain
    assert names(state.chains()["O"]) == {"s1", "t2"}  # l4 and x4 are not connected to s1


# -- the sheet's sample game ---------------------------------------------------------------------

# The sheet's four diagrams, copied as they are (the last has no row numbers; trailing spaces
# are dropped, as the comparison ignores them).
SHEET_AFTER_ADOPT = """\
_______________________________
      x . @ . . . . Q . . . . . 1
       x . . . . . . . . . . .  2
  x x x . . . . . . x x . . .   3
   . . . . . . . . . . . . .    4
    . . . . . . . . . . . .     5
     . . . . . . . . . . .      6
=`abcdefghijklmnopqrstuvwxyz-';"""
SHEET_AFTER_J4 = """\
_______________________________
      x . @ . . . . Q . . . . . 1
       x . . . . . . . o . . .  2
  x x x . . . . . . x x . . .   3
   . . . . x . . . . . . . .    4
    . . . . . . . . . . . .     5
     . . . . . . . . . . .      6
=`abcdefghijklmnopqrstuvwxyz-';"""
SHEET_AFTER_M3 = """\
_______________________________
      x . @ . . . . Q . . . . . 1
       x x o . . . . . O . . .  2
  x x x o x . o . . x x . . .   3
   . . . . x . . . . . . . .    4
    . . . . . . . . . . . .     5
     . . . . . . . . . . .      6
=`abcdefghijklmnopqrstuvwxyz-';"""
SHEET_LAST = """\
_______________________________
      x . @ . . . . Q . . . . .
       x x o . . . . . O . . .
  x x x o x . o . . x x O x .
   . . . . x . . o . . O x .
    . . . . . x . . . O x .
     . . . . . . x . O x .
=`abcdefghijklmnopqrstuvwxyz-';"""

SAMPLE_MOVES = [
    *["e13f2", "su3", "a3c3", "adopt", "v2 O", "j4", "g3 o", "h2", "j2 o", "i3", "m3 o"],
    *["m5", "p4 o", "y3", "w3 O", "x4", "v4 O", "w5", "u5 O", "v6", "t6 O", "p6", "resign"],
]


def _board_lines(diagram: str) -> list[str]:
    """The underscore line, six rows without their row numbers, and the label line."""
    lines = diagram.splitlines()[:8]
    return [line[:32].rstrip() if 1 <= i <= 6 else line.rstrip() for i, line in enumerate(lines)]


def test_the_sheets_v2_o_is_a_misprint_for_v2_big_o() -> None:
    # The diagram after 3...j4 shows o on v2, but every later one shows O: the engine draws O.
    assert SHEET_AFTER_J4.splitlines()[2][23] == "o" and SHEET_AFTER_M3.splitlines()[2][23] == "O"


def test_the_sample_game_reproduces_the_sheets_diagrams() -> None:
    state = BIPOD.new("multi")
    shown = {4: SHEET_AFTER_ADOPT, 6: SHEET_AFTER_J4.replace(" o . . .  2", " O . . .  2")}
    shown |= {11: SHEET_AFTER_M3, 22: SHEET_LAST}
    for ply, text in enumerate(SAMPLE_MOVES, 1):
        play(state, text)
        if ply in shown:
            assert _board_lines(state.diagram()) == _board_lines(shown[ply]), f"after ply {ply}"
    # The blanks of every diagram are exactly the dead cells: the same six throughout.
    assert names(state.dead_cells()) == {"=1", "a1", "c1", "`2", "b2", "d2"}
    assert state.outcome() == Outcome(1, Termination.RESIGNED, "First resigned")


def test_the_sample_record_replays_to_the_last_diagram() -> None:
    record = load_record(SAMPLE)
    state = record.state
    assert record.game is BIPOD and state.variant == "multi" and record.result == "0-1"
    assert isinstance(state, BipodState)
    assert _board_lines(state.diagram()) == _board_lines(SHEET_LAST)
    # The sheet's `12. resigns` is read as the resignation it is: an ending, not a move.
    assert state.outcome() is None and RESIGN not in state.moves_played
    assert record.ending == Outcome(1, Termination.RESIGNED, "First resigned")
    assert len(state.moves_played) == 22 and record.tags["Termination"] == "resigned"
    assert state.moves_played[4] == Move("O", (c("v2"),))  # the misprint, corrected
    assert state.diagram().splitlines()[-1] == "First runs (o and O), Second blocks (x)"
    # Written back canonically and read again: the same game, the same ending.
    text = format_record(BIPOD, state, dict(record.tags))
    again = parse_record(text)
    assert "resign" not in text.split("\n\n", 1)[1] and '[Termination "resigned"]' in text
    assert again.state.position() == state.position() and again.ending == record.ending


# -- perft ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "depth", "nodes"), load_perft_table(TABLE), ids=lambda v: str(v)
)
def test_perft_matches_table(position: str, depth: int, nodes: int) -> None:
    assert perft(BIPOD.parse_position(position), depth) == nodes


def test_stones_needed_from_the_start_and_once_cut() -> None:
    state = BIPOD.new()
    # i1 is five cells from the left end of row 1 and five rows from row 6; s1 likewise.
    assert (state.stones_needed("o"), state.stones_needed("O")) == (5, 5)
    rows = ["....x@x...Q.....", "....xx.........", *("." * n for n in range(14, 10, -1))]
    cut = BIPOD.parse_position("/".join(rows) + " 1 2")  # g1, k1, h2 and j2 wall i1 in
    assert cut.stones_needed("o") is None and cut.stones_needed("O") == 5


# -- the threat overlay -------------------------------------------------------------------------


def with_stones(stones: dict[str, str], to_move: int, runner: int | None) -> BipodState:
    cells = list(BIPOD.new().cells)
    for name, stone in stones.items():
        cells[NAME_INDEX[name]] = stone
    return BipodState(cells, to_move, runner)


def cut(state: BipodState) -> list[tuple[str, int]]:
    before = (state.position(), state.key, state.plies)
    found = [(threat.square, threat.by) for threat in BIPOD.threats(state)]
    assert (state.position(), state.key, state.plies) == before  # the caller's state untouched
    return found


def test_the_cells_that_would_cut_a_chain_are_the_blockers_threats() -> None:
    # i1's neighbours are g1, k1, h2 and j2: with the first three blocked, a stone on j2 leaves
    # the o chain no way out. Past j2 the board is open, so j2 is the only such cell. s1's
    # neighbours q1, u1, r2, t2: with q1, u1 and r2 blocked, t2 is the O chain's only way.
    # Second runs, First blocks: both cells are First's, whoever is to move.
    o_way = {"g1": "x", "k1": "x", "h2": "x"}
    assert cut(with_stones(o_way, 0, 1)) == [("j2", 0)]
    both = {**o_way, "q1": "x", "u1": "x", "r2": "x"}
    assert cut(with_stones(both, 1, 1)) == [("j2", 0), ("t2", 0)]
    # Once the Runner holds j2 with an o stone, the o chain has a stone past the narrow place.
    assert cut(with_stones({**both, "j2": "o"}, 0, 0)) == [("t2", 1)]
    # A stone of the other runner colour on j2 is a block too: the o chain is cut, game over.
    assert cut(with_stones({**both, "j2": "O"}, 0, 0)) == []


def test_before_adoption_no_cell_is_a_threat() -> None:
    # The same narrow place, but nobody holds a chain yet (docs/rules.md).
    assert cut(with_stones({"g1": "x", "k1": "x", "h2": "x"}, 0, None)) == []
