"""The move entry owns typing a move (issue 42): Enter posts `MoveTyped` with the move as typed,
without the ':' that opened the entry, and empties the entry at once; Enter on nothing, or
Escape, leaves the entry. What the move means is the screen's to read, by the game's rules."""

from __future__ import annotations

from textual import on
from textual.app import App, ComposeResult

from dipole_tui.app.widgets.side_panel import MoveEntry, MoveTyped


class EntryApp(App[None]):
    """The entry alone, and what it posts."""

    def __init__(self) -> None:
        super().__init__()
        self.typed: list[MoveTyped] = []
        self.left = 0

    def compose(self) -> ComposeResult:
        yield MoveEntry(id="entry")

    @on(MoveTyped, "#entry")
    def move_typed(self, event: MoveTyped) -> None:
        self.typed.append(event)

    @on(MoveEntry.Left, "#entry")
    def entry_left(self) -> None:
        self.left += 1


async def test_enter_posts_the_move_typed_and_empties_the_entry() -> None:
    app = EntryApp()
    async with app.run_test() as pilot:
        entry = app.query_one(MoveEntry)
        entry.focus()
        await pilot.press(*":e1-e3 ", "enter")
        await pilot.pause()
        assert [(event.text, event.control) for event in app.typed] == [("e1-e3", entry)]
        assert entry.value == "" and app.left == 0
        assert not app.typed[0].typed_ahead
        entry.value = "g5"  # typed on before the screen read the move: the entry stays open
        assert app.typed[0].typed_ahead


async def test_enter_on_nothing_and_escape_leave_the_entry() -> None:
    app = EntryApp()
    async with app.run_test() as pilot:
        app.query_one(MoveEntry).focus()
        await pilot.press(":", " ", "enter")
        await pilot.pause()
        assert app.typed == [] and app.left == 1
        await pilot.press("e", "escape")
        await pilot.pause()
        assert app.typed == [] and app.left == 2
