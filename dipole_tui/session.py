"""A game in progress, as the app sees it: rules state, players, redo, forced passes.

No Textual here, and no files but the one a player saves to (`saves.py` keeps the autosave and
the kept games): the app drives a `Session`, and tests drive it directly. Undo and redo walk the
history without losing it, which is also how a finished game is reviewed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Generic

from . import storage
from .adaptive import ADAPTIVE
from .bots import LEVELS
from .games.base import Figures, Game, GameError, IllegalMoveError, M, Outcome, State
from .records import (
    Record,
    RecordError,
    format_record,
    parse_record,
)
from .registry import game_named, levels

HUMAN = "human"
# Who can sit at a side: a person, or a bot of the ladder.
PLAYERS: tuple[str, ...] = (HUMAN, *LEVELS, ADAPTIVE)  # ADAPTIVE: a level that follows you


def players(game_key: str) -> tuple[str, ...]:
    """Who can sit at a side in one game: its own levels only."""
    return (HUMAN, *levels(game_key), ADAPTIVE)


@dataclass
class Session(Generic[M]):
    """One game being played: undo keeps the undone moves for redo until a new move is made."""

    game: Game[Any, M]
    state: State[M]
    players: tuple[str, str] = (HUMAN, HUMAN)
    tags: dict[str, str] = field(default_factory=dict)
    redo_moves: list[M] = field(default_factory=list)

    @classmethod
    def new(
        cls,
        game: Game[Any, M],
        variant: str | None = None,
        players: tuple[str, str] = (HUMAN, HUMAN),
    ) -> Session[M]:
        session = cls(game, game.new(variant), players)
        session.tags["Date"] = datetime.now().strftime("%Y.%m.%d")
        session.pass_if_forced()
        return session

    @classmethod
    def from_text(cls, text: str) -> Session[Any]:
        """A session from a saved record's text; RecordError when the record is bad."""
        return cls.from_record(parse_record(text))

    @classmethod
    def from_record(cls, record: Record) -> Session[Any]:
        offered = players(record.game.key)
        seats = tuple(
            name if name in offered else HUMAN
            for name in (record.tags.get("White", HUMAN), record.tags.get("Black", HUMAN))
        )
        session = cls(record.game, record.state, (seats[0], seats[1]), dict(record.tags))
        session.tags.pop("Result", None)
        session.pass_if_forced()
        return session

    # -- the game --------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome()

    @property
    def last_move(self) -> M | None:
        played = self.state.moves_played
        return played[-1] if played else None

    def human_sides(self) -> list[int]:
        """The sides a person plays: undo and redo stop on their turns."""
        return [side for side, seat in enumerate(self.players) if seat == HUMAN]

    def is_pass(self, move: M) -> bool:
        return self.game.is_pass(move)

    def play(self, move: M) -> list[M]:
        """Play a move, then any forced passes; returns the passes played for it. The last
        guard: a move not legal here (a stale click, a confirm pressed twice, an answer for
        another position) raises IllegalMoveError and changes nothing."""
        if not self.state.is_legal(move):
            raise IllegalMoveError(self._refusal(move))
        self.state.play(move)
        self.redo_moves.clear()
        return self.pass_if_forced()

    def _refusal(self, move: M) -> str:
        """Why `move` cannot be played now, in the rules' words where they have them."""
        if self.outcome is not None:
            return "the game is over"
        try:
            text = self.game.format_move(move)
        except Exception:  # not even a move of this game
            return "that is not a move of this game"
        try:
            self.game.parse_move(text, self.state)
        except GameError as error:
            return str(error)
        return f"{text} is not legal here"

    def pass_if_forced(self) -> list[M]:
        """A side whose only move is a pass passes at once: the program does it, and says so."""
        passes: list[M] = []
        while True:
            legal = self.state.legal_moves()
            if len(legal) != 1 or not self.is_pass(legal[0]):
                return passes
            self.state.play(legal[0])
            passes.append(legal[0])

    def can_undo(self) -> bool:
        return any(not self.is_pass(move) for move in self.state.moves_played)

    def undo(self) -> list[M]:
        """Take back the last chosen move and the forced passes after it (returned oldest first),
        back to the last position where a player chose."""
        undone: list[M] = []
        while self.can_undo():
            move = self.state.undo()
            undone.insert(0, move)
            if not self.is_pass(move):
                break
        self.redo_moves[:0] = undone
        return undone

    def redo(self) -> list[M]:
        """Replay the next undone move and the forced passes after it."""
        redone: list[M] = []
        while self.redo_moves and (not redone or self.is_pass(self.redo_moves[0])):
            move = self.redo_moves.pop(0)
            self.state.play(move)
            redone.append(move)
        return redone

    def undo_to_human(self) -> list[M]:
        """Undo, and against a bot go on back to a person's turn: the bot's reply is taken back
        with the move it answered. With no person playing, or none, one choice as `undo`."""
        undone = self.undo()
        humans = self.human_sides()
        while undone and humans and self.state.to_move not in humans and self.can_undo():
            undone[:0] = self.undo()
        return undone

    def redo_to_human(self) -> list[M]:
        """Redo as `undo_to_human` undid: a person's move comes back with the bot's reply."""
        redone = self.redo()
        humans = self.human_sides()
        while redone and humans and self.state.to_move not in humans and self.redo_moves:
            redone += self.redo()
        return redone

    def figures(self) -> Figures:
        """What the side panel counts for each side: the game says."""
        return self.game.figures(self.state)

    # -- records ---------------------------------------------------------------------------

    def record_text(self) -> str:
        tags = dict(self.tags)
        tags["White"], tags["Black"] = self.players
        return format_record(self.game, self.state, tags)

    def whole_game(self) -> Session[M]:
        """The game with every undone move replayed: what a review must never lose."""
        if not self.redo_moves:
            return self
        state = self.state.copy()
        for move in self.redo_moves:
            state.play(move)
        return Session(self.game, state, self.players, dict(self.tags))

    def save(self, path: Path | str) -> None:
        storage.write_text(path, self.checked_record())

    def checked_record(self) -> str:
        """The game's record, read back before it may replace anything: a record that would not
        replay to the same game is refused (RecordError), so a save can never lose a game."""
        text = self.record_text()
        try:
            back = Session.from_text(text).state
        except GameError as error:
            raise RecordError(
                f"the game could not be written so that it reads back ({error})"
            ) from None
        if back.moves_played != self.state.moves_played or back != self.state:
            raise RecordError("the game could not be written so that it reads back as it is")
        return text


__all__ = ["HUMAN", "PLAYERS", "Figures", "Session", "game_named", "players"]
