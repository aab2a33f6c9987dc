"""Dipole's rules, clause by clause, on positions built for each clause.

Expected values are reasoned out by hand from the rule text (docs/rules.md); where a whole move
list is checked it is also compared with the independent generator in tests/support/reference.py.
"""

from __future__ import annotations

import dataclasses

import pytest
from reference import of_state, ref_moves

from dipole_tui.games.base import GameError, IllegalMoveError, NotationError, Outcome, Termination
from dipole_tui.games.dipole import (
    BLACK,
    DIPOLE,
    OFF,
    PASS,
    WHITE,
    DipoleState,
    Move,
    _why_illegal,
    format_move,
    parse_square,
    square_name,
)
from dipole_tui.perft import perft


def pos(text: str) -> DipoleState:
    return DIPOLE.parse_position(text)


def sq(name: str, size: int = 8) -> int:
    return parse_square(name, size)


def texts(moves: list[Move]) -> set[str]:
    return {format_move(m) for m in moves}


def moves_from(state: DipoleState, name: str) -> set[str]:
    origin = sq(name, state.size)
    return texts([m for m in state.legal_moves() if m.origin == origin])


def non_capturing(state: DipoleState, name: str) -> set[str]:
    origin = sq(name, state.size)
    return texts([m for m in state.legal_moves() if m.origin == origin and not m.capture])


def captures(state: DipoleState) -> set[str]:
    return texts([m for m in state.legal_moves() if m.capture])


def removal_counts(state: DipoleState, name: str) -> list[int]:
    origin = sq(name, state.size)
    return [m.count for m in state.legal_moves() if m.origin == origin and m.target == OFF]


def refusal(state: DipoleState, text: str, error: type[GameError] = IllegalMoveError) -> str:
    with pytest.raises(error) as caught:
        DIPOLE.parse_move(text, state)
    message = str(caught.value)
    assert "\n" not in message and message
    return message


def agrees_with_reference(state: DipoleState) -> None:
    assert set(state.legal_moves()) == ref_moves(of_state(state))


# -- board and setup ------------------------------------------------------------------------


def test_8x8_setup_and_white_moves_first() -> None:
    state = DIPOLE.new()  # the default variant
    assert state.variant == "8x8"
    assert state.position() == "8:W:We1=12:Bd8=12"
    assert state.to_move == WHITE
    assert state.stacks_of(WHITE) == {sq("e1"): 12}
    assert state.stacks_of(BLACK) == {sq("d8"): 12}
    assert state.checkers == [12, 12]
    assert state.outcome() is None
    assert {m.origin for m in state.legal_moves()} == {sq("e1")}  # only White's stack moves


def test_10x10_setup_and_white_moves_first() -> None:
    state = DIPOLE.new("10x10")
    assert state.variant == "10x10"
    assert state.position() == "10:W:We1=20:Bf10=20"
    assert state.to_move == WHITE
    assert state.stacks_of(WHITE) == {sq("e1", 10): 20}
    assert state.stacks_of(BLACK) == {sq("f10", 10): 20}
    assert state.checkers == [20, 20]
    assert {m.origin for m in state.legal_moves()} == {sq("e1", 10)}


def test_black_moves_second() -> None:
    state = DIPOLE.new()
    state.play(DIPOLE.parse_move("e1-d2", state))
    assert state.to_move == BLACK
    assert {m.origin for m in state.legal_moves()} == {sq("d8")}


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(GameError, match="no variant '9x9'"):
        DIPOLE.new("9x9")


def test_square_numbering_and_colours() -> None:
    assert sq("a1") == 0 and sq("c1") == 2 and sq("b2") == 11 and sq("h8") == 77
    assert sq("j10", 10) == 99 and sq("e1", 10) == 4
    for size, dark_count in ((8, 32), (10, 50)):
        dark = []
        for rank in range(size):
            for file in range(size):
                name = f"{'abcdefghij'[file]}{rank + 1}"
                try:
                    number = parse_square(name, size)
                except NotationError:
                    assert (file + rank) % 2 == 1  # only light squares are refused
                    continue
                assert (file + rank) % 2 == 0
                assert number == rank * 10 + file and square_name(number) == name
                dark.append(number)
        assert len(dark) == dark_count


# -- moves: partial stacks, distance, basic moves -----------------------------------------------


