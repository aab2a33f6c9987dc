"""Analysis: a position analysed depth by depth, and a game judged move by move.

A position is searched as the `hard` level searches it, deepening until `seconds` run out (its
tables grow with every depth, so the analysis of one position is capped), and one `Analysis` is
told for each depth completed: the score (a `PovScore`, the side to move's), and the line the
search expects. In a game the exact solver can solve (`Game.solvable`), the solver is tried first
with a small budget, and again between depths with a budget four times larger each time while the
search has spent as much, so a proved result ("White wins in 7 plies") replaces the evaluation as
soon as it is in reach; the analysis then ends with the proved line. This is what the app's
analysis mode shows (in a worker process, `workers`) while the game goes on.

Asked for more than one line, each depth d is told with the best few moves' exact scores
(`best_lines`): the search's root scores are exact for its best move only, bounds for the others,
so each of those moves' positions is searched again, d - 1 plies with a full window, by a search
of its own (a plain search of that position, whatever came before).

A game is judged by evaluating each of its positions that way, and each move, as lichess judges
chess moves, by the winning chances it lost against the best move of its position
(`Score.chances`: from -1, lost, to 1, won, so that half a checker matters in an even game and
little once the game is won). The thresholds are in the README. This is what `analyse` writes,
and what the app's review draws.

Each side's accuracy sums its moves up as lichess does (`accuracy`), and the marked moves are the
ones the review's "learn from your mistakes" goes through again (`to_learn`).

The exact solver the engine tools use (`solve`, `within`: the analysis here, the puzzles, the
`solve` command) is the proof search of `bots/proof.py`, which explains it, with the move ordering
of the game's `hard` level, as the analysis's search has it; `hard` itself calls the proof search
with its own knowledge.
"""

from __future__ import annotations

import contextlib
import math
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal

from .bots import proof
from .bots.levels import create_search_bot
from .bots.proof import MEMORY_MB, Solution, Verdict
from .bots.score import PovScore, Score, ScoreUnit
from .bots.search import Knowledge, OutOfTime, Search, SearchResult, Stop, as_score
from .games.base import AnyGame, Game, GameError, M, State
from .records import format_record, from_the_start, start_of
from .registry import REGISTRY, games

ANALYSIS_LEVEL = "hard"  # the level whose search the analysis deepens
ANALYSIS_SECONDS = 30.0  # a position is analysed this long at most
MAX_DEPTH = 64
DRAW_AFTER = 20  # plies of a game from the start before a bot agrees a draw (docs/rules.md)
FIRST_SOLVE = 10_000  # the solver's first budget, in nodes: a small ending is proved at once
# The analysis's budgets are in nodes, of alpha-beta's: df-pn's cost pure Python three times as
# much each (the review took three times as long with it), so the analysis asks alpha-beta alone.
BY_PROOF_NUMBERS = False
SOLVE_GROWTH = 4
LAST_SOLVE = 1_000_000  # no budget above this is tried: the search goes on alone
PROVED_LINE = 12  # moves at most in a proved line
BEST_LINES = 3  # the lines shown when more than one is asked for
LINE_MOVES = 8  # moves at most in each of them
LINES_SEARCHED = 5  # moves searched again at most a depth, once that many lines are found


@dataclass(frozen=True)
class BestLine:
    """One of the best moves of a position (`line[0]`), its exact score for the side to move,
    and the line after it, in notation."""

    score: Score
    line: tuple[str, ...]

    @property
    def move(self) -> str:
        return self.line[0]


@dataclass(frozen=True)
class Analysis:
    """What the search (or the solver) makes of a position: a step of its analysis (one a
    depth, `analyse_position`), or its evaluation in a game judged (the last step, `Evaluator`).
    `score` is the side to move's (`score.side`), in the game's evaluation units
    (`registry.Entry.unit`) or a proved result; `line` is what best play looks like from here,
    in notation (empty once the game is over). Plain values, so that it crosses from a worker
    process as it is."""

    depth: int  # plies searched; 0 for a result the solver proved, or a game over
    score: PovScore
    line: tuple[str, ...]
    nodes: int = 0
    lines: tuple[BestLine, ...] = ()  # the best moves, best first, when more than one is asked

    @property
    def side(self) -> int:
        """The side to move, whose score it is."""
        return self.score.side

    @property
    def best(self) -> str | None:
        return self.line[0] if self.line else None

    @property
    def proved(self) -> bool:
        """A win or a loss is proved (a draw proved is told by `depth` 0)."""
        return self.score.relative.proved


