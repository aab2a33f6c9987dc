"""Saved games as readable text, PGN-like: tag lines, then numbered moves in the game's notation.

Loading replays every move through the rules engine, so a corrupt or illegal record is reported
with its line and move number instead of producing a position the rules never allowed.

    [Game "Dipole"]
    [Variant "8x8"]
    [White "human"]
    [Black "hard"]
    [Date "2026.11.23"]
    [Result "1-0"]

    1. e1-g3 d8-c7
    2. g3xc7 pass
    1-0
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

from . import storage
from .games.base import (
    STANDARD_VARIANT,
    AnyGame,
    Game,
    GameError,
    M,
    Outcome,
    State,
    Termination,
    displayable,
    shown,
)
from .registry import games

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^(\d+)\.(\.\.)?")
_MARK = re.compile(r"(?<=\S)[!?]{1,2}(?=\s|$)")  # a move's mark, as `analyse` writes: e1-g3?!
_LINE_END = re.compile(r"\r\n?|\n")
_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|[\\"])')
# The most a record file may hold. A Death Stacks game of 1000 plies is some 15 KB; the limit
# keeps a device such as /dev/zero, or a huge file given by mistake, from filling the memory.
RECORD_LIMIT = 1_000_000
# Tags written first, in this order; any others follow in the order they were given.
_TAG_ORDER = (
    "Game",
    "Variant",
    "White",
    "Black",
    "Date",
    "Result",
    "Termination",
    "TimeControl",
    "Position",
)
# The Termination tag's words for the endings the moves do not show, in PGN's words where it has
# them ("time forfeit"); written here once, and read back in any letter case. Any other word
# (lichess's "Normal") is kept as a tag and ends nothing.
ENDINGS: dict[Termination, str] = {
    Termination.RESIGNED: "resigned",
    Termination.TIME: "time forfeit",
    Termination.AGREED: "agreed draw",
}


class RecordError(GameError):
    """A record that cannot be read back: the message names the line (and move) at fault."""


@dataclass
class Record:
    """A game as loaded: its rules, its tags, the state after replaying every move, and its
    comments where they stood: `comments[0]` before the first move (`;` lines among the tags
    too), `comments[n]` after the n-th move; `{...}` and `;` comments alike, each the text
    inside (escapes read)."""

    game: AnyGame
    state: State[Any]
    tags: dict[str, str] = field(default_factory=dict)
    comments: list[list[str]] = field(default_factory=list)
    # How the game ended when the moves do not end it: a resignation, a flag, an agreed draw,
    # as the Termination tag and the Result say (a bare Result ends nothing: see docs/rules.md).
    ending: Outcome | None = None
    marks: list[str] = field(default_factory=list)  # each move's (`?!`, `!`), "" for none

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")


def result_of(state: State[Any]) -> str:
    """The Result tag for a state: who won, a draw, or `*` while the game goes on."""
    outcome = state.outcome()
    return "*" if outcome is None else outcome.result()


def ending(game: AnyGame, termination: Termination, winner: int | None) -> Outcome:
    """An ending outside the rules of the position, in a player's words: `winner` is the side
    that did not resign or run out of time; an agreed draw has none."""
    if termination is Termination.AGREED or winner is None:
        return Outcome(None, Termination.AGREED, "Drawn by agreement")
    said = "resigned" if termination is Termination.RESIGNED else "lost on time"
    return Outcome(winner, termination, f"{game.side_names[1 - winner]} {said}")


def start_of(state: State[M]) -> State[M]:
    """A copy of `state` taken back to where its game began (its moves are in `state`)."""
    start = state.copy()
    for _ in state.moves_played:
        start.undo()
    return start


def from_the_start(game: AnyGame, state: State[Any]) -> bool:
    """Whether the game played on `state` began at its variant's start, not in a position set
    up or pasted: only such a game has an opening, and counts for the adaptive bot."""
    return bool(start_of(state).position() == game.new(state.variant).position())


def format_record(
    game: Game[Any, M],
    state: State[M],
    tags: dict[str, str] | None = None,
    marks: Sequence[str] = (),
    comments: Sequence[Sequence[str]] = (),
) -> str:
    """The record of the game played on `state` since it was created; `marks[ply]` (`?!`) and
    the texts of `comments`, where given, as in `numbered_moves`."""
    start = start_of(state)
    moves = state.moves_played
    given = dict(tags or {})
    given.setdefault("White", "?")
    given.setdefault("Black", "?")
    given.setdefault("Date", date.today().strftime("%Y.%m.%d"))
    given.setdefault("Result", result_of(state))
    # Every game's variant is named: a default that has no name (Bi-Pod's) as "standard".
    given.update(Game=game.name, Variant=state.variant or STANDARD_VARIANT)
    if not from_the_start(game, state):
        given["Position"] = start.position()
    else:
        given.pop("Position", None)
    ordered = [k for k in _TAG_ORDER if k in given] + [k for k in given if k not in _TAG_ORDER]
    lines = [f"[{key} {_quoted(given[key])}]" for key in ordered]
    lines.append("")
    lines.extend(numbered_moves(game, start.to_move, moves, marks, comments))
    lines.append(given["Result"])
    return "\n".join(lines) + "\n"


def parse_record(text: str, default: AnyGame | None = None) -> Record:
    """Read a record and replay it; RecordError names the line and move that are wrong. A
    record without a Game tag is of the `default` game, and an error when none is given."""
    tags, game, tokens = _read(text, default)
    state = _start_state(game, tags)
    ended_with: str | None = None
    resigned: int | None = None  # the side whose `resign` (an older Bi-Pod record) ends it
    comments: list[list[str]] = [[]]
    marks: list[str] = []
    for index, token, comment, mark in tokens:
        if comment:
            comments[-1].append(displayable(token, lines=True))
            continue
        where = f"line {index + 1}"
        if ended_with is not None:
            raise RecordError(f"{where}: '{shown(token)}' follows the result {ended_with}")
        if resigned is not None and token not in RESULTS:
            raise RecordError(f"{where}: '{shown(token)}' follows the resignation")
        if token in RESULTS:
            ended_with = token
            continue
        token = _NUMBER.sub("", token)
        if not token:
            continue
        ply = state.plies
        try:
            move = game.parse_move(token, state)
        except GameError as error:
            raise RecordError(f"{where}, move {_move_number(game, state, ply)}: {error}") from None
        if game.is_resignation(move):
            resigned = state.to_move
            continue
        state.play(move)
        comments.append([])
        marks.append(mark)
    if resigned is not None:
        _resigned_tags(tags, resigned, ended_with)
    _check_result(state, tags, ended_with)
    return Record(game, state, tags, comments, _stated_ending(game, state, tags), marks)


@dataclass(frozen=True)
class Header:
    """What a record says of itself, read without replaying its moves: fast enough to list
    hundreds of saved games. The moves are only counted, so an illegal one goes unnoticed."""

    game: AnyGame
    variant: str
    tags: dict[str, str]
    plies: int
    result: str


def read_header(text: str, default: AnyGame | None = None) -> Header:
    """The tags and the number of plies of a record; RecordError when even those are wrong."""
    tags, game, tokens = _read(text, default)
    start = _start_state(game, tags)
    variant = start.variant
    plies, ended_with, last = 0, "", ""
    for _, token, comment, _ in tokens:
        if comment:
            continue
        if token in RESULTS:
            ended_with = token
        elif move := _NUMBER.sub("", token):
            plies, last = plies + 1, move
    if last and _resigns(game, start, last):  # an older Bi-Pod record's `resign`: no ply
        plies -= 1
    return Header(game, variant, tags, plies, _known(tags.get("Result", ended_with or "*")))


def _resigns(game: AnyGame, start: State[Any], text: str) -> bool:
    """Whether `text` is the game's word for resigning (read in any position, so the start's
    serves), which a record ends with as an ending, not a move (`parse_record`)."""
    try:
        return game.is_resignation(game.parse_move(text, start))
    except GameError:
        return False


def _read(text: str, default: AnyGame | None) -> tuple[dict[str, str], AnyGame, list[_Token]]:
    """A record's tags, its game, and its comments and body as `_Token`s; RecordError when there
    is nothing in it. A byte-order mark (as Windows editors write one) is passed over. LF, CRLF
    and a lone CR each end a line: a terminal sends a paste's line ends as CRs."""
    lines = _LINE_END.split(text.removeprefix("\ufeff"))
    tags, body_start = _read_tags(lines)
    game = _game_of(tags, default)
    tokens = [
        _Token(index, line.lstrip()[1:], True)
        for index, line in enumerate(lines[:body_start])
        if line.lstrip().startswith(";")
    ]
    tokens.extend(_tokens(game, lines, body_start))
    if not tags and all(token.comment for token in tokens):
        raise RecordError("the record is empty: no game in it")
    if game is None:
        known = ", ".join(game.name for game in games())
        raise RecordError(
            f'the record has no Game tag; expected one like [Game "Dipole"] ({known})'
        )
    return tags, game, tokens


