"""The solver in the games that can be drawn, against references that use only the rules core:
Death Stacks endings of one piece a side against a retrograde analysis of every position (play
may go on for ever there, so a plain minimax never ends; a position that is neither won nor lost
by force is drawn), bigger Death Stacks positions against a plain minimax a few plies deep
(a repetition on its path is a draw), and Bi-Pod boards near the end, of each variant, against a
plain minimax to the end."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest
from toy_game import TOY

from dipole_tui.analysis import (
    Analysis,
    analyse_position,
    analysis_search,
    proof_knowledge,
    solve,
    within,
)
from dipole_tui.bots import proof
from dipole_tui.bots.score import PovScore, Score
from dipole_tui.bots.search import Knowledge
from dipole_tui.cli import main
from dipole_tui.games.base import AnyGame, GameError
from dipole_tui.games.bipod import BIPOD, BipodState
from dipole_tui.games.death_stacks import DEATH_STACKS, DeathStacksState
from dipole_tui.registry import REGISTRY

Value = tuple[str, int]  # "win", "loss" or "draw" for the side to move, and plies (0 for a draw)
FILES = "abcdef"


def ending(cells: dict[int, str], to_move: str) -> str:
    """A Death Stacks position string with `cells` (square: stack letters), the rest empty."""
    ranks = []
    for rank in reversed(range(6)):
        ranks.append(",".join(cells.get(rank * 6 + file, "") for file in range(6)))
    return f"{'/'.join(ranks)} {to_move}"


def retrograde(start: str) -> dict[str, Value]:
    """Every position reachable from `start`, by position string, and its value: lost in 0 when
    over, won in n + 1 with a move to a position lost in n (the least n), lost in n + 1 when
    every move leads to one won in n at most; what no such step reaches is drawn.
    A position is its stacks and side to move (never the solver's key), walked to by play and
    undo; the walk never enters a position twice, so no repetition ever ends one."""
    state = DEATH_STACKS.parse_position(start)
    moves: dict[str, list[str]] = {}
    value: dict[str, Value] = {}
    named: dict[tuple[object, ...], str] = {}

    def here() -> str:
        board = (*state.cells, state.to_move)
        text = named.get(board)
        if text is None:
            text = named[board] = state.position()
        return text

    def enter() -> str:
        text = here()
        moves[text] = []
        if state.outcome() is not None:
            value[text] = ("loss", 0)
        return text

    path = [(enter(), iter(state.legal_moves()))]
    while path:
        text, untried = path[-1]
        move = next(untried, None)
        if move is None:
            path.pop()
            if path:
                state.undo()
            continue
        state.play(move)
        other = here()
        moves[text].append(other)
        if other in moves:
            state.undo()
        else:
            path.append((enter(), iter(state.legal_moves())))
    parents: dict[str, set[str]] = {}
    for text, after in moves.items():
        for other in after:
            parents.setdefault(other, set()).add(text)
    plies, found = 0, dict(value)
    while True:
        plies += 1
        # Only a position with a move to one valued last round can be valued this round.
        candidates = {text for other in found for text in parents.get(other, ())}
        found = {}
        for text in candidates:
            after = moves[text]
            if text in value or not after:
                continue
            known = [value.get(other) for other in after]
            if ("loss", plies - 1) in known:
                found[text] = ("win", plies)
            elif all(v is not None and v[0] == "win" for v in known):
                found[text] = ("loss", plies)
        if not found:
            break
        value.update(found)
    return {text: value.get(text, ("draw", 0)) for text in moves}


@pytest.fixture(scope="module")
def one_a_side() -> dict[str, Value]:
    """Every position of one Red and one Black piece, from a retrograde analysis."""
    return retrograde(ending({0: "r", 35: "b"}, "r")) | retrograde(ending({0: "r", 35: "b"}, "b"))


@pytest.mark.parametrize("retrograde_after", [proof.RETROGRADE_AFTER, 1])
def test_one_piece_a_side_agrees_with_the_retrograde_analysis(
    one_a_side: dict[str, Value], retrograde_after: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the solver runs, and with its own retrograde analysis deciding at once (after d = 1)
    rather than only the draws."""
    monkeypatch.setattr(proof, "RETROGRADE_AFTER", retrograde_after)
    texts = sorted(t for t in one_a_side if DEATH_STACKS.parse_position(t).outcome() is None)
    rng = random.Random(3)
    chosen = rng.sample([t for t in texts if one_a_side[t][0] != "draw"], 100)
    chosen += rng.sample([t for t in texts if one_a_side[t][0] == "draw"], 12)
    for text in chosen:
        state = DEATH_STACKS.parse_position(text)
        solution = solve(DEATH_STACKS, state)
        assert (solution.result, solution.plies) == one_a_side[text], text
        assert solution.move is not None
        state.play(solution.move)  # the move keeps the value
        reply = one_a_side[state.position()]
        expected = {"win": "loss", "loss": "win", "draw": "draw"}[solution.result or ""]
        assert reply[0] == expected and (expected == "draw" or reply[1] + 1 == solution.plies)


def test_a_drawn_ending_is_a_draw_and_neither_a_win_nor_a_loss_within(
    one_a_side: dict[str, Value],
) -> None:
    # Two lone pieces far apart: whoever comes next to the other is taken, so neither does, and
    # play goes on until a position comes a third time: the only way not to lose.
    text = ending({0: "r", 35: "b"}, "r")
    assert one_a_side[text] == ("draw", 0)
    state = DEATH_STACKS.parse_position(text)
    solution = solve(DEATH_STACKS, state)
    assert solution.result == "draw" and solution.plies == 0 and solution.move is not None
    for result in ("win", "loss"):
        assert within(DEATH_STACKS, state, result, 40).holds is False


def test_a_win_stays_a_win_after_a_repetition_in_the_game() -> None:
    """Red takes c3 at once; played out and back first, so the position comes a second time
    and the game's history holds it, the win is the same."""
    state = DEATH_STACKS.parse_position(ending({0: "rr", 14: "b"}, "r"))
    for move in ("a1-1-a2", "c3-1-c4", "a2-1-a1", "c4-1-c3"):
        state.play(DEATH_STACKS.parse_move(move, state))
    solution = solve(DEATH_STACKS, state)
    assert (solution.result, solution.plies) == ("win", 1)
    assert solution.move is not None and DEATH_STACKS.format_move(solution.move) == "a1-2-c3"


def reference_minimax(state: DeathStacksState, depth: int, path: set[int]) -> Value | None:
    """A result forced within `depth` plies by plain minimax (a repetition on the path is a
    draw), or None when neither side forces one that soon."""
    outcome = state.outcome()
    if outcome is not None:
        return ("loss", 0) if outcome.winner is not None else ("draw", 0)
    if state.key in path:
        return ("draw", 0)
    if depth == 0:
        return None
    path.add(state.key)
    best: Value | None = ("loss", 0)
    for move in state.legal_moves():
        state.play(move)
        value = reference_minimax(state, depth - 1, path)
        state.undo()
        mine: Value | None = None
        if value is not None and value[0] != "draw":
            mine = ("win" if value[0] == "loss" else "loss", value[1] + 1)
        if mine is not None and mine[0] == "win":
            if best is None or best[0] != "win" or mine[1] < best[1]:
                best = mine
        elif mine is None or best is None or best[0] != "win":
            if mine is None or best is None:
                best = None if best is None or best[0] != "win" else best
            elif best[0] == "loss" and mine[1] > best[1]:
                best = mine
    path.discard(state.key)
    return best


def random_ending(rng: random.Random) -> DeathStacksState:
    """Two to four pieces a side in one to three stacks each, on random squares."""
    squares = rng.sample(range(36), 6)
    cells = {}
    for side in "rb":
        for _ in range(rng.randint(1, 2)):
            pieces = [rng.choice("rb") for _ in range(rng.randint(0, 2))] + [side]
            cells[squares.pop()] = "".join(pieces)
    return DEATH_STACKS.parse_position(ending(cells, rng.choice("rb")))


def test_death_stacks_tells_a_win_or_a_hold_at_once_as_playing_each_move_does() -> None:
    """The solver's shortcut where only a win (or a hold) this ply will do: the first move
    that takes the last stack, told from the board, is the one that playing them all finds."""
    knowledge = proof_knowledge(DEATH_STACKS)
    rng = random.Random(5)
    wins = 0
    for _ in range(300):
        state = random_ending(rng)
        if state.outcome() is not None:
            continue
        moves = state.legal_moves()
        state.play(rng.choice(moves))  # a position with a past, as the search meets them
        if state.outcome() is not None:
            continue
        moves = state.legal_moves()
        found = knowledge.first_win(state, moves)
        assert found == Knowledge.first_win(knowledge, state, moves), state.position()
        assert knowledge.first_hold(state, moves) == Knowledge.first_hold(knowledge, state, moves)
        wins += found >= 0
    assert wins > 20  # the endings take last stacks often enough to tell


@pytest.mark.parametrize("variant", ["", "adopter-runs"])
def test_bipod_tells_a_win_at_once_as_playing_each_move_does(variant: str) -> None:
    """The same shortcut in Bi-Pod, at every turn of games that adopt early, a careless Blocker
    against a Runner that heads home: the first stone that brings both chains home, or cuts
    one, or adopting into a won game, is the one that playing every move finds."""
    knowledge = proof_knowledge(BIPOD)
    rng = random.Random(f"at once:{variant}")
    wins: set[str] = set()  # whose turns had a win at once: "runner", "blocker"
    for _ in range(30):
        state = BIPOD.new(variant)
        while state.outcome() is None:
            moves = state.legal_moves()
            found = knowledge.first_win(state, moves)
            assert found == Knowledge.first_win(knowledge, state, moves), state.position()
            if found >= 0 and state.runner is not None:
                wins.add("runner" if state.to_move == state.runner else "blocker")
            if state.runner is None:  # adopting early
                state.play(moves[-1] if rng.random() < 0.1 else rng.choice(moves))
            elif state.to_move == state.runner:  # the Runner as its knowledge leads it
                state.play(knowledge.candidates(state)[0])
            else:  # a careless Blocker
                state.play(rng.choice(moves))
    assert wins == {"runner", "blocker"}


def test_bigger_endings_agree_with_a_shallow_minimax_on_what_is_forced_soon() -> None:
    rng = random.Random(8)
    checked = 0
    while checked < 150:
        state = random_ending(rng)
        if state.outcome() is not None:
            continue
        value = reference_minimax(state, 3, set())
        checked += 1
        for result in ("win", "loss"):
            for plies in (1, 2, 3):
                holds = value is not None and value[0] == result and value[1] <= plies
                verdict = within(DEATH_STACKS, state, result, plies)
                assert verdict.holds is holds, (state.position(), result, plies, value)


def bipod_minimax(state: BipodState, budget: list[int]) -> Value:
    """Every line to the end: a win before a draw before a loss, a shorter win, a longer loss."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    outcome = state.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return ("draw", 0)
        return ("win" if outcome.winner == state.to_move else "loss", 0)
    values = []
    for move in state.legal_moves():
        state.play(move)
        result, plies = bipod_minimax(state, budget)
        state.undo()
        turned = {"win": "loss", "loss": "win", "draw": "draw"}[result]
        values.append((turned, 0 if turned == "draw" else plies + 1))
    return max(values, key=goodness)


def goodness(value: Value) -> tuple[int, int]:
    result, plies = value
    return {"win": (2, -plies), "draw": (1, 0), "loss": (0, plies)}[result]


def near_ends(rng: random.Random, variant: str) -> Iterator[BipodState]:
    """Positions of random Bi-Pod games, from the last ply back; every other game adopts only
    when nothing else is legal, so that boards fill (a draw before adoption). The games are
    played a stone a move, and their positions read again in `variant` (a multi move's list
    is long, so a multi game would be slow to play at random)."""
    games = 0
    single = variant.replace("multi", "").strip(",")
    while True:
        state = BIPOD.new(single)
        games += 1
        while state.outcome() is None:
            moves = state.legal_moves()
            quiet = [m for m in moves if BIPOD.format_move(m) != "adopt"]
            state.play(rng.choice(quiet if quiet and (games % 2 or rng.random() < 0.9) else moves))
        for _ in range(min(state.plies, 8)):
            state.undo()
            text = state.position().removesuffix(f" {single}") if single else state.position()
            yield BIPOD.parse_position(f"{text} {variant}" if variant else text)


@pytest.mark.parametrize(
    ("variant", "usual"),
    [("", "win"), ("multi", "win"), ("adopter-runs", "draw"), ("multi,adopter-runs", "draw")],
)
def test_bipod_near_the_end_agrees_with_minimax(variant: str, usual: str) -> None:
    rng = random.Random(f"bipod:{variant}")
    seen: dict[str, int] = {"win": 0, "loss": 0, "draw": 0}
    positions = near_ends(rng, variant)
    while sum(seen.values()) < 60:
        state = next(positions)
        try:
            value = bipod_minimax(state, [3000])
        except OverflowError:
            continue
        solution = solve(BIPOD, state)
        assert (solution.result, solution.plies) == value, state.position()
        assert solution.move is not None
        state.play(solution.move)
        reply = bipod_minimax(state, [10**6])
        state.undo()
        turned = {"win": "loss", "loss": "win", "draw": "draw"}[value[0]]
        assert reply[0] == turned and (turned == "draw" or reply[1] + 1 == value[1])
        if value[0] == "draw":
            assert within(BIPOD, state, "win", 40).holds is False
            assert within(BIPOD, state, "loss", 40).holds is False
        seen[value[0]] += 1
    assert seen[usual]  # a full board is won by adopting in time, unless the adopter runs


def test_a_game_that_may_never_end_is_refused_in_one_line() -> None:
    with pytest.raises(GameError, match=r"^the solver solves Dipole, Death Stacks, Bi-Pod only"):
        proof_knowledge(TOY)


def test_the_command_line_says_draw_and_win(capsys: pytest.CaptureFixture[str]) -> None:
    drawn = ending({0: "r", 35: "b"}, "r")
    won = ending({7: "r", 14: "b"}, "r")
    assert main(["solve", "--game", "death-stacks", drawn, won]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith("draw: ") and lines[1] == "win in 1 plies: b2-1-c3", out
    assert err == ""


def test_the_retrograde_analysis_keeps_within_the_memory_bound() -> None:
    """What the table leaves of 3 MB (its 2 MB start) allows 1,024 positions, fewer than the
    2,592 this ending reaches: the draw stays unknown; 8 MB leave room for them."""
    state = DEATH_STACKS.parse_position(ending({0: "r", 35: "b"}, "r"))
    assert solve(DEATH_STACKS, state, max_nodes=60_000, memory=3 << 20).result is None
    assert solve(DEATH_STACKS, state, memory=8 << 20).result == "draw"


def test_solvable_asks_the_protocol() -> None:
    games: list[AnyGame] = [DEATH_STACKS, BIPOD]
    assert all(game.solvable for game in games) and DEATH_STACKS.repeats and not BIPOD.repeats


def test_a_draw_is_kept_in_the_table_as_zero_at_any_ply() -> None:
    """A draw counts no plies: the same 0 read back wherever the position is met again."""
    assert proof._to_table(0, 7) == 0 and proof._from_table(0, 3) == 0
    assert proof._from_table(proof._to_table(proof.WIN - 9, 4), 2) == proof.WIN - 7


def test_the_analysis_proves_a_draw_and_a_win_and_says_them() -> None:
    """Death Stacks as Dipole: a proved result replaces the evaluation, a draw in words too."""
    unit = REGISTRY["death-stacks"].unit
    for text, said in (
        (ending({0: "r", 35: "b"}, "r"), "Drawn with best play"),
        (ending({7: "r", 14: "b"}, "b"), "Black wins in 1 ply"),
    ):
        found: list[Analysis] = []
        state = DEATH_STACKS.parse_position(text)
        search = analysis_search("death-stacks")
        analyse_position(DEATH_STACKS, state, search, found.append, threading.Event(), 20.0)
        assert found and found[-1].depth == 0, text
        last = found[-1]
        words = last.score.in_words(DEATH_STACKS.side_names, unit, True)
        assert words == said
    assert PovScore(Score(), 0).in_words(("Red", "Black"), unit) == "Even, 0.0"  # not proved
