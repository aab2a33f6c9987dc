"""A puzzle on the real board (`PuzzleScreen`): the player wins against the solver's longest
defence, one move of the line at each turn.

The first try is rated (`Progress.rate`): solved without a wrong move or a hint, a win; else a
loss, kept as soon as it happens (leaving the puzzle does not undo it). The change is told when
the puzzle is solved; a try again (`r`), or the puzzle met another time, leaves the rating be.

A wrong move is not played but explained by the analysis process: what it lets the other side
do, with the line after it and who plays each move. The defence's replies are said and marked as
the board marks a last move; the panel lists the moves since the puzzle began and whose turn it
is. `i` hints in steps, each press one more: what kind of move and which piece (the game's
`move_words`), then the move marked on the board, then the whole line.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.binding import Binding

from ...analysis import PROVED_LINE, Analysis
from ...games.base import GameError, State
from ...learn import Change, Item, Progress
from ...records import format_record, numbered_moves
from ...workers.protocol import AnalysisRequest
from ...workers.tracker import Connect, Tracker
from ..worker_messages import WorkerAnswered, answers_to
from .learning import ExerciseScreen

EXPLAIN_SECONDS = 3.0  # the analysis of a wrong move is cut short after this
QUOTED = 6  # moves at most of a line quoted after a wrong move


class PuzzleScreen(ExerciseScreen):
    BINDINGS = [Binding("i", "hint", "Hint")]

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
        self._tracker = Tracker(answers_to(self), analyst, latest_only=True)
        self._asked: int | None = None  # the analysis request still wanted
        self._wrong = ""  # the wrong move it explains
        self._after: State[Any] = self.state  # the position after it
        self._latest: Analysis | None = None
        self._change: Change | None = None  # the rating's, by this puzzle, until told

    def task_text(self) -> str:
        side = self.game.side_names[self.player]
        if role := self.game.role(self.state, self.player):
            side += f" ({role})"
        return (
            f"Play {side}: win in {_plies(self.item.plies)} against the best defence. At each "
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
        self._explain(move, text)
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

    def _explain(self, move: Any, text: str) -> None:
        """What the wrong move allows: asked of the analysis process, said as it answers."""
        work = self.state.copy()
        work.play(move)
        self.say(f"{text} is not the fastest win. Looking at why...", "red")
        self._wrong, self._after, self._latest = text, work, None
        request = AnalysisRequest(self.item.game, format_record(self.game, work))
        self._asked = self._tracker.ask(request)
        asked = self._asked
        self.set_timer(EXPLAIN_SECONDS, lambda: self._cut_short(asked))

    @on(WorkerAnswered)
    def _take(self, event: WorkerAnswered) -> None:
        """An update of the analysis process, on the screen's own thread: a proved result is
        said once its line reaches the end (the solver proves the first move, then the line),
        or when the analysis ends."""
        reply, analysis = event.reply, event.reply.answer
        if event.tracker is not self._tracker or not self._tracker.take(reply):
            return
        if reply.number != self._asked or not (analysis is None or isinstance(analysis, Analysis)):
            return
        if analysis is not None:
            kept = self._latest  # a proof's whole line kept, not its first move told again
            if kept is None or kept.score != analysis.score or len(analysis.line) >= len(kept.line):
                self._latest = analysis
            plies = analysis.score.relative.plies
            if plies is None or len(analysis.line) < min(plies, PROVED_LINE):
                return
        self._asked = None
        self._say_why()

    def _cut_short(self, asked: int) -> None:
        """The explanation asked as `asked` has had its time (a later one keeps its own)."""
        if self._asked == asked:
            self._tracker.cancel()
            self._asked = None
            self._say_why()

    def _say_why(self) -> None:
        found, text = self._latest, self._wrong
        need = _plies(len(self.item.solution) - self.step)
        if found is None:
            why = f"{text} does not win in {need}: at this turn one move only does."
        else:
            plies = found.score.relative.plies
            line = self._sides(self._after, found.line[:QUOTED])
            if len(found.line) > QUOTED or plies is None or len(found.line) < plies:
                line += "\n..."  # the game goes on after the moves quoted
            line = f":\n{line}" if line.strip(".\n") else "."
            if plies is not None and not found.score.relative.wins:  # the defender, to move, loses
                why = (
                    f"{text} wins too, but in {_plies(plies + 1)}, not {need}: the puzzle asks "
                    f"for the fastest win. Best play after it{line}"
                )
            elif plies is not None:
                why = f"{text} loses: after it {self.defender} wins in {_plies(plies)}{line}"
            else:
                why = f"{text} lets {self.defender} hold out longer than {need}{line}"
        self.say(f"{why}\nTry again, or i for a hint.", "red")

    def _sides(self, state: State[Any], line: tuple[str, ...]) -> str:
        """A line of moves from `state`, a line each with who plays it (`White f6-d8`: the
        panel would break a pair of them anywhere); it stops at a move the position does not
        allow (an answer that came too late)."""
        work, said = state.copy(), []
        for text in line:
            try:
                move = self.game.parse_move(text, work)
            except GameError:
                break
            side = self.game.side_names[work.to_move]
            said.append(f"{side} passes" if self.game.is_pass(move) else f"{side} {text}")
            work.play(move)
        return "\n".join(said)

    def drop_explanation(self) -> None:
        """A wrong move's explanation still being worked out would be said over what follows
        (the right move played, the puzzle begun again): it is stopped and dropped."""
        if self._asked is not None:
            self._tracker.cancel()
        self._asked = None

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
        line = self._sides(self.item.start(), self.item.solution)
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
        self._tracker.close()


def _rating(change: Change | None, progress: Progress) -> str:
    """The rating's change by this puzzle, or why there is none."""
    if change is None:
        return f"Rating {round(progress.rating.rating)}, unchanged: a puzzle is rated once."
    before, after = round(change[0].rating), round(change[1].rating)
    return f"Rating {before} → {after} ({after - before:+d})."


def _plies(count: int) -> str:
    return f"{count} ply" if count == 1 else f"{count} plies"
