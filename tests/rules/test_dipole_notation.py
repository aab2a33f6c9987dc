"""Move notation: canonical writing, lenient but truthful reading, round trips."""

from __future__ import annotations

import pytest

from dipole_tui.games.base import IllegalMoveError, NotationError
from dipole_tui.games.dipole import (
    DIPOLE,
    OFF,
    PASS,
    DipoleState,
    Move,
    count_range,
    format_move,
    parse_move,
    parse_square,
)


def pos(text: str) -> DipoleState:
    return DIPOLE.parse_position(text)


def sq(name: str, size: int = 8) -> int:
    return parse_square(name, size)


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move(4, 26, 2), "e1-g3"),  # e1 = rank 0 file 4; g3 = rank 2 file 6
        (Move(4, 26, 2, True), "e1xg3"),
        (Move(44, 24, 2, True), "e5xe3"),
        (Move(66, OFF, 2), "g7-off:2"),
        (Move(4, OFF, 12), "e1-off:12"),
        (Move(99, OFF, 3), "j10-off:3"),  # 10x10's far corner
        (Move(4, 84, 8), "e1-e9"),
        (Move(95, 59, 4, True), "f10xj6"),
        (PASS, "pass"),
    ],
)
def test_format_move(move: Move, text: str) -> None:
    assert format_move(move) == DIPOLE.format_move(move) == text


def test_move_properties() -> None:
    assert PASS.is_pass and not PASS.is_removal
    assert Move(66, OFF, 2).is_removal and not Move(66, OFF, 2).is_pass
    assert not Move(4, 26, 2).is_removal and not Move(4, 26, 2).is_pass
    assert Move(4, 26, 2).capture is False  # a plain move unless said otherwise


ROUND_TRIP_POSITIONS = [
    "8:W:We1=12:Bd8=12",
    "10:W:We1=20:Bf10=20",
    "8:W:We5=3:Bc3=1,e3=1,g3=1,c5=1,g5=1,c7=1,e7=1,g7=1",
    "8:B:Wc3=2,e3=1,a1=4,g1=5:Be5=3,d6=2,h8=1",
    "10:B:Wb2=1,j10=1,e3=6:Ba1=1,e5=3,c9=2,f8=5",
    "8:W:Wd4=1:Bc5=2,e5=2",  # forced pass
]


@pytest.mark.parametrize("position", ROUND_TRIP_POSITIONS)
def test_every_legal_move_round_trips(position: str) -> None:
    state = pos(position)
    for move in state.legal_moves():
        text = format_move(move)
        assert text == text.lower()
        assert parse_move(text, state) == move
        assert DIPOLE.parse_move(text.upper(), state) == move
        assert DIPOLE.parse_move(f"  {text}\t", state) == move
        spaced = text.replace("-", " - ").replace("x", " x ")
        assert DIPOLE.parse_move(spaced, state) == move


def test_mixed_case() -> None:
    state = DIPOLE.new()
    expected = Move(sq("e1"), sq("g3"), 2)
    for text in ("E1-G3", "e1-G3", "E1-g3"):
        assert DIPOLE.parse_move(text, state) == expected
    assert DIPOLE.parse_move("E1-OFF:7", state) == Move(sq("e1"), OFF, 7)
    assert DIPOLE.parse_move("e1-Off:12", state) == Move(sq("e1"), OFF, 12)
    assert DIPOLE.parse_move("PaSs", pos("8:W:Wd4=1:Bc5=2,e5=2")) == PASS


def test_plus_names_a_merge() -> None:
    state = pos("8:W:We1=3,g3=1:Bd8=3")
    merge = Move(sq("e1"), sq("g3"), 2, False)
    assert DIPOLE.parse_move("e1+g3", state) == merge
    assert DIPOLE.parse_move("E1+G3", state) == merge
    assert DIPOLE.parse_move("e1-g3", state) == merge
    assert format_move(DIPOLE.parse_move("e1+g3", state)) == "e1-g3"  # written canonically
    black = pos("8:B:We1=3:Bd8=3,b6=2")
    assert DIPOLE.parse_move("d8+b6", black) == Move(sq("d8"), sq("b6"), 2, False)


