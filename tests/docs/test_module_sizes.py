"""The app stays in pieces one can read (issues 27 and 42): no module of `dipole_tui/app/` or of
`dipole_tui/control/` over MODULE_LIMIT lines, no class in them over CLASS_LIMIT (`ast`: from
`class` to its last line), and none over it counted with its bases from our package (their
lines summed over the class's MRO): a screen split into mixins is as long as it ever was, and
meets the limit only by owning its parts."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import dipole_tui

MODULE_LIMIT = 450
CLASS_LIMIT = 400
PACKAGE = Path(dipole_tui.__file__).parent
ROOMS = (PACKAGE / "app", PACKAGE / "control")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def own_lengths(tree: ast.AST, prefix: str = "") -> dict[str, int]:
    """Every class of a module (nested ones too) by its qualified name: its own lines."""
    found: dict[str, int] = {}
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            assert node.end_lineno is not None
            found[prefix + node.name] = node.end_lineno - node.lineno + 1
            found.update(own_lengths(node, f"{prefix}{node.name}."))
    return found


def package_classes() -> dict[tuple[str, str], int]:
    """Every class of the package, by (module, qualified name): its own lines."""
    return {
        (module_name(path), name): length
        for path in sorted(PACKAGE.rglob("*.py"))
        for name, length in own_lengths(ast.parse(path.read_text(encoding="utf-8"))).items()
    }


def with_bases(module: str, name: str, own: dict[tuple[str, str], int]) -> int:
    """The class's lines and those of each of its bases from our package (each once)."""
    found: object = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    assert isinstance(found, type), f"{module}.{name} is not a class"
    return sum(own[(base.__module__, base.__qualname__)] for base in ours(found))


def ours(cls: type) -> list[type]:
    """The class and its bases from our package, in its MRO."""
    return [base for base in cls.__mro__ if base.__module__.split(".")[0] == "dipole_tui"]


def room_paths() -> list[Path]:
    return sorted(path for room in ROOMS for path in room.rglob("*.py"))


def sizes() -> dict[str, int]:
    """Every module of app/ and control/ and every class in them (nested ones too), with its
    length."""
    own = package_classes()
    found: dict[str, int] = {}
    for path in room_paths():
        name, module = path.relative_to(PACKAGE).as_posix(), module_name(path)
        found[name] = len(path.read_text(encoding="utf-8").splitlines())
        found.update({f"{name}:{cls}": size for (of, cls), size in own.items() if of == module})
    return found


def sizes_with_bases() -> dict[str, int]:
    """Every class of app/ and control/, with its bases' lines."""
    own = package_classes()
    return {
        f"{path.relative_to(PACKAGE).as_posix()}:{cls}": with_bases(of, cls, own)
        for path in room_paths()
        for (of, cls) in own
        if of == module_name(path)
    }


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
    assert "app/widgets/side_panel.py:MoveEntry.Left" in found  # nested, by its qualified name
    grid = (PACKAGE / "app/boards/square_grid.py").read_text(encoding="utf-8")
    assert found["app/boards/square_grid.py"] == grid.count("\n")
    assert offenders({"a.py": 451, "b.py": 450, "a.py:A": 401, "b.py:B": 400}) == {
        "a.py": 451,
        "a.py:A": 401,
    }


def test_a_class_is_measured_with_its_bases_from_our_package() -> None:
    """The review screen is its own lines and its base's (`ClosingScreen`), not Textual's."""
    from dipole_tui.app.closing import ClosingScreen
    from dipole_tui.app.screens.review import ReviewScreen

    own = package_classes()
    review = own[("dipole_tui.app.screens.review", "ReviewScreen")]
    closing = own[("dipole_tui.app.closing", "ClosingScreen")]
    assert ours(ReviewScreen) == [ReviewScreen, ClosingScreen]
    assert sizes()["app/screens/review.py:ReviewScreen"] == review
    assert sizes_with_bases()["app/screens/review.py:ReviewScreen"] == review + closing


def test_no_module_or_class_of_the_app_is_too_long() -> None:
    over = offenders(sizes())
    assert not over, f"over {MODULE_LIMIT} lines a module, {CLASS_LIMIT} a class: {over}"


def test_no_class_of_the_app_is_too_long_with_its_bases() -> None:
    over = offenders(sizes_with_bases())
    assert not over, f"over {CLASS_LIMIT} lines with the bases: {over}"
