"""A puzzle on the real board (`PuzzleScreen`): the player wins against the solver's longest
defence, one move of the line at each turn.

The first try is rated (`Progress.rate`): solved without a wrong move or a hint, a win; else a
loss, kept as soon as it happens (leaving the puzzle does not undo it). The change is told when
the puzzle is solved; a try again (`r`), or the puzzle met another time, leaves the rating be.

A wrong move is not played but explained by the analysis process (`wrong_moves.py`): what it
lets the other side do, with the line after it and who plays each move. The defence's replies
are said and marked as the board marks a last move; the panel lists the moves since the puzzle
began and whose turn it is. `i` hints in steps, each press one more: what kind of move and which
piece (the game's `move_words`), then the move marked on the board, then the whole line.
"""

from __future__ import annotations

from typing import Any

from textual import on

from ...learn import Change, Item, Progress
from ...records import numbered_moves
from ...workers.tracker import Connect, Tracker
from ..commands import command
from ..worker_messages import WorkerAnswered, answers_to
from .learning import ExerciseScreen
from .wrong_moves import WrongMoves, plies_said, sides


class PuzzleScreen(ExerciseScreen):
    BINDINGS = [command("i", "hint", "Hint", "One step more: the kind of move, the move, the line")]

    def __init__(
        self, item: Item, progress: Progress, ascii_glyphs: bool, analyst: Connect
    ) -> None:
        super().__init__(item, progress, ascii_glyphs)
        self.step = 0  # moves of the line played
        self.player = self.state.to_move
        self.defender = self.game.side_names[1 - self.player]
        self.board.flipped = self.player == 1  # the solver's side nearest, as a player sits
        self.hints = 0  # hint steps taken at this turn
        self.helped = False  # a hint was taken: not solved at the first try
        self.shown_solution = False  # the whole line was shown: each next move is marked
        self.explainer = WrongMoves(self, Tracker(answers_to(self), analyst, latest_only=True))
        self._change: Change | None = None  # the rating's, by this puzzle, until told

    def task_text(self) -> str:
        side = self.game.side_names[self.player]
        if role := self.game.role(self.state, self.player):
            side += f" ({role})"
        return (
            f"Play {side}: win in {plies_said(self.item.plies)} against the best defence. At each "
            "turn one move only wins that fast."
        )

    def players_turn(self) -> bool:
        return self.state.to_move == self.player and self.step < len(self.item.solution)

    def moves_text(self) -> str:
        """The moves since the puzzle began, numbered as a record numbers them, and whose
        turn it is."""
        played = self.state.moves_played[len(self.item.before) :]
        lines = numbered_moves(self.game, self.player, played)
        if self.state.outcome() is None:
            you = " (you)" if self.state.to_move == self.player else ""
            lines.append(f"{self.game.side_names[self.state.to_move]} to move{you}.")
        return "Moves:" + ("\n" if played else " none yet. ") + "\n".join(lines)

    # -- the player's move and the defence's answer ---------------------------------------------

    def attempt(self, move: Any, text: str) -> None:
        if text == self.item.solution[self.step]:
            self.step += 1
            self.hints = 0
            self.play(text)
            self._go_on()
            return
        self.tries += 1
        self.show()
        self.explainer.explain(move, text)
        self._lost()

    def refused(self, refusal: str) -> None:
        super().refused(refusal)
        self._lost()

    @property
    def _first_try(self) -> bool:
        """No wrong move, refused move nor hint yet: the streak's first try and the rating's."""
        return self.tries == 0 and not self.helped

    def _lost(self) -> None:
        """After a wrong move, a refused one or a hint: if the first try is over, as the streak
        counts it, a loss, rated and kept now."""
        if self._first_try:
            return
        change = self.progress.rate(self.item, won=False)  # None: rated before
        if change is None:
            return
        self._change = change
        try:
            self.progress.save()
        except OSError as error:
            self.notify(
                f"Your rating could not be saved: {error.strerror or error}", severity="error"
            )

    def _go_on(self) -> None:
        """After the player's move: solved, or the defence's reply after a moment."""
        if self.step == len(self.item.solution):
            self._solved("Right.")
            return
        self.board.interactive = False
        self.say(f"Right. {self.defender} answers...", "green")
        self.reply_soon(self._defend)

    def _defend(self) -> None:
        """The defence's move of the line, said and marked on the board (its last move)."""
        if self.step >= len(self.item.solution):
            return
        text = self.item.solution[self.step]
        self.step += 1
        self.play(text)
        answered = f"{self.defender} answers {text}."
        if self.step == len(self.item.solution):
            self._solved(answered)
            return
        left = len(self.item.solution) - self.step
        more = f"{left} more {'ply' if left == 1 else 'plies'}"
        side = self.game.side_names[self.player]
        marked = "\nThe next move is marked on the board." if self.shown_solution else ""
        self.say(f"{answered}\nYour move ({side}): win in {more}.{marked}")
        if self.shown_solution:
            self._mark_next()

    def _solved(self, said: str) -> None:
        self.done = True
        self.board.interactive = False
        self.area.close_entry()
        first_try = self._first_try
        change = self._change or self.progress.rate(self.item, won=first_try)
        self._change = None  # told once: a try again is not rated
        self.keep(first_try)  # saves the rating too
        outcome = self.state.outcome()
        ended = f" {outcome.reason}." if outcome is not None else ""
        how = "at the first try" if first_try else "(not at the first try: the streak starts again)"
        streak = f"streak {self.progress.streak}, best {self.progress.best_streak}"
        rating = _rating(change, self.progress)  # the keys on are the footer's: n, r, m
        self.say(f"{said}{ended}\nSolved {how}: {streak}.\n{rating}", "green")

    # -- a wrong move, explained ----------------------------------------------------------------

    def help_after_a_wrong_try(self) -> str:
        return "Try again, or i for a hint."

    @on(WorkerAnswered)
    def _take(self, event: WorkerAnswered) -> None:
        self.explainer.take(event)

    def drop_explanation(self) -> None:
        self.explainer.drop()

    # -- hints ---------------------------------------------------------------------------------

    def action_hint(self) -> None:
        """One step more each press, at this turn: what kind of move and which piece, then the
        move marked on the board, then the whole line (and from then on each next move marked).
        A game with no words for a move (`move_words`) starts at the move."""
        if not self.players_turn():
            self.say(
                "Not now: " + ("it is solved; n goes on" if self.done else "wait for the reply")
            )
            return
        move = self.game.parse_move(self.item.solution[self.step], self.state)
        words = self.game.move_words(move)
        steps = [f"{words}."] if words else []
        steps.append(f"play {self.item.solution[self.step]}, marked on the board.")
        line = sides(self.game, self.item.start(), self.item.solution)
        steps.append(f"the whole line:\n{line}\nThe next move is marked on the board.")
        self.hints = min(self.hints + 1, len(steps))
        self.helped = True
        self._lost()
        more = ""
        if self.hints < len(steps):
            more = "\ni again: " + ("the move.", "the whole line.")[self.hints - len(steps) + 2]
        self.say(f"Hint {self.hints} of {len(steps)}: {steps[self.hints - 1]}{more}")
        if self.hints >= len(steps) - 1:
            self.board.show_hint(move)
        self.shown_solution = self.shown_solution or self.hints == len(steps)

    def _mark_next(self) -> None:
        if self.players_turn():
            self.board.show_hint(self.game.parse_move(self.item.solution[self.step], self.state))

    def restart(self) -> None:
        super().restart()
        self.step = 0
        self.hints = 0

    def on_unmount(self) -> None:
        self.explainer.close()


def _rating(change: Change | None, progress: Progress) -> str:
    """The rating's change by this puzzle, or why there is none."""
    if change is None:
        return f"Rating {round(progress.rating.rating)}, unchanged: a puzzle is rated once."
    before, after = round(change[0].rating), round(change[1].rating)
    return f"Rating {before} → {after} ({after - before:+d})."
