"""The board and its move entry, played the same way wherever a position is played: the game,
the lessons and the puzzles.

A board's choice counts only in the position it was chosen in (a burst of keys is read before
the first move is played); a typed move is read by the game's own parser, and one the rules
refuse is said with the typed text first and given back to the entry to correct.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic

from textual import on

from ...control.position import Position, position_of
from ...games.base import Game, GameError, M, State, shown
from ..boards.game_board import GameBoard
from ..closing import ClosingScreen
from .side_panel import MoveEntry, MoveTyped


@dataclass(frozen=True)
class Typed(Generic[M]):
    """A typed move read: the move, or why the rules refuse it (`refusal`)."""

    text: str
    move: M | None
    refusal: str = ""


class PlayArea(Generic[M]):
    """What a screen that plays positions holds: its board and its entry."""

    def __init__(self, game: Game[Any, M], board: GameBoard[Any, M], entry: MoveEntry) -> None:
        self.game = game
        self.board = board
        self.entry = entry

    def here(self, position: Position, state: State[M]) -> bool:
        """The game is still where the board's move was chosen."""
        return position == position_of(state)

    def open_entry(self) -> None:
        """At once, not later: keys typed fast follow the ':'."""
        self.entry.placeholder = ""
        self.entry.screen.set_focus(self.entry)

    def close_entry(self) -> None:
        self.entry.placeholder = MoveEntry.PLACEHOLDER
        self.entry.value = ""
        self.entry.screen.set_focus(self.board)

    def read(self, text: str, state: State[M]) -> Typed[M]:
        """The game's parser reads the move: only a move legal here comes back."""
        try:
            return Typed(text, self.game.parse_move(text, state))
        except GameError as error:
            reason = str(error)  # the typed text first, unless the reason starts with it
            said = reason if reason.startswith(shown(text)) else f"{shown(text)}: {reason}"
            self.entry.give_back(text)
            return Typed(text, None, said)


class TriesMoves(ClosingScreen[Any]):
    """A screen where a player tries moves on one position, by the board or typed (the
    exercises, the review's mistakes): a board's move counts only in the position it was chosen
    in, and a typed one is read by the game's parser. What a try does is the screen's own."""

    area: PlayArea[Any]
    state: State[Any]

    def say(self, text: str, kind: str = "") -> None:
        raise NotImplementedError

    def not_now(self) -> str:
        """Why no move may be tried now ("": one may)."""
        return ""

    def refused(self, refusal: str) -> None:
        """A typed move the rules refuse, said."""
        self.say(refusal, "bad")

    def try_move(self, move: Any) -> None:
        raise NotImplementedError

    @on(GameBoard.MoveChosen)
    @on(GameBoard.MoveToConfirm)
    def chosen(self, event: GameBoard.MoveChosen[Any] | GameBoard.MoveToConfirm[Any]) -> None:
        """Keys and clicks of one burst are all read before the first move is played."""
        event.stop()
        if self.area.here(event.position, self.state) and not self.not_now():
            self.try_move(event.move)
        else:
            self.area.board.choose_again()

    @on(MoveTyped)
    def typed(self, event: MoveTyped) -> None:
        if event.entry is not self.area.entry:
            return
        event.stop()
        text = event.text
        if why := self.not_now():
            self.say(why)
            return
        typed = self.area.read(text, self.state)
        if typed.move is None:
            self.refused(typed.refusal)
            self.app.bell()
            return
        if not event.typed_ahead:  # as in the game: the board's keys (i, s, n) are back
            self.area.close_entry()
        self.try_move(typed.move)

    @on(MoveEntry.Left)
    def left_entry(self) -> None:
        self.area.close_entry()
