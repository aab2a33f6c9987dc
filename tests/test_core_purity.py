"""The rules core and perft import neither Textual nor Rich (checked in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys

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
