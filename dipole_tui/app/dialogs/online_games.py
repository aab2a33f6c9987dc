"""The player's online games in the Open dialog: every game of every server in the seat book
(`online.json`), each server asked how its games stand (`online/my_games.py`, in the
background: the list is there at once), then listed your turn first, then the opponent's, then
those over; a server that does not answer is one line."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...games.base import shown
from ...online.my_games import MyGame, ask_servers, in_order
from ...online.seat import RoomSeat
from ...registry import REGISTRY

ROWS = 5  # the list's height at most: the kept files below keep their room


class OnlineGames(OptionList):
    """The seats, newest first until the servers answer, then in their order; Enter (or a
    click) goes back to that room."""

    DEFAULT_CSS = f"OnlineGames {{ height: auto; max-height: {ROWS + 2}; }}"

    class Chosen(Message):
        def __init__(self, seat: RoomSeat) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seats: list[RoomSeat], *, id: str | None = None) -> None:
        self.every_seat = list(seats)
        # Each row's seat, in the list's order (None: a server that did not answer).
        self.rows: list[RoomSeat | None] = list(reversed(seats))
        asking = [_row(MyGame(seat, None), "asking the server...") for seat in reversed(seats)]
        super().__init__(*asking, id=id)

    def on_mount(self) -> None:
        self.ask_servers()

    @work(group="online-games", exclusive=True)
    async def ask_servers(self) -> None:
        answers = await ask_servers(self.every_seat)
        games = in_order(self.every_seat, answers)
        silent = [answer for answer in answers if answer.problem]
        self.rows = [game.seat for game in games] + [None] * len(silent)
        self.set_options(
            [_row(game, game.state()) for game in games]
            + [Option(Text(answer.line()), disabled=True) for answer in silent]
        )
        self.highlighted = 0 if games else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        seat = self.rows[event.option_index]
        if seat is not None:
            self.post_message(self.Chosen(seat))


def _row(game: MyGame, state: str) -> Option:
    """A game's row: the room, the game, the player's side and how it stands. Text, never
    markup: the book is a file, and its words are shown as they are."""
    seat = game.seat
    entry = REGISTRY.get(seat.game)
    side = entry.game.side_names[seat.side] if entry is not None else "?"
    room = shown(seat.room, 12)
    return Option(Text(f"{room:<8} {game.name:<12} you: {side:<7} {state}"))


__all__ = ["OnlineGames"]
