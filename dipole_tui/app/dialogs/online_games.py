"""The player's online games in the Open dialog: a row per seat kept (`online.json`), and whose
turn it is there, as each game's server says (asked in the background: the list is there at
once, and a server that does not answer says so in its rows)."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from textual import work
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from websockets.exceptions import WebSocketException

from ...online.client import ask_rooms
from ...online.protocol import ProtocolError, RoomSummary
from ...online.seat import RoomSeat
from ...registry import REGISTRY

ROWS = 5  # the list's height at most: the kept files below keep their room


class OnlineGames(OptionList):
    """The seats, newest first; Enter (or a click) goes back to that room."""

    DEFAULT_CSS = f"OnlineGames {{ height: auto; max-height: {ROWS + 2}; }}"

    class Chosen(Message):
        def __init__(self, seat: RoomSeat) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seats: list[RoomSeat], *, id: str | None = None) -> None:
        self.seats = list(reversed(seats))
        super().__init__(*(self._row(seat, "asking the server...") for seat in self.seats), id=id)

    def _row(self, seat: RoomSeat, state: str) -> Option:
        game = REGISTRY[seat.game].game if seat.game in REGISTRY else None
        name = game.name if game is not None else seat.game
        side = game.side_names[seat.side] if game is not None and seat.side in (0, 1) else "?"
        return Option(f"{seat.room:<8} {name:<12} you: {side:<7} {state}")

    def on_mount(self) -> None:
        self.ask_servers()

    @work(group="online-games", exclusive=True)
    async def ask_servers(self) -> None:
        by_server: defaultdict[str, list[int]] = defaultdict(list)
        for index, seat in enumerate(self.seats):
            by_server[seat.server].append(index)
        answers = await asyncio.gather(
            *(self._ask(server, rows) for server, rows in by_server.items())
        )
        for rows in answers:
            for index, state in rows.items():
                self.replace_option_prompt_at_index(
                    index, self._row(self.seats[index], state).prompt
                )

    async def _ask(self, server: str, rows: list[int]) -> dict[int, str]:
        """Each row's state as `server` says it; what went wrong, when it cannot."""
        asked = [(self.seats[i].room, self.seats[i].secret) for i in rows]
        try:
            answer = await ask_rooms(server, asked)
        except (OSError, TimeoutError, WebSocketException, ProtocolError) as error:
            why = "is not answering" if isinstance(error, OSError | TimeoutError) else "refused"
            return dict.fromkeys(rows, f"the server {why}")
        known = {entry.room: entry for entry in answer}
        return {i: _state(self.seats[i], known.get(self.seats[i].room)) for i in rows}

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self.seats[event.option_index]))


def _state(seat: RoomSeat, entry: RoomSummary | None) -> str:
    """A room's state in a few words, from the player's side."""
    if entry is None:
        return "gone from the server"
    if entry.result:
        won = {"1-0": 0, "0-1": 1}.get(entry.result)
        return "drawn" if won is None else ("you won" if won == seat.side else "you lost")
    turn = "your turn" if entry.to_move == seat.side else "their turn"
    return f"{turn}, ply {entry.plies}"


__all__ = ["OnlineGames"]
