"""Ending a game by a player's act or by the clock: `R` resigns (asked once; before each side
has moved once it aborts), `D` offers a draw where the game has draws (the other player
answers; a bot answers by its evaluation), and the clocks tick in the side panel, a flag
ending the game on time. A part the game screen owns (`game.py`); the rules of it are the
session's (`Session.resign`, `abort`, `agree_draw`, `flag`), through the keeper's referee
(`referee.py`): online the server's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.timer import Timer

from ...clock import low_time
from ...control.bot_controller import DrawAnswer
from ...control.changes import Change
from ...games.base import GameError
from ..dialogs.choice import ChoiceScreen

if TYPE_CHECKING:
    from .game import GameScreen

CLOCK_TICK = 0.1  # seconds between two redraws of the running clock (it shows tenths at the end)
DRAW_THINKING = 0.3  # seconds a bot looks at the position before it answers a draw offer


class GameEndings:
    """Resigning, draw offers and the clocks."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen
        self.keeper = screen.keeper
        self.panel = screen.panel
        self.bots = screen.bots
        self._ticking: Timer | None = None
        self._warned: tuple[int, ...] = ()  # the sides whose low time the bell has said

    # -- resigning ---------------------------------------------------------------------------

    def resign(self) -> None:
        screen, session = self.screen, self.keeper.session
        side = self.keeper.acting_side()
        if side is None:
            screen.refuse("Nobody can resign: " + self._why_nobody())
            return
        if self.keeper.referee.may_abort():
            self._ask_abort()
            return
        name = session.game.side_names[side]
        answers = [("Keep playing", "no"), ("Resign", "yes")]

        def answered(answer: str | None) -> None:
            if answer == "yes" and self.keeper.session.outcome is None:
                self._end(lambda: self.keeper.referee.resign(side))

        text = f"{name} resigns: the game ends and the opponent wins."
        screen.app.push_screen(ChoiceScreen("Resign this game?", text, answers, "no"), answered)

    def _ask_abort(self) -> None:
        """Before each side has moved once, `R` calls the game off instead, as lichess's
        Abort: no result, and nothing of it kept."""
        answers = [("Keep playing", "no"), ("Abort", "yes")]

        def answered(answer: str | None) -> None:
            if answer == "yes" and self.keeper.referee.may_abort():
                self.bots.cancel()
                self._end(self.keeper.referee.abort)

        text = (
            "Fewer than two moves are played: the game is called off with no result, and not kept."
        )
        question = ChoiceScreen("Abort this game?", text, answers, "no")
        self.screen.app.push_screen(question, answered)

    def _why_nobody(self) -> str:
        if self.keeper.session.outcome is not None:
            return "the game is over."
        return "bots play both sides."

    def _end(self, act: Callable[[], Change]) -> None:
        try:
            change = act()
        except GameError as error:
            self.screen.refuse(f"{error}.")
            return
        self.screen.after_change(change)

    # -- draw offers -------------------------------------------------------------------------

    def offer_draw(self) -> None:
        screen, session = self.screen, self.keeper.session
        side = self.keeper.acting_side()
        if not session.game.can_draw:
            screen.refuse(f"{session.game.name} has no draws: a game ends with a winner.")
            return
        if side is None:
            screen.refuse("Nobody can offer a draw: " + self._why_nobody())
            return
        other = 1 - side
        names = session.game.side_names
        if self.keeper.referee.relays_offers:  # the server asks the other player
            self._end(self.keeper.referee.draw)
            return
        if session.players[other].is_person:
            answers = [("Decline", "no"), ("Accept the draw", "yes")]

            def answered(answer: str | None) -> None:
                if answer == "yes" and self.keeper.session.outcome is None:
                    self._end(self.keeper.referee.draw)
                else:
                    self.panel.say(f"{names[other]} declined the draw.")

            text = f"{names[side]} offers a draw. {names[other]}, do you accept?"
            question = ChoiceScreen("A draw offered", text, answers, "no")
            screen.app.push_screen(question, answered)
            return
        if self.bots.weighing:
            screen.refuse(f"{names[other]} is still considering your offer.")
            return
        self.panel.say(f"{names[other]} considers your offer...")
        self.bots.weigh_draw(session, other, DRAW_THINKING)

    def draw_answered(self, answer: DrawAnswer) -> None:
        """The bot's answer, in its process, to the offer (`analysis.accepts_draw`); the
        controller drops it if a move was played meanwhile: the offer lapsed."""
        name = self.keeper.session.game.side_names[answer.side]
        if answer.accepts is None:
            log = self.keeper.error_log
            self.panel.say(f"Sorry: {name} could not weigh the offer; what went wrong is in {log}")
        elif answer.accepts:
            self._end(self.keeper.referee.draw)
        else:
            self.panel.say(f"{name} declines the draw.")

    # -- the clocks ----------------------------------------------------------------------------

    def follow_clock(self) -> None:
        """A game began or changed: its clock runs while it goes on, and is drawn."""
        session = self.keeper.session
        if session.clock is None or session.outcome is not None:
            if self._ticking is not None:
                self._ticking.stop()
                self._ticking = None
            self.panel.show_clocks()
            return
        self.keeper.referee.start_clock()  # online the server's clocks say when they run
        if self._ticking is None:
            self._ticking = self.screen.set_interval(CLOCK_TICK, self.tick)
        self.panel.show_clocks()

    def tick(self) -> None:
        if not self.screen.app.is_running:
            return
        self._warn_low_time()
        change = self.keeper.tick()
        if change is not None:
            self.screen.after_change(change)
        else:
            self.panel.show_clocks()

    def _warn_low_time(self) -> None:
        """The bell once when the running clock becomes low (the panel draws it red): a
        player looking at the board hears it. Time given back (an undo) lets it ring again."""
        clock = self.keeper.session.clock
        if clock is None or not clock.ticking:
            return
        side, low = clock.to_move, low_time(clock.control)
        if clock.remaining(side) >= low:
            self._warned = tuple(s for s in self._warned if s != side)
        elif side not in self._warned and clock.marks[clock.ply].times[side] >= low:
            self._warned += (side,)  # it ran low on this turn, not before it began
            self.screen.app.bell()


__all__ = ["CLOCK_TICK", "GameEndings"]
