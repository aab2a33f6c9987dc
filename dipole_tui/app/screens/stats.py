"""Your statistics against the bots, a game at a time: your rating and record, the record
against each level, and the rating over time drawn (`RatingPlot`). Everything is computed by
`results.py` from the games kept; this screen only lays it out. `g` goes to the next game
you have played; with none yet, the screen says so in words."""

from __future__ import annotations

from rich import box
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ...games.base import shown
from ...registry import REGISTRY
from ...results import Results, games_played, summary
from ..ascii import plain
from ..closing import ClosingScreen
from ..commands import command
from ..widgets.footer import KeysFooter
from ..widgets.rating_plot import RatingPlot
from ..widgets.stats_table import levels_table

NONE_YET = (
    "No games against the bots yet.\n\nPlay one (n: a level of the ladder on one side, you "
    "on the other) and its result counts here: your rating in each game, your record against "
    "each level, the rating over time and your longest winning streak."
)


class StatsScreen(ClosingScreen[None]):
    """One game's statistics at a time, the game on screen first when you played it."""

    CSS_PATH = "../css/stats.tcss"
    BINDINGS = [
        command("g", "next_game", "Next game", "Your statistics in the next game you played"),
        command("escape,q", "close", "Back", "Back to the game", "Close the statistics"),
    ]

    def __init__(self, results: Results, game_key: str, ascii_glyphs: bool) -> None:
        super().__init__()
        self.results = results
        self.games = games_played(results.entries)
        self.game = game_key if game_key in self.games or not self.games else self.games[0]
        self.ascii_glyphs = ascii_glyphs
        self.heading = Static(id="stats-heading")
        self.summary = Static(id="stats-summary")
        self.levels = Static(id="stats-levels")
        self.plot = RatingPlot(ascii_glyphs, id="stats-plot")

    def compose(self) -> ComposeResult:
        with Vertical(id="stats-box"):
            yield self.heading
            yield self.summary
            with Horizontal(id="stats-body"):
                yield self.levels
                yield self.plot
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        found = self.results.stats(self.game)
        name = REGISTRY[self.game].game.name if self.game in REGISTRY else shown(self.game)
        others = f"  (g: {len(self.games) - 1} more)" if len(self.games) > 1 else ""
        self.heading.update(f"Your statistics: {name}{others}" if self.games else "Your statistics")
        played = found.total.games > 0
        said = summary(found) if played else NONE_YET
        self.summary.update(plain(said) if self.ascii_glyphs else said)  # ± as +/-
        self.query_one("#stats-body").display = played
        if played:
            self.levels.update(
                levels_table(found, box.ASCII2 if self.ascii_glyphs else box.SIMPLE_HEAD)
            )
            self.plot.show(found.ratings)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """`g` only when there is another game to go to (else neither footer nor palette)."""
        return len(self.games) > 1 if action == "next_game" else True

    def action_next_game(self) -> None:
        self.game = self.games[(self.games.index(self.game) + 1) % len(self.games)]
        self.show()

    def action_close(self) -> None:
        self.dismiss()
