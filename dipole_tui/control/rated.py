"""Which games rate you at home, and what is said of your rating: the keeper's part of
`results.py`, with no Textual.

A game counts when a person played a level of the ladder (the adaptive bot at the level it
played at) from the variant's start, and it ended with a result here: a win, a loss or a draw.
Hot-seat games, bots against bots and online games (the other seat is a server's) do not; an
aborted game has no result, and a game taken up finished (opened) was counted when it ended,
or never was ours. Each game counts once: undoing past its end and playing on does not count
it again.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from ..records import from_the_start
from ..registry import game_named, levels, rating
from ..results import DATE_FORMAT, Result, Results, counted, rating_words
from ..session import Seat, Session
from .changes import Notice


def rated_result(
    whole: Session[Any], level_of: Callable[[Seat, str], str], now: datetime
) -> Result | None:
    """The entry a finished game makes, or None when it does not rate (see the module)."""
    seats, outcome, key = whole.players, whole.outcome, whole.game.key
    people = [side for side, seat in enumerate(seats) if seat.is_person]
    if outcome is None or len(people) != 1 or not seats[1 - people[0]].is_bot:
        return None
    level = level_of(seats[1 - people[0]], key)
    if level not in levels(key) or not from_the_start(whole.game, whole.state):
        return None
    results = {None: "draw", people[0]: "win", 1 - people[0]: "loss"}
    result = results[outcome.winner]
    return Result(
        now.strftime(DATE_FORMAT),
        key,
        whole.state.variant,
        level,
        rating(key, level),
        result,
        whole.state.plies,
    )


class HomeRatings:
    """The results kept in the data folder, counted as games end, and the rating line the
    panel shows."""

    def __init__(self, folder: Path) -> None:
        self.results = Results(folder)
        self.counted = False  # the game on screen has been counted (or will never be)

    @property
    def problem(self) -> str:
        """The results file set aside, to be said once (then cleared by the keeper)."""
        return self.results.problem

    @problem.setter
    def problem(self, value: str) -> None:
        self.results.problem = value

    def take_up(self, finished: bool) -> None:
        """A game begins on screen: one taken up finished is never counted."""
        self.counted = finished

    def ended(self, whole: Session[Any], level_of: Callable[[Seat, str], str]) -> list[Notice]:
        """The game on screen is over: kept, once, if it rates; the change said."""
        if self.counted:
            return []
        self.counted = True
        entry = rated_result(whole, level_of, datetime.now())
        if entry is None:
            return []
        before = self.results.stats(entry.game).rating
        try:
            self.results.add(entry)
        except OSError as error:
            return [Notice(f"could not keep the result: {error.strerror or error}", "Rating")]
        after = self.results.stats(entry.game).rating
        change = round(after.rating) - round(before.rating)
        said = f"Your {whole.game.name} rating: {rating_words(before)} → {rating_words(after)}"
        return [Notice(f"{said} ({change:+d}).", "Rating", timeout=10)]

    def line(self, session: Session[Any]) -> str:
        """The panel's line in a game between a person and a bot: your rating in its game
        ("" in any other game)."""
        people = [seat for seat in session.players if seat.is_person]
        if len(people) != 1 or not any(seat.is_bot for seat in session.players):
            return ""
        return f"Your rating {self.rating(session.game.key)}"

    def said(self, game_key: str) -> str:
        """Your rating in a game and how many games made it, as the new-game dialog says it."""
        found = self.results.stats(game_key)
        games = counted(found.total.games) if found.total.games else "no games yet"
        return f"Your rating in {game_named(game_key).name}: {rating_words(found.rating)} ({games})"

    def rating(self, game_key: str) -> str:
        """Your rating in a game, as lichess writes it (`1432?`)."""
        return rating_words(self.results.stats(game_key).rating)
