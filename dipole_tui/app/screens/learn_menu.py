"""The lessons and puzzles of a game (or of every game), listed with what is done: Enter opens
one (`learning.py`), and what it ends with decides what follows (the next one, or the list)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...learn import Item, Progress, items, problems
from ...registry import REGISTRY
from ...workers.tracker import Connect
from ..ascii import plain
from ..closing import ClosingScreen
from ..widgets.footer import KeysFooter
from ..widgets.wrapping import wrap
from .learning import ExerciseScreen, LessonScreen
from .puzzle import PuzzleScreen


class LearnMenu(ClosingScreen[Any]):
    """The lessons and puzzles of one game (or of every game), with what is done."""

    CSS_PATH = "../css/learn.tcss"
    BINDINGS = [Binding("escape,q", "close", "Back to the game")]

    def __init__(
        self, game: str | None, progress: Progress, analyst: Connect, ascii_glyphs: bool
    ) -> None:
        super().__init__()
        self.game = game
        self.progress = progress
        self.analyst = analyst
        self.ascii_glyphs = ascii_glyphs
        self.items = items(game)
        # The files that could not be used, a line each: the rest are listed all the same.
        self.problems = problems()

    def compose(self) -> ComposeResult:
        with Vertical(id="learn-box"):
            name = REGISTRY[self.game].game.name if self.game else "every game"
            yield Static(f"Learn {name}: lessons, then puzzles", id="learn-heading")
            problem_lines = Static(id="learn-problems")
            problem_lines.display = bool(self.problems)
            yield problem_lines
            yield Static(id="learn-summary")
            yield OptionList(*self._options(), id="learn-items")
        yield KeysFooter()

    def on_mount(self) -> None:
        if self.progress.problem:
            self.notify(self.progress.problem, severity="warning", timeout=10)
            self.progress.problem = ""
        self._show_problems()
        self._refresh()
        menu = self.query_one(OptionList)
        menu.focus()
        if self.items:  # the first not done yet
            done = self.progress.done
            first = next((i for i, item in enumerate(self.items) if item.id not in done), 0)
            menu.highlighted = self._index_of(first)

    def on_resize(self) -> None:
        self._show_problems()

    def _show_problems(self) -> None:
        """Each file left out, wrapped to the box (80 columns at most, less its padding) so
        that a long path breaks after a `/`."""
        if self.problems:
            said = "\n".join(self.problems)
            width = min(80, self.app.size.width) - 2
            lines = wrap(plain(said) if self.ascii_glyphs else said, width)
            self.query_one("#learn-problems", Static).update(Text("\n".join(lines)))

    def _options(self) -> list[Option | None]:
        options: list[Option | None] = []
        heading = ""
        for index, item in enumerate(self.items):
            group = f"{REGISTRY[item.game].game.name}: {item.kind}s"
            if group != heading:
                heading = group
                if options and not self.ascii_glyphs:  # a separator, drawn as a line
                    options.append(None)
                options.append(Option(Text(group, style="bold"), disabled=True))
            options.append(Option(self._label(item), id=f"item-{index}"))
        return options

    def _label(self, item: Item) -> Text:
        done = item.id in self.progress.done
        mark = (
            ("[x] " if self.ascii_glyphs else "✓ ")
            if done
            else ("[ ] " if self.ascii_glyphs else "· ")
        )
        text = Text(mark, style="green" if done else "dim")
        text.append(item.title)
        if item.kind == "puzzle":
            stars = ("*" if self.ascii_glyphs else "★") * item.difficulty
            text.append(f"  {stars}", style="yellow")
        return text

    def _index_of(self, position: int) -> int:
        return self.query_one(OptionList).get_option_index(f"item-{position}")

    def _refresh(self) -> None:
        lessons = [item for item in self.items if item.kind == "lesson"]
        puzzles = [item for item in self.items if item.kind == "puzzle"]
        done = self.progress.done
        if not self.items:
            self.query_one("#learn-summary", Static).update("No lessons or puzzles here yet.")
            return
        said = f"Lessons done: {sum(i.id in done for i in lessons)} of {len(lessons)}"
        if puzzles:
            said += f"  ·  puzzles solved: {sum(i.id in done for i in puzzles)} of {len(puzzles)}"
            said += f"  ·  streak {self.progress.streak} (best {self.progress.best_streak})"
            said += f"\n{self._rating()}"
        said += "\nEnter opens one; lessons are best taken in order."
        self.query_one("#learn-summary", Static).update(plain(said) if self.ascii_glyphs else said)
        menu = self.query_one(OptionList)
        for index, item in enumerate(self.items):
            menu.replace_option_prompt(f"item-{index}", self._label(item))

    def _rating(self) -> str:
        """The puzzle rating and its deviation; marked "?" while it is unsure, as lichess marks
        a provisional rating."""
        rating = self.progress.rating
        deviation = f"± {round(rating.rd)}"  # `plain` makes it +/- under --ascii
        if rating.provisional:
            return f"Puzzle rating {round(rating.rating)}? (provisional, {deviation})"
        return f"Puzzle rating {round(rating.rating)} {deviation}"

    @on(OptionList.OptionSelected, "#learn-items")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.open(int(event.option.id.removeprefix("item-")))

    def open(self, position: int) -> None:
        """Open the item at `position` of the list; what it ends with decides what follows."""
        item = self.items[position]
        screen: ExerciseScreen
        if item.kind == "lesson":
            screen = LessonScreen(item, self.progress, self.ascii_glyphs)
        else:
            screen = PuzzleScreen(item, self.progress, self.ascii_glyphs, self.analyst)

        def ended(answer: str | None) -> None:
            self._refresh()
            self.query_one(OptionList).highlighted = self._index_of(position)
            if answer == "next" and position + 1 < len(self.items):
                self.open(position + 1)

        self.app.push_screen(screen, ended)

    def action_close(self) -> None:
        self.dismiss(None)