Report = Callable[[Analysis], None]


class _Settled(Exception):
    """The solver proved the result between two depths: the search has nothing to add."""


def analysis_search(game_key: str, level: str = ANALYSIS_LEVEL) -> Search[Any, Any]:
    """A search as `level` plays the game; keep it across positions to keep its tables."""
    entry = REGISTRY[game_key]
    bot = create_search_bot(level, entry.ladder, entry.game, None)
    return bot.search


def proof_knowledge(game: AnyGame) -> Knowledge[Any, Any]:
    """The `hard` level's knowledge of a game the solver can solve (`Game.solvable`), for its
    move ordering; GameError in one line for a game it cannot."""
    if not game.solvable:
        names = ", ".join(known.name for known in games() if known.solvable)
        raise GameError(f"the solver solves {names} only: games whose every game ends")
    knowledge: Knowledge[Any, Any] = REGISTRY[game.key].ladder["hard"].knowledge()
    return knowledge


def solve(
    game: Game[Any, M],
    state: State[M],
    max_nodes: int | None = None,
    stop: Stop | None = None,
    progress: Callable[[int], None] | None = None,
    memory: int = MEMORY_MB << 20,
    proof_numbers: bool = True,
) -> Solution[M]:
    """`proof.solve` with `hard`'s knowledge; GameError for a game the solver cannot solve."""
    knowledge = proof_knowledge(game)
    return proof.solve(game, state, knowledge, max_nodes, stop, progress, memory, proof_numbers)


def within(
    game: Game[Any, M],
    state: State[M],
    result: Literal["win", "loss"],
    plies: int,
    max_nodes: int | None = None,
    stop: Stop | None = None,
    memory: int = MEMORY_MB << 20,
) -> Verdict:
    """`proof.within` with `hard`'s knowledge; GameError for a game the solver cannot solve."""
    knowledge = proof_knowledge(game)
    return proof.within(game, state, knowledge, result, plies, max_nodes, stop, memory)


class _Until:
    """A stop that is also set once `deadline` (`time.perf_counter`) has passed."""

    def __init__(self, stop: Stop, deadline: float) -> None:
        self.stop = stop
        self.deadline = deadline

    def is_set(self) -> bool:
        return self.stop.is_set() or time.perf_counter() > self.deadline


def best_lines(
    game: Game[Any, M],
    state: State[M],
    depth: int,
    ranked: Sequence[tuple[M, Score]],
    stop: Stop,
    count: int = BEST_LINES,
) -> tuple[BestLine, ...]:
    """The best `count` of `state`'s moves (fewer if it has fewer), best first, each scored
    exactly as a search `depth` plies deep scores it at the root: its position searched
    `depth` - 1 plies with a full window, by a new search. `ranked`: moves with an upper bound
    on each one's score (a search's root scores), highest first; a move whose bound cannot beat
    the lines found is not searched, nor any after `LINES_SEARCHED`. OutOfTime when `stop` is
    set before the end."""
    found: list[tuple[Score, BestLine]] = []
    for index, (move, bound) in enumerate(ranked):
        if len(found) >= count and (index >= LINES_SEARCHED or bound <= found[count - 1][0]):
            break
        search = analysis_search(game.key)
        after = state.copy()
        after.play(move)
        score = as_score(-search.score(after, depth - 1, stop))
        line = search.principal_variation(state, move, LINE_MOVES)
        found.append((score, BestLine(score, tuple(map(game.format_move, line)))))
        found.sort(key=lambda scored: -scored[0])  # stable: a tie keeps the search's order
    return tuple(line for _, line in found[:count])


