"""What a level thinks of a position, said line by line for the `best` command, and a score said
in words for people (the app's analysis).

One line per depth the search completes, `depth D score S nodes N time T pv M1 M2 ...`, in the
spirit of UCI's `info`, then `bestmove M`. S is from the side to move's view, in the unit its
game registers (Dipole's checkers), or `win N` / `loss N` for a result the search proved N
plies away. The level plays as it does in the app: the same bot, made the same way, with the
same budget and seed, so the move said is the move it would play.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from .bots import Budget
from .bots.levels import SearchBot
from .bots.search import ScoreUnit, Search, SearchResult, plies_to_end
from .games.base import GameError, M, State
from .registry import REGISTRY, create_bot


def format_score(score: int, unit: ScoreUnit) -> str:
    """`1.5` (units of the game, one decimal), or `win 3` / `loss 4` for a proved result."""
    plies = plies_to_end(score)
    if plies is not None:
        return f"{'win' if score > 0 else 'loss'} {plies}"
    text = f"{score / unit.size:.1f}"
    return "0.0" if text == "-0.0" else text


# A score in words, from the first side's view, by its size in the game's units (README):
# below EVEN it is even, below SLIGHTLY a side is slightly better, below BETTER better, else
# winning.
EVEN = 0.5
SLIGHTLY = 1.5
BETTER = 3.0
SCALE = 2.5  # units: winning chances tanh(s / (2 * SCALE)), about a fifth per unit when even


def chances(score: int, unit: ScoreUnit) -> float:
    """A score as winning chances, from -1 (lost) to 1 (won; a proved win), as lichess turns an
    engine's score into them: half a unit matters in an even game, little once it is won. The
    evaluation bar shows them, and `analysis` judges moves by them."""
    if plies_to_end(score) is not None:
        return 1.0 if score > 0 else -1.0
    return math.tanh(score / unit.size / (2 * SCALE))


def score_in_words(
    score: int, to_move: int, side_names: tuple[str, str], unit: ScoreUnit, proved: bool = False
) -> str:
    """The side to move's `score` said from the first side's view, as lichess says a chess
    evaluation: "White is better, +2.1", "Black is winning, -5.0", "Even, 0.0", or for a proved
    result "White wins in 7 plies" (plies to the end, passes included, as `solve` counts), or
    "Drawn with best play" (the solver `proved` that neither side can force a win)."""
    first = score if to_move == 0 else -score
    plies = plies_to_end(first)
    if plies is not None:
        winner = side_names[0 if first > 0 else 1]
        return f"{winner} wins in {plies} {'ply' if plies == 1 else 'plies'}"
    if proved:
        return "Drawn with best play"
    number = f"{first / unit.size:+.1f}"
    size = abs(float(number))  # the bands go by the number shown
    if size < EVEN:
        return "Even, 0.0" if size == 0 else f"Even, {number}"
    leader = side_names[0 if first > 0 else 1]
    band = "slightly better" if size < SLIGHTLY else "better" if size < BETTER else "winning"
    return f"{leader} is {band}, {number}"


def first_side_share(score: int, to_move: int, unit: ScoreUnit) -> float:
    """The first side's share of the evaluation bar, 0 to 1, for the side to move's `score`:
    half when even, all of it for a proved win."""
    return 0.5 + 0.5 * chances(score if to_move == 0 else -score, unit)


def think(
    game_key: str,
    state: State[M],
    level: str,
    budget: Budget,
    seed: int | None,
    say: Callable[[str], None],
) -> M:
    """The move `level` plays in `state` (a position where the game goes on), saying its lines
    as they come. A level that deepens says each depth it completes, none if the move is the
    only one or the time runs out before depth 1 is done; a level that looks a fixed depth and
    picks among the nearly best moves (easy, medium) says one line: that depth and the score of
    the move it chose, which may trail the best."""
    entry = REGISTRY[game_key]
    game = entry.game
    try:
        bot = create_bot(level, game_key, seed)
    except ValueError as error:  # a level the game has no style for
        raise GameError(str(error)) from None
    if not isinstance(bot, SearchBot):
        raise GameError(f"the {level} level weighs no moves, so it has no score to give")
    search: Search[Any, M] = bot.search

    def line(result: SearchResult[M]) -> str:
        pv = search.principal_variation(state, result.move, result.depth)
        return (
            f"depth {result.depth} score {format_score(result.score, entry.unit)} "
            f"nodes {result.nodes} time {result.seconds:.3f} "
            f"pv {' '.join(game.format_move(move) for move in pv)}"
        )

    depths: list[int] = []

    def completed(result: SearchResult[M]) -> None:
        depths.append(result.depth)
        say(line(result))

    search.on_depth = completed
    started = time.perf_counter()
    move = bot.choose(state, budget)
    looked = bot.style.depth
    if not depths and looked is not None:
        seconds, nodes = time.perf_counter() - started, search.nodes
        # The depth SearchBot.choose gives such a level: its own, or the budget's if less.
        depth = min(looked, budget.depth or looked)
        after = state.copy()
        after.play(move)
        score = -search.score(after, depth - 1)  # exact: the window is left open
        say(line(SearchResult(move, score, depth, nodes, seconds)))
    say(f"bestmove {game.format_move(move)}")
    return move