def _read_tags(lines: list[str]) -> tuple[dict[str, str], int]:
    """The tags at the top of a record, and the index of the first line after the last of them.
    Lines starting with `;` among or before the tags are comments; after the last tag they are
    the body's, where the game says what a `;` means (Bi-Pod's `;1` is a cell)."""
    tags: dict[str, str] = {}
    given_on: dict[str, int] = {}
    end = 0
    for index, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if not line.startswith("["):
            break
        match = _TAG.match(line)
        if not match:
            raise RecordError(
                f"line {index + 1}: expected a tag like [Game \"Dipole\"], not '{shown(line)}'"
            )
        name = match[1]
        if name in tags:
            raise RecordError(
                f"line {index + 1}: a second {shown(name)} tag (the first is on line "
                f"{given_on[name]}); each tag is given once"
            )
        tags[name], given_on[name], end = displayable(_unescaped(match[2])), index + 1, index + 1
    return tags, end


def _start_state(game: AnyGame, tags: dict[str, str]) -> State[Any]:
    """Where the record's game began: its Position tag, or its variant's start."""
    state: State[Any]
    try:
        if "Position" in tags:
            state = game.parse_position(tags["Position"])
        else:
            state = game.new(tags.get("Variant"))
    except GameError as error:
        raise RecordError(f"in the tags: {error}") from None
    if _variant_named(game, tags.get("Variant", state.variant)) != state.variant:
        raise RecordError(
            f"the Variant tag says {shown(tags['Variant'])} but the Position tag is {state.variant}"
        )
    return state


