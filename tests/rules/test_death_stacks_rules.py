"""Death Stacks' rules, clause by clause, on positions built for each clause.

Expected values are reasoned out by hand from the rule sheet and docs/rules.md (the reasoning is in
the comments); whole move lists are also compared with tests/support/death_stacks_reference.py.
"""

from __future__ import annotations

import pytest
from death_stacks_reference import read_position, ref_moves
from paths import DATA
from perft_table import load_perft_table

from dipole_tui.games.base import GameError, IllegalMoveError, NotationError, Outcome, Termination
from dipole_tui.games.death_stacks import (
    BLACK,
    DEATH_STACKS,
    RED,
    START_POSITION,
    DeathStacksState,
    Move,
    format_move,
    move_paths,
    move_ways,
    parse_square,
    path,
    square_name,
)
from dipole_tui.perft import perft
from dipole_tui.registry import REGISTRY

TABLE = DATA / "perft_death_stacks.txt"


def pos(text: str) -> DeathStacksState:
    return DEATH_STACKS.parse_position(text)


def board(stacks: dict[str, str], side: str = "r") -> DeathStacksState:
    """A position from {square: stack}, e.g. {"c3": "rrb"}; all other squares empty."""
    ranks = []
    for rank in range(6, 0, -1):
        ranks.append(",".join(stacks.get(f"{f}{rank}", "") for f in "abcdef"))
    return pos("/".join(ranks) + " " + side)


def sq(name: str) -> int:
    return parse_square(name)


def names(squares: tuple[int, ...] | list[int]) -> list[str]:
    return [square_name(s) for s in squares]


def moves_from(state: DeathStacksState, name: str) -> set[str]:
    return {format_move(m) for m in state.legal_moves() if m.origin == sq(name)}


def targets(state: DeathStacksState, name: str, count: int) -> set[str]:
    moves = state.legal_moves()
    return {square_name(m.target) for m in moves if m.origin == sq(name) and m.count == count}


def play(state: DeathStacksState, *texts: str) -> None:
    for text in texts:
        state.play(DEATH_STACKS.parse_move(text, state))


def same_as_reference(state: DeathStacksState) -> bool:
    return set(state.legal_moves()) == ref_moves(read_position(state.position()))


# -- the game object and the start --------------------------------------------------------------


def test_game_object_and_registration() -> None:
    assert DEATH_STACKS.key == "death-stacks" and DEATH_STACKS.name == "Death Stacks"
    assert DEATH_STACKS.variants == ("standard",)
    assert DEATH_STACKS.side_names == ("Red", "Black")
    assert next(iter(REGISTRY)) == "dipole" and REGISTRY["death-stacks"].game is DEATH_STACKS
    with pytest.raises(GameError, match="Death Stacks has no variant 'big'; expected standard"):
        DEATH_STACKS.new("big")


def test_start_position_red_moves_first() -> None:
    state = DEATH_STACKS.new()
    assert state.position() == START_POSITION
    assert state.to_move == RED and state.variant == "standard"
    assert state.stacks_of(RED) == [sq(f"{f}1") for f in "abcdef"]
    assert state.stacks_of(BLACK) == [sq(f"{f}6") for f in "abcdef"]
    assert state.pieces(RED) == state.pieces(BLACK) == 12
    assert state.outcome() is None and state.moves_played == []


def test_start_has_48_moves_per_side() -> None:
    """tests/data/perft_death_stacks.txt derives 6 + 8 + 10 + 10 + 8 + 6 by hand."""
    state = DEATH_STACKS.new()
    per_square = {f"{f}1": len(moves_from(state, f"{f}1")) for f in "abcdef"}
    assert per_square == {"a1": 6, "b1": 8, "c1": 10, "d1": 10, "e1": 8, "f1": 6}
    assert moves_from(state, "a1") == {"a1-1-a2", "a1-1-b1", "a1-1-b2"} | {
        "a1-2-a3",
        "a1-2-c1",
        "a1-2-c3",
    }
    # b1: 2 pieces west bounce back onto b1 (not a move); north-west lands on b3 like north.
    assert targets(state, "b1", 2) == {"b3", "d1", "d3"}
    assert len(state.legal_moves()) == state.count_moves() == 48
    play(state, "c1-1-c2")
    assert len(state.legal_moves()) == 48  # Black's mirror image
    assert {m.origin for m in state.legal_moves()} == {sq(f"{f}6") for f in "abcdef"}


