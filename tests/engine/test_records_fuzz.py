"""Records pushed by a hostile user and an unlucky disk: whatever the text, reading it either
gives a game or raises GameError (RecordError is one) whose message is one printable line of
bounded length; nothing else ever escapes."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import DATA

from dipole_tui.games.base import GameError
from dipole_tui.records import format_record, parse_record, read_header
from dipole_tui.registry import REGISTRY

DATA = DATA
# A game's own message is at most 400 characters (Bi-Pod's position explains itself at length);
# the record adds where: the file, the line and the move, or "in the tags".
LONGEST_MESSAGE = 500


def _death_stacks_record() -> str:
    """A Death Stacks game of some length, as the program writes it (tests/data has none)."""
    rng, state = random.Random(11), REGISTRY["death-stacks"].game.new()
    for _ in range(40):
        state.play(rng.choice(state.legal_moves()))
    return format_record(REGISTRY["death-stacks"].game, state, {"White": "Ann", "Black": "Bob"})


VALID = [
    (DATA / "sample-dipole.txt").read_text(encoding="utf-8"),
    (DATA / "sample-bipod.txt").read_text(encoding="utf-8"),
    _death_stacks_record(),
]
# Pieces a person or a damaged file may bring: control characters and escape sequences, line
# breaks of every kind, a byte-order mark, digits that are not ASCII, brackets and comments.
NASTY = [
    "\x00", "\x1b[2J", "\x1b]0;t\x07", "\r", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x85",
    "\u2028", "\ufeff", "\u200b", "²", "٣", "\uff13", "Ⅻ", "{", "}", ";", ";1", "[", "]", '"', "\\",
    "1-0", "0-1", "1/2-1/2", "*", "1.", "1...", "pass", "adopt", "resign", "off:", "=",
    "9" * 400, "-" * 50, "x",
]  # fmt: skip


def check(text: str) -> None:
    for read in (parse_record, read_header):
        try:
            read(text)
        except GameError as error:
            message = str(error)
            assert message.isprintable(), repr(message[:400])
            assert len(message) <= LONGEST_MESSAGE, repr(message[:400])


pieces = st.one_of(st.sampled_from(NASTY), st.text(max_size=8))
huge = st.builds(lambda piece, times: (piece * times)[:200_000], pieces, st.integers(1, 30_000))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid record of some game, then a few cuts, insertions, repeats and swaps of lines."""
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "cut", "replace", "repeat line", "swap lines"]))
        if kind == "insert":
            text = text[:at] + draw(st.one_of(pieces, huge)) + text[at:]
        elif kind == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif kind == "replace":
            text = text[:at] + draw(st.sampled_from(NASTY)) + text[at + 1 :]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "repeat line":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.text())
def test_any_text(text: str) -> None:
    check(text)


@FAST
@given(st.lists(st.one_of(pieces, huge), max_size=12).map("".join))
def test_text_of_nasty_pieces(text: str) -> None:
    check("\ufeff" + text)


@FAST
@given(mutated())
def test_mutated_records_of_every_game(text: str) -> None:
    check(text)


@FAST
@given(
    st.sampled_from(VALID), st.sampled_from(["Game", "Variant", "Result", "Position", "X"]), huge
)
def test_any_tag_value(record: str, tag: str, value: str) -> None:
    line = f'[{tag} "{value}"]'
    given_once = re.subn(rf'^\[{tag} "[^"]*"\]$', lambda _: line, record, count=1, flags=re.M)
    check(given_once[0] if given_once[1] else line + "\n" + record)
