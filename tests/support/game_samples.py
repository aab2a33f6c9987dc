"""Each registered game's test samples, in one place: the positions, moves, records and figures
the generic test modules try every game with. A game joins those tests by its entry here
(docs/architecture.md, Adding a game); tests/rules/test_registry.py fails for a registered game that
has none, and each generic test is parametrized by the registry, so it fails for it too.

Each sample is reasoned out in its game's own tests (test_<game>_rules.py and the like); the
modules that use a field are named beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from paths import DATA

from dipole_tui.games import bipod, death_stacks, dipole
from dipole_tui.games.base import AnyGame, State
from dipole_tui.records import parse_record

DATA = DATA

# What a lesson's task asks, said with the rules core: (position before, move, after) -> bool.
Judge = Callable[[Any, Any, Any], bool]


@dataclass(frozen=True)
class Threats:
    """A position with known threats (square name -> the side that can take it), a move, and the
    threats after it (test_app_threats)."""

    position: str
    before: dict[str, int]
    move: str
    after: dict[str, int]


@dataclass(frozen=True)
class Confirm:
    """A move made on the board with the keys, up to its last confirm (test_app_bursts, the
    state machine): the squares walked to, each with the key pressed there, then the square
    the cursor rests on, where Enter, Space or a click plays `move`."""

    move: str
    picks: tuple[tuple[str, str], ...]
    last: str


@dataclass(frozen=True)
class BoardSamples:
    """What the app's tests need of a game's board."""

    square: Callable[[str], tuple[str, int]]  # a square's name -> the meta data it is drawn with
    selection: str  # the board's attribute holding what is selected or marked for the next move
    confirm: Confirm
    keys: tuple[str, ...]  # the keys the board adds, pressed by the state machine
    machine_variants: tuple[str, ...]  # the variants the state machine plays


@dataclass(frozen=True)
class Puzzles:
    """A game's puzzles at least, its longest at least, and its difficulties (of 1 to 5) at
    least (test_puzzles)."""

    least: int
    longest: int
    difficulties: int


def never(move: object) -> bool:
    return False


@dataclass(frozen=True)
class Samples:
    """One game's samples, each in the game's own notation."""

    opening: tuple[str, ...]  # four moves from the default start (test_move_walk)
    middle_game: str  # where the levels have real choices to make (test_best)
    ending: tuple[str, str]  # a position one move from the end, and that move (test_ascii_screen)
    proved: str  # a position the solver proves, showing its best moves (test_best_lines)
    finished: str  # the record of a finished game, ending in a win (test_records_faults)
    threats: Threats
    # Positions random play seldom reaches, and what the bots must never choose where another
    # move is legal (test_bots_conformance).
    rare_positions: tuple[str, ...] = ()
    never_chosen: Callable[[Any], bool] = never
    # Every lesson (test_learn), in teaching order, each with what its task asks; the lessons
    # about the end of the game, each with the winner its accepted move makes; how many at least.
    lessons: Mapping[str, Judge] = field(default_factory=dict)
    lesson_ends: Mapping[str, int | None] = field(default_factory=dict)
    least_lessons: int = 0
    puzzles: Puzzles | None = None
    proves_alternatives: bool = True  # the solver proves `proved`'s other moves in its budget
    board: BoardSamples | None = None  # None: a game studied without the app


def _outcome_winner(after: State[Any]) -> int | str | None:
    outcome = after.outcome()
    return "unfinished" if outcome is None else outcome.winner


D, S, B = dipole, death_stacks, bipod
E1, D4, C3, G7 = (D.parse_square(name, 8) for name in ("e1", "d4", "c3", "g7"))

DIPOLE = Samples(
    opening=("e1-e3", "d8-c7", "e3-g5", "c7-b6"),
    middle_game="8:B:We1=3,c3=2:Bf6=1,d8=4",
    ending=("8:W:Wc3=2:Be5=2", "c3xe5"),
    proved="8:B:Wf6=2:Be7=2",  # Black wins (e7-e5)
    finished=(DATA / "sample-dipole.txt").read_text(encoding="utf-8"),
    threats=Threats(
        "8:W:Wc3=1,e1=3,g1=2:Ba3=1,b4=2,d4=2,f8=3",
        {"c3": 1, "b4": 0},
        "e1xb4",
        {"a3": 0, "c3": 1, "d4": 0},
    ),
    # one lesson per rule of issue 14's list
    lessons={
        "dipole-moving": lambda s, m, a: m.origin == E1 and m.count == 3,  # k checkers, k squares
        # forward and diagonally forward, all of a stack or its top part
        "dipole-diagonal": lambda s, m, a: (
            m.origin == D4 and m.count == 2 and not m.is_removal and m.target % 10 != D4 % 10
        ),
        "dipole-straight": lambda s, m, a: (  # straight moves need an even k
            m.origin == C3 and not m.is_removal and m.target % 10 == C3 % 10
        ),
        # merging; nothing blocks a move
        "dipole-merging": lambda s, m, a: m.target in s.stacks_of(s.to_move),
        # any direction, the enemy no taller than the part that moves
        "dipole-capturing": lambda s, m, a: m.capture,
        # off the board, choosing how many
        "dipole-removing": lambda s, m, a: m.is_removal and a.stacks_of(0).get(G7) == 1,
        "dipole-passing": lambda s, m, a: m.is_pass,
        # the end, removing your own last checker included
        "dipole-winning": lambda s, m, a: _outcome_winner(a) == 0,
        # the 10x10 board, as far up as it goes: no move reaches the last rank, 10
        "dipole-ten": lambda s, m, a: not m.is_removal and m.target // 10 == 8,
    },
    lesson_ends={"dipole-winning": 0},
    least_lessons=8,
    puzzles=Puzzles(30, 9, 5),
    board=BoardSamples(
        square=lambda name: ("square", D.parse_square(name, 8)),
        selection="selected",
        confirm=Confirm("e1-e5", (("e1", "enter"),), "e5"),
        keys=("a",),  # the analysis
        machine_variants=("8x8",),
    ),
)

# Death Stacks' puzzles and Bi-Pod's reach 5 plies: with a hundred moves a turn, one "no win
# within 7" costs the solver 840,000 nodes (six minutes) in a Death Stacks game's last positions.
DEATH_STACKS = Samples(
    opening=("a1-2-a3", "a6-2-a4", "b1-2-b3", "b6-2-b4"),
    middle_game="b,bb,b,bb,b,b/,b,b,,,/,,,bb,,/,,,,,/,r,r,r,r,/r,r,rr,rr,r,r r",
    ending=(",,,,,/,,,,,/,,,,,/,,,,,/b,,,,,/r,,,,, r", "a1-1-a2"),
    proved=",,,,,/,,,,,/,,,,,/,,rrr,,,bb/,,,,,/,,,,, r",  # Red wins in 1 (c3-3-f3)
    finished='[Game "Death Stacks"]\n[Result "1-0"]\n'
    '[Position ",,,,,/,,,,,/,,,,,/,,rrr,,,bb/,,,,,/,,,,, r"]\n\n1. c3-3-f3\n1-0\n',
    threats=Threats(
        ",,bb,,,/,,,,,/,,,,,/,,,,,bbb/,b,,,,/r,,,,,rr r",
        {"a1": 1, "f1": 1, "b2": 0, "f3": 0},
        "f1-2-f3",  # Red's f3 is too tall now: only its parts threaten, and they reach c6
        {"a1": 1, "c6": 0},
    ),
    rare_positions=("bb,b,,,,/,,,,,/,,bbrrrrr,,,/,,,,,/,,,b,,/r,r,,,rr, r",),  # a stack too tall
    lessons={
        "death-stacks-moving": lambda s, m, a: (  # part of a stack
            m.target == S.parse_square("e5") and len(a.cells[S.parse_square("c3")]) == 1
        ),
        "death-stacks-bouncing": lambda s, m, a: (
            m.origin == S.parse_square("e2")
            and m.count == len(s.cells[m.origin])
            and m.target == S.parse_square("e3")
        ),
        # restacking and capturing
        "death-stacks-capturing": lambda s, m, a: s.owner(m.target) == 1,
        "death-stacks-too-tall": lambda s, m, a: len(a.cells[S.parse_square("c3")]) == 4,
        "death-stacks-winning": lambda s, m, a: _outcome_winner(a) == 0,
        "death-stacks-repetition": lambda s, m, a: _outcome_winner(a) is None,
    },
    lesson_ends={"death-stacks-winning": 0, "death-stacks-repetition": None},
    least_lessons=5,
    puzzles=Puzzles(20, 5, 3),
    proves_alternatives=False,  # its other moves are not proved in the solver's budget
    board=BoardSamples(
        square=lambda name: ("square", S.parse_square(name)),
        selection="selected",
        confirm=Confirm("a1-2-a3", (("a1", "2"),), "a3"),  # both of a1's pieces
        keys=("1", "2", "3", "plus", "minus", "a"),
        machine_variants=("standard",),
    ),
)

# Bi-Pod after adoption with either side to move, in each variant that orders the turns
# differently: a block on k3, adopt, and (for the other side to move) h2 played by the side to
# move.
K3 = "/.....x......../............./............/..........."
BIPOD = Samples(
    opening=("h2", "j2", "l2", "n2"),
    middle_game="....o@....Q...../....xo.....O.../............../............./...x......../"
    "........... 1 2",
    # Second, to move, completes its runner chain (a position the search's moves reached)
    ending=(
        "....x@....QOOOOx/...xo........xO/..xox........./..xo........./..ox......../"
        ".x......... 2 2",
        "h6 o",
    ),
    # First, to move, loses in 2 (a position the search's moves reached from the start)
    proved="....x@....QOOOOx/...xo........xO/..xox........./..xo........./..ox......../"
    "........... 1 2",
    finished=(DATA / "sample-bipod.txt").read_text(encoding="utf-8"),
    threats=Threats(
        "....x@x..xQx..../....x....x...../" + "/".join("." * n for n in range(14, 10, -1)) + " 2 2",
        {"j2": 0, "t2": 0},  # First blocks: a stone on j2 or t2 cuts a chain
        "j2 o",
        {"t2": 0},
    ),
    rare_positions=tuple(
        f".....@....Q...../{board}{K3} {turn}"
        for board, turn in [
            ("...............", "1 1"),
            ("....o..........", "2 1"),
            ("...............", "1 2 adopter-runs"),
            ("....x..........", "2 2 adopter-runs"),
            ("...............", "1 1 multi"),
        ]
    ),
    never_chosen=lambda move: move == B.RESIGN,
    lessons={
        "bipod-blocking": lambda s, m, a: (
            m.kind == "x" and set(m.cells) <= set(B.NEIGHBOURS[B.START_CELLS["o"]])
        ),
        "bipod-adopting": lambda s, m, a: m == B.ADOPT,  # and the roles
        # the two colours and their chains
        "bipod-runner": lambda s, m, a: len(a.chains()["O"]) > len(s.chains()["O"]),
        # and the Runner's win
        "bipod-short-sides": lambda s, m, a: _outcome_winner(a) == s.runner,
        "bipod-blocker-wins": lambda s, m, a: _outcome_winner(a) == s.blocker,
        "bipod-multi": lambda s, m, a: all(
            a.stone(B.parse_cell(c)) == "x" for c in ("g3", "i3", "k3")
        ),
    },
    lesson_ends={
        "bipod-short-sides": 0,  # the Runner, First
        "bipod-blocker-wins": 1,  # the Blocker, Second
    },
    least_lessons=5,
    puzzles=Puzzles(20, 5, 3),
    board=BoardSamples(
        square=lambda name: ("cell", B.parse_cell(name)),
        selection="marked",
        confirm=Confirm("g1", (), "g1"),  # Enter places a blocking stone
        keys=("c", "a", "R", "A"),  # `a` adopts here
        # multi is left out: a turn of several stones is marked, then placed (test_app_bipod)
        machine_variants=("", "adopter-runs"),
    ),
)


class Entries(dict[str, Samples]):
    """The samples by registry key; a game without an entry is named, with where to add it."""

    def __missing__(self, key: str) -> Samples:
        raise KeyError(f"{key} has no samples: give it an entry in tests/support/game_samples.py")


SAMPLES = Entries({"dipole": DIPOLE, "death-stacks": DEATH_STACKS, "bipod": BIPOD})


def board_samples(key: str) -> BoardSamples:
    """A playable game's board samples; a clear failure for a game that has none."""
    board = SAMPLES[key].board
    assert board is not None, f"{key} has no board samples in tests/support/game_samples.py"
    return board