def analyse_position(
    game: AnyGame,
    state: State[Any],
    search: Search[Any, Any],
    report: Report,
    stop: Stop,
    seconds: float = ANALYSIS_SECONDS,
    lines: int = 1,
) -> None:
    """Analyse `state` (not changed), telling `report` each step, until `seconds` pass, the
    result is proved, or `stop` is set. A position whose game is over is not reported on. With
    `lines` above 1, each depth is told with its best lines, once they are found too (a proved
    result has only its own line)."""
    if state.outcome() is not None:
        return
    until = _Until(stop, time.perf_counter() + seconds)
    side = state.to_move
    moves = search.knowledge.candidates(state)
    if len(moves) == 1:  # nothing to choose (a pass): the analysis is of the position after it
        move = moves[0]
        after = state.copy()
        after.play(move)
        text = game.format_move(move)
        outcome = after.outcome()
        if outcome is not None:
            ended = Score.win(1) if outcome.winner == side else Score.loss(1)
            score = Score() if outcome.winner is None else ended
            report(Analysis(1, PovScore(score, side), (text,), 1))
            return

        def back(analysis: Analysis) -> None:
            score = PovScore(analysis.score.relative.earlier(), side)
            depth = analysis.depth and analysis.depth + 1
            report(Analysis(depth, score, (text, *analysis.line), analysis.nodes))

        analyse_position(game, after, search, back, stop, seconds)  # the only move: one line
        return

    budget = FIRST_SOLVE if game.solvable else 0

    def settled() -> bool:
        """Try the solver with the budget reached; report a proved result with its line, and
        with `lines` above 1 the best moves proved with theirs (no search's line stays under
        a proof)."""
        nonlocal budget
        solution = solve(game, state, max_nodes=budget, stop=stop, proof_numbers=BY_PROOF_NUMBERS)
        budget *= SOLVE_GROWTH
        score = solution.score
        if score is None or solution.move is None:
            return False
        proved = PovScore(score, side)
        report(Analysis(0, proved, (game.format_move(solution.move),), solution.nodes))
        line = _proved_line(game, state, solution.move, budget, stop)
        found: tuple[BestLine, ...] = ()
        if lines > 1:  # the other moves get the first budget each: one unproved is left out
            others = [move for move in moves if move != solution.move]  # (0.4 s in Death Stacks)
            found = _proved_lines(game, state, others, FIRST_SOLVE, stop)
            found = tuple(sorted((BestLine(score, line), *found), key=lambda b: -b.score))
        if len(line) > 1 or found:
            report(Analysis(0, proved, line, solution.nodes, found[:lines]))
        return True

    if budget and settled():
        return

    def completed(result: SearchResult[Any]) -> None:
        moves = search.principal_variation(state, result.move, result.depth)
        line = tuple(map(game.format_move, moves))
        found: tuple[BestLine, ...] = ()
        if lines > 1:
            ranked = sorted(result.scores.items(), key=lambda scored: -scored[1])
            found = best_lines(game, state, result.depth, ranked, until, lines)
        score = PovScore(result.score, side)
        report(Analysis(result.depth, score, line, result.nodes, found))
        if budget and budget <= min(LAST_SOLVE, result.nodes) and settled():
            raise _Settled

    # OutOfTime: stopped while the solver was proving the line, outside the search's own watch
    with contextlib.suppress(_Settled, OutOfTime):
        search.run(state, depth=MAX_DEPTH, movetime=seconds, stop=stop, on_depth=completed)


def _proved_line(
    game: AnyGame,
    state: State[Any],
    first: Any,
    budget: int,
    stop: Stop,
    reply: Solution[Any] | None = None,
) -> tuple[str, ...]:
    """`first`, then the solver's best play after it, up to `PROVED_LINE` moves; `reply`: the
    solver's answer after `first` when it was asked already (it is not asked twice)."""
    line = [first]
    work = state.copy()
    work.play(first)
    while len(line) < PROVED_LINE and work.outcome() is None:
        step = (
            solve(game, work, max_nodes=budget, stop=stop, proof_numbers=BY_PROOF_NUMBERS)
            if reply is None
            else reply
        )
        reply = None
        if step.move is None:
            break
        line.append(step.move)
        work.play(step.move)
    return tuple(map(game.format_move, line))


