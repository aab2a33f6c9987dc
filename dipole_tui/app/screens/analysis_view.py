"""The analysis on the game screen: the evaluation bar, the score and best lines in the panel,
and the best move marked on the board as a hint's is. A part the game screen owns (`game.py`);
which analysis is still wanted is the analysis mode's (`analysis_mode.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...games.base import GameError
from ...registry import REGISTRY

if TYPE_CHECKING:
    from .game import GameScreen


class AnalysisView:
    """What the analysis found, shown; and turning it on or off."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def show(self) -> None:
        """The analysis found more, or was turned on or off: its best move is marked on the
        board as a hint's is (gone with the analysis)."""
        screen = self.screen
        screen.panel.show_analysis()
        self.show_bar()
        found, session = screen.analysis.latest, screen.session
        if screen.walk.viewing is not None or not screen.analysis.on:
            return
        move = None
        if found is not None and found.line:
            try:
                move = session.game.parse_move(found.line[0], session.state)
            except GameError:  # about another position after all
                move = None
        screen.board.show_hint(move)

    def show_bar(self) -> None:
        """The evaluation bar: the latest score's share, the winner's whole bar once the game is
        over; the last share kept while the new position's first depth is awaited."""
        screen = self.screen
        screen.eval_bar.display = screen.analysis.on
        session = screen.session
        share: float | None = None
        if session.outcome is not None:
            winner = session.outcome.winner
            share = 0.5 if winner is None else float(winner == 0)
        elif (found := screen.analysis.latest) is not None:
            unit = REGISTRY[session.game.key].unit
            share = found.score.first_side_share(unit)
        screen.eval_bar.show(share, screen.board.flipped)

    def toggle(self) -> None:
        """Analysis on or off: the bar, the score in words and the best line, live."""
        screen = self.screen
        screen.analysis.toggle(screen.session)
        screen.analysis_on = screen.analysis.on
        if not screen.analysis.on:
            screen.board.show_hint(None)


__all__ = ["AnalysisView"]