# -- movement and reflection --------------------------------------------------------------------


def test_the_three_reflection_checks_of_the_rulings() -> None:
    assert names(path(sq("d5"), "ne", 4)) == ["e6", "f5", "e4", "d3"]
    assert names(path(sq("c3"), "n", 5))[-1] == "c4"  # c4 c5 c6 c5 c4
    assert names(path(sq("c3"), "n", 5)) == ["c4", "c5", "c6", "c5", "c4"]
    assert names(path(sq("a5"), (1, 1), 3)) == ["b6", "c5", "d4"]


def test_a_corner_reflects_both_components_so_a_diagonal_retraces() -> None:
    assert names(path(sq("d4"), "ne", 4)) == ["e5", "f6", "e5", "d4"]
    assert names(path(sq("a1"), "sw", 3)) == ["b2", "c3", "d4"]
    down = ["f5", "f4", "f3", "f2", "f1"]
    assert names(path(sq("f6"), "n", 10)) == [*down, *down[-2::-1], "f6"]  # back at the start


def test_path_refuses_a_non_direction() -> None:
    with pytest.raises(ValueError, match="not one of the eight directions"):
        path(sq("a1"), (2, 1), 1)
    with pytest.raises(KeyError):
        path(sq("a1"), "up", 1)


def test_a_stack_moves_exactly_its_height_in_all_eight_directions() -> None:
    # c3 (x = y = 2): 3 steps reach 5 one way and fold -1 to 1 the other.
    state = board({"c3": "rrr", "a6": "b"})
    assert targets(state, "c3", 3) == {"c6", "c2", "f3", "b3", "f6", "b6", "f2", "b2"}
    assert targets(state, "c3", 1) == {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}
    assert targets(state, "c3", 2) == {"c5", "c1", "e3", "a3", "e5", "a5", "e1", "a1"}
    assert len(moves_from(state, "c3")) == 24
    assert same_as_reference(state)


def test_moves_are_not_blocked() -> None:
    state = board({"c3": "rrr", "d3": "bb", "e3": "rrrr", "d4": "b", "a6": "b"})
    assert "c3-3-f3" in moves_from(state, "c3")  # over d3 and e3
    assert "c3-3-f6" in moves_from(state, "c3")  # over d4 and e5


def test_a_move_ending_on_its_start_square_is_not_a_move() -> None:
    # e5 (x = y = 4) with 2 pieces: +2 folds back to 4, -2 reaches 2. North, east and
    # north-east return to e5 (not moves); south/south-east reach e3, west/north-west c5, and
    # south-west c3.
    state = board({"e5": "rr", "a1": "b"})
    assert names(path(sq("e5"), "ne", 2)) == ["f6", "e5"]
    assert targets(state, "e5", 2) == {"e3", "c5", "c3"}
    # 10 pieces come back in every direction (each axis has period 10): no 10-piece moves.
    tall = board({"c3": "rrrrrrrrrr", "a1": "b"})
    assert targets(tall, "c3", 10) == set()
    assert targets(tall, "c3", 9) != set()


def test_the_same_target_reached_twice_is_one_move() -> None:
    # a1 with 2 pieces: north and south (reflected) both reach a3; east and west both c1;
    # the four diagonals all reach c3.
    state = board({"a1": "rr", "f6": "b"})
    moves = [m for m in state.legal_moves() if m.origin == sq("a1") and m.count == 2]
    assert sorted(format_move(m) for m in moves) == ["a1-2-a3", "a1-2-c1", "a1-2-c3"]
    assert len(move_paths(Move(sq("a1"), 2, sq("c3")))) == 4
    assert len(move_paths(Move(sq("a1"), 2, sq("a3")))) == 2