class _Token(NamedTuple):
    """A piece of a record's body: a move number, a move, a result, or a comment's text."""

    line: int  # its index among the record's lines
    text: str
    comment: bool
    mark: str = ""  # a move's mark (`?!`), written after it


def _tokens(game: AnyGame | None, lines: list[str], start: int) -> Iterator[_Token]:
    """The record's body in order: move numbers, moves, results and comments: `{...}`, which
    may span lines, and one to the end of the line (`;` in most games, and where the game is not
    known). A move's mark (`?!`, `??`, `!`...) goes with it (`_marked`)."""
    opener = re.compile(r"\{|(?:" + (game or Game).line_comment + ")")
    split = game.split_moves if game else str.split
    opened: int | None = None  # the line of a `{` not closed yet
    said: list[str] = []  # its lines so far
    for index in range(start, len(lines)):
        line, at = lines[index], 0
        while True:
            if opened is not None:
                close = line.find("}", at)
                said.append(line[at:] if close < 0 else line[at:close])
                if close < 0:
                    break
                yield _Token(opened, _unescaped("\n".join(said)), True)
                opened, said, at = None, [], close + 1
            found = opener.search(line, at)
            piece = line[at : found.start() if found else len(line)]
            if piece and not piece.isspace():  # (no tokens in blank text: a comment's line)
                for token, mark in _marked(split, piece):
                    yield _Token(index, token, False, mark)
            if found is None:
                break
            if found[0] != "{":
                yield _Token(index, line[found.end() :], True)
                break
            opened, at = index, found.end()
    if opened is not None:
        raise RecordError(f"line {opened + 1}: a comment opened with {{ is not closed with }}")


