"""A puzzle's wrong move explained: the analysis process is asked what the move allows, and the
answer is said with the line after it and who plays each move (or, when it takes too long, that
the move does not win that fast). A part the puzzle screen owns (`puzzle.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...analysis import PROVED_LINE, Analysis
from ...games.base import Game, GameError, State
from ...records import format_record
from ...workers.protocol import AnalysisRequest
from ...workers.tracker import Tracker
from ..worker_messages import WorkerAnswered

if TYPE_CHECKING:
    from .puzzle import PuzzleScreen

EXPLAIN_SECONDS = 3.0  # the analysis of a wrong move is cut short after this
QUOTED = 6  # moves at most of a line quoted after a wrong move


class WrongMoves:
    """The explanation of the latest wrong move, while it is worked out."""

    def __init__(self, screen: PuzzleScreen, tracker: Tracker) -> None:
        self.screen = screen
        self._tracker = tracker
        self._asked: int | None = None  # the analysis request still wanted
        self._wrong = ""  # the wrong move it explains
        self._after: State[Any] = screen.state  # the position after it
        self._latest: Analysis | None = None

    def explain(self, move: Any, text: str) -> None:
        """What the wrong move allows: asked of the analysis process, said as it answers."""
        screen = self.screen
        work = screen.state.copy()
        work.play(move)
        screen.say(f"{text} is not the fastest win. Looking at why...", "red")
        self._wrong, self._after, self._latest = text, work, None
        request = AnalysisRequest(screen.item.game, format_record(screen.game, work))
        self._asked = self._tracker.ask(request)
        asked = self._asked
        screen.set_timer(EXPLAIN_SECONDS, lambda: self._cut_short(asked))

    def take(self, event: WorkerAnswered) -> None:
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
        screen, found, text = self.screen, self._latest, self._wrong
        need = plies_said(len(screen.item.solution) - screen.step)
        defender = screen.defender
        if found is None:
            why = f"{text} does not win in {need}: at this turn one move only does."
        else:
            plies = found.score.relative.plies
            line = sides(screen.game, self._after, found.line[:QUOTED])
            if len(found.line) > QUOTED or plies is None or len(found.line) < plies:
                line += "\n..."  # the game goes on after the moves quoted
            line = f":\n{line}" if line.strip(".\n") else "."
            if plies is not None and not found.score.relative.wins:  # the defender, to move, loses
                why = (
                    f"{text} wins too, but in {plies_said(plies + 1)}, not {need}: the puzzle "
                    f"asks for the fastest win. Best play after it{line}"
                )
            elif plies is not None:
                why = f"{text} loses: after it {defender} wins in {plies_said(plies)}{line}"
            else:
                why = f"{text} lets {defender} hold out longer than {need}{line}"
        screen.say(f"{why}\nTry again, or i for a hint.", "red")

    def drop(self) -> None:
        """An explanation still being worked out would be said over what follows (the right
        move played, the puzzle begun again): it is stopped and dropped."""
        if self._asked is not None:
            self._tracker.cancel()
        self._asked = None

    def close(self) -> None:
        self._tracker.close()


def sides(game: Game[Any, Any], state: State[Any], line: tuple[str, ...]) -> str:
    """A line of moves from `state`, a line each with who plays it (`White f6-d8`: the panel
    would break a pair of them anywhere); it stops at a move the position does not allow (an
    answer that came too late)."""
    work, said = state.copy(), []
    for text in line:
        try:
            move = game.parse_move(text, work)
        except GameError:
            break
        side = game.side_names[work.to_move]
        said.append(f"{side} passes" if game.is_pass(move) else f"{side} {text}")
        work.play(move)
    return "\n".join(said)


def plies_said(count: int) -> str:
    return f"{count} ply" if count == 1 else f"{count} plies"


__all__ = ["EXPLAIN_SECONDS", "QUOTED", "WrongMoves", "plies_said", "sides"]
