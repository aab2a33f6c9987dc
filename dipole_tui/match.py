"""Bot-versus-bot matches: paired openings, alternating colours, a score and an Elo estimate.

A match of N games between bots A and B plays each opening twice, once with A as White and once
with A as Black, so neither bot profits from a lucky opening or from the first move. Opening `i`
is a few random plies (never a game-ending one) from an RNG seeded by the match seed and `i`;
each bot's RNG is seeded from the match seed, the game and the bot's slot. With a fixed seed and
a depth budget a whole match is reproducible, in one process or in several (`jobs`).

Everything a worker process needs is a top-level, picklable value or function, so `jobs > 1`
works with the 'fork' and the 'spawn' start methods alike.
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import random
import signal
import statistics
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace

from .bots import Bot, Budget
from .games.base import AnyGame, GameError, M, State, result_of_winner
from .orphans import abandon, end_with_parent
from .records import format_record
from .registry import create_bot, game_named

DEFAULT_GAMES = 20
DEFAULT_MOVETIME = 0.2  # seconds per move when neither --movetime nor --depth is given
MAX_PLIES = 1000  # a longer game is adjudicated a draw
OPENING_PLIES = (2, 4)  # each opening is this many random plies, inclusive
OPENING_ATTEMPTS = 20  # tries at an opening not played before in the match
DEFAULT_BUDGET = Budget(movetime=DEFAULT_MOVETIME)
Z95 = statistics.NormalDist().inv_cdf(0.975)  # 1.95996...: two-sided 95%

BotFactory = Callable[[str, str, int | None], Bot]
"""Makes a bot from (name, game key, seed); `create_bot` unless a test injects its own."""


# -- the schedule ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """What to play: the game, the two bots (A first), how many games, the budget, the seed."""

    game_key: str
    variant: str
    bot_a: str
    bot_b: str
    games: int = DEFAULT_GAMES
    budget: Budget = DEFAULT_BUDGET
    seed: int = 0
    max_plies: int = MAX_PLIES

    @property
    def event(self) -> str:
        """The records' Event tag."""
        return f"{self.bot_a} v {self.bot_b} match, seed {self.seed}"


@dataclass(frozen=True)
class GameSpec:
    """One game of a match: who plays which colour, from which opening, with which seeds."""

    index: int  # 0-based; printed and saved 1-based
    white: str
    black: str
    a_is_white: bool
    opening: tuple[str, ...]  # moves in the game's notation
    white_seed: int
    black_seed: int


@dataclass(frozen=True)
class GameResult:
    """How one game went; `winner` is a side (0 White, 1 Black) or None for a draw."""

    index: int
    white: str
    black: str
    a_is_white: bool
    opening: tuple[str, ...]
    moves: tuple[str, ...]  # every ply, the opening's included, in the game's notation
    winner: int | None
    reason: str
    final_position: str
    record: str | None = None  # the saved-game text, when it was asked for

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def result(self) -> str:
        return result_of_winner(self.winner)

    @property
    def score_a(self) -> float:
        """A's points: 1 for a win, 0.5 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if (self.winner == 0) == self.a_is_white else 0.0


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the match seed and a purpose, the same on every platform and run."""
    text = "/".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def random_opening(
    game: AnyGame,
    variant: str,
    seed: int,
    number: int,
    attempt: int = 0,
    length: tuple[int, int] = OPENING_PLIES,
) -> tuple[str, ...]:
    """Opening `number` of a match: 2 to 4 random plies (or as many as `length` says, at
    least and at most), none of which ends the game.

    Moves that throw material away (`Game.gives_away`: Dipole's removals) are avoided while
    there is another choice, so an opening stays a fair game rather than a handicap.
    """
    rng = random.Random(derive_seed(seed, "opening", number, attempt))
    state = game.new(variant)
    plies = rng.randint(*length)
    played: list[str] = []
    for _ in range(plies):
        safe = [move for move in state.legal_moves() if not _ends_game(state, move)]
        quiet = [move for move in safe if not game.gives_away(move)]
        safe = quiet or safe
        if not safe:
            break
        move = rng.choice(safe)
        played.append(game.format_move(move))
        state.play(move)
    return tuple(played)


def _ends_game(state: State[M], move: M) -> bool:
    state.play(move)
    try:
        return state.outcome() is not None
    finally:
        state.undo()


