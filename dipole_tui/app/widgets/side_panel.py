"""The side panel beside the board: the game and its players, whose turn it is, the figures, the
analysis (when on), the moves, the message, and the entry for typed moves.

The app gives the panel a `Session` to show (`show`) and what to say (`say`); the panel words and
wraps it. It draws only once mounted: what it is given before then is drawn at mount, and its
parts are its own widgets, never looked up, so a change that reaches it while the screen is being
taken down finds nothing missing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static
from textual.widgets.input import Selection

from ...analysis import Analysis, words
from ...bots.score import PovScore
from ...clock import low_time, shown_time
from ...control.analysis_mode import AnalysisMode
from ...control.bot_controller import BotController
from ...games.base import State, title
from ...registry import REGISTRY
from ...session import HUMAN, Session
from .move_list import MoveList
from .wrapping import wrap

SIDE_PANEL_WIDTH = 26
BEST_LINE_ROWS = 2  # the analysis's best line: as many moves as fit in this many lines


class MoveTyped(Message):
    """A move typed, Enter pressed: `text` without the ':' that opened the entry (never empty:
    Enter on nothing leaves the entry, as Escape does). The screen reads it by the game's rules
    and gives a refused move back to the entry (`MoveEntry.give_back`) to correct."""

    def __init__(self, entry: MoveEntry, text: str) -> None:
        super().__init__()
        self.entry = entry
        self.text = text

    @property
    def control(self) -> MoveEntry:
        return self.entry

    @property
    def typed_ahead(self) -> bool:
        """More was typed after Enter, in the same breath: the entry stays open for it."""
        return bool(self.entry.value)


class MoveEntry(Input):
    """The typed-move entry. Enter is handled in the entry's own key queue, in order with the
    characters, and empties the entry at once: moves typed ahead, however fast, stay apart."""

    PLACEHOLDER = ": type a move"
    # Shown in the footer while typing; the keys themselves are taken in `on_key`.
    BINDINGS = [
        Binding("enter", "play", "Play"),
        Binding("escape", "leave", "Board"),
    ]

    class Left(Message):
        """Escape: back to the board (of the screen the entry is on: its `control`)."""

        def __init__(self, entry: MoveEntry) -> None:
            super().__init__()
            self.entry = entry

        @property
        def control(self) -> MoveEntry:
            return self.entry

    class End(Message):
        """End with the cursor at the end already: as on the board, back to the game when an
        earlier position is shown (the move typed stays, to play there)."""

    def action_play(self) -> None:
        text, self.value = self.value.strip().lstrip(":").strip(), ""
        self.post_message(MoveTyped(self, text) if text else self.Left(self))

    def action_leave(self) -> None:
        self.post_message(self.Left(self))

    def give_back(self, text: str) -> None:
        """A refused move, selected: typing replaces it, an arrow key goes in to correct it."""
        if not self.value:
            self.value = text
            self.select_all()

    def on_key(self, event: events.Key) -> None:
        """Runs before `Input`'s own key handler, which a prevented key never reaches."""
        if event.key in ("enter", "escape"):
            event.stop()
            event.prevent_default()
            if event.key == "enter":
                self.action_play()
            else:
                self.action_leave()
        elif event.key == "end" and self.cursor_position == len(self.value):
            self.selection = Selection.cursor(self.cursor_position)
            self.post_message(self.End())
        elif event.character == ":" and not self.value:
            # The ':' that opens the entry may arrive here when typed fast; a ':' inside a
            # move (g7-off:2) is text.
            event.stop()
            event.prevent_default()


