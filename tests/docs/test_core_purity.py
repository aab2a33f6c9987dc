"""The rules core and perft import neither Textual nor Rich (checked in a fresh interpreter); the
app's modules import one another at their tops, with no cycle to dodge."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import dipole_tui.app

PROBE = """
import json, sys
import dipole_tui.games
import dipole_tui.games.base
import dipole_tui.games.dipole
import dipole_tui.perft
ui = sorted(
    name for name in sys.modules
    if name.split(".")[0] in ("textual", "rich") or name.startswith(("textual", "rich"))
)
print(json.dumps({"ui": ui, "loaded": sorted(sys.modules)}))
"""


def test_rules_core_imports_no_ui_library() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    report = json.loads(result.stdout)
    assert "dipole_tui.games.dipole" in report["loaded"]  # the probe did import the core
    assert "dipole_tui.perft" in report["loaded"]
    assert report["ui"] == []


def test_the_bot_controller_and_the_game_choice_import_no_ui_library() -> None:
    """The app's decisions about bots, and the choice the command line makes, run without
    Textual: the controller is tested alone, and `play` loads Textual only to start the app."""
    probe = PROBE.replace(
        "import dipole_tui.perft",
        "import dipole_tui.control.bot_controller, dipole_tui.control.choice",
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    report = json.loads(result.stdout)
    assert "dipole_tui.control.bot_controller" in report["loaded"]
    assert report["ui"] == []


def test_the_probe_would_notice_a_ui_import() -> None:
    """The same check run after importing Rich on purpose must see it (when Rich is installed)."""
    probe = "import rich.text\n" + PROBE
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    if result.returncode != 0:  # Rich not installed here: nothing to demonstrate
        assert "ModuleNotFoundError" in result.stderr
        return
    assert "rich" in json.loads(result.stdout)["ui"]


def imports_inside_functions(source: str) -> list[str]:
    """The modules of the package imported inside a function (a way to dodge an import cycle)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and (
                    inner.level or (inner.module or "").startswith("dipole_tui")
                ):
                    found.append(f"{node.name}: {'.' * inner.level}{inner.module or ''}")
    return found


def test_the_app_modules_import_the_package_only_at_their_tops() -> None:
    package = Path(dipole_tui.app.__file__).parent.parent
    found = {
        path.relative_to(package).as_posix(): imports_inside_functions(
            path.read_text(encoding="utf-8")
        )
        for room in ("app", "control")
        for path in sorted((package / room).rglob("*.py"))
    }
    assert len(found) > 5
    assert {name: imports for name, imports in found.items() if imports} == {}


def test_an_import_inside_a_function_is_noticed() -> None:
    source = "def resign():\n    from .screens import ChoiceScreen\n"
    assert imports_inside_functions(source) == ["resign: .screens"]
    assert imports_inside_functions("from .screens import ChoiceScreen\n") == []
