"""Lessons and puzzles: data, not code. Each game's are text files in `data/`, in the format that
docs/learn.md describes, read and checked against the rules core when first asked for, so that a
mistake in a file is reported with its file and line, never met half-way through a lesson.

A lesson is a position, a task, and the moves that fulfil it (any other move is refused, with the
rules' reason and the lesson's hint); a puzzle is a position and the line that wins it, which the
player must find move by move (the other side's moves are the line's).
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from .. import storage
from ..games.base import GameError, State, shown
from ..registry import REGISTRY
from .rating import Bout, Rating, update

Kind = Literal["lesson", "puzzle"]
FIELDS = {
    "id",
    "game",
    "kind",
    "title",
    "position",
    "before",
    "text",
    "task",
    "accept",
    "solution",
    "hint",
    "summary",
    "difficulty",
}
REQUIRED = {
    "lesson": {"id", "game", "kind", "title", "position", "task", "accept", "solution", "summary"},
    "puzzle": {"id", "game", "kind", "title", "position", "solution", "difficulty"},
}
OPTIONAL = {"lesson": {"before", "text", "hint"}, "puzzle": {"before"}}
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
_FIELD = re.compile(r"([a-z]+):(?: (.*))?$")
# A real folder (the package is never zipped): read through `storage`, which takes regular files
# only, so a FIFO or a folder named *.txt there is refused rather than waited on.
DATA = Path(__file__).parent / "data"
FILE_LIMIT = storage.MB  # the largest file of ours is 10 KB
EXPECTED = "a file of lessons or puzzles"
MOST_STREAK = 1_000_000  # puzzles solved in a row: a bound on a figure read from a file
# A puzzle's rating, from its difficulty: 3 stars meet a new player (1500) as an equal, and each
# star is 250 points (a player solves a puzzle a star below their level about 4 times in 5). The
# difficulty is the only measure of a puzzle we have (mostly its length: scripts/make_puzzles.py),
# so a rating field would say it twice; the deviation says the stars are a rough guess.
STAR = 250
PUZZLE_RD = 100.0
Change = tuple[Rating, Rating]  # a player's rating before and after a puzzle


class LearnError(GameError):
    """A lesson or puzzle file that cannot be used: the message names the file and line."""


@dataclass(frozen=True)
class Item:
    """A lesson or a puzzle, as its file gives it (moves in the game's notation)."""

    id: str
    game: str  # the registry's key
    kind: Kind
    title: str
    position: str
    before: tuple[str, ...] = ()  # played from `position` first: the history a lesson needs
    text: str = ""  # what the lesson explains before its task
    task: str = ""
    accept: tuple[str, ...] = ()  # a lesson's moves that fulfil its task
    solution: tuple[str, ...] = ()  # a move that fulfils the task and the replies; a puzzle's line
    hint: str = ""
    summary: str = ""  # the rule a lesson taught, in one line
    difficulty: int = 0  # a puzzle's, 1 (easiest) to 5
    where: str = field(default="", compare=False)  # file:line, for errors

    def start(self) -> State[Any]:
        """The position the player is given: `position` with `before` played."""
        game = REGISTRY[self.game].game
        state: State[Any] = game.parse_position(self.position)
        for text in self.before:
            state.play(game.parse_move(text, state))
        return state

    @property
    def rating(self) -> float:
        """A puzzle's strength as an opponent (see STAR)."""
        return 1500.0 + STAR * (self.difficulty - 3)

    @property
    def plies(self) -> int:
        """A puzzle's length: plies to the end of the game with best play."""
        return len(self.solution)


def parse(text: str, where: str = "<text>") -> list[Item]:
    """The items of one file; LearnError names the line at fault."""
    items: list[Item] = []
    fields: dict[str, str] = {}
    lines: dict[str, int] = {}  # the line each field starts on
    last: str | None = None
    for number, raw in enumerate([*text.splitlines(), "---"], 1):
        line = raw.rstrip()
        if line.startswith("#"):
            continue
        if line == "---":
            if fields:
                items.append(_checked(fields, {name: f"{where}:{n}" for name, n in lines.items()}))
            fields, lines, last = {}, {}, None
            continue
        if not line:
            if last in ("text",):
                fields[last] += "\n"
            continue
        if raw.startswith("  ") and last is not None:  # a continuation of the field above
            joiner = "" if fields[last].endswith("\n") or not fields[last] else " "
            fields[last] += joiner + line.strip()
            continue
        match = _FIELD.match(line)
        if not match or match[1] not in FIELDS:
            raise LearnError(
                f"{where}:{number}: expected a field such as 'title: ...' "
                f"({', '.join(sorted(FIELDS))}), not '{shown(line)}'"
            )
        if match[1] in fields:
            raise LearnError(
                f"{where}:{number}: a second '{match[1]}' in one entry "
                f"(the first is on line {lines[match[1]]})"
            )
        last = match[1]
        fields[last] = (match[2] or "").strip()
        lines[last] = number
    _unique(items)
    return items


def _checked(fields: dict[str, str], at: dict[str, str]) -> Item:
    """`_item`, whatever a hand-edited entry trips on, as a LearnError naming its first line:
    a file of data must never stop the program."""
    try:
        return _item(fields, at)
    except LearnError:
        raise
    except Exception as error:
        where = next(iter(at.values()))
        said = shown(f"{type(error).__name__}: {error}", 120)
        raise LearnError(f"{where}: this entry cannot be used ({said})") from None


def _item(fields: dict[str, str], at: dict[str, str]) -> Item:
    """One entry, checked: its fields, its game, and every move against the rules. `at` gives
    each field's file:line, for the errors."""
    where = next(iter(at.values()))  # the entry's first line
    kind = fields.get("kind", "")
    if kind not in REQUIRED:
        raise LearnError(
            f"{at.get('kind', where)}: kind is '{shown(kind)}'; expected lesson or puzzle"
        )
    missing = sorted(REQUIRED[kind] - {name for name, value in fields.items() if value})
    if missing:
        raise LearnError(f"{where}: the {kind} lacks {', '.join(missing)}")
    stray = sorted(set(fields) - REQUIRED[kind] - OPTIONAL[kind])
    if stray:
        raise LearnError(f"{at[stray[0]]}: a {kind} has no {stray[0]}")
    if not _ID.fullmatch(fields["id"]):
        raise LearnError(f"{at['id']}: the id '{shown(fields['id'])}' is not like dipole-moving")
    if fields["game"] not in REGISTRY:
        known = ", ".join(REGISTRY)
        raise LearnError(
            f"{at['game']}: no game called '{shown(fields['game'])}'; expected {known}"
        )
    game = REGISTRY[fields["game"]].game
    difficulty = fields.get("difficulty", "0")
    if kind == "puzzle" and difficulty not in ("1", "2", "3", "4", "5"):  # not int(): it takes ²
        raise LearnError(
            f"{at['difficulty']}: difficulty '{shown(difficulty)}' is not a number 1 to 5"
        )
    try:
        state = game.parse_position(fields["position"])
    except GameError as error:
        raise LearnError(f"{at['position']}: the position: {error}") from None

    def played(name: str, work: State[Any], each_alone: bool = False) -> tuple[str, ...]:
        """The field's moves played from `work` (each from it alone for `accept`), checked
        and written as the game writes them."""
        written: list[str] = []
        for text in game.split_moves(fields.get(name, "")):
            try:
                move = game.parse_move(text, work)
            except GameError as error:
                raise LearnError(f"{at[name]}: {name}: {text}: {error}") from None
            written.append(game.format_move(move))
            if not each_alone:
                work.play(move)
        return tuple(written)

    before = played("before", state)
    accept = played("accept", state, each_alone=True)
    solution = played("solution", state.copy())
    if kind == "lesson" and solution[0] not in accept:
        raise LearnError(f"{at['solution']}: the solution starts with {solution[0]}, not accepted")
    return Item(
        id=fields["id"],
        game=fields["game"],
        kind=kind,  # type: ignore[arg-type]  # checked above
        title=fields["title"],
        position=fields["position"],
        before=before,
        text=fields.get("text", "").strip(),
        task=fields.get("task", ""),
        accept=accept,
        solution=solution,
        hint=fields.get("hint", ""),
        summary=fields.get("summary", ""),
        difficulty=int(difficulty) if kind == "puzzle" else 0,
        where=where,
    )


def _unique(found: list[Item]) -> None:
    """Each id names one item: the menu, the progress file and `learn --list` go by it."""
    seen: dict[str, str] = {}
    for item in found:
        if item.id in seen:
            raise LearnError(f"{item.where}: the id {item.id} is taken ({seen[item.id]})")
        seen[item.id] = item.where


def read(name: str) -> list[Item]:
    """The items of one file of `DATA`; LearnError, naming the file (and line), when it cannot
    be read or an entry in it cannot be used."""
    path = DATA / name
    try:
        text = storage.read_text(path, FILE_LIMIT, EXPECTED)
    except storage.UnreadableFile as error:
        raise LearnError(str(error)) from None
    return parse(text, storage.named(path))


@functools.cache
def _all() -> tuple[tuple[Item, ...], tuple[str, ...]]:
    """Every usable file's items, and one line for each file left out: a mistake in one
    hand-edited file costs that file's items, never the others' nor the program."""
    try:
        names = sorted(
            entry.name
            for entry in os.scandir(DATA)
            # hidden: an editor's lock file (Emacs's `.#x.txt`, a link to nowhere), not ours
            if entry.name.endswith(".txt") and not entry.name.startswith(".")
        )
    except OSError as error:
        return (), (f"cannot read {storage.named(DATA)}: {error.strerror or error}",)
    found: list[Item] = []
    problems: list[str] = []
    for name in names:
        try:
            new = read(name)
            _unique([*found, *new])  # an id an earlier file took
        except LearnError as error:
            problems.append(str(error))
        else:
            found.extend(new)
    return tuple(found), tuple(problems)


def problems() -> tuple[str, ...]:
    """One line for each file of lessons or puzzles that could not be used, naming it."""
    return _all()[1]


def items(game: str | None = None, kind: Kind | None = None) -> list[Item]:
    """The lessons (in teaching order, as their files give them) then the puzzles (easiest
    first), of one game or all, in the registry's order of games; the usable files' only
    (`problems()` says why any other is left out)."""
    order = list(REGISTRY)
    chosen = [
        item
        for item in _all()[0]
        if (game is None or item.game == game) and (kind is None or item.kind == kind)
    ]
    return sorted(
        chosen,
        key=lambda item: (order.index(item.game), item.kind != "lesson", item.difficulty),
    )


def item_named(id: str) -> Item:
    for item in _all()[0]:
        if item.id == id:
            return item
    raise LearnError(
        f"no lesson or puzzle called '{shown(id)}'; `dipole-tui learn --list` lists them"
    )


class Progress:
    """What a player has learned: the lessons done, the puzzles solved, the current and best
    streak of puzzles solved at the first try, and the puzzle rating (one across the games, as
    lichess has one) with the puzzles it has rated. Kept as JSON in the data folder, written
    whole or not at all; an unreadable file is set aside (never lost: `storage.read_settings`)
    and progress starts again."""

    FILE = "learned.json"

    def __init__(self, folder: Path) -> None:
        self.path = folder / self.FILE
        self.done: set[str] = set()
        self.streak = 0
        self.best_streak = 0
        self.rating = Rating()
        self.rated: set[str] = set()  # the puzzles the rating has met
        found, self.problem = storage.read_settings(self.path, "a progress file", _progress)
        if found is not None:  # `problem`: why the file was set aside, to be told once
            self.done, self.streak, self.best_streak, self.rating, self.rated = found

    def finished(self, item: Item, first_try: bool = True) -> None:
        """A lesson done, or a puzzle solved (at the first try or not: the streak)."""
        self.done.add(item.id)
        if item.kind == "puzzle":
            self.streak = min(self.streak + 1, MOST_STREAK) if first_try else 0
            self.best_streak = max(self.best_streak, self.streak)
        self.save()

    def rate(self, item: Item, won: bool) -> Change | None:
        """The first try at a puzzle, won or lost, rated as one game against it (not saved:
        `finished` or `save` writes it). None if the puzzle was met before, rated or solved (a
        file of before the rating): a puzzle counts once, as on lichess, or a player could win
        again on a line they have been shown."""
        if item.id in self.rated or item.id in self.done:
            return None
        before = self.rating
        self.rating = update(before, [Bout(item.rating, PUZZLE_RD, float(won))])
        self.rated.add(item.id)
        return before, self.rating

    def save(self) -> None:
        data = {
            "done": sorted(self.done),
            "streak": self.streak,
            "best_streak": self.best_streak,
            "puzzle_rating": asdict(self.rating),
            "rated": sorted(self.rated),
        }
        storage.write_settings(self.path, json.dumps(data, indent=1) + "\n")


def _progress(data: object) -> tuple[set[str], int, int, Rating, set[str]]:
    """The ids done, the two streaks, the rating and the ids rated of a progress file's JSON
    (a file of before the rating: a new player's rating); ValueError if it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("done"), list):
        raise ValueError('not {"done": [ids], "streak": n, "best_streak": n, ...}')
    done, streak, best = data["done"], data.get("streak", 0), data.get("best_streak", 0)
    rated = data.get("rated", [])
    if not isinstance(rated, list) or not all(isinstance(id, str) for id in [*done, *rated]):
        raise ValueError("an id in done or rated is not a string")
    if not all(type(n) is int and 0 <= n <= MOST_STREAK for n in (streak, best)):
        raise ValueError(f"a streak is not a whole number from 0 to {MOST_STREAK}")
    rating = data.get("puzzle_rating", asdict(Rating()))
    if not isinstance(rating, dict) or set(rating) != set(asdict(Rating())):
        raise ValueError('the puzzle_rating is not {"rating": r, "rd": d, "volatility": v}')
    return set(done), streak, best, Rating(**rating), set(rated)