def _proved_lines(
    game: AnyGame, state: State[Any], moves: Sequence[Any], budget: int, stop: Stop
) -> tuple[BestLine, ...]:
    """Of the first `LINES_SEARCHED` of `moves`, those the solver proves in `budget` nodes
    each, with their proved lines and results (scored for the side to move of `state`)."""
    found: list[BestLine] = []
    for move in moves[:LINES_SEARCHED]:
        after = state.copy()
        after.play(move)
        # an ended game too: 0 plies
        answer = solve(game, after, max_nodes=budget, stop=stop, proof_numbers=BY_PROOF_NUMBERS)
        if answer.score is not None:
            score = answer.score.earlier()
            line = _proved_line(game, state, move, budget, stop, answer)
            found.append(BestLine(score, line))
    return tuple(found)


# (least loss of winning chances, mark, word), worst first
MARKS = ((0.3, "??", "blunder"), (0.2, "?", "mistake"), (0.1, "?!", "inaccuracy"))
# A comment as `annotated_record` writes it (`words`, then the best move after a marked one):
# `+1.3`, `0.0`, `drawn`, `drawn with best play`, `White wins in 7 plies`, `Black has won`,
# `-0.6; mistake, best e7xc7 (+0.9)`. A record analysed again has these replaced, and every
# other comment kept.
_EVALUATION = (
    r"(?:[+-]\d+\.\d|0\.0|drawn with best play|drawn|\S+ wins in \d+ pl(?:y|ies)|\S+ has won)"
)
ANALYSIS_COMMENT = re.compile(
    rf"{_EVALUATION}(?:; (?:{'|'.join(word for *_, word in MARKS)}), best .+ \({_EVALUATION}\))?"
)


@dataclass(frozen=True)
class Judgement:
    """A move played, the evaluation of the position it was played in (`before`, the mover's
    view) and of the one it left (`after`), the winning chances it lost, and its mark ("" if
    none)."""

    move: str
    before: Analysis
    after: Analysis
    loss: float
    mark: str

    @property
    def word(self) -> str:
        """`blunder`, `mistake`, `inaccuracy`, or "" for a move with no mark."""
        return next((word for _, mark, word in MARKS if mark == self.mark), "")


class Evaluator(Generic[M]):
    """Evaluates positions of one game as the analysis mode does (`analyse_position`),
    each for `movetime` seconds, with one search that keeps what it learns from one position to
    the next."""

    def __init__(
        self,
        game_key: str,
        movetime: float,
        stop: Stop | None = None,
        level: str = ANALYSIS_LEVEL,
    ) -> None:
        self.game: Game[Any, M] = REGISTRY[game_key].game
        self.movetime = movetime
        self.stop = stop or threading.Event()  # never set: each position gets its time
        self.search = analysis_search(game_key, level)

    def evaluate(self, state: State[M]) -> Analysis:
        ended = evaluation_of_end(state)
        if ended is not None:
            return ended
        said: list[Analysis] = []
        analyse_position(self.game, state, self.search, said.append, self.stop, self.movetime)
        if not said:  # not even depth 1 in the time: it is searched whatever it takes
            result = self.search.run(state, depth=1)
            score = PovScore(result.score, state.to_move)
            said.append(Analysis(1, score, (self.game.format_move(result.move),), 0))
        return said[-1]


def evaluation_of_end(state: State[Any]) -> Analysis | None:
    """The evaluation of a position whose game is over (won, lost or drawn); None if it goes on."""
    outcome = state.outcome()
    if outcome is None:
        return None
    won = Score.win(0) if outcome.winner == state.to_move else Score.loss(0)
    score = Score() if outcome.winner is None else won
    return Analysis(0, PovScore(score, state.to_move), ())


def accepts_draw(
    game_key: str,
    state: State[M],
    side: int,
    seconds: float,
    level: str = ANALYSIS_LEVEL,
    stop: Stop | None = None,
) -> bool:
    """A bot's answer to a draw offer, as its `level` judges: never in the opening (the first
    `DRAW_AFTER` plies of a game begun at the start: a draw there is no game at all); after it,
    searched for `seconds` with the level's own knowledge, when it stands no better than the
    level's slack (a weaker level settles for more); `random`, which judges nothing, accepts."""
    entry = REGISTRY[game_key]
    if state.plies < DRAW_AFTER and from_the_start(entry.game, state):
        return False
    style = entry.ladder.get(level)
    if style is None:
        return True
    evaluation = Evaluator[M](game_key, seconds, stop, level).evaluate(state)
    return evaluation.score.pov(side) <= Score(style.slack)