def test_each_way_to_a_target_says_how_often_a_wall_turns_it_back() -> None:
    # a1-1-a2: north, or south into the wall and back: the same squares, one move.
    ways = move_ways(Move(sq("a1"), 1, sq("a2")))
    assert [(w.direction, names(w.squares), w.bounces) for w in ways] == [
        ("n", ["a2"], 0),
        ("s", ["a2"], 1),
    ]
    # A corner turns both ways at once: it counts as one bounce.
    corner = {w.direction: w.bounces for w in move_ways(Move(sq("a1"), 2, sq("c3")))}
    assert corner == {"ne": 0, "se": 1, "sw": 1, "nw": 1}
    # d5 north-east 4 (docs/rules.md) bounces off the top wall, then the right one.
    ways = move_ways(Move(sq("d5"), 4, sq("d3")))
    assert [(w.direction, names(w.squares), w.bounces) for w in ways] == [
        ("n", ["d6", "d5", "d4", "d3"], 1),
        ("ne", ["e6", "f5", "e4", "d3"], 2),
    ]


def test_legal_moves_are_in_canonical_order() -> None:
    state = DEATH_STACKS.new()
    moves = state.legal_moves()
    assert moves == sorted(moves) and len(set(moves)) == len(moves)


# -- stacking, capture and splitting ------------------------------------------------------------


def test_capture_by_stacking_on_top_takes_ownership() -> None:
    state = board({"c3": "rrr", "f3": "bb", "a6": "b"})
    play(state, "c3-3-f3")
    assert state.cells[sq("f3")] == (BLACK, BLACK, RED, RED, RED)
    assert state.owner(sq("f3")) == RED and state.cells[sq("c3")] == ()
    assert state.pieces(BLACK) == 3  # captured pieces stay on the board
    assert state.outcome() is None  # Black still controls a6


def test_restacking_on_an_own_stack() -> None:
    state = board({"c3": "r", "d3": "rr", "a6": "b"})
    play(state, "c3-1-d3")
    assert state.cells[sq("d3")] == (RED, RED, RED) and state.cells[sq("c3")] == ()


def test_splitting_moves_the_top_part_and_its_length_is_the_distance() -> None:
    # Red's 4-stack on a1 (b r b r bottom to top): 2 pieces travel 2 squares, not 4.
    state = board({"a1": "brbr", "f6": "b"})
    assert {m.count for m in state.legal_moves()} == {1, 2, 3, 4}
    play(state, "a1-2-a3")
    assert state.cells[sq("a3")] == (BLACK, RED)  # the top two, order kept
    assert state.cells[sq("a1")] == (BLACK, RED)
    assert state.owner(sq("a1")) == RED


def test_splitting_can_liberate_a_buried_piece() -> None:
    # Red's c3 is r b r r: moving the top 2 frees Black's piece to own the c3 stack (r b).
    state = board({"c3": "rbrr", "f6": "b"})
    assert state.stacks_of(BLACK) == [sq("f6")]
    play(state, "c3-2-c5")
    assert state.cells[sq("c3")] == (RED, BLACK) and state.owner(sq("c3")) == BLACK
    assert state.stacks_of(BLACK) == [sq("c3"), sq("f6")]


def test_only_stacks_with_an_own_top_piece_move() -> None:
    state = board({"c3": "rrb", "d3": "bbr", "a6": "b"})
    assert {m.origin for m in state.legal_moves()} == {sq("d3")}
    assert same_as_reference(state)


# -- Too-Tall -----------------------------------------------------------------------------------


def test_too_tall_allows_only_moves_from_it_taking_enough() -> None:
    """Counts by hand in tests/data/perft_death_stacks.txt: 8 + 8 + 3 + 3 + 3 = 25."""
    state = board({"c3": "rrrrrr", "a1": "r", "f6": "b"})
    moves = state.legal_moves()
    assert {m.origin for m in moves} == {sq("c3")}
    assert {m.count for m in moves} == {2, 3, 4, 5, 6}
    assert targets(state, "c3", 4) == {"c5", "e3", "e5"}
    assert targets(state, "c3", 5) == {"c4", "d3", "d4"}
    assert len(moves) == state.count_moves() == 25
    assert same_as_reference(state)


def test_a_stack_of_exactly_four_is_not_too_tall() -> None:
    state = board({"c3": "rrrr", "a1": "r", "f6": "b"})
    assert {m.origin for m in state.legal_moves()} == {sq("c3"), sq("a1")}
    assert state.too_tall() == []


def test_an_opponents_too_tall_stack_does_not_bind() -> None:
    state = board({"c3": "rrrrrb", "a1": "r", "f6": "b"})
    assert {m.origin for m in state.legal_moves()} == {sq("a1")}


