"""The app stays in pieces one can read (issue 27): no module of `dipole_tui/app/` over
MODULE_LIMIT lines, no class in it over CLASS_LIMIT (`ast`: from `class` to its last line)."""

from __future__ import annotations

import ast
from pathlib import Path

import dipole_tui.app

MODULE_LIMIT = 450
CLASS_LIMIT = 400
APP = Path(dipole_tui.app.__file__).parent


def sizes() -> dict[str, int]:
    """Every module of app/ and every class in them (nested ones too), with its length."""
    found: dict[str, int] = {}
    for path in sorted(APP.rglob("*.py")):
        name = path.relative_to(APP).as_posix()
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
    assert "app.py" in found and "square_grid.py:SquareBoard" in found
    grid = (APP / "square_grid.py").read_text(encoding="utf-8")
    assert found["square_grid.py"] == grid.count("\n")
    assert offenders({"a.py": 451, "b.py": 450, "a.py:A": 401, "b.py:B": 400}) == {
        "a.py": 451,
        "a.py:A": 401,
    }


def test_no_module_or_class_of_the_app_is_too_long() -> None:
    over = offenders(sizes())
    assert not over, f"over {MODULE_LIMIT} lines a module, {CLASS_LIMIT} a class: {over}"
