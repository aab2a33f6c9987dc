"""The new-game dialog: the game, the board, who plays each side (a level with its rating), the
clock, and your own rating in the game; or Online, a game server's room."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Button, Label, Select

from ...clock import TimeControl
from ...control.choice import GameChoice, LearnChoice, OnlineChoice
from ...online.names import NameBook
from ...registry import REGISTRY, describe_level, nearest_level
from ...session import HUMAN, Seat
from ...session import players as players_of
from ..boards.registered import playable
from ..closing import Dialog
from .online import DEFAULT_SERVER, OnlineScreen

CLOCKS = ("1+0", "3+2", "5+3", "10+5", "15+10", "30+20")


def seat_label(game_key: str, seat: Seat) -> str:
    """A seat as the dialog offers it: a level with its number and rating, "3 easy (+640)"."""
    if seat.level is None:  # a person, or the adaptive bot
        return seat.capitalize()
    return describe_level(game_key, seat.level)


class NewGameScreen(Dialog[GameChoice | LearnChoice | OnlineChoice | None]):
    """Choose the game, the board and who plays each side; or Online, a game server's room."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        current: GameChoice,
        server: str = DEFAULT_SERVER,
        rating: Callable[[str], str] = lambda game_key: "",
        names: NameBook | None = None,
    ) -> None:
        super().__init__()
        self.current = current
        self.server = server  # the Online dialog's: the last one played on
        self.names = names  # the player's names on servers, for the Online dialog
        self.rating = rating  # your rating in a game, said under the form ("": nothing)

    def compose(self) -> ComposeResult:
        game = REGISTRY[self.current.game_key].game
        key = self.current.game_key
        players = [(seat_label(key, name), name) for name in players_of(key)]
        with Vertical(id="dialog", classes="new-game"):
            yield Label("New game", classes="dialog-title")
            with Grid(id="form"):
                yield Label("Game")
                yield Select(
                    [(REGISTRY[key].game.name, key) for key in playable()],
                    value=self.current.game_key,
                    allow_blank=False,
                    compact=True,
                    id="game",
                )
                yield Label("Variant")
                yield Select(
                    [(variant or "default", variant) for variant in game.variants],
                    value=self.current.variant,
                    allow_blank=False,
                    compact=True,
                    id="variant",
                )
                for side, name in enumerate(game.side_names):
                    yield Label(name)
                    yield Select(
                        players,
                        value=self.current.players[side],
                        allow_blank=False,
                        compact=True,
                        id=f"player-{side}",
                    )
                yield Label("Clock")
                yield Select(
                    self._clock_options(),
                    value=self._clock_now(),
                    allow_blank=False,
                    compact=True,
                    id="clock",
                )
            if said := self.rating(key):
                yield Label(said, id="your-rating", classes="dialog-hint")
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Learn", id="learn")
                yield Button("Online", id="online")
                yield Button("Cancel", id="cancel")

    def _clock_now(self) -> str:
        control = self.current.time_control
        return "" if control is None else str(control)

    def _clock_options(self) -> list[tuple[str, str]]:
        """No clock, the usual controls (minutes+seconds a move), and the current one."""
        offered = ["", *CLOCKS]
        if self._clock_now() not in offered:
            offered.append(self._clock_now())
        return [(text or "none", text) for text in offered]

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    @on(Select.Changed, "#game")
    async def game_changed(self, event: Select.Changed) -> None:
        """Another game has its own boards and side names: the form is built again for it, and
        the new game list has the focus. A change that a list already replaced still had on
        its way is not the player's choice any more (a burst of keys sends such)."""
        key = str(event.value)
        if event.select is not self.query_one("#game", Select) or key == self.current.game_key:
            return
        seats = tuple(Seat(nearest_level(key, seat)) for seat in self._seats())
        clock = self.current.time_control
        variant = REGISTRY[key].game.variants[0]
        self.current = GameChoice(key, variant, (seats[0], seats[1]), clock)
        await self.recompose()
        self.query_one("#game", Select).focus()

    def _seats(self) -> tuple[Seat, Seat]:
        return (
            Seat(str(self.query_one("#player-0", Select).value)),
            Seat(str(self.query_one("#player-1", Select).value)),
        )

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        self.dismiss(self._chosen())

    def _chosen(self) -> GameChoice:
        game_key = str(self.query_one("#game", Select).value)
        variants = REGISTRY[game_key].game.variants
        chosen = self.query_one("#variant", Select).value
        variant = chosen if chosen in variants else variants[0]
        clock = str(self.query_one("#clock", Select).value)
        control = TimeControl.parse(clock) if clock else None
        return GameChoice(game_key, variant, self._seats(), control)

    @on(Button.Pressed, "#online")
    def online(self) -> None:
        """A room for the game chosen here (people on both sides), or one to join or watch."""
        chosen = self._chosen()
        people = GameChoice(chosen.game_key, chosen.variant, (HUMAN, HUMAN), chosen.time_control)

        def answered(choice: OnlineChoice | None) -> None:
            if choice is not None:
                self.dismiss(choice)

        self.app.push_screen(OnlineScreen(people, self.server, self.names), answered)

    @on(Button.Pressed, "#learn")
    def learn(self) -> None:
        self.dismiss(LearnChoice(str(self.query_one("#game", Select).value)))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
