"""Your games against the bots' ladder, kept, and what they say of you: a Glicko-2 rating per
game, the record against each level, the rating over time and the longest winning streak.

Each finished game between a person and a level of the ladder (the app decides which count:
`control/rated.py`) is one entry of `results.json` in the data folder, written whole or not at
all through `storage`. Everything else is computed from the entries, never stored: a rating
cannot drift from the games it was made of.

The scale: a level's rating is its measured Elo over `random` (`registry.rating`), and Glicko-2
rates on the same logistic scale (400 points, ten to one), so a level's Glicko rating is its Elo
plus `ANCHOR`, the rating of `random`. `ANCHOR` is 0: your rating reads on the scale the ladder
is shown in (`easy (+628)`), every level fits within the bounds a `Rating` keeps (0 to 4000;
Death Stacks' `hard` is +3807), and a new player starts at Glicko's 1500 ± 350 as on lichess.
Each game is a rating period of one bout, as the puzzle rating is (a rating never drifts while
the player is away); a level's deviation is `LEVEL_RD`, about how far the ladder's summed
measurements may be off.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from . import storage
from .bots import LEVELS
from .games.base import shown
from .learn.rating import Bout, Rating, update

ANCHOR = 0  # the Glicko-2 rating of `random`: a level's is its Elo over random plus this
LEVEL_RD = 60.0  # a level's deviation: its rating is the sum of a few 200-game measurements
LIMIT = 4 * storage.MB  # the file's bound: some 30,000 games
MOST_ENTRIES = 20_000  # past this a game is not added (said once), the file is never cut
DATE_FORMAT = "%Y-%m-%d %H:%M"
SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}
_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")  # a game's or a level's name as files hold it
_MOST_PLIES = 1_000_000
_MOST_LEVEL_RATING = 10_000


@dataclass(frozen=True)
class Result:
    """One game against a level: when, which game and board, the level and its rating then
    (a ladder measured again later does not rewrite the past), your result and its length."""

    date: str  # local time, DATE_FORMAT
    game: str
    variant: str
    level: str
    level_rating: int  # Elo over random, as the ladder said when it was played
    result: str  # "win", "loss" or "draw": yours
    plies: int

    def __post_init__(self) -> None:
        """A figure out of its bounds, or text not of its shape, is a ValueError: a file's
        entry is taken whole or the file is not."""
        datetime.strptime(self.date, DATE_FORMAT)  # a ValueError says what it expected
        for name in ("game", "level"):
            value = getattr(self, name)
            if not isinstance(value, str) or not _KEY.fullmatch(value):
                raise ValueError(f"the {name} is not a name of lowercase letters and digits")
        if not isinstance(self.variant, str) or len(self.variant) > 40:
            raise ValueError("the variant is not a text of at most 40 characters")
        for name, most in (("level_rating", _MOST_LEVEL_RATING), ("plies", _MOST_PLIES)):
            value = getattr(self, name)
            if type(value) is not int or not -most <= value <= most:
                raise ValueError(f"the {name} is not a whole number within ±{most}")
        if self.plies < 0:
            raise ValueError("the plies are fewer than none")
        if self.result not in SCORES:
            raise ValueError("the result is not win, loss or draw")

    @property
    def bout(self) -> Bout:
        """The game as Glicko-2 counts it: the level's rating on the Glicko scale."""
        return Bout(ANCHOR + self.level_rating, LEVEL_RD, SCORES[self.result])

    @classmethod
    def read(cls, data: object) -> Result:
        """An entry of the file; ValueError (or TypeError) when it is not one."""
        if not isinstance(data, dict):
            raise ValueError("an entry is not an object")
        fields: dict[str, Any] = {name: data.get(name) for name in cls.__dataclass_fields__}
        return cls(**fields)


def rating_words(rating: Rating) -> str:
    """A rating as lichess shows it: whole, `?` while it is provisional (`1432?`)."""
    return f"{round(rating.rating)}{'?' if rating.provisional else ''}"


