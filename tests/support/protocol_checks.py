"""What holds of every position of every game, by the protocol of `dipole_tui/games/base.py`:
the checks of the conformance suite (test_conformance.py), which each game's own property tests
also run on the positions only they can make up (random boards, with a reference's moves)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection
from typing import Any, NamedTuple

from dipole_tui.games.base import AnyGame, Figures, GameError, Outcome, State, Termination
from dipole_tui.records import RESULTS

WANDER = 150  # plies of purely random play at most, before the player seeks repetitions
LOOK_AHEAD = 300  # the most moves the player looks one ply past (Bi-Pod multi has 80 000)
SAMPLE = 40  # moves per position whose notation and is_legal are checked (all when fewer)
FOREIGN = 12  # moves legal elsewhere checked not to be legal here, per position


class Player:
    """Uniformly random moves, then, past a random ply, moves back to the position seen most
    often (when there is one, and few enough moves to look at each). Random play alone never
    ends a game of Death Stacks, which a threefold repetition can end: this way every game
    ends, and the end of each is checked, not just the way to it."""

    def __init__(self, state: State[Any], rng: random.Random) -> None:
        self.rng = rng
        self.seen = Counter([state.position()])
        self.wander = rng.randrange(WANDER)

    def choose(self, state: State[Any], legal: list[Any] | None = None) -> Any:
        """`legal`: the list of legal moves, when the caller has it."""
        wandering = len(state.moves_played) < self.wander
        if legal is None and (wandering or state.count_moves() > LOOK_AHEAD):
            return state.random_move(self.rng)  # the move `choice` draws, with no list built
        legal = state.legal_moves() if legal is None else legal
        if wandering or len(legal) > LOOK_AHEAD:
            return self.rng.choice(legal)
        most, back = 0, []
        for move in legal:
            state.play(move)
            seen = self.seen[state.position()]
            state.undo()
            if seen > most:
                most, back = seen, [move]
            elif seen == most and seen:
                back.append(move)
        return self.rng.choice(back or legal)

    def play(self, state: State[Any], legal: list[Any] | None = None) -> None:
        """Play a move; `legal` is the list of legal moves, when the caller has it already."""
        state.play(self.choose(state, legal))
        self.seen[state.position()] += 1


def sample(rng: random.Random, moves: list[Any], size: int = SAMPLE) -> list[Any]:
    return moves if len(moves) <= size else rng.sample(moves, size)


def check_position(
    game: AnyGame,
    state: State[Any],
    rng: random.Random,
    legal: list[Any] | None = None,
    elsewhere: Collection[Any] = (),
) -> None:
    """What holds of any position, however it was reached. `legal` is its list of legal moves
    when the caller has it already; `elsewhere`, moves legal in other positions of the game."""
    if legal is None:
        legal = state.legal_moves()
    outcome = state.outcome()
    assert (outcome is None) == bool(legal), "legal moves are empty exactly when the game is over"
    assert state.count_moves() == len(legal)
    distinct = set(legal)
    assert len(distinct) == len(legal), "no move is listed twice"
    if outcome is not None:
        assert outcome.winner in (0, 1, None) and outcome.reason
        assert isinstance(outcome.termination, Termination)
        assert outcome.result() in RESULTS
    if any(game.is_pass(move) for move in legal):
        assert len(legal) == 1, "a pass only when there is no other move"
    for move in sample(rng, legal):
        assert state.is_legal(move)
        text = game.format_move(move)
        assert game.parse_move(text, state) == move, f"{text} reads back as another move"
    figures = game.figures(state)
    assert len(figures.rows) == 2, "one row of figures per side"
    assert all(len(row) == len(figures.headings) for row in figures.rows)
    assert state.diagram()
    check_threats(game, state)
    check_position_string(game, state, legal)
    check_foreign_moves(game, state, rng, distinct, [m for m in elsewhere if m not in distinct])


def check_threats(game: AnyGame, state: State[Any]) -> None:
    """The threat overlay's answer: each square once, each by a side, none once the game is
    over, and the state asked is left as it was (what each game's threats are is checked
    against its reference in its own property tests)."""
    before = (state.position(), state.key, state.to_move, state.plies)
    threats = game.threats(state)
    assert (state.position(), state.key, state.to_move, state.plies) == before
    assert all(threat.by in (0, 1) and threat.square for threat in threats)
    assert len({threat.square for threat in threats}) == len(threats), "a square named twice"
    if state.outcome() is not None:
        assert threats == [], "nothing is threatened in a finished game"


def check_position_string(game: AnyGame, state: State[Any], legal: list[Any]) -> None:
    """The position string reads back as an equal state, with the same key and moves. A state
    read from it has no history, so only a history that ended the game (a threefold
    repetition) may set the two apart, and then the one read back plays on."""
    text = state.position()
    again = game.parse_position(text)
    assert again.position() == text
    assert again == state and hash(again) == hash(state)
    assert again.key == state.key, "the key kept move by move is the key of the position"
    assert again.to_move == state.to_move and again.variant == state.variant
    assert again.moves_played == []
    if again.outcome() == state.outcome():
        assert again.legal_moves() == legal
    else:
        assert state.outcome() is not None and again.outcome() is None


def check_foreign_moves(
    game: AnyGame, state: State[Any], rng: random.Random, legal: set[Any], foreign: list[Any]
) -> None:
    """Moves that are not legal here are not: `is_legal` says so, and their text is refused or
    names another move that is (Dipole's `c7-d6` is a capture where d6 holds an enemy stack, a
    move apart from the `c7-d6` that was not)."""
    for move in sample(rng, foreign, FOREIGN):
        text = game.format_move(move)
        assert not state.is_legal(move), f"{text} is not in the list"
        try:
            read = game.parse_move(text, state)
        except GameError:
            continue
        assert read in legal, f"{text} reads as a move that is not legal"


class Snapshot(NamedTuple):
    """Everything a caller can see of a state."""

    position: str
    key: int
    to_move: int
    variant: str
    outcome: Outcome | None
    moves_played: list[Any]
    legal: list[Any]
    counted: int
    figures: Figures
    diagram: str


def snapshot(game: AnyGame, state: State[Any]) -> Snapshot:
    return Snapshot(
        state.position(),
        state.key,
        state.to_move,
        state.variant,
        state.outcome(),
        state.moves_played,
        state.legal_moves(),
        state.count_moves(),
        game.figures(state),
        state.diagram(),
    )
