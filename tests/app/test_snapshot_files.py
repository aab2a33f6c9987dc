"""Every SVG snapshot belongs to a test. syrupy fails a run that leaves a snapshot unused, but
not under pytest-xdist (its workers' reports are not merged), which `pytest` runs on; so a
snapshot whose test was renamed or removed is caught here instead."""

from __future__ import annotations

import ast
from pathlib import Path

SNAPSHOTS = Path(__file__).parent / "__snapshots__"


def test_every_snapshot_names_a_test_of_its_module() -> None:
    orphans = []
    snapshots = sorted(SNAPSHOTS.glob("*/*.svg"))
    assert snapshots, f"no snapshots found in {SNAPSHOTS}"
    for svg in snapshots:
        module = svg.parent.parent.parent / f"{svg.parent.name}.py"
        tests = (
            {
                node.name
                for node in ast.walk(ast.parse(module.read_text()))
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            if module.exists()
            else set()
        )
        if svg.stem.split("[")[0] not in tests:  # a parametrised test's: name[parameters]
            orphans.append(str(svg.relative_to(SNAPSHOTS)))
    assert not orphans, f"snapshots no test takes: {orphans}"
