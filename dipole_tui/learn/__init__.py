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
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from ..games.base import GameError, State, shown
from ..records import write_atomically
from ..registry import REGISTRY

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
_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
_FIELD = re.compile(r"([a-z]+):(?: (.*))?$")


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
    def plies(self) -> int:
        """A puzzle's length: plies to the end of the game with best play."""
        return len(self.solution)


def parse(text: str, where: str = "<text>") -> list[Item]:
    """The items of one file; LearnError names the line at fault."""
    items: list[Item] = []
    fields: dict[str, str] = {}
    start = 1
    last: str | None = None
    for number, raw in enumerate([*text.splitlines(), "---"], 1):
        line = raw.rstrip()
        if line.startswith("#"):
            continue
        if line == "---":
            if fields:
                items.append(_item(fields, f"{where}:{start}"))
            fields, last = {}, None
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
        if not fields:
            start = number
        if match[1] in fields:
            raise LearnError(f"{where}:{number}: a second '{match[1]}' in one entry")
        last = match[1]
        fields[last] = (match[2] or "").strip()
    return items


def _item(fields: dict[str, str], where: str) -> Item:
    """One entry, checked: its fields, its game, and every move against the rules."""
    kind = fields.get("kind", "")
    if kind not in REQUIRED:
        raise LearnError(f"{where}: kind is '{shown(kind)}'; expected lesson or puzzle")
    missing = sorted(REQUIRED[kind] - {name for name, value in fields.items() if value})
    if missing:
        raise LearnError(f"{where}: the {kind} lacks {', '.join(missing)}")
    if not _ID.fullmatch(fields["id"]):
        raise LearnError(f"{where}: the id '{shown(fields['id'])}' is not like dipole-moving")
    if fields["game"] not in REGISTRY:
        known = ", ".join(REGISTRY)
        raise LearnError(f"{where}: no game called '{shown(fields['game'])}'; expected {known}")
    game = REGISTRY[fields["game"]].game
    difficulty = fields.get("difficulty", "0")
    if not difficulty.isdigit() or (kind == "puzzle" and not 1 <= int(difficulty) <= 5):
        raise LearnError(f"{where}: difficulty '{shown(difficulty)}' is not a number 1 to 5")
    item = Item(
        id=fields["id"],
        game=fields["game"],
        kind=kind,  # type: ignore[arg-type]  # checked above
        title=fields["title"],
        position=fields["position"],
        before=tuple(game.split_moves(fields.get("before", ""))),
        text=fields.get("text", "").strip(),
        task=fields.get("task", ""),
        accept=tuple(game.split_moves(fields.get("accept", ""))),
        solution=tuple(game.split_moves(fields["solution"])),
        hint=fields.get("hint", ""),
        summary=fields.get("summary", ""),
        difficulty=int(difficulty),
        where=where,
    )
    _check_moves(item)
    return item


def _check_moves(item: Item) -> None:
    """Every move of the entry legal where it is played; a lesson's line starts with a move that
    fulfils its task."""
    game = REGISTRY[item.game].game
    try:
        state = game.parse_position(item.position)
    except GameError as error:
        raise LearnError(f"{item.where}: the position: {error}") from None
    for label, moves in (("before", item.before), ("solution", item.solution)):
        work = state.copy()
        if label == "solution":
            for text in item.before:
                work.play(game.parse_move(text, work))
        for text in moves:
            try:
                work.play(game.parse_move(text, work))
            except GameError as error:
                raise LearnError(f"{item.where}: {label}: {text}: {error}") from None
    begun = item.start()
    for text in item.accept:
        try:
            game.parse_move(text, begun)
        except GameError as error:
            raise LearnError(f"{item.where}: accept: {text}: {error}") from None
    if item.kind == "lesson" and item.solution[0] not in item.accept:
        raise LearnError(f"{item.where}: the solution starts with {item.solution[0]}, not accepted")


def read(name: str) -> list[Item]:
    """The items of one file of the package's `data/`."""
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return parse(text, f"learn/data/{name}")


@functools.cache
def _all() -> tuple[Item, ...]:
    names = sorted(
        entry.name
        for entry in resources.files(__package__).joinpath("data").iterdir()
        if entry.name.endswith(".txt")
    )
    found = [item for name in names for item in read(name)]
    seen: dict[str, str] = {}
    for item in found:
        if item.id in seen:
            raise LearnError(f"{item.where}: the id {item.id} is taken ({seen[item.id]})")
        seen[item.id] = item.where
    return tuple(found)


def items(game: str | None = None, kind: Kind | None = None) -> list[Item]:
    """The lessons (in teaching order, as their files give them) then the puzzles (easiest
    first), of one game or all, in the registry's order of games."""
    order = list(REGISTRY)
    chosen = [
        item
        for item in _all()
        if (game is None or item.game == game) and (kind is None or item.kind == kind)
    ]
    return sorted(
        chosen,
        key=lambda item: (order.index(item.game), item.kind != "lesson", item.difficulty),
    )


def item_named(id: str) -> Item:
    for item in _all():
        if item.id == id:
            return item
    raise LearnError(
        f"no lesson or puzzle called '{shown(id)}'; `dipole-tui learn --list` lists them"
    )


class Progress:
    """What a player has learned: the lessons done, the puzzles solved and the current and best
    streak of puzzles solved at the first try. Kept as JSON in the data folder, written whole or
    not at all; an unreadable file is set aside (never lost) and progress starts again."""

    FILE = "learned.json"

    def __init__(self, folder: Path) -> None:
        self.path = folder / self.FILE
        self.done: set[str] = set()
        self.streak = 0
        self.best_streak = 0
        self.problem = ""  # why the file was set aside, to be told once
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.done = {str(id) for id in data["done"]}
            self.streak = int(data.get("streak", 0))
            self.best_streak = int(data.get("best_streak", 0))
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError) as error:
            aside = self.path.with_name(f"{self.FILE}.damaged")
            try:
                self.path.replace(aside)
                self.problem = f"progress file unreadable ({error}); kept as {aside}"
            except OSError:
                self.problem = f"progress file unreadable ({error})"

    def finished(self, item: Item, first_try: bool = True) -> None:
        """A lesson done, or a puzzle solved (at the first try or not: the streak)."""
        self.done.add(item.id)
        if item.kind == "puzzle":
            self.streak = self.streak + 1 if first_try else 0
            self.best_streak = max(self.best_streak, self.streak)
        self._save()

    def _save(self) -> None:
        data = {"done": sorted(self.done), "streak": self.streak, "best_streak": self.best_streak}
        write_atomically(self.path, json.dumps(data, indent=1) + "\n")