@dataclass
class Tally:
    """Games, wins, losses and draws."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def count(self, result: str) -> None:
        if result == "win":
            self.wins += 1
        elif result == "loss":
            self.losses += 1
        else:
            self.draws += 1


@dataclass
class GameStats:
    """What one game's entries say: the rating after each of them (the first is a new
    player's, before any game), the record per level (weakest first) and in all, and the
    longest run of wins."""

    game: str
    ratings: list[Rating] = field(default_factory=lambda: [Rating()])
    levels: dict[str, Tally] = field(default_factory=dict)
    total: Tally = field(default_factory=Tally)
    longest_streak: int = 0

    @property
    def rating(self) -> Rating:
        return self.ratings[-1]


def summary(found: GameStats) -> str:
    """A game's statistics in a line or two of words, for the screen and the command."""
    total, rating = found.total, found.rating
    if not total.games:
        return "No games against the bots yet."
    said = f"Rating {rating_words(rating)} ± {round(rating.rd)}, {counted(total.games)}: "
    said += f"{total.wins} won, {total.losses} lost, {total.draws} drawn."
    return said + f" Longest winning streak: {found.longest_streak}."


def counted(games: int) -> str:
    return f"{games} game{'s' * (games != 1)}"


def stats(entries: Iterable[Result], game: str) -> GameStats:
    """One game's statistics from the entries, in the order they were played."""
    found = GameStats(game)
    streak = 0
    levels: dict[str, Tally] = {}
    for entry in entries:
        if entry.game != game:
            continue
        found.ratings.append(update(found.rating, [entry.bout]))
        levels.setdefault(entry.level, Tally()).count(entry.result)
        found.total.count(entry.result)
        streak = streak + 1 if entry.result == "win" else 0
        found.longest_streak = max(found.longest_streak, streak)
    order = {name: at for at, name in enumerate(LEVELS)}
    for level in sorted(levels, key=lambda name: (order.get(name, len(order)), name)):
        found.levels[level] = levels[level]
    return found


def games_played(entries: Iterable[Result]) -> list[str]:
    """The games with entries, in the order first played."""
    return list(dict.fromkeys(entry.game for entry in entries))


class Results:
    """The entries of `results.json`. A file that cannot be read, or holds anything but
    entries, is set aside under a new name (`problem` says so, to be told once) and the games
    are counted anew: nothing is deleted."""

    FILE = "results.json"

    def __init__(self, folder: Path) -> None:
        self.path = folder / self.FILE
        self.problem = ""
        self.entries = self._read()
        self._stats: dict[str, GameStats] = {}  # each game's, computed when first asked

    def _read(self) -> list[Result]:
        entries, problem = storage.read_settings(self.path, "a results file", _entries, LIMIT)
        if problem:
            self.problem = problem
        return entries or []

    def add(self, result: Result) -> None:
        """One game more, written with the others (read again first: another window of the app
        may have added one). OSError, one sentence, when it cannot be kept."""
        entries = self._read()
        if len(entries) >= MOST_ENTRIES:
            raise OSError(f"{storage.named(self.path)} holds {MOST_ENTRIES} games, its most")
        storage.write_settings(self.path, _text([*entries, result]))
        self.entries, self._stats = [*entries, result], {}  # only once it is kept

    def stats(self, game: str) -> GameStats:
        """A game's statistics (computed once until a game is added: the panel asks often)."""
        if game not in self._stats:
            self._stats[game] = stats(self.entries, game)
        return self._stats[game]


def _entries(data: object) -> list[Result]:
    """The entries a `results.json` holds; ValueError when it is not `{"results": [...]}`."""
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise ValueError('expected {"results": [...]}')
    listed: list[object] = data["results"]
    if len(listed) > MOST_ENTRIES:
        raise ValueError(f"more than {MOST_ENTRIES} games")
    entries = []
    for number, item in enumerate(listed, 1):
        try:
            entries.append(Result.read(item))
        except (ValueError, TypeError) as error:
            raise ValueError(f"game {number}: {shown(str(error), 80)}") from None
    return entries


def _text(entries: Sequence[Result]) -> str:
    """The file: an entry a line, so that it reads (and diffs) as a list of games."""
    lines = ",\n".join(json.dumps(asdict(entry), ensure_ascii=False) for entry in entries)
    return '{"results": [\n' + lines + "\n]}\n"


__all__ = [
    "ANCHOR",
    "LEVEL_RD",
    "GameStats",
    "Result",
    "Results",
    "Tally",
    "counted",
    "games_played",
    "rating_words",
    "stats",
    "summary",
]
