"""The game protocol (`dipole_tui/games/base.py`), checked the same way for every registered game
and for the toy of `toy_game.py`, variant by variant.

What the generic layers (bots, records, the command line, the app) take for granted of any game
is asserted here once: random games end, `legal_moves` is empty exactly when there is an
outcome, undo restores everything, copies are independent, moves, positions and records read
back as they were written, `is_legal` and `count_moves` agree with the list, and the figures
have the shape the side panel draws. What is particular to one game (its rules, a reference
implementation, perft tables, its Zobrist details) stays in that game's own test files; the
registry's board, help page and ladder are test_registry.py's.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_checks import Player, Snapshot, check_position, sample, snapshot
from toy_game import ENTRY as TOY_ENTRY

from dipole_tui.games.base import AnyGame, GameError
from dipole_tui.records import format_record, parse_record
from dipole_tui.registry import REGISTRY, Entry, game_named

ENTRIES = [*REGISTRY.values(), TOY_ENTRY]
CASES = [
    pytest.param(entry.game, variant, id=f"{entry.game.key}-{variant or 'default'}")
    for entry in ENTRIES
    for variant in entry.game.variants
]
MAX_PLIES = 2000  # far beyond any game of the Player; reaching it means a game that never ends
EXAMPLES = 8  # random games per variant and property
MANY = 10_000  # moves at the start of a variant too costly for more than one game a property
COPY_AFTER = 60  # plies at most before a copy is taken


def run(check: Callable[[AnyGame, str, random.Random], None], game: AnyGame, variant: str) -> None:
    """Hypothesis runs `check` on EXAMPLES random games of a variant, or on one where the
    variant's start has more than MANY moves (Bi-Pod's multi: a list of tens of thousands of
    moves at each position). Each game's generator is seeded by Hypothesis: a game draws
    thousands of numbers, too many for Hypothesis to draw one by one (its health check says
    so), and a game would shrink no better for it."""
    examples = EXAMPLES if game.new(variant).count_moves() <= MANY else 1
    test = given(rng=st.randoms(use_true_random=True))(check)
    settings(max_examples=examples, deadline=None)(test)(game, variant)


def random_game_keeps_the_protocol(game: AnyGame, variant: str, rng: random.Random) -> None:
    state = game.new(variant)
    assert state.variant == variant and state.moves_played == []
    player = Player(state, rng)
    earlier: list[Any] = []  # moves legal at some position before
    keys: dict[int, str] = {}
    while True:
        legal = state.legal_moves()
        check_position(game, state, rng, legal, earlier)
        assert keys.setdefault(state.key, state.position()) == state.position(), "a key clash"
        if state.outcome() is not None:
            break
        assert len(state.moves_played) < MAX_PLIES, "the game does not end"
        earlier.extend(sample(rng, legal, 4))
        player.play(state, legal)
    assert state.legal_moves() == [] and state.count_moves() == 0
    assert len(set(keys.values())) == len(keys), "a position with two keys"


def undo_restores_everything(game: AnyGame, variant: str, rng: random.Random) -> None:
    """A whole game undone move by move, so every number of moves is undone on the way back;
    then played again, so that what undo restores out of sight (the counts of positions seen,
    for a repetition) is checked by what it decides."""
    state = game.new(variant)
    player = Player(state, rng)
    snapshots: list[Snapshot] = []
    while state.outcome() is None:
        snapshots.append(snapshot(game, state))
        player.play(state, snapshots[-1].legal)
    snapshots.append(snapshot(game, state))
    moves = state.moves_played
    for seen in reversed(snapshots[:-1]):
        played = state.moves_played[-1]
        assert state.undo() == played
        assert snapshot(game, state) == seen
    assert state.moves_played == []
    for move, seen in zip(moves, snapshots[1:], strict=True):
        state.play(move)
        assert snapshot(game, state) == seen


def a_copy_is_equal_and_independent(game: AnyGame, variant: str, rng: random.Random) -> None:
    state = game.new(variant)
    player = Player(state, rng)
    plies = rng.randrange(COPY_AFTER)
    while len(state.moves_played) < plies and state.outcome() is None:
        player.play(state)
    before = snapshot(game, state)
    twin = state.copy()
    assert twin is not state and twin == state and hash(twin) == hash(state)
    assert snapshot(game, twin) == before
    if twin.outcome() is None:  # playing on the copy leaves the original
        twin.play(rng.choice(before.legal))
        assert twin != state and snapshot(game, state) == before
    while twin.moves_played:  # the copy has the history too, and undoes it on its own
        twin.undo()
    assert twin.position() == game.new(variant).position()
    assert snapshot(game, state) == before
    if state.outcome() is None:  # and the other way round
        again = state.copy()
        state.play(rng.choice(before.legal))
        assert snapshot(game, again) == before


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_random_games_end_and_every_position_keeps_the_protocol(
    game: AnyGame, variant: str
) -> None:
    run(random_game_keeps_the_protocol, game, variant)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_undo_restores_everything(game: AnyGame, variant: str) -> None:
    run(undo_restores_everything, game, variant)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_a_copy_is_equal_and_independent(game: AnyGame, variant: str) -> None:
    run(a_copy_is_equal_and_independent, game, variant)


@pytest.fixture(params=[pytest.param(entry, id=entry.game.key) for entry in ENTRIES])
def entry(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Entry:
    """A game's entry, registered for the test (the toy is only ever registered this way)."""
    chosen: Entry = request.param
    monkeypatch.setitem(REGISTRY, chosen.game.key, chosen)
    return chosen


def test_a_game_is_found_by_its_key_and_named_apart_from_the_others(entry: Entry) -> None:
    """A record names its game by name or key, in any case: no two games may share one."""
    game = entry.game
    assert game_named(game.key) is game
    others = [other.game for other in REGISTRY.values() if other is not entry]
    taken = {name.lower() for other in others for name in (other.key, other.name)}
    assert game.key.lower() not in taken and game.name.lower() not in taken
    first, second = game.side_names
    assert first and second and first != second
    assert game.variants and len(set(game.variants)) == len(game.variants)
    assert game.new() == game.new(game.variants[0])
    with pytest.raises(GameError):
        game.new("no such variant")
    re.compile(game.line_comment)


def test_records_read_back_as_the_games_they_were_written_from(entry: Entry) -> None:
    """A whole game, and one begun from a set position, through `format_record` and back: the
    game's notation, its `split_moves` and its `line_comment` agree with each other."""
    game = entry.game
    for seed, variant in enumerate(game.variants):
        state = game.new(variant)
        player = Player(state, random.Random(seed))
        while state.outcome() is None:
            player.play(state)
        moves = state.moves_played
        middle = game.new(variant)
        for move in moves[: len(moves) // 2]:
            middle.play(move)
        later = game.parse_position(middle.position())  # a game from a set position
        for move in moves[len(moves) // 2 :][:6]:
            later.play(move)
        for played in (state, later):
            record = parse_record(format_record(game, played, {"White": "w", "Black": "b"}))
            assert record.game is game
            assert record.state.moves_played == played.moves_played
            assert record.state.position() == played.position()
            outcome = played.outcome()
            assert record.result == ("*" if outcome is None else outcome.result())
