"""The positions `moves`, `best` and `solve` read, from their arguments or from stdin."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from ..games.base import AnyGame, GameError, State
from .arguments import PROG

# The longest line `moves` reads from stdin: a position is a few hundred characters at most.
LONGEST_LINE = 10_000
# A longer line is passed over to its end, unless it has none this far: /dev/zero, a binary file.
ENDLESS_LINE = 1_000_000


class Batch:
    """The positions of `moves`, `best` and `solve`, from the arguments or from stdin (one a
    line, blank lines skipped), each named for messages ("position 2", "line 3"). A bad one is
    said on stderr and counted (`fail`), and the batch goes on: one typo in a thousand lines
    costs that line's answer, not the 999 others'."""

    def __init__(self, given: Sequence[str]) -> None:
        if not given and sys.stdin is None:  # started with <&-
            raise GameError("no POSITION given, and standard input is closed")
        self.given = given
        self.failed = 0

    def __iter__(self) -> Iterator[tuple[str, str]]:
        if self.given:
            for index, text in enumerate(self.given, 1):
                yield f"position {index}", text
            return
        if isinstance(sys.stdin, io.TextIOWrapper):  # a byte that is not UTF-8 fails its line
            sys.stdin.reconfigure(errors="surrogateescape")
        index = 0
        while line := sys.stdin.readline(LONGEST_LINE + 2):  # room for CRLF; a stream may end
            index += 1
            if len(line.rstrip("\r\n")) <= LONGEST_LINE:
                if line.strip():
                    yield f"line {index}", line
                continue
            length = len(line)
            while not line.endswith("\n") and length <= ENDLESS_LINE:
                line = sys.stdin.readline(LONGEST_LINE + 2) or "\n"
                length += len(line)
            if length > ENDLESS_LINE:
                said = f"no line break in {ENDLESS_LINE:,} characters, where one position a line"
                self.fail(f"line {index}", f"{said} was expected; the rest is not read")
                return  # /dev/zero, a binary file: no list of positions, and maybe no end
            self.fail(f"line {index}", f"longer than any position ({LONGEST_LINE} characters)")

    def fail(self, where: str, error: GameError | str) -> None:
        self.failed += 1
        print(f"{PROG}: {where}: {error}", file=sys.stderr, flush=True)

    @property
    def status(self) -> int:
        """The exit status: 2 if any position failed."""
        return 2 if self.failed else 0


def check_variant(game: AnyGame, variant: str | None, state: State[Any]) -> None:
    """A position of another variant than --variant says is refused."""
    if variant and game.new(variant).variant != state.variant:  # names normalised
        raise GameError(
            f"--variant {variant} disagrees with the position, which is "
            f"{state.variant or 'the default variant'}"
        )


def position_to_search(game: AnyGame, text: str, variant: str | None = None) -> State[Any]:
    """A position `best` or `solve` searches from: read, of the --variant given, and not over
    (a finished game has no move to find); GameError says which is wrong."""
    state: State[Any] = game.parse_position(text)
    check_variant(game, variant, state)
    outcome = state.outcome()
    if outcome is not None:
        raise GameError(f"the game is over ({outcome.reason})")
    return state