def _marked(split: Callable[[str], list[str]], text: str) -> Iterator[tuple[str, str]]:
    """The tokens of a piece of the body without its marks, as the game splits them, each with
    the mark written right after it ("" for none). The game's split may join words (Bi-Pod's
    `v2 O`), so a mark goes with the token whose last word it follows; each word is found in the
    text in turn, after the one before (Bi-Pod's `o1 o`: its `o` is not the one of `o1`)."""
    plain, cut = "", 0
    marks: dict[int, str] = {}  # where each stood, in the text without them
    for match in _MARK.finditer(text):
        plain += text[cut : match.start()]
        marks[len(plain)] = match[0]
        cut = match.end()
    plain += text[cut:]
    at = 0  # the end of the last word found: each is the next in the text, so found from there
    for token in split(plain):
        words = token.split()
        for word in words:
            found = plain.find(word, at)
            at = found + len(word) if found >= 0 else at  # (a split that rewrote it: no mark)
        yield token, marks.get(at, "") if words else ""


def _resigned_tags(tags: dict[str, str], side: int, ended_with: str | None) -> None:
    """A record whose moves end with the game's own `resign` (Bi-Pod's sheet writes one):
    read as the resignation it is, stated by the tags as every game's is, not as a move."""
    said = tags.setdefault("Termination", ENDINGS[Termination.RESIGNED])
    if said.strip().lower() != ENDINGS[Termination.RESIGNED]:
        raise RecordError(f"the moves end with a resignation but the Termination tag says {said}")
    tags.setdefault("Result", ended_with or ("0-1" if side == 0 else "1-0"))


def _check_result(state: State[Any], tags: dict[str, str], ended_with: str | None) -> None:
    """A stated result must agree with the moves; a record that states none (as a game copied
    from a book) takes the moves' result."""
    claimed = tags.get("Result", ended_with)
    if claimed is None:
        claimed = result_of(state)
    _known(claimed)
    if ended_with is not None and ended_with != claimed:
        raise RecordError(f"the moves end with {ended_with} but the Result tag says {claimed}")
    reached = result_of(state)
    if reached != "*" and claimed != reached:
        outcome = state.outcome()
        reason = outcome.reason if outcome else ""
        raise RecordError(f"the Result is {claimed} but the moves end {reached} ({reason})")
    tags["Result"] = claimed


def _stated_ending(game: AnyGame, state: State[Any], tags: dict[str, str]) -> Outcome | None:
    """The ending a Termination tag of ours states; it must agree with the Result and with
    moves that do not end the game themselves."""
    word = tags.get("Termination", "").strip().lower()
    termination = next((kind for kind, said in ENDINGS.items() if said == word), None)
    if termination is None:
        return None
    result, said = tags["Result"], ENDINGS[termination]
    if (outcome := state.outcome()) is not None:
        raise RecordError(
            f"the Termination tag says {said} but the moves end the game ({outcome.reason})"
        )
    drawn = termination is Termination.AGREED
    if result == "*" or (result == "1/2-1/2") != drawn:
        raise RecordError(f"the Termination tag says {said} but the Result is {result}")
    if drawn and not game.can_draw:
        raise RecordError(f"the Termination tag says {said} but {game.name} has no draws")
    return ending(game, termination, None if drawn else int(result == "0-1"))


def _known(result: str) -> str:
    """A result as stated, if it is one a record can state."""
    if result not in RESULTS:
        raise RecordError(
            f"the Result tag is '{shown(result)}'; expected one of {', '.join(RESULTS)}"
        )
    return result


def _variant_named(game: AnyGame, text: str) -> str:
    """A variant as the game names it (Bi-Pod's `adopter-runs,multi` is `multi,adopter-runs`)."""
    try:
        variant: str = game.new(text).variant
    except GameError:
        return text
    return variant


def _game_of(tags: dict[str, str], default: AnyGame | None) -> AnyGame | None:
    """The game a record's Game tag names; `default` when it has none."""
    if "Game" not in tags:
        return default
    name = tags["Game"]
    for game in games():
        if name.lower() in (game.name.lower(), game.key):
            return game
    known = ", ".join(game.name for game in games())
    raise RecordError(f"the Game tag names '{shown(name)}'; this program plays {known}")


