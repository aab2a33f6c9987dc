"""The bots on the game screen: a bot's turn asked of its process, its answer played (or said
when the search failed), a hint marked and said, watching bots paused and stepped. A part the
game screen owns (`game.py`); when a bot is asked and which answer still counts is the bots'
controller's (`bot_controller.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...control.bot_controller import HINT_BOT, Answer, DrawAnswer
from ...games.base import GameError

if TYPE_CHECKING:
    from .game import GameScreen


class BotTurns:
    """What the game screen does with the bots' answers, and the keys that ask them."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def answered(self, answer: Answer | DrawAnswer) -> None:
        """An answer the game still waits for (about the position on the board: the controller
        drops the others): the bot's move is played, a hint marked, a draw offer answered."""
        screen = self.screen
        if isinstance(answer, DrawAnswer):
            screen.endings.draw_answered(answer)
            return
        session = screen.session
        if answer.text is None:  # the search failed
            who = "the hint" if answer.hint else "the bot"
            log = screen.keeper.error_log
            screen.show(f"Sorry: {who} found no move here; what went wrong is in {log}")
            return
        try:
            move = session.game.parse_move(answer.text, session.state)
        except GameError:  # the game moved on after all
            move = None
        if answer.hint:
            screen.board.show_hint(move)  # not a move here after all: the words alone
            said = f"Hint: {HINT_BOT} would play {answer.text}."
            if len(answer.line) > 1:
                said += f" Best line: {session.game.move_separator.join(answer.line)}."
            screen.panel.say(said)
        elif move is None:
            self.turn()  # ask again
        else:
            screen.play(move)

    def turn(self, step: bool = False) -> None:
        """If a bot is to move, let it think in its own process; the screen stays live."""
        self.screen.bots.take_turn(self.screen.session, step)
        self.screen.panel.show_turn()

    def pause(self) -> None:
        """Bot against bot: stop watching between moves, or go on."""
        bots = self.screen.bots
        if bots.paused:
            bots.paused = False
            self.turn()
        else:
            bots.pause()
            self.screen.panel.show_turn()

    def hint(self) -> None:
        """Ask `hard` what it would play here, without playing it."""
        if not self.screen.bots.hint(self.screen.session):
            self.screen.app.bell()
            return
        self.screen.panel.say("Thinking of a hint...")


__all__ = ["BotTurns"]
