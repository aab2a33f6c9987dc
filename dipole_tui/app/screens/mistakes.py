"""Learn from your mistakes: from the review, the marked moves of a game one by one, each in the
position it was played in, for the player to find a better move before being shown the best.

Which moves, and how a side's moves are judged, is `analysis`'s (`to_learn`, `judge`); this
screen only asks and shows. A tried move is judged as the review judged the move played: by the
winning chances it keeps against the best move's, with the review's own evaluations where they
say it (the best move, the move played, a move that ends the game) and else with the evaluation
of the position it leaves, asked of a worker process as the review's were (an `AnalysisRequest`
for the review's time a position). The board takes other tries meanwhile: a new try replaces
the one being weighed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from ...analysis import (
    Analysis,
    Judgement,
    evaluation_of_end,
    judge,
    to_learn,
    words,
)
from ...games.base import State
from ...records import format_record, move_label, start_of
from ...registry import REGISTRY
from ...session import HUMAN
from ...workers.protocol import AnalysisRequest
from ...workers.tracker import Connect, Tracker
from ..boards.game_board import GameBoard
from ..boards.registered import make_board
from ..commands import command
from ..widgets.footer import KeysFooter
from ..widgets.play_area import PlayArea, TriesMoves
from ..widgets.side_panel import MoveEntry
from ..worker_messages import WorkerAnswered, answers_to

WEIGH_AT_LEAST = 3.0  # seconds a tried move's evaluation may take before it is given up
BEST_LINE = 6  # moves of the best line shown


def mistakes_of(tags: dict[str, str], judged: Sequence[Judgement]) -> tuple[list[int], int | None]:
    """The plies of the marked moves to learn from (`analysis.to_learn`), and the side of the one
    person who played the game (its record's White and Black tags), whose moves they are; None
    when two people played (hot seat: both sides' moves, each said by its side's name) or none
    (bots, or a record of unknown players)."""
    people = [side for side, tag in enumerate(("White", "Black")) if tags.get(tag) == HUMAN]
    you = people[0] if len(people) == 1 else None
    return to_learn(judged, [you] if you is not None else [0, 1]), you


class MistakesScreen(TriesMoves):
    """The marked moves `plies` of the game that ended in `final`, one at a time: the position
    before each on the board, and the player's tries at a better move. `you` is the side of the
    one person who played (said "You played"), or None (the side is named)."""

    CSS_PATH = "../css/review.tcss"
    BINDINGS = [
        Binding("colon", "type", "Type", priority=True),
        command(
            "s",
            "best",
            "Best move",
            "What the analysis would have played here",
            "Show the best move",
        ),
        command("n", "step(1)", "Next", "The next marked move", "Next mistake"),
        command("p", "step(-1)", "Previous", "The marked move before", "Previous mistake"),
        # Above the board's own Escape (which drops a selection) and the entry's: back at once.
        Binding("escape", "back", "Review", priority=True),
    ]

    def __init__(
        self,
        game_key: str,
        final: State[Any],
        judged: Sequence[Judgement],
        plies: Sequence[int],
        you: int | None,
        reviewer: Connect,
        movetime: float,
        ascii_glyphs: bool = False,
    ) -> None:
        super().__init__()
        self.game_key = game_key
        self.game = REGISTRY[game_key].game
        self.unit = REGISTRY[game_key].unit
        self.start = start_of(final)
        self.moves = final.moves_played
        self.judged = list(judged)
        self.plies = list(plies)
        self.you = you
        self.movetime = movetime
        self.index = 0  # of the mistake shown, in `plies`
        self.state = self._before(self.plies[0])
        self.found: set[int] = set()  # the mistakes (indexes) bettered before the best was seen
        self.settled = False  # the mistake shown is bettered: no more tries
        self.shown_best = False
        self.message = ""  # the last thing said, as text (the tests read it)
        self.board: GameBoard[Any, Any] = make_board(game_key, self.state.copy(), ascii_glyphs)
        self.entry = MoveEntry(placeholder=MoveEntry.PLACEHOLDER, id="mistakes-entry")
        self.area: PlayArea[Any] = PlayArea(self.game, self.board, self.entry)
        self._tracker = Tracker(answers_to(self), reviewer, latest_only=True)
        self._asked: int | None = None  # the request weighing the latest try
        self._tried: str | None = None  # that try, in notation
        self._latest: Analysis | None = None
        self._weighed: dict[tuple[int, str], Analysis] = {}  # (ply, move) -> what it left

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield self.board
            with Vertical(id="mistakes-side"):
                with VerticalScroll(id="mistakes-words"):
                    yield Static("Learn from your mistakes", id="mistakes-title")
                    yield Static(id="mistakes-progress")
                    yield Static(id="mistakes-task")
                    yield Static(id="mistakes-message", markup=False)
                yield self.entry
        yield KeysFooter()

    def on_mount(self) -> None:
        self._begin()
        self.board.focus()

    def on_unmount(self) -> None:
        self._tracker.close()

    # -- the mistake shown ---------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """The ply of the mistake shown (an index into the game's moves)."""
        return self.plies[self.index]

    @property
    def judgement(self) -> Judgement:
        return self.judged[self.ply]

    def _before(self, ply: int) -> State[Any]:
        """The position the move of `ply` was played in."""
        state = self.start.copy()
        for move in self.moves[:ply]:
            state.play(move)
        return state

    def _mover(self) -> str:
        return "You" if self.you is not None else self.game.side_names[self.judgement.before.side]

    def _begin(self) -> None:
        """Show the mistake `index`: its position, what was played, and the task."""
        self._drop_weighing()
        self.state = self._before(self.ply)
        self.settled = self.shown_best = False
        self._show()
        count = len(self.plies)
        self.query_one("#mistakes-progress", Static).update(
            Text(f"Mistake {self.index + 1} of {count}", style="bold")
        )
        judged = self.judgement
        played = f"{move_label(self.start.to_move, self.ply)} {judged.move}"
        task = Text.assemble(
            f"{self._mover()} played {played}{judged.mark} (",
            (judged.word, "bold"),
            f"), leaving {self._words(judged.after)}.\n",
            ("Find a better move.", "bold"),
            (f"  Scores from {self.game.side_names[judged.before.side]}'s side.", "dim"),
        )
        self.query_one("#mistakes-task", Static).update(task)
        self.say("")

    def _show(self, played: Any | None = None) -> None:
        """The position as it stands, or after the move `played` that bettered the mistake;
        the board takes moves until then, and marks the best move once it has been shown."""
        shown = self.state.copy()
        last = self.moves[self.ply - 1] if self.ply > 0 else None
        if played is not None:
            shown.play(played)
            last = played
        self.board.interactive = not self.settled
        self.board.show_state(shown, last)
        if self.shown_best and not self.settled:
            self.board.show_hint(self._best_move())

    def _words(self, evaluation: Analysis) -> str:
        """A score as the side that erred reads it: its own, + when it stands better."""
        return words(self.game, self.unit, evaluation, side=self.judgement.before.side)

    def _best_move(self) -> Any:
        best = self.judgement.before.best
        assert best is not None  # `to_learn` takes only moves whose best is known
        return self.game.parse_move(best, self.state)

    def say(self, text: str, kind: str = "") -> None:
        """The message under the task: `good` (praise), `bad` (a refusal), `dim` (a try being
        weighed), styled in review.tcss so that it reads under NO_COLOR too."""
        self.message = text
        message = self.query_one("#mistakes-message", Static)
        message.update(Text(text))  # not markup: a move may hold any character
        for each in ("good", "bad", "dim"):
            message.set_class(each == kind, f"-{each}")
        words_box = self.query_one("#mistakes-words", VerticalScroll)
        self.call_after_refresh(words_box.scroll_to_widget, message, animate=False)

    # -- tries ---------------------------------------------------------------------------------

    def not_now(self) -> str:
        return "Found already: n goes on." if self.settled else ""

    def try_move(self, move: Any) -> None:
        """Judge a try: at once where the review's evaluations say it, else once the worker
        has weighed the position it leaves."""
        text = self.game.format_move(move)
        judged = self.judgement
        self._drop_weighing()
        if text == judged.move:
            self._show()
            self.say(
                f"Not better: {text} is the move played. Try another, or s for the best.", "bad"
            )
            return
        after = self.state.copy()
        after.play(move)
        known = evaluation_of_end(after) or self._weighed.get((self.ply, text))
        if text == judged.before.best:
            known = judged.before  # judge() never marks the best move
        if known is not None:
            self._judge(move, text, known)
            return
        self._show()
        self.say(f"Weighing {text}...", "dim")
        self._tried, self._latest = text, None
        request = AnalysisRequest(self.game_key, format_record(self.game, after), self.movetime)
        self._asked = asked = self._tracker.ask(request)
        self.set_timer(max(WEIGH_AT_LEAST, 6 * self.movetime), lambda: self._give_up(asked))

    @on(WorkerAnswered)
    def _take(self, event: WorkerAnswered) -> None:
        """A step of the weighing, on the screen's own thread; its end judges the try."""
        reply, analysis = event.reply, event.reply.answer
        if event.tracker is not self._tracker or not self._tracker.take(reply):
            return
        if reply.number != self._asked:
            return
        if isinstance(analysis, Analysis):
            self._latest = analysis
        elif analysis is None:
            self._weighed_now()

    def _give_up(self, asked: int) -> None:
        """The weighing asked as `asked` has had its time: what it found so far, or nothing."""
        if self._asked == asked:
            self._tracker.cancel()
            self._weighed_now()

    def _weighed_now(self) -> None:
        text, latest = self._tried, self._latest
        self._drop_weighing()
        if text is None:
            return
        if latest is None:
            self.say(f"{text} could not be weighed in time. Try again.", "bad")
            return
        self._weighed[(self.ply, text)] = latest
        self._judge(self.game.parse_move(text, self.state), text, latest)

    def _drop_weighing(self) -> None:
        """A try still being weighed is of no use once another is made or the mistake left."""
        if self._asked is not None:
            self._tracker.cancel()
        self._asked, self._tried, self._latest = None, None, None

    def _judge(self, move: Any, text: str, after: Analysis) -> None:
        """Praise a move that keeps as much as the best (no mark), refuse any other."""
        judged = self.judgement
        tried = judge(self.unit, text, judged.before, after)
        left = self._words(after)
        if tried.mark:
            best = self._words(judged.before)
            self._show()
            if tried.loss < judged.loss:  # it keeps more than the move played
                said = f"Better, but not the best: {text} leaves {left}, the best keeps {best}."
            else:
                said = f"Not better: {text} leaves {left} (the best keeps {best})."
            self.say(f"{said} Try again, or s for the best move.", "bad")
            return
        self.settled = True
        if not self.shown_best:
            self.found.add(self.index)
        self._show(move)
        praise = "The best move!" if text == judged.before.best else "As good as the best."
        said = f"Yes! {text}: {praise} It keeps {left}."
        if self.index + 1 == len(self.plies):
            self.say(f"{said}\n{self._last_words()}", "good")
            return
        self.say(f"{said}\nn: the next mistake.", "good")  # it stays until the player goes on

    def _last_words(self) -> str:
        return (
            f"That was the last one: you found {len(self.found)} of {len(self.plies)} yourself. "
            "Escape: back to the review."
        )

    # -- keys ----------------------------------------------------------------------------------

    def action_type(self) -> None:
        self.area.open_entry()
        self.say(f"Type a move: {self.game.move_examples}.")

    def action_best(self) -> None:
        """The best move marked on the board, and its line."""
        judged = self.judgement
        if self.settled:
            return
        self.shown_best = True
        self._show()
        line = self.game.move_separator.join(judged.before.line[:BEST_LINE])
        best = self._words(judged.before)
        said = f"The best was {judged.before.best} ({best}), its line: {line}."
        self.say(f"{said}\nPlay it, or n goes on.")

    def action_step(self, by: int) -> None:
        index = self.index + by
        if index >= len(self.plies):
            self.say(self._last_words())
        elif index >= 0:
            self.index = index
            self.area.close_entry()
            self._begin()

    def action_back(self) -> None:
        """Escape: out of the entry if it is open, else back to the review."""
        if self.focused is self.entry:
            self.area.close_entry()
            return
        self.dismiss(None)
