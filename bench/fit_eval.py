"""`hard`'s evaluation fitted to positions the solver proved (`bench/label_positions.py`), and how
often its sign agrees with the proof, before and after, on positions held apart from the fitting.

    python bench/fit_eval.py                     # fit, and agreement at depth 0 and at 0.2 s
    python bench/fit_eval.py --movetime 0        # depth 0 only (no searches)

The fit is logistic, as engine authors fit an evaluation to game results: the chance that the
side to move wins is 1 / (1 + e^-z), z a weighted sum of the evaluation's terms
(`bots/dipole_eval.py`'s `Terms`), with the weights that make the proved results likeliest
(Newton's method on the log-likelihood, a little ridge for stability). They are printed scaled so
that a checker of material weighs 12, as the code keeps them. Every fourth game's positions (the
game number a multiple of 4) are held apart, so a position's neighbours in its game never sit on
both sides. Agreement is the share of held-apart positions whose evaluation has the proof's sign:
at depth 0 (the evaluation itself: the set's positions have no capture to play) and after a
search of --movetime seconds, for `hard` (its evaluation before the fit) and for `hard-fit`.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

from dipole_tui.bots.dipole_eval import LADDER, Terms, terms
from dipole_tui.bots.score import Score
from dipole_tui.bots.search import Search
from dipole_tui.cli.progress_bar import progress_bar
from dipole_tui.games.dipole import DIPOLE

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data" / "dipole-labelled.txt"
LEVELS = ("hard", "hard-fit")  # before the fit, after it
RIDGE = 1e-3


def load(path: Path) -> list[tuple[int, str, bool]]:
    """(game, position, won for the side to move), each position once."""
    rows: list[tuple[int, str, bool]] = []
    seen: set[str] = set()
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            continue
        game, position, result, _ = line.split()
        if position not in seen:
            seen.add(position)
            rows.append((int(game), position, result == "win"))
    return rows


def chance(weights: Sequence[float], x: Sequence[float]) -> float:
    z = sum(w * v for w, v in zip(weights, x, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def fit(xs: list[list[float]], ys: list[bool], rounds: int = 25) -> list[float]:
    """The logistic weights that make `ys` likeliest given `xs`: Newton's method."""
    n = len(xs[0])
    weights = [0.0] * n
    for _ in range(rounds):
        grad = [RIDGE * w for w in weights]
        hess = [[RIDGE if i == j else 0.0 for j in range(n)] for i in range(n)]
        for x, y in zip(xs, ys, strict=True):
            p = chance(weights, x)
            for i in range(n):
                grad[i] += (p - y) * x[i]
                for j in range(n):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = solve_linear(hess, grad)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
    return weights


def solve_linear(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix x = vector, by Gaussian elimination with partial pivoting."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(n):
            if r != column:
                factor = rows[r][column] / rows[column][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def scaled(weights: Sequence[float]) -> Terms:
    """The weights as the code keeps them: a checker of material 12, the rest to two places."""
    return Terms(*(round(12 * w / weights[0], 2) for w in weights))


def log_loss(weights: Sequence[float], xs: list[list[float]], ys: list[bool]) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(max(chance(weights, x), 1e-9), 1 - 1e-9)
        total -= math.log(p if y else 1 - p)
    return total / len(xs)


def features(rows: list[tuple[int, str, bool]]) -> list[list[float]]:
    return [[float(v) for v in terms(DIPOLE.parse_position(p))] for _, p, _ in rows]


def agreement(scores: list[int], won: list[bool]) -> str:
    """The share of scores with the proof's sign (0 counts as a loss foreseen)."""
    right = sum((score > 0) == result for score, result in zip(scores, won, strict=True))
    return f"{right / len(won):.1%}"


def searched_sign(level: str, position: str, movetime: float) -> int:
    """The sign of `level`'s score for the side to move after a search of `movetime` s."""
    search = Search(LADDER[level].knowledge())
    score = search.run(DIPOLE.parse_position(position), movetime=movetime).score
    return (score > Score()) - (score < Score())


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--movetime", type=float, default=0.2, help="0: depth 0 only")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = load(args.data)
    fitting = [row for row in rows if row[0] % 4]
    held = [row for row in rows if not row[0] % 4]
    x_fit, y_fit = features(fitting), [won for _, _, won in fitting]
    x_held, y_held = features(held), [won for _, _, won in held]
    weights = fit(x_fit, y_fit)
    console = Console()
    console.print(f"{len(rows)} positions: {len(fitting)} to fit, {len(held)} held apart")
    console.print(f"fitted: {scaled(weights)}")
    console.print(
        f"log loss of the fit: {log_loss(weights, x_fit, y_fit):.3f} on the fitting set, "
        f"{log_loss(weights, x_held, y_held):.3f} held apart"
    )
    table = Table(title=f"agreement with the proof, {len(held)} positions held apart")
    table.add_column("level")
    table.add_column("depth 0")
    if args.movetime:
        table.add_column(f"{args.movetime:g} s")
    try:
        with progress_bar(console) as progress:
            for level in LEVELS:
                knowledge = LADDER[level].knowledge()
                signs = [knowledge.evaluate(DIPOLE.parse_position(p)) for _, p, _ in held]
                cells = [agreement(signs, y_held)]
                if args.movetime:
                    task = progress.add_task(f"{level}, {args.movetime:g} s", total=len(held))
                    found = []
                    with ProcessPoolExecutor(args.jobs, initializer=_ignore_interrupts) as pool:
                        futures = [
                            pool.submit(searched_sign, level, position, args.movetime)
                            for _, position, _ in held
                        ]
                        for future in futures:
                            found.append(future.result())
                            progress.advance(task)
                    cells.append(agreement(found, y_held))
                table.add_row(level, *cells)
    except KeyboardInterrupt:
        print("fit_eval: interrupted", file=sys.stderr)
        sys.exit(130)
    console.print(table)


if __name__ == "__main__":
    main()
