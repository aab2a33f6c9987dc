"""The games this program knows, each registered once with everything that serves it.

An entry joins a game's rules to its bots' ladder (whose styles carry the game's knowledge), its
board widget, its help page and the unit its bots' scores are told in. The board is named by
import path, so that the engine tools (`moves`, `perft`, `replay`, `match`, `best`) never load
Textual; a test checks every name resolves.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bots import LEVELS, Bot, RandomBot
from .bots.bipod_eval import LADDER as BIPOD_LADDER
from .bots.bipod_eval import UNIT as BIPOD_UNIT
from .bots.death_stacks_eval import LADDER as DEATH_STACKS_LADDER
from .bots.death_stacks_eval import UNIT as DEATH_STACKS_UNIT
from .bots.dipole_eval import LADDER as DIPOLE_LADDER
from .bots.dipole_eval import UNIT as DIPOLE_UNIT
from .bots.levels import Ladder, create_search_bot
from .bots.score import RAW_UNITS, ScoreUnit
from .games.base import AnyGame, GameError, shown
from .games.bipod import BIPOD
from .games.death_stacks import DEATH_STACKS
from .games.dipole import DIPOLE


@dataclass(frozen=True)
class Entry:
    """One game and what serves it: rules, bots, board and help."""

    game: AnyGame
    ladder: Ladder  # the bot levels (and baselines) that play it, by name
    board: str  # its board widget, "module:Class", imported by the app only
    help_page: str  # its page in dipole_tui/app/help/
    unit: ScoreUnit = RAW_UNITS  # what its levels' scores are told in (`best`)


REGISTRY: dict[str, Entry] = {
    entry.game.key: entry
    for entry in (
        Entry(
            DIPOLE,
            DIPOLE_LADDER,
            "dipole_tui.app.boards.dipole:DipoleBoard",
            "dipole.md",
            DIPOLE_UNIT,
        ),
        Entry(
            DEATH_STACKS,
            DEATH_STACKS_LADDER,
            "dipole_tui.app.boards.death_stacks:DeathStacksBoard",
            "death-stacks.md",
            DEATH_STACKS_UNIT,
        ),
        Entry(
            BIPOD, BIPOD_LADDER, "dipole_tui.app.boards.bipod:BipodBoard", "bipod.md", BIPOD_UNIT
        ),
    )
}


def games() -> list[AnyGame]:
    """The registered games, in the order they are offered."""
    return [entry.game for entry in REGISTRY.values()]


def game_named(key: str) -> AnyGame:
    """The game for a command-line key; GameError lists the ones there are."""
    if key not in REGISTRY:
        known = ", ".join(sorted(REGISTRY))
        raise GameError(f"no game called '{shown(key)}'; expected one of {known}")
    return REGISTRY[key].game


def levels(game_key: str) -> list[str]:
    """The levels a game offers, weakest first: `random`, then its ladder's rungs."""
    ladder = REGISTRY[game_key].ladder
    return [name for name in LEVELS if name == RandomBot.name or name in ladder]


def rating(game_key: str, level: str) -> int:
    """A level's measured Elo over `random` in a game (`random` is 0)."""
    if level == RandomBot.name:
        return 0
    return REGISTRY[game_key].ladder[level].rating or 0


def nearest_level(game_key: str, level: str) -> str:
    """The game's level nearest in the ladder's order to one another game offers: a seat
    carried from game to game keeps about its strength."""
    offered = levels(game_key)
    if level in offered or level not in LEVELS:
        return level
    order = LEVELS.index
    return min(offered, key=lambda name: (abs(order(name) - order(level)), order(name)))


def describe_level(game_key: str, level: str) -> str:
    """A level as players see it: its number on the game's ladder, its name and its rating,
    "3 easy (+640)"; `random` has no number."""
    offered = levels(game_key)
    if level == RandomBot.name:
        return f"{level} (0)"
    return f"{offered.index(level)} {level} ({rating(game_key, level):+d})"


def create_bot(name: str, game_key: str, seed: int | None = None) -> Bot:
    """A bot by name for a game: `random`, or a level of the game's ladder; ValueError for a
    name the game has no bot for."""
    if name == "random":
        return RandomBot(seed)
    return create_search_bot(name, REGISTRY[game_key].ladder, game_named(game_key), seed)
