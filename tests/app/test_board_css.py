"""The boards' CSS is said once: what they share is in `GameBoard`'s, and each board's own states
only what differs (issue 42). The looks themselves are held by the screenshots and
tests/app/test_contrast.py."""

from __future__ import annotations

import re
from typing import Any

from dipole_tui.app.boards.game_board import GameBoard
from dipole_tui.app.boards.registered import board_class
from dipole_tui.registry import REGISTRY

Board = type[GameBoard[Any, Any]]


def rules(board: type[object]) -> dict[str, list[tuple[str, str]]]:
    """The rules of a class's own DEFAULT_CSS, its type written `GameBoard`: selector -> its
    declarations (property, value), in order."""
    css = board.__dict__.get("DEFAULT_CSS", "")
    found: dict[str, list[tuple[str, str]]] = {}
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        key = " ".join(selector.replace(board.__name__, "GameBoard").split())
        declarations = [part.split(":", 1) for part in body.split(";") if part.strip()]
        found[key] = [(name.strip(), value.strip()) for name, value in declarations]
    return found


def boards() -> list[Board]:
    classes = [board_class(key) for key in REGISTRY]
    return [board for board in classes if board is not None]


def test_the_shared_rules_are_in_game_board_and_no_board_restates_them() -> None:
    shared = rules(GameBoard)
    assert {"GameBoard", "GameBoard > .board--label", "GameBoard > .board--cursor"} <= set(shared)
    assert {"board--label", "board--cursor"} <= GameBoard.COMPONENT_CLASSES
    said = {(selector, *declaration) for selector, parts in shared.items() for declaration in parts}
    assert len(boards()) == len(REGISTRY)
    for board in boards():
        for selector, declarations in rules(board).items():
            again = [part for part in declarations if (selector, *part) in said]
            assert not again, f"{board.__name__} restates GameBoard's {selector} {again}"


def test_no_board_repeats_a_rule_of_another_board() -> None:
    seen: dict[tuple[str, str], str] = {}
    for board in boards():
        for selector, declarations in rules(board).items():
            rule = (selector, repr(declarations))
            assert rule not in seen, f"{board.__name__} and {seen[rule]} both say {rule}"
            seen[rule] = board.__name__
