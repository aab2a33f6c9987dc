"""A game in progress, as the app sees it: rules state, players, redo, forced passes, the
endings that are a player's act (resigning, an agreed draw, a flag) and the clocks.

No Textual here, and no files but the one a player saves to (`saves.py` keeps the autosave and
the kept games): the app drives a `Session`, and tests drive it directly. Undo and redo walk the
history without losing it, which is also how a finished game is reviewed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Generic

from . import storage
from .bots import LEVELS
from .clock import (
    UNTIMED_PLIES,
    Clock,
    Mark,
    TimeControl,
    clk_comment,
    clk_time,
    read_clk,
    without_clk,
)
from .games.base import (
    Figures,
    Game,
    GameError,
    IllegalMoveError,
    M,
    Outcome,
    State,
    Termination,
    shown,
)
from .records import (
    ENDINGS,
    RECORD_LIMIT,
    Record,
    RecordError,
    comment_size,
    ending,
    format_record,
    from_the_start,
    parse_record,
    start_of,
)
from .registry import game_named, levels


class Seat(str):
    """Who sits at a side: a person here (`human`), a person at the other end of a game server
    (`remote`), a bot of the ladder at a level (the level's name), or the adaptive bot
    (`adaptive`, a level that follows the player). A seat is its own text, the one records and
    the command line say: it is written and read back as the plain strings before it were, and
    text still compared with it compares as before (the app's screens, until they ask it)."""

    __slots__ = ()

    def __new__(cls, text: str) -> Seat:
        """The one way in from text; ValueError in one line for a seat there is not."""
        if text not in _SEATS:
            known = ", ".join(_SEATS)
            raise ValueError(f"no seat called '{shown(text)}'; expected one of {known}")
        return super().__new__(cls, text)

    @property
    def is_person(self) -> bool:
        """A person at this program: undo stops on their turns, hints are theirs."""
        return self == _PERSON

    @property
    def is_remote(self) -> bool:
        return self == _REMOTE

    @property
    def is_bot(self) -> bool:
        """A seat our bots play: neither a person here nor one at the other end of a server."""
        return not (self.is_person or self.is_remote)

    @property
    def is_adaptive(self) -> bool:
        return self == _ADAPTIVE

    @property
    def level(self) -> str | None:
        """The ladder's level a bot seat plays at; None for a person, and for the adaptive bot,
        whose level follows the player (`Keeper.level_of`)."""
        return str(self) if self in LEVELS else None


_PERSON, _REMOTE, _ADAPTIVE = "human", "remote", "adaptive"
_SEATS = (_PERSON, *LEVELS, _ADAPTIVE, _REMOTE)
HUMAN = Seat(_PERSON)
REMOTE = Seat(_REMOTE)  # a person playing from elsewhere, through a game server: no bot of ours
ADAPTIVE = Seat(_ADAPTIVE)  # a level that follows you
# Who can sit at a side here: a person, or a bot of the ladder.
PLAYERS: tuple[Seat, ...] = (HUMAN, *map(Seat, LEVELS), ADAPTIVE)
# The tag that keeps the side to move's time left when a record was written mid-turn (PGN's
# `[%clk]` comments give each side's time after its moves only): see `Session.turn_clock`.
TURN_CLOCK = "TurnClock"
# The most a loaded record's game may be written again with its comments: the rest of the
# read cap (a tenth) is room for the game to go on before a write would pass the cap.
KEPT_LIMIT = RECORD_LIMIT * 9 // 10


def players(game_key: str) -> tuple[Seat, ...]:
    """Who can sit at a side in one game: its own levels only."""
    return (HUMAN, *map(Seat, levels(game_key)), ADAPTIVE)


@dataclass(frozen=True)
class Notes(Generic[M]):
    """A loaded record's comments and marks, kept with the moves they follow
    (`Record.comments`: [0] before the first move, [n] after the n-th; `Record.marks`: the n-th
    move's at [n - 1]), so that a game opened, played on and saved keeps them. They hold while
    the game has the moves they were written after: those after a move undone and replaced are
    another game's, and are not written."""

    moves: tuple[M, ...] = ()
    comments: tuple[tuple[str, ...], ...] = ()
    marks: tuple[str, ...] = ()
    cut: int = 0  # the comments past the record's budget, not kept (`Session._fit`)

    def following(self, moves: Sequence[M]) -> tuple[list[str], list[list[str]]]:
        """The marks and the comments that are still the game's, by ply, for a game of
        `moves`."""
        same = 0
        while same < min(len(moves), len(self.moves)) and moves[same] == self.moves[same]:
            same += 1
        return list(self.marks[:same]), [list(said) for said in self.comments[: same + 1]]


@dataclass
class Session(Generic[M]):
    """One game being played: undo keeps the undone moves for redo until a new move is made."""

    game: Game[Any, M]
    state: State[M]
    players: tuple[Seat, Seat] = (HUMAN, HUMAN)  # who sits at each side
    tags: dict[str, str] = field(default_factory=dict)
    redo_moves: list[M] = field(default_factory=list)
    # How the game ended when the position did not end it: a resignation, an agreed draw, a flag.
    ending: Outcome | None = None
    clock: Clock | None = None  # None: the game is played without clocks
    notes: Notes[M] = field(default_factory=Notes)  # a loaded record's comments

    @classmethod
    def new(
        cls,
        game: Game[Any, M],
        variant: str | None = None,
        players: tuple[Seat, Seat] = (HUMAN, HUMAN),
        time_control: TimeControl | None = None,
    ) -> Session[M]:
        """A game from its start; with a time control, its clocks are set but not running
        until the app starts them (`start_clock`)."""
        session = cls(game, game.new(variant), players)
        session.tags["Date"] = datetime.now().strftime("%Y.%m.%d")
        if time_control is not None:
            session.clock = clock_for(time_control, session.state)
        session.pass_if_forced()
        return session

    @classmethod
    def from_text(cls, text: str) -> Session[Any]:
        """A session from a saved record's text; RecordError when the record is bad."""
        return cls.from_record(parse_record(text))

    @classmethod
    def from_record(cls, record: Record) -> Session[Any]:
        offered = players(record.game.key)
        white, black = (
            Seat(name) if name in offered else HUMAN  # a person's name, a level not here
            for name in (record.tags.get("White", HUMAN), record.tags.get("Black", HUMAN))
        )
        session = cls(record.game, record.state, (white, black), dict(record.tags))
        session.tags.pop("Result", None)
        if record.ending is not None:
            session.ending = record.ending
            session.tags.pop("Termination")
        control = TimeControl.from_tag(session.tags.get("TimeControl", ""))
        if control is not None:  # one this program does not play stays a tag, as it was
            session.clock = clock_for(control, record.state, record.comments)
            del session.tags["TimeControl"]
            spent_in_turn(session.clock, session.tags.pop(TURN_CLOCK, None))
        said = record.comments
        if session.clock is not None:  # written anew from the clock
            said = [[kept for kept in map(without_clk, texts) if kept] for texts in said]
        moves = tuple(record.state.moves_played)
        session.notes = Notes(moves, tuple(tuple(texts) for texts in said), tuple(record.marks))
        session.pass_if_forced()
        session._fit(KEPT_LIMIT)
        return session

    def _fit(self, limit: int) -> None:
        """Whatever the program writes it can read back: a loaded record whose comments would
        make the game's record, written again, larger than `limit` bytes keeps the comments
        that fit (the first ones), and `notes.cut` counts the rest. RecordError when even its
        tags and moves would be larger than a record may be."""
        notes = self.notes
        if not any(notes.comments):
            return
        self.notes = replace(notes, comments=())
        size = len(self.record_text().encode())  # and each comment kept adds its own
        if size > RECORD_LIMIT:
            raise RecordError(
                f"the game's record would be {size // storage.KB} KB, more than the "
                f"{RECORD_LIMIT // storage.MB} MB a record may be (it could not be read back)"
            )
        kept: list[tuple[str, ...]] = []
        for said in notes.comments:
            fit = 0
            while fit < len(said) and (size := size + comment_size(said[fit])) <= limit:
                fit += 1
            kept.append(said[:fit])
            if fit < len(said):
                break
        cut = sum(map(len, notes.comments)) - sum(map(len, kept))
        self.notes = replace(notes, comments=tuple(kept), cut=cut)

    # -- the game --------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended: by its rules, or by a player's act or the clock."""
        return self.state.outcome() or self.ending

    @property
    def is_fresh(self) -> bool:
        """No move played, from the game's own start: nothing in it a player would miss. A
        position set up in the editor or pasted is not fresh: it is kept and resumed like any
        game."""
        return not self.state.plies and from_the_start(self.game, self.state)

    @property
    def is_slight(self) -> bool:
        """Too little to keep once another game replaces it: fewer than two moves from the
        game's own start, a game lichess would abort (resuming it is still offered)."""
        return self.state.plies < UNTIMED_PLIES and from_the_start(self.game, self.state)

    @property
    def abortable(self) -> bool:
        """Whether the game can be called off (`abort`): as lichess, before each side has
        moved once (the clocks have not run yet), and not once it has ended."""
        return self.outcome is None and self.state.plies < UNTIMED_PLIES

    def abort(self) -> None:
        """Call the game off: its moves are taken back and forgotten, no result; it stands at
        its start again. GameError once it is too late."""
        if not self.abortable:
            raise GameError("a game can be aborted only before each side has moved once")
        while self.state.plies:
            self.state.undo()
        self.redo_moves.clear()
        self._clock_to_position()
        self.stop_clock()

    @property
    def last_move(self) -> M | None:
        played = self.state.moves_played
        return played[-1] if played else None

    def human_sides(self) -> list[int]:
        """The sides a person plays: undo and redo stop on their turns."""
        return [side for side, seat in enumerate(self.players) if seat.is_person]

    def is_pass(self, move: M) -> bool:
        return self.game.is_pass(move)

    def play(self, move: M) -> list[M]:
        """Play a move, then any forced passes; returns the passes played for it. The last
        guard: a move not legal here (a stale click, a confirm pressed twice, an answer for
        another position) raises IllegalMoveError and changes nothing."""
        if self.ending is not None or not self.state.is_legal(move):
            raise IllegalMoveError(self._refusal(move))
        if self.game.is_resignation(move):  # Bi-Pod's `resign`, typed or in an old room
            self.resign(self.state.to_move)
            return []
        self.state.play(move)
        self.redo_moves.clear()
        if self.clock is not None:
            self.clock.press(self.state.to_move)
        passes = self.pass_if_forced()
        if self.clock is not None and self.outcome is not None:
            self.clock.stop()
        return passes

    def _refusal(self, move: M) -> str:
        """Why `move` cannot be played now, in the rules' words where they have them."""
        if self.outcome is not None:
            return "the game is over"
        try:
            text = self.game.format_move(move)
        except Exception:  # not even a move of this game
            return "that is not a move of this game"
        try:
            self.game.parse_move(text, self.state)
        except GameError as error:
            return str(error)
        return f"{text} is not legal here"

    def pass_if_forced(self) -> list[M]:
        """A side whose only move is a pass passes at once: the program does it, and says so."""
        passes: list[M] = []
        # Counted first: building every move to see that there is more than one costs a
        # Bi-Pod multi position 15 ms (bench/online.py's profile), counting them nothing.
        while self.ending is None and self.state.count_moves() == 1:
            legal = self.state.legal_moves()
            if not self.is_pass(legal[0]):
                return passes
            self.state.play(legal[0])
            passes.append(legal[0])
            if self.clock is not None:  # it costs no time and earns no increment
                self.clock.press(self.state.to_move, charged=False)
        return passes

    # -- endings that are not in the position ----------------------------------------------

    def resign(self, side: int) -> None:
        """`side` resigns, at any time (against a bot, while it thinks): the game ends here,
        in every game alike. GameError when it is over already."""
        self._refuse_if_over()
        self._end(ending(self.game, Termination.RESIGNED, 1 - side))

    def agree_draw(self) -> None:
        """The players agree to a draw; GameError in a game that cannot be drawn, or is over."""
        self.check_draw()
        self._end(ending(self.game, Termination.AGREED, None))

    def check_draw(self) -> None:
        """GameError when a draw cannot be offered or agreed now: asked of an offer too."""
        if not self.game.can_draw:
            raise GameError(f"{self.game.name} has no draws: a game ends with a winner")
        self._refuse_if_over()

    def flag(self, side: int) -> None:
        """`side`'s time ran out: it loses (GameError when the game is over already)."""
        self._refuse_if_over()
        self._end(ending(self.game, Termination.TIME, 1 - side))

    def check_flag(self, now: float | None = None) -> bool:
        """End the game on time if the side to move has none left; whether it did. Asked on
        each tick of the clock and before a move is played (a move after the flag fell is too
        late)."""
        if self.clock is None or self.outcome is not None:
            return False
        side = self.clock.flagged(now)
        if side is None:
            return False
        self.flag(side)
        return True

    def start_clock(self, now: float | None = None) -> None:
        """Let the side to move's time run (at the start, after a pause, on resuming); nothing
        without a clock or once the game is over."""
        if self.clock is not None and self.outcome is None:
            self.clock.start(now)

    def stop_clock(self, now: float | None = None) -> None:
        """Pause the clocks: the player paused, or the app closes."""
        if self.clock is not None:
            self.clock.stop(now)

    def _refuse_if_over(self) -> None:
        if self.outcome is not None:
            raise GameError("the game is over")

    def _end(self, outcome: Outcome) -> None:
        """The game ends where it stands: the moves undone before are not the game's any more
        (nor undone again: the game is over and filed)."""
        self.ending = outcome
        self.redo_moves.clear()
        self.stop_clock()

    # -- undo and redo ---------------------------------------------------------------------

    def can_undo(self) -> bool:
        """Never once a player ended the game (resigned, agreed, flagged): that is filed."""
        return self.ending is None and any(not self.is_pass(m) for m in self.state.moves_played)

    def undo(self) -> list[M]:
        """Take back the last chosen move and the forced passes after it (returned oldest first),
        back to the last position where a player chose."""
        undone: list[M] = []
        while self.can_undo():
            move = self.state.undo()
            undone.insert(0, move)
            if not self.is_pass(move):
                break
        self.redo_moves[:0] = undone
        self._clock_to_position()
        return undone

    def redo(self) -> list[M]:
        """Replay the next undone move and the forced passes after it."""
        redone: list[M] = []
        while self.redo_moves and (not redone or self.is_pass(self.redo_moves[0])):
            move = self.redo_moves.pop(0)
            self.state.play(move)
            redone.append(move)
        self._clock_to_position()
        return redone

    def _clock_to_position(self) -> None:
        """The clocks as they were when this position was reached (undo, redo)."""
        if self.clock is not None:
            self.clock.back_to(self.state.plies)
            if self.outcome is not None:
                self.clock.stop()

    def undo_to_human(self) -> list[M]:
        """Undo, and against a bot go on back to a person's turn: the bot's reply is taken back
        with the move it answered. With no person playing, or none, one choice as `undo`."""
        undone = self.undo()
        humans = self.human_sides()
        while undone and humans and self.state.to_move not in humans and self.can_undo():
            undone[:0] = self.undo()
        return undone

    def redo_to_human(self) -> list[M]:
        """Redo as `undo_to_human` undid: a person's move comes back with the bot's reply."""
        redone = self.redo()
        humans = self.human_sides()
        while redone and humans and self.state.to_move not in humans and self.redo_moves:
            redone += self.redo()
        return redone

    def figures(self) -> Figures:
        """What the side panel counts for each side: the game says."""
        return self.game.figures(self.state)

    # -- records ---------------------------------------------------------------------------

    def record_text(self) -> str:
        """The record: an ending not in the moves as its Result and Termination tags, the clocks
        as a TimeControl tag, a `[%clk]` comment after each move (the mover's time left) and
        the side to move's time left now (`turn_clock`), after the marks and comments of the
        record it was loaded from that are still the game's."""
        return self._record(self.turn_clock())

    def _record(self, turn_clock: str | None) -> str:
        tags = dict(self.tags)
        for side, tag in enumerate(("White", "Black")):
            tags[tag] = self.player_name(side)
        if self.ending is not None:
            tags["Result"] = self.ending.result()
            tags["Termination"] = ENDINGS[self.ending.termination]
        marks, comments = self.notes.following(self.state.moves_played)
        if self.clock is not None:
            tags["TimeControl"] = self.clock.control.tag()
            if turn_clock is not None:
                tags[TURN_CLOCK] = turn_clock
            comments += [[] for _ in range(self.state.plies + 1 - len(comments))]
            for ply, left in enumerate(self.clock_times(), 1):
                comments[ply].append(clk_comment(left))
        return format_record(self.game, self.state, tags, marks, comments)

    def player_name(self, side: int) -> str:
        """Who plays `side`, as the record says it: a person's name (here, or at the other
        end of a server) from the record the game was loaded from or the server's word, where
        it has one, else the seat (`human`, `remote`, a bot's level)."""
        named = self.tags.get(("White", "Black")[side], "")
        seat = self.players[side]
        person = seat.is_person or seat.is_remote
        return named if person and named and named not in _SEATS else str(seat)

    def turn_clock(self) -> str | None:
        """The side to move's time left now, as `[%clk]` writes a time, cut down to the tenth,
        when it has used some of its turn: a game closed or killed mid-turn resumes with that
        time used, never given back. None without clocks, once the game is over, before any of
        the turn is used, or while undone moves lie ahead (the record then ends past this
        turn's position)."""
        clock = self.clock
        if clock is None or self.outcome is not None or clock.ply != self.state.plies:
            return None
        if clock.remaining(clock.to_move) >= clock.marks[clock.ply].times[clock.to_move]:
            return None
        return _time_left(clock)

    def clock_times(self) -> list[float]:
        """The time the mover had left after each ply played, oldest first ([] without clock)."""
        clock = self.clock
        return [] if clock is None else [clock.after(p) for p in range(1, self.state.plies + 1)]

    def whole_game(self) -> Session[M]:
        """The game with every undone move replayed: what a review must never lose."""
        if not self.redo_moves:
            return self
        state = self.state.copy()
        for move in self.redo_moves:
            state.play(move)
        tags = dict(self.tags)
        return Session(self.game, state, self.players, tags, clock=self.clock, notes=self.notes)

    def save(self, path: Path | str) -> None:
        storage.write_text(path, self.checked_record())

    def checked_record(self) -> str:
        """The game's record, read back before it may replace anything: a record that would not
        replay to the same game is refused (RecordError), so a save can never lose a game."""
        turn = self.turn_clock()  # once: the clock may run on meanwhile
        text = self._record(turn)
        if len(text.encode()) > RECORD_LIMIT:
            raise RecordError(
                f"the game's record would be larger than the {RECORD_LIMIT // storage.MB} MB "
                "a record may be (it could not be read back)"
            )
        try:
            read = Session.from_text(text)
        except GameError as error:
            raise RecordError(
                f"the game could not be written so that it reads back ({error})"
            ) from None
        back = read.state
        if (
            back.moves_played != self.state.moves_played
            or back != self.state
            or read.ending != self.ending
            or [clk_comment(t) for t in read.clock_times()]
            != [clk_comment(t) for t in self.clock_times()]
            or (turn is not None and (read.clock is None or _time_left(read.clock) != turn))
        ):
            raise RecordError("the game could not be written so that it reads back as it is")
        return text


def _time_left(clock: Clock) -> str:
    """The side to move's time left, cut down to the tenth (rounded, it could give a twentieth
    of a second back)."""
    left = max(clock.remaining(clock.to_move), 0.0)
    return clk_time(math.floor(left * 10 + 1e-6) / 10)


def spent_in_turn(clock: Clock, turn_clock: str | None) -> None:
    """A record's `TurnClock` tag (`Session.turn_clock`) read onto its clocks: the side to move
    has used what it says of its turn. A time above the one the turn began with gives nothing
    back, one below zero is none left; a tag that is no time is left unread, as a tag of
    another program would be."""
    if turn_clock is None:
        return
    try:
        said = read_clk(f"[%clk {turn_clock}]")
    except (GameError, ArithmeticError, ValueError):  # out of every bound: no time at all
        said = None
    if said is None:
        return
    began = clock.marks[clock.ply].times[clock.to_move]
    clock.spend(began - min(max(said, 0.0), began))


def clock_for(
    control: TimeControl, state: State[Any], comments: list[list[str]] | None = None
) -> Clock:
    """The clocks of a game played on `state` so far: each side's time after each ply from the
    `[%clk]` comments after the moves (`comments[n]` after the n-th), kept where one is missing.
    Not running: the app starts them."""
    start = start_of(state)
    times = [control.seconds, control.seconds]
    marks = [Mark((times[0], times[1]), start.to_move)]
    for ply, move in enumerate(state.moves_played, 1):
        mover = start.to_move
        start.play(move)
        said = comments[ply] if comments and ply < len(comments) else []
        left = next((t for t in map(read_clk, said) if t is not None), None)
        if left is not None:
            times[mover] = left
        marks.append(Mark((times[0], times[1]), start.to_move))
    return Clock(control, marks)


__all__ = [
    "ADAPTIVE",
    "HUMAN",
    "PLAYERS",
    "REMOTE",
    "Figures",
    "Notes",
    "Seat",
    "Session",
    "game_named",
    "players",
]