def test_two_too_tall_stacks_allow_moves_from_either() -> None:
    state = board({"a1": "rrbrr", "f6": "rbbrr", "c4": "b", "d4": "rr"})
    moves = state.legal_moves()
    assert {m.origin for m in moves} == {sq("a1"), sq("f6")}
    assert {m.count for m in moves} == {1, 2, 3, 4, 5}  # 5 - 4 = 1: any count
    assert len(moves) == 30
    assert same_as_reference(state)


def test_a_too_tall_move_may_build_another_too_tall_stack() -> None:
    state = board({"a1": "rrrrr", "a2": "rrrr", "f6": "b"})
    play(state, "a1-1-a2", "f6-1-f5")
    assert state.too_tall() == [sq("a2")]
    assert {m.origin for m in state.legal_moves()} == {sq("a2")}


# -- end of the game ----------------------------------------------------------------------------


def test_a_player_wins_when_the_opponent_controls_no_stack() -> None:
    state = board({"c3": "rrr", "f3": "bb"})
    play(state, "c3-3-f3")
    assert state.outcome() == Outcome(RED, Termination.NO_STACKS, "Black controls no stack")
    assert state.legal_moves() == [] and state.count_moves() == 0
    assert state.pieces(BLACK) == 2  # Black's pieces are buried, not gone


def test_buried_pieces_do_not_count_as_control() -> None:
    state = board({"c3": "bbr", "d4": "b"}, "b")
    assert state.outcome() is None
    play(state, "d4-1-c3")  # Black covers Red's last stack: c3 is b b r b
    assert state.outcome() == Outcome(BLACK, Termination.NO_STACKS, "Red controls no stack")


def test_a_position_where_a_side_controls_nothing_is_over() -> None:
    assert board({"c3": "rb"}, "r").outcome() == Outcome(
        BLACK, Termination.NO_STACKS, "Red controls no stack"
    )
    assert board({"c3": "rb"}, "b").outcome() == Outcome(
        BLACK, Termination.NO_STACKS, "Red controls no stack"
    )
    assert board({"c3": "b", "d3": "r"}).outcome() is None


def test_third_occurrence_with_the_same_side_to_move_draws() -> None:
    state = board({"a1": "r", "f6": "b"})
    shuffle = ("a1-1-a2", "f6-1-f5", "a2-1-a1", "f5-1-f6")
    play(state, *shuffle)
    assert state.outcome() is None  # second occurrence
    play(state, *shuffle[:3])
    assert state.outcome() is None
    play(state, shuffle[3])
    assert state.outcome() == Outcome(
        None, Termination.REPETITION, "the same position occurred for the third time"
    )
    assert state.legal_moves() == [] and state.count_moves() == 0
    with pytest.raises(IllegalMoveError, match="the game is over: the same position occurred"):
        DEATH_STACKS.parse_move("a1-1-a2", state)
    state.undo()
    assert state.outcome() is None  # Black's f5 single again: e4 e5 e6 f4 f6
    assert len(state.legal_moves()) == 5


def test_repetition_counts_only_the_same_side_to_move() -> None:
    # A triangle of three single steps gives the start arrangement with Black to move.
    state = board({"a1": "r", "f6": "b"})
    play(state, "a1-1-a2", "f6-1-f5", "a2-1-b1", "f5-1-f6", "b1-1-a1")
    assert state.position() == board({"a1": "r", "f6": "b"}, "b").position()
    back_and_forth = ("f6-1-f5", "a1-1-a2", "f5-1-f6", "a2-1-a1")
    play(state, *back_and_forth)  # the arrangement's 3rd time, but 2nd with Black to move
    assert state.outcome() is None
    play(state, *back_and_forth)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None


# -- notation -----------------------------------------------------------------------------------