def judge(unit: ScoreUnit, move: str, before: Analysis, after: Analysis) -> Judgement:
    """What `move` (in notation), played where `before` was said, lost against the best."""
    if move == before.best:
        return Judgement(move, before, after, 0.0, "")
    mover = before.side
    loss = max(0.0, before.score.pov(mover).chances(unit) - after.score.pov(mover).chances(unit))
    mark = next((mark for least, mark, _ in MARKS if loss >= least), "")
    return Judgement(move, before, after, loss, mark)


def evaluations(
    game_key: str,
    state: State[M],
    movetime: float,
    stop: Stop | None = None,
) -> Iterator[Analysis]:
    """The evaluation of every position of the game played on `state`, from its start to now:
    one more than the moves played. Stops early (yielding no more) when `stop` is set."""
    evaluator: Evaluator[M] = Evaluator(game_key, movetime, stop)
    work = start_of(state)
    moves = state.moves_played
    for ply in range(len(moves) + 1):
        if stop is not None and stop.is_set():
            return
        yield evaluator.evaluate(work)
        if ply < len(moves):
            work.play(moves[ply])


# lichess's accuracy of a move from the Win% (50 + 50 * winning chances) it lost: 100 for none
# lost, about 80 at the inaccuracy threshold, 64 at the mistake's, 50 at the blunder's.
ACCURACY_SCALE, ACCURACY_DECAY, ACCURACY_OFFSET = 103.1668, 0.04354, 3.1669


def move_accuracy(loss: float) -> float:
    """A move's accuracy, 0 to 100, by lichess's formula (lichess.org/page/accuracy):
    103.1668 * exp(-0.04354 * (Win% before - Win% after)) - 3.1669, clamped. `loss` is the
    winning chances the move lost (`Judgement.loss`, 0 to 2), so the Win% it lost is 50 times it."""
    lost = 50 * max(0.0, loss)
    return max(0.0, min(100.0, ACCURACY_SCALE * math.exp(-ACCURACY_DECAY * lost) - ACCURACY_OFFSET))


def accuracy(judged: Sequence[Judgement], side: int) -> float | None:
    """The accuracy of `side`'s moves, 0 to 100: the plain mean of each move's (`move_accuracy`);
    None for a side that played no move. lichess blends a volatility-weighted mean with a
    harmonic one; the plain mean is kept here because the harmonic one lets a single blunder
    drown a game (one 0% move among twenty perfect ones gives 17%), and the review counts the
    blunders beside it. Every move counts, forced ones (a pass) too, as on lichess."""
    moves = [move_accuracy(judgement.loss) for judgement in judged if judgement.before.side == side]
    return sum(moves) / len(moves) if moves else None


def marks_of(judged: Sequence[Judgement], side: int) -> dict[str, int]:
    """How many of `side`'s moves earned each mark (`?!`, `?`, `??`), every mark counted."""
    movers = [judgement.mark for judgement in judged if judgement.before.side == side]
    return {mark: movers.count(mark) for _, mark, _ in MARKS}


FEW_MISTAKES = 3  # below this many mistakes and blunders, the inaccuracies are learnt from too


def to_learn(judged: Sequence[Judgement], sides: Sequence[int]) -> list[int]:
    """The plies (indexes into `judged`) of the moves of `sides` worth finding again, in the
    game's order: the mistakes and blunders, and the inaccuracies too when those are fewer than
    `FEW_MISTAKES`. Only a move whose position has a best move known (never the game's end)."""
    ours = [
        ply
        for ply, judgement in enumerate(judged)
        if judgement.before.side in sides and judgement.mark and judgement.before.best is not None
    ]
    serious = [ply for ply in ours if judged[ply].word != "inaccuracy"]
    return serious if len(serious) >= FEW_MISTAKES else ours


def summary(game: Game[Any, Any], judged: Sequence[Judgement]) -> list[str]:
    """Each side's accuracy and marks in a line, as `analyse` writes them:
    `White: accuracy 87%, 2 inaccuracies, 1 mistake, 0 blunders` (`no moves` for a side with
    none)."""
    lines = []
    for side, name in enumerate(game.side_names):
        said = accuracy(judged, side)
        if said is None:
            lines.append(f"{name}: no moves")
            continue
        counts = marks_of(judged, side)
        marks = ", ".join(_count(counts[mark], word) for _, mark, word in reversed(MARKS))
        lines.append(f"{name}: accuracy {said:.0f}%, {marks}")
    return lines


