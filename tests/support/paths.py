"""Where the tests find the repository and their data, wherever a test module sits."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]  # the checkout
DATA = ROOT / "tests" / "data"  # sample records, perft tables


def module_of_room(room: str, name: str) -> ModuleType:
    """Another room's test module, as pytest imports it (by its name, once): the toy game runs
    generic tests of other rooms on itself."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / room / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