class SidePanel(Vertical):
    """A session's story, each part wrapped to the panel's width and given the lines it needs.

    A message is lasting (the last move, a pass) or `transient` (a refusal, "nothing to redo"):
    a transient one gives way to the lasting one when the app says so (`say_lasting`)."""

    def __init__(
        self,
        bots: BotController,
        analysis: AnalysisMode,
        rating: Callable[[Session[Any]], str] = lambda session: "",
    ) -> None:
        super().__init__(id="side")
        self.bots = bots  # whether a bot thinks, or watching is paused
        self.analysis = analysis  # whether it is on, and what it found
        self.rating = rating  # your rating line in a game against a bot ("" in others)
        self.session: Session[Any] | None = None  # what is shown: none until the app says
        self.glyphs = ("", "")  # each side's glyph on the board
        self.lasting: tuple[str, str] = ("", "")  # the lasting message: (text, style)
        self.said: tuple[str, str] = ("", "")  # the message on show
        self.transient = False  # a transient message is on show instead
        self.entry = MoveEntry(placeholder=MoveEntry.PLACEHOLDER, id="move-input")
        self._title = Static(id="title")
        self.unkept = ""  # why the game is not safe on disk (a full disk): said until it is
        self._unkept = Static(id="unkept")
        self.room = Text()  # an online game's room, its players and the connection
        self.room_seats = ""  # who plays, while the room has no seats yet (`show_room`)
        self._room = Static(id="room")
        self._turn = Static(id="turn")
        self._clocks = Static(id="clocks")
        self._clocks_shown = Text()
        self._tally = Static(id="tally")
        self._analysis = Static(id="analysis")
        self._moves = MoveList()
        self.walking: tuple[int, int] | None = None  # (ply shown, plies) while looking back
        self.walked: State[Any] | None = None  # the position shown then
        self._message = Static(id="message")

    def compose(self) -> ComposeResult:
        yield self._title
        yield self._unkept
        yield self._room
        yield self._turn
        yield self._clocks
        yield self._tally
        yield self._analysis
        yield Static("Moves", id="moves-title")
        yield self._moves
        yield self._message
        yield self.entry

    def on_mount(self) -> None:
        self._draw()

    def show(self, session: Session[Any], glyphs: tuple[str, str], message: str = "") -> None:
        """A new position, or another game: every part again, `message` the lasting one."""
        self.session = session
        self.glyphs = glyphs
        self.walking = self.walked = None
        self.lasting = (message, "")
        self.transient = False
        if self.is_mounted:
            self._draw()

    def on_resize(self) -> None:
        """The screen's breakpoint gave the panel another width (game.tcss): wrap again, the
        message on show (a refusal too) as it was."""
        said, transient = self.said, self.transient
        self._draw()
        self.transient = transient
        self._say(*said)

    def show_unkept(self, problem: str) -> None:
        """The game could not be kept (or is kept again, with ""): a line that stays until then."""
        self.unkept = problem
        if self.is_mounted:
            self._draw_unkept()

    def _draw_unkept(self) -> None:
        said = f"Not kept on disk: {self.unkept}. Tried again at each change and at quit."
        self._fit(self._unkept, Text(said if self.unkept else "", style="bold reverse"))
        self._unkept.display = bool(self.unkept)

    def show_room(self, room: Text, seats: str = "") -> None:
        """The room of an online game (empty: a game played here), and the title with it: a
        player coming in names a seat; `seats` says who plays while the game has no seats yet
        (a seek waiting in the lobby), where the board's placeholder game would say hot-seat."""
        self.room, self.room_seats = room, seats
        if self.is_mounted:
            if self.session is not None:
                self._fit(self._title, self._title_text(self.session))
            self._fit(self._room, room)
            self._room.display = bool(room)

    def show_walk(self, ply: int, plies: int, state: State[Any]) -> None:
        """An earlier position, `state`, is on the board (until `show`): its move marked, its
        counts, the way back."""
        self.walking, self.walked = (ply, plies), state
        if self.is_mounted and self.session is not None:
            self._moves.show(self.session, ply)
            self.show_turn()
            self._fit(self._tally, self._tally_text(self.session))

    def show_clocks(self) -> None:
        """Both clocks, the running one lit (a game without clocks shows none)."""
        session = self.session
        if not self.is_mounted or session is None:
            return
        clock = session.clock
        self._clocks.display = clock is not None
        if clock is None:
            return
        text = Text()
        # Each side's first move is untimed (`clock.UNTIMED_PLIES`): no clock is lit, and the
        # panel says so where it has room.
        untimed = not clock.timed and session.outcome is None
        for side in (0, 1):
            left = clock.remaining(side)
            running = clock.ticking and side == clock.to_move and session.outcome is None
            style = "bold reverse" if running else "dim"
            if left < low_time(clock.control):
                style += " red"
            text.append(f" {self.glyphs[side]} {shown_time(max(left, 0.0))} ", style)
            text.append(" ")
        control = "untimed" if untimed else str(clock.control)
        if text.cell_len + len(control) <= self._text_width():  # said when it fits
            text.append(control, "dim")
        if text != self._clocks_shown:  # most ticks change nothing that is shown
            self._clocks_shown = text
            self._clocks.update(text, layout=False)

    def show_turn(self) -> None:
        """Whose turn, again: a bot started or stopped thinking, or watching was paused."""
        if self.is_mounted and self.session is not None:
            self._fit(self._turn, self._turn_text(self.session))

    def show_analysis(self) -> None:
        """The analysis, again: it was turned on or off, or found more."""
        if self.is_mounted and self.session is not None:
            self._draw_analysis(self.session)

    def say(self, message: str, style: str = "", transient: bool = False) -> None:
        """A message alone: the board keeps its selection."""
        if not transient:
            self.lasting = (message, style)
        self.transient = transient
        if self.is_mounted:
            self._say(message, style)

    def say_lasting(self) -> None:
        """The player moved on: a transient message gives way to the lasting one."""
        self.say(*self.lasting)

    def _draw(self) -> None:
        session = self.session
        if session is None:
            return
        self._fit(self._title, self._title_text(session))
        self._draw_unkept()
        self.show_room(self.room)
        self._fit(self._turn, self._turn_text(session))
        self.show_clocks()
        self._fit(self._tally, self._tally_text(session))
        self._draw_analysis(session)
        self._say(*self.lasting)
        self.transient = False
        self._moves.show(session, None if self.walking is None else self.walking[0])

    def _say(self, message: str, style: str) -> None:
        self.said = (message, style)
        lines = wrap(message, self._text_width()) if message else []
        self._fit(self._message, Text("\n".join(lines), style=style))

    def _text_width(self) -> int:
        """Columns for text in the panel: its width less its rule and padding (before the first
        layout, the narrow panel's)."""
        return self.content_size.width or SIDE_PANEL_WIDTH - 3

    def _fit(self, part: Static, text: Text) -> None:
        """Show `text` whole, wrapped to the panel, in as many lines as it needs; the panel is
        laid out again only when that number changes (a move usually keeps every height)."""
        lines = text.wrap(self.app.console, self._text_width())
        height = max(len(lines), 1)
        if part.styles.height is None or part.styles.height.value != height:
            part.styles.height = height
        part.update(Text("\n").join(lines), layout=False)

    def _title_text(self, session: Session[Any]) -> Text:
        """The game, and who plays: on one line when it fits, the players below when not; then
        your rating in the game, against a bot."""
        name = title(session.game, session.state.variant)
        key = session.game.key
        named = [
            self.bots.seat_name(seat, key) if seat.is_bot else session.player_name(side)
            for side, seat in enumerate(session.players)
        ]
        seats = self.room_seats or ("hot-seat" if named == [HUMAN, HUMAN] else " v ".join(named))
        joiner = "  " if len(name) + 2 + len(seats) <= self._text_width() else "\n"
        text = Text.assemble((name, "bold"), joiner, (seats, "dim" if joiner == "\n" else ""))
        if rating := self.rating(session):
            text.append(f"\n{rating}", "dim")
        return text

    def _draw_analysis(self, session: Session[Any]) -> None:
        self._analysis.display = self.analysis.on
        if self.analysis.on:
            self._fit(self._analysis, self._analysis_text(session))

    def _analysis_text(self, session: Session[Any]) -> Text:
        """What the analysis found: the depth, the score in words, the best line (or lines)."""
        text = Text("Analysis", style="bold")
        outcome = session.outcome
        found = self.analysis.latest
        if outcome is not None:
            over = (
                "Drawn"
                if outcome.winner is None
                else f"{session.game.side_names[outcome.winner]} won"
            )
            return text.append("  game over", style="dim").append(f"\n{over}")
        if found is None:
            return text.append("  thinking...", style="dim")
        text.append(f"  depth {found.depth}" if found.depth else "  solved", style="dim")
        unit = REGISTRY[session.game.key].unit
        said = found.score.in_words(session.game.side_names, unit, not found.depth)
        text.append(f"\n{said}", style="bold")
        if self.analysis.lines > 1 and found.lines:
            return text.append_text(self._lines_text(session, found))
        width = self._text_width()
        shown = ""
        for move in found.line:
            longer = f"{shown}{session.game.move_separator}{move}" if shown else f"best {move}"
            if len(wrap(longer, width)) > BEST_LINE_ROWS:
                break
            shown = longer
        return text.append(f"\n{shown}")

    def _lines_text(self, session: Session[Any], found: Analysis) -> Text:
        """The best lines, a row each: the move, its score as the words say it (the first
        side's view), and as much of the line after it as fits, cut with `…`."""
        game, width = session.game, self._text_width()
        unit = REGISTRY[game.key].unit
        text = Text()
        for number, best in enumerate(found.lines, 1):
            line = Analysis(found.depth, PovScore(best.score, found.side), best.line)
            row = f"{number} {best.move} {words(game, unit, line, short=True)}"
            rest = best.line[1:]
            for count in range(len(rest), -1, -1):
                shown = [row, game.move_separator.join(rest[:count])] if count else [row]
                longer = " ".join(shown + ["…"] * (count < len(rest)))
                if len(longer) <= width or count == 0:
                    break
            if len(longer) > width:
                longer = longer[: width - 1] + "…"
            text.append(f"\n{longer}")
        return text

    def _side_label(self, session: Session[Any], side: int) -> str:
        return f"{self.glyphs[side]} {session.game.side_names[side]}"

    def _turn_text(self, session: Session[Any]) -> Text:
        if self.walking is not None:
            ply, plies = self.walking
            return Text.assemble(
                (f"Looking at ply {ply} of {plies}", "bold"),
                ("\n[ ] step, End: the game", "dim"),
            )
        outcome = session.outcome
        if outcome is not None:
            if outcome.winner is None:
                headline = "Drawn"
            else:
                headline = f"{self._side_label(session, outcome.winner)} wins"
            return Text.assemble(
                (headline, "bold"),
                f"\n{outcome.reason}",
                ("\nn new game, r review, q quit", "dim"),
            )
        review = ""
        if undone := len(session.redo_moves):
            review = f"\n{undone} {'ply' if undone == 1 else 'plies'} taken back: U replays"
        seat = session.players[session.state.to_move]
        if seat.is_bot:
            bots = self.bots
            doing = "is thinking..." if bots.thinking else ("paused (p)" if bots.paused else "")
            review = f"\n{seat} {doing}".rstrip() + review
        mover = self._side_label(session, session.state.to_move)
        return Text.assemble((f"{mover} to move", "bold"), review)

    def _tally_text(self, session: Session[Any]) -> Text:
        """The counts of the position on the board: the game's, or the one looked back at."""
        figures = session.figures() if self.walked is None else session.game.figures(self.walked)
        widths = [max(4, len(heading) + 1) for heading in figures.headings]
        for row in figures.rows:
            widths = [max(w, len(str(value)) + 1) for w, value in zip(widths, row, strict=True)]
        labels = [self._side_label(session, side) for side in (0, 1)]
        label_width = max(map(len, labels))
        heads = "".join(f"{h:>{w}}" for h, w in zip(figures.headings, widths, strict=True))
        text = Text(f"{'':{label_width}}{heads}\n", style="dim")
        for label, row in zip(labels, figures.rows, strict=True):
            numbers = "".join(f"{n:>{w}}" for n, w in zip(row, widths, strict=True))
            text.append(f"{label:<{label_width}}{numbers}\n")
        if figures.note:
            text.append(figures.note, style="dim")
        return text


__all__ = ["SIDE_PANEL_WIDTH", "MoveEntry", "MoveTyped", "SidePanel"]