def check_samples(game: AnyGame, samples: Samples) -> None:
    """A game's samples are what their fields say, by its own rules: a sample gone stale fails
    here, by name, not as a puzzling failure of the test that uses it."""
    state = game.new()
    for text in samples.opening:
        state.play(game.parse_move(text, state))
    assert len(samples.opening) == 4 and state.outcome() is None, "opening: four moves, no end"
    for name in ("middle_game", "proved"):
        position = game.parse_position(getattr(samples, name))
        assert position.outcome() is None and position.legal_moves(), f"{name}: the game is over"
    position, last = samples.ending
    state = game.parse_position(position)
    assert state.outcome() is None, "ending: over already"
    state.play(game.parse_move(last, state))
    assert state.outcome() is not None, f"ending: {last} does not end the game"
    record = parse_record(samples.finished)
    assert record.game is game and record.result in ("1-0", "0-1"), "finished: no win"
    threats = samples.threats
    state = game.parse_position(threats.position)
    assert {threat.square: threat.by for threat in game.threats(state)} == threats.before
    state.play(game.parse_move(threats.move, state))
    assert {threat.square: threat.by for threat in game.threats(state)} == threats.after
    for text in samples.rare_positions:
        assert game.parse_position(text).outcome() is None, f"{text}: the game is over"
    assert set(samples.lesson_ends) <= set(samples.lessons), "an end lesson that is no lesson"
    if samples.board is not None:
        confirm = samples.board.confirm
        names = [*(name for name, _ in confirm.picks), confirm.last, *threats.before]
        assert all(samples.board.square(name) for name in [*names, *threats.after])
        start = game.new()
        assert game.format_move(game.parse_move(confirm.move, start)) == confirm.move
        assert set(samples.board.machine_variants) <= set(game.variants)