def _count(count: int, word: str) -> str:
    """`1 mistake`, `2 inaccuracies`."""
    if count != 1:
        word = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{count} {word}"


def judgements(game_key: str, moves: Sequence[M], said: Sequence[Analysis]) -> list[Judgement]:
    """Each move judged by the evaluations of the positions before and after it (as many
    moves as there are evaluations after the first)."""
    entry = REGISTRY[game_key]
    return [
        judge(entry.unit, entry.game.format_move(move), said[ply], said[ply + 1])
        for ply, move in enumerate(moves[: len(said) - 1])
    ]


def analyse(
    game_key: str,
    state: State[M],
    movetime: float,
    stop: Stop | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Judgement]:
    """Every move of the game on `state` judged; `progress(done, total)` after each position.
    GameError when `stop` ends it before the last position."""
    moves = state.moves_played
    said: list[Analysis] = []
    started = time.perf_counter()
    for evaluation in evaluations(game_key, state, movetime, stop):
        said.append(evaluation)
        if progress is not None:
            progress(len(said), len(moves) + 1)
    if len(said) < len(moves) + 1:
        raise GameError(
            f"stopped after {len(said)} of {len(moves) + 1} positions "
            f"({time.perf_counter() - started:.0f} s)"
        )
    return judgements(game_key, moves, said)


def words(
    game: Game[Any, M], unit: ScoreUnit, evaluation: Analysis, short: bool = False, side: int = 0
) -> str:
    """An evaluation as a record's comment says it, from the first side's view (or `side`'s,
    as the mistakes trainer speaks to the side that erred): `+1.2`, or
    `White wins in 7 plies` for a proved result (`Black has won` when the game is over,
    `drawn with best play` for a proved draw). Short,
    as a narrow list has room for: `#7` (the first side wins in 7 plies), `#-7`, `1-0`."""
    score = evaluation.score.pov(side)
    plies = score.plies
    if plies is None:
        if not evaluation.line:  # the game is over, and not won
            return "1/2-1/2" if short else "drawn"
        if not evaluation.depth and not short:  # the solver proved it
            return "drawn with best play"
        text = f"{score.units / unit.size:+.1f}"
        return "0.0" if text in ("+0.0", "-0.0") else text
    first = evaluation.score.pov(0).wins  # a result names its winner, whoever speaks
    if short:
        if plies == 0:
            return "1-0" if first else "0-1"
        return f"#{plies}" if first else f"#-{plies}"
    if plies == 0:
        return f"{game.side_names[0 if first else 1]} has won"
    return evaluation.score.in_words(game.side_names, unit)


def annotated_record(
    game_key: str,
    state: State[M],
    judged: Sequence[Judgement],
    tags: dict[str, str] | None = None,
    movetime: float | None = None,
    comments: Sequence[Sequence[str]] = (),
) -> str:
    """The game's record with, after each move, its mark and a comment: the evaluation it left
    and, for a marked move, what it was and the best move with its evaluation. The record's own
    `comments` (`Record.comments`) follow, but for an earlier analysis's (`ANALYSIS_COMMENT`),
    which this one replaces: a game analysed twice says each thing once."""
    game: Game[Any, M] = REGISTRY[game_key].game
    unit = REGISTRY[game_key].unit
    kept = [[text for text in said if not ANALYSIS_COMMENT.fullmatch(text)] for said in comments]
    kept += [[] for _ in range(len(judged) + 1 - len(kept))]
    for ply, judgement in enumerate(judged, 1):
        said = words(game, unit, judgement.after)
        if judgement.mark and judgement.before.best is not None:
            best = judgement.before.best
            said += f"; {judgement.word}, best {best} ({words(game, unit, judgement.before)})"
        kept[ply].insert(0, said)
    given = dict(tags or {})
    if movetime is not None:
        given["Annotator"] = f"dipole-tui {ANALYSIS_LEVEL}, {movetime:g} s a position"
    return format_record(game, state, given, [judgement.mark for judgement in judged], kept)
