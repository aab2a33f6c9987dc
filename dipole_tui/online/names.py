"""The names a player plays under, one per server, each with the token that is its only key:
kept in `names.json` in the data folder, readable by its owner alone (there is no password: who
holds the token holds the name)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from .. import storage
from ..games.base import shown
from .protocol import PLAYER_NAME, SECRET, Claim
from .seat import MOST_TEXT, SEATS_MODE, normalised

NAMES_FILE = "names.json"
MOST_NAMES = 200  # servers remembered: the oldest go first


@dataclass(frozen=True)
class KeptName:
    server: str
    name: str
    token: str


def name_problem(text: str) -> str:
    """Why `text` cannot be a player's name ("" when it can): said before any server is asked."""
    if PLAYER_NAME.fullmatch(text):
        return ""
    return f"'{shown(text, 40)}' is not a name: 3 to 20 letters (a-z, A-Z), digits, _ or -"


class NameBook:
    """The player's names, by server (`names.json`); `problem` says once why a file that was
    not a book of names was set aside."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / NAMES_FILE
        self.problem = ""

    def names(self) -> list[KeptName]:
        kept, problem = storage.read_settings(self.path, "a book of names", _names)
        self.problem = problem or self.problem
        return kept or []

    def find(self, server: str) -> KeptName | None:
        where = normalised(server)
        return next((kept for kept in self.names() if normalised(kept.server) == where), None)

    def claim(self, server: str, name: str | None) -> Claim | None:
        """What to claim on `server`: `name` (with its token when it is the one kept there:
        names are told apart in any case), else the name kept there, else none."""
        kept = self.find(server)
        if name is None:
            return None if kept is None else Claim(kept.name, kept.token)
        same = kept is not None and kept.name.lower() == name.lower()
        return Claim(name, kept.token if same and kept is not None else None)

    def keep(self, server: str, name: str, token: str) -> None:
        """The name and token of that server, in place of any other (OSError when the book
        cannot be written: the caller says so, and the name is lost with its token)."""
        where = normalised(server)
        names = [kept for kept in self.names() if normalised(kept.server) != where]
        names = [*names[-(MOST_NAMES - 1) :], KeptName(server, name, token)]
        text = json.dumps([asdict(kept) for kept in names], indent=1) + "\n"
        storage.write_settings(self.path, text, mode=SEATS_MODE)


def _names(data: object) -> list[KeptName]:
    """The entries of a `names.json`; ValueError naming the first that is not one."""
    if not isinstance(data, list):
        raise ValueError("expected a list of names")
    return [_name(entry, number) for number, entry in enumerate(data, 1)]


def _name(entry: object, number: int) -> KeptName:
    if isinstance(entry, dict):
        server, name, token = (entry.get(key) for key in ("server", "name", "token"))
        if (
            isinstance(server, str)
            and len(server) <= MOST_TEXT
            and isinstance(name, str)
            and PLAYER_NAME.fullmatch(name)
            and isinstance(token, str)
            and SECRET.fullmatch(token)
        ):
            return KeptName(server, name, token)
    raise ValueError(f"entry {number} is not a name (server, name, token)")


__all__ = ["NAMES_FILE", "KeptName", "NameBook", "name_problem"]
