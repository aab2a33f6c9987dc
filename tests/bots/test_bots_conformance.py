"""The bots' protocol, checked the same way for every level of every registered game and of the
toy of `toy_game.py`: each plays a legal move and leaves the state it is shown as it was, and a
seed and a depth make it deterministic; and each ladder's knowledge keeps the promises the
search relies on. What a game's knowledge knows of its own game (its evaluation's values and
symmetries, its candidates, its levels' choices) stays in that game's bots tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from game_samples import SAMPLES
from protocol_checks import snapshot
from toy_game import ENTRY as TOY_ENTRY
from toy_game import TOY_SAMPLES

from dipole_tui.bots import Budget, RandomBot
from dipole_tui.bots.search import WIN, Knowledge, noisy_among
from dipole_tui.games.base import State
from dipole_tui.registry import REGISTRY, Entry, create_bot

ENTRIES = [*REGISTRY.values(), TOY_ENTRY]
# Every level and baseline of every game, `random` included.
BOTS = [
    pytest.param(entry, name, id=f"{entry.game.key}-{name}")
    for entry in ENTRIES
    for name in [RandomBot.name, *entry.ladder]
]
# Every knowledge a ladder plays with, once per game.
KNOWLEDGES = [
    pytest.param(entry, make, id=f"{entry.game.key}-{make.__name__}")
    for entry in ENTRIES
    for make in dict.fromkeys(style.knowledge for style in entry.ladder.values())
]
RANDOM_PLIES = (8, 24)  # where random play is stopped, per variant, to take a position
CROWDED = 10_000  # moves at a variant's start too many to build at each ply of random play
BUDGET = Budget(movetime=0.05, depth=3)
DEPTH_2 = Budget(movetime=None, depth=2)  # no clock: the same seed must give the same game
GAME_PLIES = 12  # plies of each game the determinism test plays


@cache
def positions(key: str) -> tuple[str, ...]:
    """Each variant's start, positions of seeded random play (only the start of a variant with
    more than CROWDED moves there: Bi-Pod multi's 82,000), and the positions random play seldom
    reaches (its samples' `rare_positions`: a Death Stacks stack too tall, only it may move, by
    three or more; Bi-Pod after adoption)."""
    entry = TOY_ENTRY if key == TOY_ENTRY.game.key else REGISTRY[key]
    game, rng = entry.game, random.Random(key)
    found: list[str] = []
    for variant in game.variants:
        state = game.new(variant)
        found.append(state.position())
        if state.count_moves() > CROWDED:
            continue
        for plies in RANDOM_PLIES:
            state = game.new(variant)
            while state.plies < plies and state.outcome() is None:
                state.play(rng.choice(state.legal_moves()))
            if state.outcome() is None:
                found.append(state.position())
    return (*found, *SAMPLES[key].rare_positions)


def states(entry: Entry) -> list[State[Any]]:
    return [entry.game.parse_position(text) for text in positions(entry.game.key)]


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy is registered for these tests only, so `create_bot` finds its ladder, with its
    samples."""
    monkeypatch.setitem(REGISTRY, TOY_ENTRY.game.key, TOY_ENTRY)
    monkeypatch.setitem(SAMPLES, TOY_ENTRY.game.key, TOY_SAMPLES)


@pytest.mark.parametrize(("entry", "name"), BOTS)
def test_every_level_plays_a_legal_move_and_leaves_the_state_alone(entry: Entry, name: str) -> None:
    game = entry.game
    for state in states(entry):
        before = snapshot(game, state)
        move = create_bot(name, game.key, seed=3).choose(state, BUDGET)
        assert move in state.legal_moves(), f"{game.format_move(move)} in {state.position()}"
        # what the bots must never choose where another move is legal: Bi-Pod's resignation
        assert not SAMPLES[game.key].never_chosen(move), (
            f"{name} chose {game.format_move(move)} in {state.position()}"
        )
        assert snapshot(game, state) == before


@pytest.mark.parametrize(("entry", "name"), BOTS)
def test_a_seed_and_a_depth_make_a_level_deterministic(entry: Entry, name: str) -> None:
    game = entry.game

    def play(seed: int) -> list[str]:
        state = game.new()
        bots = [create_bot(name, game.key, seed), create_bot(name, game.key, seed + 1)]
        while state.outcome() is None and state.plies < GAME_PLIES:
            state.play(bots[state.to_move].choose(state, DEPTH_2))
        return [game.format_move(move) for move in state.moves_played]

    assert play(7) == play(7)


@pytest.mark.parametrize(("entry", "make"), KNOWLEDGES)
def test_the_knowledge_keeps_the_searchs_promises(
    entry: Entry, make: Callable[[], Knowledge[Any, Any]]
) -> None:
    """It reads the state without changing it, keys positions by their Zobrist key, offers
    legal candidates while the game goes on, finds the noisy moves among them, evaluates
    below any proved result, and where it bounds a move's gain, the bound holds."""
    game = entry.game
    knowledge = make()
    for state in states(entry):
        before = snapshot(game, state)
        value = knowledge.evaluate(state)
        assert abs(value) < WIN - 1000 and knowledge.evaluate(state) == value
        assert knowledge.key(state) == state.key
        candidates = knowledge.candidates(state)
        assert candidates and len(set(candidates)) == len(candidates)
        assert all(state.is_legal(move) for move in candidates)
        noisy = knowledge.noisy_moves(state)
        assert noisy == noisy_among(knowledge, state)
        quiet_gain = knowledge.quiet_gain(state)
        if quiet_gain is not None:
            for move in candidates:
                gain = knowledge.gain(state, move)
                if move not in noisy:
                    assert gain <= quiet_gain, game.format_move(move)
                state.play(move)
                outcome = state.outcome()
                if outcome is None:
                    assert -knowledge.evaluate(state) <= value + gain, game.format_move(move)
                elif outcome.winner != state.to_move:  # the mover won: no bound holds
                    assert gain >= WIN, game.format_move(move)
                state.undo()
        assert snapshot(game, state) == before