def move_label(first_side: int, ply: int) -> str:
    """How a record numbers ply `ply` (0-based) of a game whose first mover is `first_side`:
    `3.` before the first side's move, `3...` before the other's."""
    number = (ply + first_side) // 2 + 1
    return f"{number}." if (first_side + ply) % 2 == 0 else f"{number}..."


def numbered_moves(
    game: Game[Any, M],
    first_side: int,
    moves: list[M],
    marks: Sequence[str] = (),
    comments: Sequence[Sequence[str]] = (),
) -> list[str]:
    """The moves as record lines, one numbered pair per line: `1. e1-g3 d8-c7`; each move
    followed by its mark and the texts of `comments[n]` (after the n-th move) where given
    (`1. e1-g3?! {+0.4} d8-c7 {+0.3}`); `comments[0]` on a line before the first move."""
    braced = [" ".join(_braced(text) for text in said) for said in comments]
    lines = [braced[0]] if braced and braced[0] else []
    for ply, move in enumerate(moves):
        text = game.format_move(move) + (marks[ply] if ply < len(marks) else "")
        if ply + 1 < len(braced) and braced[ply + 1]:
            text += f" {braced[ply + 1]}"
        if ply and (first_side + ply) % 2:
            lines[-1] += f" {text}"
        else:
            lines.append(f"{move_label(first_side, ply)} {text}")
    return lines


def comment_size(text: str) -> int:
    """The bytes a comment takes in a record as `numbered_moves` writes it (with the space or
    line break before it): what keeps a record written under its cap."""
    return len(_braced(text).encode()) + 1


def _move_number(game: AnyGame, state: State[Any], ply: int) -> str:
    """Names ply `ply`, the next move of `state`, as the record numbers it: `3 (Black)`."""
    number = move_label((state.to_move + ply) % 2, ply).split(".")[0]
    return f"{number} ({game.side_names[state.to_move]})"


def _quoted(value: str) -> str:
    """A tag value as a record writes it, between quotes (one inside as `\\"`), on one line: a
    line break in it written as `displayable` shows it (`\\n`), as is anything a terminal acts
    on, so that a record printed or read back shows nothing raw."""
    return '"' + _escape(displayable(value), "").replace('"', '\\"') + '"'


def _braced(text: str) -> str:
    """A comment as a record writes it, in braces, on as many lines as it has."""
    return "{" + _escape(displayable(text, lines=True), "}") + "}"


def _escape(text: str, special: str) -> str:
    """`text` as a record writes it between quotes or braces: a backslash doubled, and each of
    `special` (a comment's `}`) as `\\u` and its four hex digits."""
    text = text.replace("\\", "\\\\")
    for char in special:  # (no escape written holds a special character)
        if char in text:
            text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def _unescaped(text: str) -> str:
    """What `_escape` (and `\\"` in a tag value) wrote; any other backslash is itself, as in
    records and comments written before they were escaped."""
    if "\\" not in text:  # nearly every text: nothing to look for
        return text

    def one(match: re.Match[str]) -> str:
        if len(match[1]) == 1:
            return match[1]
        char = chr(int(match[1][1:], 16))
        return match[0] if "\ud800" <= char <= "\udfff" else char  # no half of a UTF-16 pair

    return _ESCAPE.sub(one, text)


def save_record(
    path: Path | str, game: Game[Any, M], state: State[M], tags: dict[str, str] | None = None
) -> None:
    storage.write_text(path, format_record(game, state, tags))


def read_record_file(path: Path | str) -> str:
    """The text of a record file, read as storage reads every file; RecordError says in one
    line why it is not read. Everything that reads a record or a save goes through here."""
    try:
        return storage.read_text(path, RECORD_LIMIT, "a game record")
    except storage.UnreadableFile as error:
        raise RecordError(str(error)) from None


def load_record(path: Path | str, default: AnyGame | None = None) -> Record:
    """Read and replay a record file; RecordError says what is wrong with it (never a traceback)."""
    text = read_record_file(path)
    try:
        return parse_record(text, default)
    except RecordError as error:
        raise RecordError(f"{storage.named(path)}: {error}") from None