def test_notation_round_trips_and_is_case_insensitive() -> None:
    state = DEATH_STACKS.new()
    for move in state.legal_moves():
        assert DEATH_STACKS.parse_move(format_move(move), state) == move
    assert DEATH_STACKS.parse_move("  A1-2-C3 ", state) == Move(sq("a1"), 2, sq("c3"))
    assert DEATH_STACKS.parse_move("d1 - 1 - d2", state) == Move(sq("d1"), 1, sq("d2"))
    assert DEATH_STACKS.format_move(Move(sq("d2"), 3, sq("e3"))) == "d2-3-e3"
    assert DEATH_STACKS.split_moves("1. a1-2-c3 f6-1-f5\n") == ["1.", "a1-2-c3", "f6-1-f5"]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (
            "a1c3",
            NotationError,
            "'a1c3' is not a move; expected <from>-<pieces>-<to>, like d2-3-e3",
        ),
        ("a1-x-c3", NotationError, "is not a move"),
        ("a\uff11-1-a2", NotationError, "'a\uff11-1-a2' is not a move"),  # a full-width 1
        ("a1-\u0967-a2", NotationError, "is not a move"),  # a Devanagari 1
        ("a1-1-a2\x1b[2J", NotationError, "'a1-1-a2\\x1b[2J' is not a move"),
        ("g1-1-a1", NotationError, "g1 is off the board; squares run from a1 to f6"),
        ("a1-1-a7", NotationError, "a7 is off the board"),
        ("a2-1-a3", IllegalMoveError, "there is no stack on a2"),
        ("a6-1-a5", IllegalMoveError, "the stack on a6 is Black's (its top piece is Black); "),
        ("a1-0-a1", IllegalMoveError, "a move takes at least 1 piece"),
        ("a1-3-a4", IllegalMoveError, "the stack on a1 has only 2 pieces"),
        ("e1-2-e1", IllegalMoveError, "a move must leave its square"),
        (
            "a1-2-a4",
            IllegalMoveError,
            "2 pieces from a1 cannot end on a4: they move exactly 2 squares in a straight line, "
            "reflected by the walls (they can end on c1, a3, c3)",
        ),
        ("c1-1-c3", IllegalMoveError, "1 piece from c1 cannot end on c3: they move exactly 1 "),
    ],
)
def test_move_errors_say_what_is_wrong(text: str, error: type[GameError], message: str) -> None:
    state = DEATH_STACKS.new()
    with pytest.raises(error) as caught:
        DEATH_STACKS.parse_move(text, state)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_too_tall_errors() -> None:
    state = board({"c3": "rrrrrr", "a1": "r", "f6": "b"})
    with pytest.raises(IllegalMoveError, match=r"too tall: Red's stack on c3 has more than 4"):
        DEATH_STACKS.parse_move("a1-1-a2", state)
    with pytest.raises(IllegalMoveError, match=r"has 6 pieces, so this turn must take at least 2"):
        DEATH_STACKS.parse_move("c3-1-c4", state)
    two = board({"a1": "rrrrr", "f6": "rrrrr", "c4": "b", "d4": "r"})
    with pytest.raises(IllegalMoveError, match="stack on a1 or f6 has more than 4"):
        DEATH_STACKS.parse_move("d4-1-d5", two)


def test_game_over_error() -> None:
    state = board({"c3": "rb"}, "r")
    with pytest.raises(IllegalMoveError, match="the game is over: Red controls no stack"):
        DEATH_STACKS.parse_move("c3-1-c4", state)


# -- position strings ---------------------------------------------------------------------------


def test_position_round_trips_and_is_case_insensitive() -> None:
    text = ",,,,,/,,,,,/,,,brbr,,/,,brb,,,/,,,,,/b,,,,,r b"
    assert pos(text).position() == text
    assert pos(text.upper().replace(" B", " b")).position() == text
    assert pos(START_POSITION.upper()).position() == START_POSITION
    state = pos(text)
    assert state.cells[sq("d4")] == (BLACK, RED, BLACK, RED) and state.to_move == BLACK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("rr,rr", "'rr,rr' is not a Death Stacks position; expected 6 ranks"),
        (START_POSITION[:-1] + "x", "side to move must be r (Red) or b (Black), not 'x'"),
        (",,,,,/,,,,,/,,,,,/,,,,,/rr,rr,rr,rr,rr,rr r", "a position has 6 ranks separated by /"),
        ("bb,bb,bb,bb,bb/,,,,,/,,,,,/,,,,,/,,,,,/rr,rr,rr,rr,rr,rr r", "rank 6 has 5 stacks"),
        ("bb,bb,bb,bb,bb,bx/,,,,,/,,,,,/,,,,,/,,,,,/rr,rr,rr,rr,rr,rr r", "'bx' on f6 is not"),
        (
            "bb,bb,bb,bb,bb,bb/,,,,,/,,,,,/,,,,,/,,,,,/rr,rr,rr,rr,rr,rrr r",
            "Red has 13 pieces; a game has at most 12 a side",
        ),
        (",,,,,/,,,,,/,,,,,/,,,,,/,,,,,/,,,,, r", "the board is empty"),
    ],
)
def test_position_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        pos(text)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_diagram_shows_stacks_bottom_to_top() -> None:
    state = board({"c3": "rbr", "f6": "b"})
    lines = state.diagram().splitlines()
    assert lines[0].split() == list("abcdef") and lines[-1] == lines[0]
    assert lines[1].split() == ["6", ".", ".", ".", ".", ".", "b", "6"]
    assert lines[4].split() == ["3", ".", ".", "rbr", ".", ".", ".", "3"]