def schedule(match: Match) -> list[GameSpec]:
    """Games 2i and 2i+1 share opening i, A White in the first and Black in the second.

    An opening that repeats an earlier one is drawn again (a few times at most), so a long
    match does not play the same opening twice by chance.
    """
    game = game_named(match.game_key)
    specs: list[GameSpec] = []
    opening: tuple[str, ...] = ()
    seen: set[tuple[str, ...]] = set()
    for index in range(match.games):
        if index % 2 == 0:
            for attempt in range(OPENING_ATTEMPTS):
                opening = random_opening(game, match.variant, match.seed, index // 2, attempt)
                if opening not in seen:
                    break
            seen.add(opening)
        a_is_white = index % 2 == 0
        seed_a = derive_seed(match.seed, "game", index, "A")
        seed_b = derive_seed(match.seed, "game", index, "B")
        white, black = (match.bot_a, match.bot_b) if a_is_white else (match.bot_b, match.bot_a)
        white_seed, black_seed = (seed_a, seed_b) if a_is_white else (seed_b, seed_a)
        specs.append(GameSpec(index, white, black, a_is_white, opening, white_seed, black_seed))
    return specs


# -- playing -----------------------------------------------------------------------------------


def play_game(
    match: Match, spec: GameSpec, factory: BotFactory | None = None, want_record: bool = False
) -> GameResult:
    """Play one game to its end (or to the ply cap, a draw). Top-level, so workers can run it."""
    make = factory or create_bot
    game = game_named(match.game_key)
    state = game.new(match.variant)
    for text in spec.opening:
        state.play(game.parse_move(text, state))
    bots = (
        make(spec.white, match.game_key, spec.white_seed),
        make(spec.black, match.game_key, spec.black_seed),
    )
    names = (spec.white, spec.black)
    winner: int | None = None
    reason = ""
    while True:
        outcome = state.outcome()
        if outcome is not None:
            winner, reason = outcome.winner, outcome.reason
            break
        if state.plies >= match.max_plies:
            winner, reason = None, f"adjudicated a draw after {match.max_plies} plies"
            break
        side = state.to_move
        move = bots[side].choose(state, match.budget)
        if move not in state.legal_moves():
            winner = 1 - side
            reason = f"{names[side]} ({game.side_names[side]}) played an illegal move {move!r}"
            break
        state.play(move)
    moves = tuple(game.format_move(move) for move in state.moves_played)
    result = GameResult(
        spec.index,
        spec.white,
        spec.black,
        spec.a_is_white,
        spec.opening,
        moves,
        winner,
        reason,
        state.position(),
    )
    if not want_record:
        return result
    tags = {
        "Event": match.event,
        "Round": str(spec.index + 1),
        "White": spec.white,
        "Black": spec.black,
        "Result": result.result,
        "Termination": reason,
        "Opening": " ".join(spec.opening),
    }
    return replace(result, record=format_record(game, state, tags))


def _start_worker() -> None:
    """Worker initializer: Ctrl+C is the parent's to handle, and it ends the workers itself;
    a parent that is killed cannot, so each worker ends when its parent does."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent()


def play_match(
    match: Match,
    jobs: int = 1,
    factory: BotFactory | None = None,
    want_records: bool = False,
    start_method: str | None = None,
) -> Iterator[GameResult]:
    """Yield the results of the match's games in game order, each as soon as it and all the
    games before it are done. With `jobs` > 1 the games run in that many worker processes."""
    specs = schedule(match)
    if jobs <= 1:
        for spec in specs:
            yield play_game(match, spec, factory, want_records)
        return
    context = multiprocessing.get_context(start_method)
    executor = ProcessPoolExecutor(
        max_workers=min(jobs, len(specs)) or 1,
        mp_context=context,
        initializer=_start_worker,
    )
    try:
        pending: set[Future[GameResult]] = {
            executor.submit(play_game, match, spec, factory, want_records) for spec in specs
        }
        done: dict[int, GameResult] = {}
        next_index = 0
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                result = future.result()
                done[result.index] = result
            while next_index in done:
                yield done.pop(next_index)
                next_index += 1
    except BaseException:
        abandon(executor)
        raise
    executor.shutdown()


# -- statistics and output ---------------------------------------------------------------------


def elo_summary(wins: int, draws: int, losses: int) -> tuple[float, float, float, float]:
    """(score, Elo difference, low, high) of a 95% interval, from one side's results.

    The score is (wins + draws/2) / games; Elo is the logistic -400·log10(1/score - 1). The
    interval is score ± 1.96 standard errors of the mean of the per-game scores (1, ½, 0),
    mapped to Elo; a bound past 0% or 100% is ∓inf. At a score of 0% or 100% every game went
    the same way, the standard error is 0, and the bound is the exact binomial (Clopper-Pearson)
    one instead: 100% in n games puts the true score at or above 0.025^(1/n).
    """
    games = wins + draws + losses
    if min(wins, draws, losses) < 0 or games == 0:
        raise ValueError(
            f"need a non-negative number of games, at least one: {wins, draws, losses}"
        )
    score = (wins + draws / 2) / games
    if score in (0.0, 1.0):
        bound = _elo(0.025 ** (1 / games))
        return (
            (score, math.inf, bound, math.inf) if score else (score, -math.inf, -math.inf, -bound)
        )
    variance = (
        wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * (0 - score) ** 2
    ) / games
    margin = Z95 * math.sqrt(variance / games)
    return score, _elo(score), _elo(score - margin), _elo(score + margin)


def _elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def _signed(elo: float) -> str:
    if math.isinf(elo):
        return "+inf" if elo > 0 else "-inf"
    rounded = round(elo)
    return "0" if rounded == 0 else f"{rounded:+d}"


def format_game_line(game: AnyGame, result: GameResult) -> str:
    """`game 3: hard (White) v ab4 (Black): 1-0 in 57 plies (why) [opening e1-g3 d8-c7]`."""
    white, black = game.side_names
    return (
        f"game {result.index + 1}: {result.white} ({white}) v {result.black} ({black}): "
        f"{result.result} in {result.plies} plies ({result.reason}) "
        f"[opening {' '.join(result.opening) or '-'}]"
    )


def tally(results: list[GameResult]) -> tuple[int, int, int]:
    """(wins, draws, losses) of bot A."""
    wins = sum(1 for result in results if result.score_a == 1)
    draws = sum(1 for result in results if result.score_a == 0.5)
    return wins, draws, len(results) - wins - draws


def format_summary(match: Match, results: list[GameResult]) -> str:
    """`hard 17 - 3 ab4 (0 draws): hard scores 85.0%, Elo +301 (95%: +156 to +inf)`."""
    wins, draws, losses = tally(results)
    head = f"{match.bot_a} {wins} - {losses} {match.bot_b} ({draws} draw{'s' * (draws != 1)})"
    if not results:
        return f"{head}: no games played"
    score, elo, low, high = elo_summary(wins, draws, losses)
    if math.isinf(elo):
        interval = f">= {_signed(low)}" if elo > 0 else f"<= {_signed(high)}"
    else:
        interval = f"{_signed(low)} to {_signed(high)}"
    return f"{head}: {match.bot_a} scores {100 * score:.1f}%, Elo {_signed(elo)} (95%: {interval})"


def format_colours(game: AnyGame, results: list[GameResult]) -> str:
    """`by colour: White 6, Black 4, draws 0`: how much the first move is worth."""
    white, black = game.side_names
    won = [sum(1 for result in results if result.winner == side) for side in (0, 1)]
    return f"by colour: {white} {won[0]}, {black} {won[1]}, draws {len(results) - sum(won)}"


def describe_budget(budget: Budget) -> str:
    parts = []
    if budget.movetime is not None:
        parts.append(f"{budget.movetime:g} s")
    if budget.depth is not None:
        parts.append(f"depth {budget.depth}")
    return " and ".join(parts) or "no limit"


# -- the budget and the bots -----------------------------------------------------------------------


def budget_of(movetime: float | None, depth: int | None) -> Budget:
    """The per-move budget: 0.2 s by default; a depth alone means no time limit."""
    if movetime is None and depth is None:
        movetime = DEFAULT_MOVETIME
    return Budget(movetime=movetime, depth=depth)


def check_bots(match: Match, factory: BotFactory | None) -> None:
    """Make each bot once, so a bot that is unavailable or unfit for the game fails at once."""
    make = factory or create_bot
    for name in dict.fromkeys((match.bot_a, match.bot_b)):
        try:
            make(name, match.game_key, 0)
        except (ImportError, ValueError) as error:
            raise GameError(
                f"bot {name!r} is not available for {match.game_key}: {error}"
            ) from None