@pytest.mark.parametrize(
    ("position", "text"),
    [
        ("8:W:We1=3,g3=1:Bd8=3", "e1+c3"),  # empty target
        ("8:W:We1=3:Bg3=1", "e1+g3"),  # enemy target: a capture, not a merge
        ("8:W:We1=12:Bd8=3", "e1+off:4"),  # a removal
        ("8:W:Wh8=1:Bd8=3", "h8+off"),  # one count can leave: it is read as that count
    ],
)
def test_plus_is_refused_without_an_own_stack_on_the_target(position: str, text: str) -> None:
    with pytest.raises(IllegalMoveError, match="a merge needs a stack of your own"):
        DIPOLE.parse_move(text, pos(position))


def test_off_without_count_is_read_only_when_one_count_can_leave() -> None:
    black = pos("8:B:We1=3:Bd8=3,b2=2")
    assert DIPOLE.parse_move("b2-off", black) == Move(sq("b2"), OFF, 2)  # 1 lands on a1 or c1
    with pytest.raises(IllegalMoveError, match="3 checkers from d8 cannot leave the board"):
        DIPOLE.parse_move("d8-off", black)  # the whole 3-stack is one short of the edge


@pytest.mark.parametrize(
    ("position", "text", "message", "count"),
    [
        ("8:W:We1=12:Bd8=12", "e1-off", "e1-off needs a count: 4 to 12, e.g. e1-off:4", 5),
        ("8:W:Wg7=3,e1=9:Bd8=3", "g7-off", "g7-off needs a count: 2 or 3", 2),
        ("8:W:Wg7=3,e1=9:Bd8=3", "E1-OFF", "E1-OFF needs a count: 4 to 9", 9),
    ],
)
def test_off_without_count_is_never_guessed(
    position: str, text: str, message: str, count: int
) -> None:
    """At the start `e1-off` once meant all twelve: White lost at once by a missing count."""
    with pytest.raises(NotationError, match=message):
        DIPOLE.parse_move(text, pos(position))
    assert DIPOLE.parse_move(f"{text}:{count}", pos(position)).count == count


@pytest.mark.parametrize(
    ("counts", "words"),
    [
        ([4, 5, 6], "4 to 6"),
        ([2, 4, 6], "2, 4 or 6"),
        ([3, 4], "3 or 4"),
        ([7], "7"),
        ([1, 3, 4, 5, 9], "1, 3 to 5 or 9"),
    ],
)
def test_counts_in_words(counts: list[int], words: str) -> None:
    assert count_range(counts) == words


def test_dash_is_accepted_for_a_capture() -> None:
    state = pos("8:W:We5=3:Be3=1,g7=2")
    capture = Move(sq("e5"), sq("e3"), 2, True)
    assert DIPOLE.parse_move("e5-e3", state) == capture
    assert DIPOLE.parse_move("e5xe3", state) == capture
    assert DIPOLE.parse_move("E5XE3", state) == capture
    assert format_move(DIPOLE.parse_move("e5-g7", state)) == "e5xg7"


@pytest.mark.parametrize(
    ("position", "text", "fragment"),
    [
        ("8:W:We1=12:Bd8=12", "e1xg3", "g3 holds no enemy stack to capture"),  # empty
        ("8:W:We1=3,g3=1:Bd8=3", "e1xg3", "g3 holds no enemy stack to capture"),  # own stack
        ("8:W:We1=12:Bd8=12", "e1xoff:5", "holds no enemy stack to capture"),  # removal
    ],
)
def test_x_is_refused_without_an_enemy_stack(position: str, text: str, fragment: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        DIPOLE.parse_move(text, pos(position))
    assert fragment in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        *("e1-g3:2", "e1--g3", "e1g3", "e1 g3", "e1-off:", "e1-offf", "off", "e1-pass", "pass e1"),
        *("e\u0661-g3", "e1-g\uff13", "e1-off:\u00b2", "\u212a1-g3"),  # other digits, Kelvin K
    ],
)
def test_malformed_moves(text: str) -> None:
    with pytest.raises(NotationError, match="is not a move"):
        DIPOLE.parse_move(text, DIPOLE.new())


def test_split_moves() -> None:
    assert DIPOLE.split_moves(" e1-g3  d8xg5\ng7-off:2 pass ") == [
        "e1-g3",
        "d8xg5",
        "g7-off:2",
        "pass",
    ]