# -- undo, copy, keys -------------------------------------------------------------------------


def test_undo_and_copy_restore_everything() -> None:
    state = DEATH_STACKS.new()
    play(state, "c1-2-c3", "d6-1-d5", "c3-2-c5", "d5-1-c5")
    twin = state.copy()
    assert twin.position() == state.position() and twin.moves_played == state.moves_played
    assert state.cells[sq("c5")] == (RED, RED, BLACK)
    assert state.key == state.zobrist_key()
    for _ in range(4):
        state.undo()
    assert state.position() == START_POSITION and state.key == state.zobrist_key()
    assert dict(state.repetitions) == {(tuple(pos(START_POSITION).cells), RED): 1}
    assert twin.cells[sq("c5")] == (RED, RED, BLACK)  # the copy is independent


# -- perft --------------------------------------------------------------------------------------


def load_table() -> list[tuple[str, int, int]]:
    return load_perft_table(TABLE)


ENTRIES = load_table()


def test_table_covers_the_start_and_more() -> None:
    depths = {depth for position, depth, _ in ENTRIES if position == START_POSITION}
    assert {1, 2, 3} <= depths
    assert len({position for position, _, _ in ENTRIES}) >= 6


@pytest.mark.parametrize(("position", "depth", "nodes"), ENTRIES, ids=lambda v: str(v))
def test_engine_perft_matches_table(position: str, depth: int, nodes: int) -> None:
    state = pos(position)
    assert perft(state, depth) == nodes
    assert state.position() == position and state.moves_played == []


# -- the threat overlay -------------------------------------------------------------------------


def threatened(text: str) -> list[tuple[str, int]]:
    state = DEATH_STACKS.parse_position(text)
    before = (state.position(), state.key, state.plies)
    found = [(threat.square, threat.by) for threat in DEATH_STACKS.threats(state)]
    assert (state.position(), state.key, state.plies) == before  # the caller's state untouched
    return found


def test_threats_are_the_stacks_each_side_can_land_on() -> None:
    # Red (to move): a1's 1 reaches b2; f1's 2 reach f3. Black: b2's 1 reaches a1; f3's 3 go
    # 2 south to f1. c6's 2 reach nothing of Red's. Squares in order a1, f1, b2, f3.
    position = ",,bb,,,/,,,,,/,,,,,/,,,,,bbb/,b,,,,/r,,,,,rr r"
    assert threatened(position) == [("a1", BLACK), ("f1", BLACK), ("b2", RED), ("f3", RED)]
    # The same with Black to move: the same threats, whoever moves.
    assert threatened(position[:-1] + "b") == threatened(position)


def test_a_too_tall_stack_is_the_only_one_that_threatens() -> None:
    # Black's e5 (5) must move this turn or next: its parts reach a1 (4 south-west), but not
    # f1, and b2 may not move at all, so a1 is threatened by e5 alone and f1 not at all.
    position = ",,bb,,,/,,,,bbbbb,/,,,,,/,,,,,bbb/,b,,,,/r,,,,,rr r"
    assert threatened(position) == [("a1", BLACK), ("b2", RED), ("f3", RED)]
    assert threatened(",,,,,/,,,,,/,,,,,/,,,,,/,b,,,,/r,,,,, b") == [("a1", BLACK), ("b2", RED)]
    assert threatened(",,,,,/,,,,,/,,,,,/,,,,,/,,,,,/r,,,,, b") == []  # Black controls nothing
