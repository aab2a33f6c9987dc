"""The app stays in pieces one can read (issue 27): no module of `dipole_tui/app/` or of
`dipole_tui/control/` over MODULE_LIMIT lines, no class in them over CLASS_LIMIT (`ast`: from
`class` to its last line)."""

from __future__ import annotations

import ast
from pathlib import Path

import dipole_tui.app
import dipole_tui.control

MODULE_LIMIT = 450
CLASS_LIMIT = 400
PACKAGE = Path(dipole_tui.app.__file__).parent.parent
ROOMS = (PACKAGE / "app", Path(dipole_tui.control.__file__).parent)


def sizes() -> dict[str, int]:
    """Every module of app/ and control/ and every class in them (nested ones too), with its
    length."""
    found: dict[str, int] = {}
    for path in sorted(path for room in ROOMS for path in room.rglob("*.py")):
        name = path.relative_to(PACKAGE).as_posix()
        text = path.read_text(encoding="utf-8")
        found[name] = len(text.splitlines())
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                found[f"{name}:{node.name}"] = node.end_lineno - node.lineno + 1
    return found


def offenders(found: dict[str, int]) -> dict[str, int]:
    return {
        name: size
        for name, size in found.items()
        if size > (CLASS_LIMIT if ":" in name else MODULE_LIMIT)
    }


def test_the_measure_sees_the_app() -> None:
    """The walk finds the app's modules and classes, and measures them as `wc -l` and the
    class's own lines do."""
    found = sizes()
    assert "app/app.py" in found and "app/boards/square_grid.py:SquareBoard" in found
    assert "control/keeper.py:Keeper" in found
    grid = (PACKAGE / "app/boards/square_grid.py").read_text(encoding="utf-8")
    assert found["app/boards/square_grid.py"] == grid.count("\n")
    assert offenders({"a.py": 451, "b.py": 450, "a.py:A": 401, "b.py:B": 400}) == {
        "a.py": 451,
        "a.py:A": 401,
    }


def test_no_module_or_class_of_the_app_is_too_long() -> None:
    over = offenders(sizes())
    assert not over, f"over {MODULE_LIMIT} lines a module, {CLASS_LIMIT} a class: {over}"