def test_any_top_part_of_a_stack_may_move() -> None:
    state = DIPOLE.new()
    on_board = {m.count for m in state.legal_moves() if m.target != OFF}
    assert on_board == {1, 2, 3, 4, 6}  # 5 only fits a removal; 6 is e1-e7
    state.play(DIPOLE.parse_move("e1-c3", state))
    assert state.stacks_of(WHITE) == {sq("e1"): 10, sq("c3"): 2}
    state.play(DIPOLE.parse_move("d8-d6", state))
    assert state.stacks_of(BLACK) == {sq("d6"): 2, sq("d8"): 10}
    state.play(DIPOLE.parse_move("e1-off:5", state))
    assert state.stacks_of(WHITE) == {sq("e1"): 5, sq("c3"): 2}
    assert state.checkers == [7, 12]


def test_a_move_travels_exactly_its_count_along_a_line() -> None:
    for text in ("8:W:We1=12:Bd8=12", "10:W:We1=20:Bf10=20", "8:B:We3=5,c5=4:Bf6=7,d8=3"):
        state = pos(text)
        for move in state.legal_moves():
            if move.target == OFF:
                continue
            df = abs(move.target % 10 - move.origin % 10)
            dr = abs(move.target // 10 - move.origin // 10)
            assert max(df, dr) == move.count
            assert df == dr or df == 0 or dr == 0


def test_figure_3_white_2_stack_moves_forward_and_diagonally_forward() -> None:
    state = pos("8:W:Wd4=2:Bh8=1")
    # Both checkers: two squares diagonally forward either way, or two straight ahead.
    assert non_capturing(state, "d4") == {
        "d4-b6",
        "d4-f6",
        "d4-d6",
        "d4-c5",  # and the top checker alone, one square diagonally forward
        "d4-e5",
    }
    assert {format_move(m) for m in state.legal_moves() if m.count == 2} == {
        "d4-b6",
        "d4-f6",
        "d4-d6",
    }
    agrees_with_reference(state)


def test_black_2_stack_moves_toward_rank_1() -> None:
    state = pos("8:B:Wa1=1:Be5=2")
    assert moves_from(state, "e5") == {"e5-d4", "e5-f4", "e5-c3", "e5-e3", "e5-g3"}
    agrees_with_reference(state)


@pytest.mark.parametrize("text", ["d4-b2", "d4-f2", "d4-d2", "d4-b4", "d4-f4", "d4-c3"])
def test_basic_moves_never_go_backward_or_sideways(text: str) -> None:
    state = pos("8:W:Wd4=2:Bh8=1")
    assert "basic moves go forward or diagonally forward only" in refusal(state, text)


def test_black_basic_moves_never_go_toward_rank_8() -> None:
    state = pos("8:B:Wa1=1:Be5=2")
    assert "basic moves go forward" in refusal(state, "e5-f6")
    assert "basic moves go forward" in refusal(state, "e5-e7")
    assert "basic moves go forward" in refusal(state, "e5-g5")


def test_nothing_obstructs_a_basic_move() -> None:
    state = pos("8:W:We1=4:Be3=6,d2=5")
    move = DIPOLE.parse_move("e1-e5", state)  # over Black's 6-stack on e3
    assert move == Move(sq("e1"), sq("e5"), 4, False)
    assert DIPOLE.parse_move("e1-b4", state).count == 3  # over Black's 5-stack on d2


# -- merges ------------------------------------------------------------------------------------


def test_figure_4_merge_over_an_enemy_stack() -> None:
    """White takes 3 from its 4-stack and merges onto its 2-stack, jumping Black's 5-stack."""
    state = pos("8:W:Wc3=4,f6=2:Bd4=5")
    move = DIPOLE.parse_move("c3-f6", state)
    assert move == Move(sq("c3"), sq("f6"), 3, False)
    state.play(move)
    assert state.stacks_of(WHITE) == {sq("c3"): 1, sq("f6"): 5}  # the heights add
    assert state.stacks_of(BLACK) == {sq("d4"): 5}  # the jumped stack is untouched
    assert state.checkers == [6, 5]


def test_merges_go_forward_only() -> None:
    state = pos("8:W:Wa1=1,c1=1,c3=2,e3=1,e5=1,c5=1:Bh8=1")
    legal = moves_from(state, "c3")
    assert {"c3-e5", "c3-c5"} <= legal  # diagonally forward and straight ahead merges
    for text in ("c3-a1", "c3-c1", "c3-e3"):  # backward diagonal, backward, sideways
        assert "merges go forward or diagonally forward only" in refusal(state, text)
        assert text not in legal
    agrees_with_reference(state)


def test_black_merges_toward_rank_1() -> None:
    state = pos("8:B:Wa1=1:Bc5=2,e3=1,a7=1,e5=1")
    move = DIPOLE.parse_move("c5-e3", state)
    state.play(move)
    assert state.stacks_of(BLACK)[sq("e3")] == 3
    state.undo()
    assert "merges go forward" in refusal(state, "c5-a7")
    assert "merges go forward" in refusal(state, "c5-e5")


# -- captures ---------------------------------------------------------------------------------


EIGHT_AROUND_E5 = ["c3", "e3", "g3", "c5", "g5", "c7", "e7", "g7"]


def test_figure_5_capture_in_all_eight_directions() -> None:
    """A White 3-stack takes 2 checkers to capture a Black 1-stack two squares away, any way."""
    black = ",".join(f"{name}=1" for name in EIGHT_AROUND_E5)
    state = pos(f"8:W:We5=3:B{black}")
    assert captures(state) == {f"e5x{name}" for name in EIGHT_AROUND_E5}
    assert all(m.count == 2 for m in state.legal_moves() if m.capture)
    agrees_with_reference(state)
    state.play(DIPOLE.parse_move("e5xe3", state))  # straight backward
    assert state.stacks_of(WHITE) == {sq("e3"): 2, sq("e5"): 1}  # the part stands there
    assert sq("e3") not in state.stacks_of(BLACK)
    assert state.checkers == [3, 7]  # the captured checker left the game


def test_black_captures_in_all_eight_directions() -> None:
    white = ",".join(f"{name}=1" for name in EIGHT_AROUND_E5)
    state = pos(f"8:B:W{white}:Be5=2")
    assert captures(state) == {f"e5x{name}" for name in EIGHT_AROUND_E5}
    agrees_with_reference(state)
    state.play(DIPOLE.parse_move("e5xe7", state))  # backward for Black
    assert state.stacks_of(BLACK) == {sq("e7"): 2}
    assert state.checkers == [7, 2]


def test_capture_of_an_equal_stack_and_with_a_longer_part() -> None:
    state = pos("8:W:We5=3:Be3=2,b2=3")
    assert DIPOLE.parse_move("e5xe3", state) == Move(sq("e5"), sq("e3"), 2, True)
    assert DIPOLE.parse_move("e5xb2", state) == Move(sq("e5"), sq("b2"), 3, True)


def test_no_capture_of_a_taller_stack() -> None:
    state = pos("8:W:We5=3:Be3=3,g7=5,f6=2")
    legal = state.legal_moves()
    assert sq("e3") not in {m.target for m in legal}
    assert sq("g7") not in {m.target for m in legal}
    assert "a 2-checker part cannot capture a stack of 3" in refusal(state, "e5xe3")
    assert "a 2-checker part cannot capture a stack of 5" in refusal(state, "e5xg7")
    assert "a 2-checker part cannot capture a stack of 5" in refusal(state, "e5-g7")
    # A taller enemy stack diagonally forward is no basic move either.
    assert "a 1-checker part cannot capture a stack of 2" in refusal(state, "e5-f6")
    agrees_with_reference(state)


def test_nothing_obstructs_a_capture() -> None:
    state = pos("8:W:Wa1=3:Bb2=5,d4=3")
    assert DIPOLE.parse_move("a1xd4", state) == Move(sq("a1"), sq("d4"), 3, True)


def test_straight_moves_need_an_even_count() -> None:
    state = pos("8:W:We5=3:Bc5=1,a1=1")
    legal = state.legal_moves()
    straight = [
        m
        for m in legal
        if m.target != OFF and (m.target % 10 == m.origin % 10 or m.target // 10 == m.origin // 10)
    ]
    assert texts(straight) == {"e5-e7", "e5xc5"}  # two ahead; two sideways onto Black's 1
    assert all(m.count == 2 for m in straight)
    # One or three squares straight would end on a light square.
    assert "e6 is a light square" in refusal(state, "e5-e6", NotationError)
    assert "e8 is a light square" in refusal(state, "e5-e8", NotationError)
    assert "f5 is a light square" in refusal(state, "e5-f5", NotationError)
    agrees_with_reference(state)


# -- removals ---------------------------------------------------------------------------------


def test_start_removals_are_one_move_per_count() -> None:
    state = DIPOLE.new()
    assert removal_counts(state, "e1") == list(range(4, 13))
    assert "3 checkers from e1 cannot leave the board" in refusal(state, "e1-off:3")
    # Backward off the board does not count: one step back from e1 would leave it.
    assert "cannot leave the board" in refusal(state, "e1-off:1")


@pytest.mark.parametrize(
    ("position", "square", "first"),
    [
        ("8:W:Wd4=7:Bh8=1", "d4", 4),  # c5 b6 a7, then off
        ("8:W:We3=7:Bh8=1", "e3", 4),  # f4 g5 h6, then off
        ("8:W:Wa1=3:Bh8=1", "a1", 1),  # corner: up-left leaves at once
        ("8:W:Wh8=3:Ba1=1", "h8", 1),  # corner, last rank
        ("8:W:Wb8=3:Ba1=1", "b8", 1),  # last rank
        ("8:W:Wa5=3:Bh8=1", "a5", 1),  # left edge
        ("8:W:Wh2=3:Ba7=1", "h2", 1),  # right edge
        ("8:W:Wg7=3:Ba1=1", "g7", 2),  # h8, then off
        ("8:B:Wh8=1:Bg7=3", "g7", 2),  # Black: h6, then off
        ("8:B:Wh8=1:Ba1=3", "a1", 1),  # Black's last rank
        ("8:B:Wh8=1:Bd8=12", "d8", 4),  # Black's start: c7 b6 a5, then off
        ("8:B:Wh8=1:Be5=6", "e5", 4),  # f4 g3 h2, then off
        ("10:W:We1=20:Bf10=20", "e1", 5),  # d2 c3 b4 a5, then off
        ("10:B:We1=20:Bf10=20", "f10", 5),  # g9 h8 i7 j6, then off
        ("10:W:Wj10=2:Ba1=1", "j10", 1),
        ("10:W:We5=9:Ba1=1", "e5", 5),  # d6 c7 b8 a9 (5 up-left) and f6..j10 (6 up-right)
    ],
)
def test_removal_threshold(position: str, square: str, first: int) -> None:
    state = pos(position)
    height = state.stacks_of(state.to_move)[sq(square, state.size)]
    assert removal_counts(state, square) == list(range(first, height + 1))
    agrees_with_reference(state)


def test_removal_of_the_whole_stack_and_part_of_it() -> None:
    state = pos("8:W:Wg7=3,e1=2:Bd8=3")
    state.play(DIPOLE.parse_move("g7-off:2", state))
    assert state.stacks_of(WHITE) == {sq("e1"): 2, sq("g7"): 1}
    assert state.checkers == [3, 3]
    state.undo()
    state.play(DIPOLE.parse_move("g7-off:3", state))  # the whole stack
    assert state.stacks_of(WHITE) == {sq("e1"): 2}
    assert state.checkers == [2, 3]
    assert state.outcome() is None


# -- passing ----------------------------------------------------------------------------------


FORCED_PASS = "8:W:Wd4=1:Bc5=2,e5=2"


def test_forced_pass() -> None:
    """White's 1-stack faces Black 2-stacks on both forward diagonals: nothing to do."""
    state = pos(FORCED_PASS)
    assert state.legal_moves() == [PASS]
    assert state.count_moves() == 1
    assert ref_moves(of_state(state)) == {PASS}
    assert DIPOLE.parse_move("pass", state) == PASS
    assert DIPOLE.parse_move("  PASS ", state) == PASS
    assert "a 1-checker part cannot capture a stack of 2" in refusal(state, "d4xc5")
    assert "basic moves go forward" in refusal(state, "d4-c3")
    assert "cannot leave the board" in refusal(state, "d4-off")
    state.play(PASS)
    assert state.to_move == BLACK
    assert state.position() == "8:B:Wd4=1:Bc5=2,e5=2"
    assert state.moves_played == [PASS]
    assert state.checkers == [1, 4]
    # Black then moves: c5 b4, xd4, a3, c3, e3 and e5 xd4, f4, c3, e3, g3.
    assert texts(state.legal_moves()) == {
        "c5-b4",
        "c5xd4",
        "c5-a3",
        "c5-c3",
        "c5-e3",
        "e5xd4",
        "e5-f4",
        "e5-c3",
        "e5-e3",
        "e5-g3",
    }
    assert "cannot pass" in refusal(state, "pass")
    state.play(DIPOLE.parse_move("c5-a3", state))  # both checkers leave c5
    assert "d4-c5" in texts(state.legal_moves())  # the way is open again
    assert perft(pos(FORCED_PASS), 2) == 10  # the pass is a ply


def test_no_pass_with_a_legal_move() -> None:
    state = DIPOLE.new()
    assert PASS not in state.legal_moves()
    assert refusal(state, "pass") == "White has 19 legal moves, so cannot pass"
    only_removal = pos("8:W:Wa7=1:Bb8=2")  # b8 is too tall to capture; a7-off:1 is all there is
    assert refusal(only_removal, "pass") == "White has 1 legal move, so cannot pass"


# -- end of the game --------------------------------------------------------------------------


def test_capturing_the_last_enemy_stack_wins_at_once() -> None:
    state = pos("8:W:We5=2,a1=4:Be3=2")
    state.play(DIPOLE.parse_move("e5xe3", state))
    outcome = state.outcome()
    assert outcome == Outcome(WHITE, Termination.NO_CHECKERS, "Black has no checkers left")
    assert state.legal_moves() == []
    assert state.count_moves() == 0
    assert refusal(state, "pass").startswith("the game is over")
    assert "is not a move" in refusal(state, "a1-", NotationError)  # malformed comes first
    assert refusal(state, "a1-c3").startswith("the game is over")


def test_black_capturing_the_last_white_stack_wins() -> None:
    state = pos("8:B:Wc3=1:Bd4=1,h8=2")
    state.play(DIPOLE.parse_move("d4xc3", state))
    assert state.outcome() == Outcome(BLACK, Termination.NO_CHECKERS, "White has no checkers left")


def test_removing_your_own_last_checker_loses() -> None:
    state = pos("8:W:Wb8=1:Ba1=3")
    state.play(DIPOLE.parse_move("b8-off", state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == BLACK  # White moved last and lost
    assert state.checkers == [0, 3]
    assert state.legal_moves() == []
    state.undo()
    assert state.outcome() is None


def test_black_removing_its_own_last_checkers_loses() -> None:
    state = pos("8:B:We1=2:Bb2=2")
    state.play(DIPOLE.parse_move("b2-off:2", state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == WHITE
    assert outcome.termination is Termination.NO_CHECKERS


def test_a_position_with_an_empty_side_is_a_finished_game() -> None:
    for text, winner in (("8:W:We1=3:B", WHITE), ("8:W:W:Bd8=1", BLACK), ("10:B:W:Ba1=2", BLACK)):
        state = pos(text)
        outcome = state.outcome()
        assert outcome is not None and outcome.winner == winner
        assert state.legal_moves() == []


def test_outcome_is_a_frozen_typed_value() -> None:
    state = DIPOLE.new()
    assert state.outcome() is None  # no draws: None only while both sides have checkers
    state.play(DIPOLE.parse_move("e1-off:12", state))
    outcome = state.outcome()
    assert outcome == Outcome(BLACK, Termination.NO_CHECKERS, "White has no checkers left")
    assert isinstance(outcome.winner, int) and isinstance(outcome.reason, str)
    assert isinstance(outcome.termination, Termination)
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.winner = WHITE  # type: ignore[misc]  # assigning to a frozen field on purpose


# -- play and undo ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "position",
    [
        "8:W:We1=12:Bd8=12",
        "10:W:We1=20:Bf10=20",
        "8:W:We5=3:Bc3=1,e3=1,g3=1,c5=1,g5=1,c7=1,e7=1,g7=1",
        "8:B:Wc3=2,e3=1,a1=4,g1=5:Be5=3,d6=2,h8=1",
        "8:W:Wc3=4,f6=2:Bd4=5",
        FORCED_PASS,
    ],
)
def test_play_then_undo_restores_everything(position: str) -> None:
    state = pos(position)
    position = state.position()
    cells = list(state.cells)
    stacks = (state.stacks_of(WHITE), state.stacks_of(BLACK))
    for move in state.legal_moves():
        state.play(move)
        assert state.position() != position
        assert state.moves_played == [move]
        assert state.undo() == move
        assert state.position() == position
        assert state.cells == cells
        assert (state.stacks_of(WHITE), state.stacks_of(BLACK)) == stacks
        assert state.checkers == [sum(stacks[0].values()), sum(stacks[1].values())]
        assert state.moves_played == []


def test_copy_is_independent_and_keeps_history() -> None:
    state = DIPOLE.new()
    state.play(DIPOLE.parse_move("e1-g3", state))
    twin = state.copy()
    assert twin.position() == state.position()
    assert twin.moves_played == state.moves_played
    twin.play(DIPOLE.parse_move("d8-d6", twin))
    assert state.to_move == BLACK and state.stacks_of(BLACK) == {sq("d8"): 12}
    twin.undo()
    twin.undo()
    assert twin.position() == "8:W:We1=12:Bd8=12"
    assert state.position() == "8:B:We1=10,g3=2:Bd8=12"


# -- error messages ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "text", "error", "fragment"),
    [
        # malformed move text
        ("8:W:We1=12:Bd8=12", "e1", NotationError, "'e1' is not a move; expected e1-g3"),
        ("8:W:We1=12:Bd8=12", "e1-", NotationError, "is not a move"),
        ("8:W:We1=12:Bd8=12", "e1/g3", NotationError, "is not a move"),
        ("8:W:We1=12:Bd8=12", "e1-off:", NotationError, "is not a move"),
        ("8:W:We1=12:Bd8=12", "passe", NotationError, "is not a move"),
        ("8:W:We1=12:Bd8=12", "", NotationError, "is not a move"),
        # squares
        ("8:W:We1=12:Bd8=12", "e1-e2", NotationError, "e2 is a light square"),
        ("8:W:We1=12:Bd8=12", "f1-g2", NotationError, "f1 is a light square"),
        ("8:W:We1=12:Bd8=12", "e1-i5", NotationError, "i5 is off the 8x8 board (a1 to h8)"),
        ("8:W:We1=12:Bd8=12", "e1-e9", NotationError, "off the 8x8 board"),
        ("8:W:We1=12:Bd8=12", "e0-e2", NotationError, "off the 8x8 board"),
        ("10:W:We1=20:Bf10=20", "e1-e11", NotationError, "off the 10x10 board (a1 to j10)"),
        # whose stack
        ("8:W:We1=12:Bd8=12", "c3-d4", IllegalMoveError, "there is no stack on c3"),
        ("8:W:We1=12:Bd8=12", "c3-off", IllegalMoveError, "there is no stack on c3"),
        (
            "8:W:We1=12:Bd8=12",
            "d8-d6",
            IllegalMoveError,
            "the stack on d8 is Black's; it is White's turn",
        ),
        (
            "8:B:We1=12:Bd8=12",
            "e1-e3",
            IllegalMoveError,
            "the stack on e1 is White's; it is Black's turn",
        ),
        # shape and length
        ("8:W:We1=12:Bd8=12", "e1-f4", IllegalMoveError, "e1 to f4 is not a straight line"),
        ("8:W:We1=12:Bd8=12", "e1-e1", IllegalMoveError, "a move must leave its square"),
        ("8:W:We1=12:Bd8=12", "e1-off:0", IllegalMoveError, "a move takes at least 1 checker"),
        (
            "8:W:Wc3=2:Bd8=12",
            "c3-f6",
            IllegalMoveError,
            "a 3-checker move travels exactly 3 squares, but the stack on c3 has only 2",
        ),
        (
            "8:W:We1=12:Bd8=12",
            "e1-off:13",
            IllegalMoveError,
            "cannot remove 13 checkers: the stack on e1 has only 12",
        ),
        ("8:W:We1=12:Bd8=12", "e1-off:2", IllegalMoveError, "2 checkers from e1 cannot leave"),
        # direction and capture
        (
            "8:W:We5=3:Bg7=5",
            "e5xg7",
            IllegalMoveError,
            "a 2-checker part cannot capture a stack of 5",
        ),
        ("8:W:We5=3:Bg7=5", "e5-g7", IllegalMoveError, "cannot capture a stack of 5"),
        ("8:W:Wd4=2:Bh8=1", "d4-b2", IllegalMoveError, "basic moves go forward"),
        ("8:W:Wd4=2,b2=1:Bh8=1", "d4-b2", IllegalMoveError, "merges go forward"),
        # the separator says something false
        ("8:W:We1=12:Bd8=12", "e1xg3", IllegalMoveError, "g3 holds no enemy stack to capture"),
        ("8:W:We1=12:Bd8=12", "e1xoff:4", IllegalMoveError, "holds no enemy stack to capture"),
        ("8:W:We1=12:Bd8=12", "e1+g3", IllegalMoveError, "a merge needs a stack of your own"),
        ("8:W:We1=12:Bd8=12", "e1+off:4", IllegalMoveError, "a merge needs a stack of your own"),
        ("8:W:We5=3:Be3=1", "e5+e3", IllegalMoveError, "a merge needs a stack of your own"),
        # passing and the end
        ("8:W:We1=12:Bd8=12", "pass", IllegalMoveError, "White has 19 legal moves, so cannot"),
        ("8:W:W:Bd8=12", "pass", IllegalMoveError, "the game is over: White has no checkers"),
        ("8:B:We1=3:B", "e1-e3", IllegalMoveError, "the game is over: Black has no checkers"),
    ],
)
def test_parse_move_messages(
    position: str, text: str, error: type[GameError], fragment: str
) -> None:
    assert fragment in refusal(pos(position), text, error)


def test_straight_odd_message_for_a_hand_built_move() -> None:
    """parse_move refuses the light square first; a hand-built move still gets the rule."""
    state = DIPOLE.new()
    move = Move(sq("e1"), 1 * 10 + 4, 1)  # e2 (rank 1, file 4): one square straight ahead
    assert _why_illegal(state, move) == "straight moves need an even number of checkers"


def test_errors_are_value_errors() -> None:
    assert issubclass(NotationError, GameError) and issubclass(IllegalMoveError, GameError)
    assert issubclass(GameError, ValueError)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("e-1", "is not a square; expected a file letter and a rank, like e1"),
        ("e", "is not a square"),
        ("11", "is not a square"),
        ("e1x", "is not a square"),
        ("i1", "i1 is off the 8x8 board (a1 to h8)"),
        ("a9", "off the 8x8 board"),
        ("a0", "off the 8x8 board"),
        ("b1", "b1 is a light square; stacks stand only on dark squares"),
        ("a2", "a2 is a light square"),
    ],
)
def test_parse_square_messages(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_square(text, 8)
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "is not a Dipole position; expected <size>:<side>:W<stacks>:B<stacks>"),
        ("8:W:We1=12", "is not a Dipole position"),
        ("8:W:We1=12:Bd8=12:x", "is not a Dipole position"),
        ("9:W:We1=12:Bd8=12", "board size must be 8 or 10, not '9'"),
        ("x:W:We1=12:Bd8=12", "board size must be 8 or 10, not 'x'"),
        ("8:X:We1=12:Bd8=12", "side to move must be W or B, not 'X'"),
        ("8::We1=12:Bd8=12", "side to move must be W or B, not ''"),
        ("8:W:Be1=12:Wd8=12", "expected W and White's stacks, not 'Be1=12'"),
        ("8:W:We1=12:d8=12", "expected B and Black's stacks, not 'd8=12'"),
        ("8:W:We1=12:", "expected B and Black's stacks"),
        ("8:W:We1:Bd8=12", "'e1' is not a stack; expected <square>=<height>, like e1=12"),
        ("8:W:We1=0:Bd8=12", "'e1=0' is not a stack"),
        ("8:W:We1=-2:Bd8=12", "'e1=-2' is not a stack"),
        ("8:W:We1=x:Bd8=12", "'e1=x' is not a stack"),
        ("8:W:We1=:Bd8=12", "'e1=' is not a stack"),
        ("8:W:We1=\u00b2:Bd8=12", "is not a stack"),  # a superscript digit is no height
        ("8:W:We1=\u0661\u0662:Bd8=12", "is not a stack"),  # nor are Arabic-Indic digits
        (
            "8:W:We1=1000:Bd8=12",
            "'e1=1000' is not a stack; expected <square>=<height>, like e1=12 "
            "(a height is at most 3 digits 0-9)",
        ),
        pytest.param(
            "8:W:We1=" + "1" * 5000 + ":Bd8=12",
            "'e1=" + "1" * 36 + "…' is not a stack",
            id="a height of 5000 digits",
        ),
        ("8:W:We\uff11=12:Bd8=12", "'e\uff11' is not a square"),
        ("8:\x1b[2J:We1=12:Bd8=12", "side to move must be W or B, not '\\x1b[2J'"),
        ("8:W:We2=3:Bd8=12", "e2 is a light square"),
        ("8:W:Wi1=3:Bd8=12", "i1 is off the 8x8 board"),
        ("8:W:Wzz=3:Bd8=12", "'zz' is not a square"),
        ("8:W:We1=3,:Bd8=12", "is not a square"),
        ("8:W:We1=3,e1=4:Bd8=12", "e1 is listed twice"),
        ("8:W:We1=3:Be1=4", "e1 is listed twice"),
        ("8:W:We1=13:Bd8=12", "White has 13 checkers; an 8x8 game has at most 12 a side"),
        ("8:W:We1=6,g1=7:Bd8=12", "White has 13 checkers"),
        ("8:W:We1=12:Bd8=10,b8=3", "Black has 13 checkers"),
        ("10:W:We1=21:Bf10=20", "White has 21 checkers; a 10x10 game has at most 20 a side"),
        ("8:W:W:B", "both sides have no checkers"),
    ],
)
def test_parse_position_messages(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as caught:
        DIPOLE.parse_position(text)
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message


def test_parse_square_is_lenient_about_case_and_spaces() -> None:
    assert parse_square(" e1 ", 8) == parse_square("E1", 8) == 4
    assert parse_square("J10", 10) == 99


def test_parse_position_limits_are_inclusive() -> None:
    assert pos("8:W:We1=6,g1=6:Bd8=12").checkers == [12, 12]
    assert pos("10:B:We1=20:Bf10=19,a1=1").checkers == [20, 20]


# -- the threat overlay -------------------------------------------------------------------------


def threatened(state: DipoleState) -> list[tuple[str, int]]:
    return [(threat.square, threat.by) for threat in DIPOLE.threats(state)]


def test_threats_are_each_sides_captures_whoever_is_to_move() -> None:
    # White to move: e1's 3 reach b4 (2) on the diagonal; d4 is on no line of White's within
    # reach. Black's 1-checker parts from b4 and d4 both reach c3 (1); nothing reaches e1, g1.
    state = DIPOLE.parse_position("8:W:Wc3=1,e1=3,g1=2:Ba3=1,b4=2,d4=2,f8=3")
    before = (state.position(), state.key, state.plies)
    assert threatened(state) == [("c3", BLACK), ("b4", WHITE)]
    assert (state.position(), state.key, state.plies) == before  # the caller's state untouched
    # After e1xb4, White's 3 on b4 reach a3 (1, diagonally) and d4 (2, straight with 2);
    # Black's d4 still reaches c3, and nothing of Black's can take the 3.
    state.play(DIPOLE.parse_move("e1xb4", state))
    assert threatened(state) == [("a3", WHITE), ("c3", BLACK), ("d4", WHITE)]


def test_only_a_part_at_least_as_tall_as_the_stack_captures() -> None:
    # c3's 1 cannot take d4's 2; d4's 2 reach c3 at distance 1 with a 1-part. Straight moves
    # need an even count: d4's 2 reach d2 (2 south), so a White 1 there is taken, backwards.
    assert threatened(DIPOLE.parse_position("8:W:Wc3=1:Bd4=2")) == [("c3", BLACK)]
    assert threatened(DIPOLE.parse_position("8:W:Wd2=1:Bd4=2")) == [("d2", BLACK)]
    assert DIPOLE.threats(DIPOLE.parse_position("8:W:Wc3=1:B")) == []  # the game is over


def test_refusals_say_an_before_a_number_said_with_a_vowel() -> None:
    state = DIPOLE.parse_position("10:W:We1=3:Bf10=20")
    assert "an 8-checker move travels exactly 8 squares" in refusal(state, "e1-e9")
    assert "a 4-checker move travels exactly 4 squares" in refusal(state, "e1-e5")
