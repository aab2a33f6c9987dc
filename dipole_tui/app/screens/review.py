"""A game review: every position evaluated in the background, the evaluation drawn across the game
(`EvalGraph`), the inaccuracies, mistakes and blunders marked in the move list, each side's
accuracy once all is in, and any ply a key or a click away; `m` goes through the marked moves
again to find better ones (`MistakesScreen`).

The screen only shows: the evaluations come from a worker process (a `ReviewRequest`), the
judging of the moves and the accuracy from `analysis`, and the saved review is `analyse`'s
annotated record.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from ... import storage
from ...analysis import (
    MARKS,
    Analysis,
    Judgement,
    accuracy,
    annotated_record,
    judge,
    marks_of,
    words,
)
from ...control.ply_walker import PlyWalker
from ...games.base import State, title
from ...records import move_label, parse_record, start_of
from ...registry import REGISTRY
from ...workers.protocol import Evaluated, ReviewRequest
from ...workers.tracker import Connect, Tracker
from ..ascii import AsciiProgressBar
from ..boards.registered import make_board
from ..closing import ClosingScreen
from ..commands import command
from ..dialogs.file import FileScreen
from ..widgets.eval_graph import MARK_CLASS, EvalGraph
from ..widgets.footer import KeysFooter
from ..worker_messages import WorkerAnswered, answers_to
from .mistakes import MistakesScreen, mistakes_of

REVIEW_MOVETIME = 0.5  # seconds of search a position


class ReviewScreen(ClosingScreen[Any]):
    """The review of the game a record holds, from its start to its end."""

    BINDINGS = [
        # Above the move list's own (it would scroll sideways).
        Binding("left", "back", "Back", priority=True),
        Binding("right", "forward", "On", priority=True),
        Binding("h", "back", "Back", show=False),
        Binding("l", "forward", "On", show=False),
        Binding("home", "first", "Start", show=False),
        Binding("end", "last", "End", show=False),
        command(
            "m",
            "mistakes",
            "Mistakes",
            "Each marked move of yours again, to find a better one",
            "Learn from your mistakes",
        ),
        command(
            "s",
            "save",
            "Save",
            "The review as a record, a score and mark by each move",
            "Save the review",
        ),
        Binding("escape,q", "close", "Close"),
    ]
    CSS_PATH = "../css/review.tcss"

    def __init__(
        self,
        record: str,
        reviewer: Connect,
        ascii_glyphs: bool = False,
        movetime: float = REVIEW_MOVETIME,
    ) -> None:
        """`record` is the game's record text, as it would be saved; `reviewer` connects to the
        worker that evaluates it."""
        super().__init__()
        loaded = parse_record(record)
        state: State[Any] = loaded.state
        self.record = record
        self.game_key = loaded.game.key
        self.entry = REGISTRY[self.game_key]
        self.game = self.entry.game
        self.final = state.copy()
        self.tags = loaded.tags
        self.moves = state.moves_played
        self.first = start_of(state).to_move
        self.movetime = movetime
        self.evaluations: list[Analysis | None] = [None] * (len(self.moves) + 1)
        self.judged: list[Judgement | None] = [None] * len(self.moves)
        self.walker = PlyWalker(len(self.moves))  # it opens on the end
        self._work = state.copy()  # moved to the ply shown by playing or undoing moves
        self._work_ply = len(self.moves)
        self.reviewer = reviewer
        self._tracker = Tracker(answers_to(self), reviewer, latest_only=True)
        self._number: int | None = None
        self.board = make_board(self.game_key, self._work.copy(), ascii_glyphs)
        self.board.interactive = False
        self.board.can_focus = False
        self.graph = EvalGraph(len(self.moves) + 1, ascii_glyphs, id="review-graph")
        self.ascii_glyphs = ascii_glyphs

    @property
    def ply(self) -> int:
        """The ply shown (the walker's)."""
        return self.walker.ply

    @property
    def done(self) -> int:
        """Positions evaluated so far."""
        return sum(evaluation is not None for evaluation in self.evaluations)

    @property
    def shown(self) -> State[Any]:
        """The position on the board (do not change it)."""
        return self._work

    @property
    def complete(self) -> bool:
        return self.done == len(self.evaluations)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield self.board
            with Vertical(id="review-side"):
                result = self.tags.get("Result", "*")
                heading = f"Review: {title(self.game, self.final.variant)}  {result}"
                yield Static(heading, id="review-title")
                bar = AsciiProgressBar if self.ascii_glyphs else ProgressBar
                yield bar(total=len(self.evaluations), show_eta=False, id="review-progress")
                summary = Static(id="review-summary")
                summary.display = False  # until every position is in
                yield summary
                yield self.graph
                yield Static(id="review-details")
                yield OptionList(*self._options(), id="review-moves")
        yield KeysFooter()

    def on_mount(self) -> None:
        request = ReviewRequest(self.game_key, self.record, self.movetime)
        self._number = self._tracker.ask(request)
        self._show()
        self.query_one(OptionList).focus()

    def on_unmount(self) -> None:
        self._tracker.close()

    # -- evaluations arriving ------------------------------------------------------------------

    @on(WorkerAnswered)
    def _take(self, event: WorkerAnswered) -> None:
        """An answer of the review's process, on the screen's own thread."""
        reply = event.reply
        if event.tracker is not self._tracker or not self._tracker.take(reply):
            return
        if reply.number != self._number:
            return
        if not isinstance(reply.answer, Evaluated):  # the end
            if not self.complete:
                self.notify(
                    "The review stopped: the evaluations did not all come in", severity="error"
                )
            return
        ply, evaluation = reply.answer.ply, reply.answer.evaluation
        self.evaluations[ply] = evaluation
        self.query_one(ProgressBar).update(progress=self.done)
        for moved in (ply - 1, ply):  # the moves into and out of this position
            before = self.evaluations[moved] if moved >= 0 else None
            after = self.evaluations[moved + 1] if 0 <= moved < len(self.moves) else None
            if before is not None and after is not None:
                move = self.game.format_move(self.moves[moved])
                self.judged[moved] = judge(self.entry.unit, move, before, after)
                self.query_one(OptionList).replace_option_prompt_at_index(
                    moved + 1, self._move_text(moved)
                )
        if self.complete:  # once the moves into and out of the last position are judged too
            self._summarise()
        judged = self.judged[ply - 1] if ply > 0 else None
        value = evaluation.score.pov(0).chances(self.entry.unit)
        self.graph.set_value(ply, value, judged.mark if judged else "")
        if abs(ply - self.ply) <= 1:
            self._describe()

    # -- what is shown -------------------------------------------------------------------------

    def _summarise(self) -> None:
        """Once every position is in, each side's accuracy (`analysis.accuracy`) and the marks
        it earned take the progress bar's place: `○ White  87%  5?! 3? 1??`."""
        judged = [judgement for judgement in self.judged if judgement is not None]
        names = self.game.side_names
        text = Text()
        for side, name in enumerate(names):
            said = accuracy(judged, side)
            counts = marks_of(judged, side)
            text.append(f"{self.board.side_glyph(side)} {name:<{max(map(len, names))}} ")
            text.append("   -" if said is None else f"{said:3.0f}%", style="bold")
            text.append(" ")
            for _, mark, _ in reversed(MARKS):
                text.append(f" {counts[mark]}")
                text.append(mark, style=self.graph.get_component_rich_style(MARK_CLASS[mark]))
            if side == 0:
                text.append("\n")
        self.query_one(ProgressBar).display = False
        summary = self.query_one("#review-summary", Static)
        summary.update(text)
        summary.display = True

    def _options(self) -> list[Option]:
        return [Option("start", id="ply-0")] + [
            Option(self._move_text(ply), id=f"ply-{ply + 1}") for ply in range(len(self.moves))
        ]

    def _move_text(self, ply: int) -> Text:
        """`12. e3xg5?  +1.4`: the move, its mark, and what it left."""
        text = Text(f"{move_label(self.first, ply)} {self.game.format_move(self.moves[ply])}")
        judged = self.judged[ply]
        if judged is None:
            return text
        if judged.mark:
            text.append(
                judged.mark, style=self.graph.get_component_rich_style(MARK_CLASS[judged.mark])
            )
        text.append(f"  {words(self.game, self.entry.unit, judged.after, short=True)}", style="dim")
        return text

    def _show(self) -> None:
        """Show the position after the walker's ply."""
        ply = self.walker.ply
        while self._work_ply > ply:
            self._work.undo()
            self._work_ply -= 1
        while self._work_ply < ply:
            self._work.play(self.moves[self._work_ply])
            self._work_ply += 1
        last = self.moves[ply - 1] if ply > 0 else None
        self.board.show_state(self._work.copy(), last)
        evaluation = self.evaluations[ply]
        if evaluation is not None and evaluation.best is not None:
            self.board.show_hint(self.game.parse_move(evaluation.best, self._work))
        self.graph.set_cursor(ply)
        moves = self.query_one(OptionList)
        if moves.highlighted != ply:
            moves.highlighted = ply
        self._describe()

    def _describe(self) -> None:
        """What the ply shown was, and what is best from there."""
        lines: list[Text | str] = []
        unit, game = self.entry.unit, self.game
        if self.ply == 0:
            lines.append("The start")
        else:
            played = game.format_move(self.moves[self.ply - 1])
            move = f"{move_label(self.first, self.ply - 1)} {played}"
            judged = self.judged[self.ply - 1]
            if judged is not None and judged.mark:
                lines.append(Text.assemble(f"{move}{judged.mark} ", (judged.word, "bold")))
                lines.append(f"best was {judged.before.best} ({words(game, unit, judged.before)})")
            else:
                lines.append(move)
        evaluation = self.evaluations[self.ply]
        if evaluation is None:
            lines.append(Text("evaluating...", style="dim"))
        else:
            lines.append(f"now {words(game, unit, evaluation)}")
            if evaluation.line:
                best = game.move_separator.join(evaluation.line)
                lines.append(Text(f"best line {best}", style="dim"))
        text = Text("\n").join(Text(line) if isinstance(line, str) else line for line in lines)
        self.query_one("#review-details", Static).update(text)

    # -- keys ----------------------------------------------------------------------------------

    def _walk(self, step: Callable[[PlyWalker], object]) -> None:
        """A step of the walker, shown (at an end, the same ply again)."""
        step(self.walker)
        self._show()

    def action_back(self) -> None:
        self._walk(PlyWalker.back)

    def action_forward(self) -> None:
        self._walk(PlyWalker.forward)

    def action_first(self) -> None:
        self._walk(PlyWalker.first)

    def action_last(self) -> None:
        self._walk(PlyWalker.last)

    @on(OptionList.OptionHighlighted, "#review-moves")
    def highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The player moved along the list (not a highlight the screen set, or one since gone)."""
        if event.option_index != self.ply and event.option_list.highlighted == event.option_index:
            self._walk(lambda walker: walker.to(event.option_index))

    @on(EvalGraph.Jump)
    def jumped(self, event: EvalGraph.Jump) -> None:
        self._walk(lambda walker: walker.to(event.ply))

    def action_save(self) -> None:
        if not self.complete:
            self.notify(
                f"The review is still evaluating: {self.done} of {len(self.evaluations)} "
                "positions. Save once it is done."
            )
            return
        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        default = str(Path.cwd() / f"{self.game_key}-review-{stamp}.txt")

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            judged = [judgement for judgement in self.judged if judgement is not None]
            text = annotated_record(self.game_key, self.final, judged, self.tags, self.movetime)
            try:
                storage.write_text(path, text)
            except OSError as error:
                self.notify(f"could not save {path}: {error.strerror or error}", severity="error")
                return
            self.notify(f"Saved the review to {path}")

        self.app.push_screen(FileScreen("Save the review as", default), chosen)

    def action_mistakes(self) -> None:
        """Learn from your mistakes, once every position is in (`MistakesScreen`)."""
        if not self.complete:
            self.notify(
                f"The review is still evaluating: {self.done} of {len(self.evaluations)} "
                "positions. The mistakes follow once it is done."
            )
            return
        judged = [judgement for judgement in self.judged if judgement is not None]
        plies, you = mistakes_of(self.tags, judged)
        if not plies:
            whose = "your moves" if you is not None else "this game's moves"
            self.notify(f"No mistakes to learn from: none of {whose} is marked.")
            return
        self.app.push_screen(
            MistakesScreen(
                self.game_key,
                self.final,
                judged,
                plies,
                you,
                self.reviewer,
                self.movetime,
                self.ascii_glyphs,
            )
        )

    def action_close(self) -> None:
        self.dismiss(None)
