"""Build the wheel, install it in a fresh virtual environment, and check that what a user gets
works: every data file of the package is there (help pages, lessons, puzzles, every `.tcss`,
found by glob), they load, the version is the one `dipole_tui/__init__.py` writes, and the
`dipole-tui` command runs.

    python scripts/check_wheel.py          # from the repository root; .ci/run runs it

The tests import the source tree, where a file left out of the wheel is never missed; this is
where it would be. Packages come from the index the main install uses, through pip's cache.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "dipole_tui"
INSIDE = "--inside"  # the second half runs in the fresh environment, with the installed package


def data_files(package: Path) -> list[str]:
    """Every file of the package that is not Python code, relative to it."""
    return sorted(
        path.relative_to(package).as_posix()
        for path in package.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    )


def source_version() -> str:
    text = (SOURCE / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^__version__ = "([^"]+)"$', text, re.MULTILINE)
    if found is None:
        raise SystemExit("check_wheel: no __version__ in dipole_tui/__init__.py")
    return found.group(1)


def run(*command: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        shown = " ".join(str(part) for part in command)
        raise SystemExit(f"check_wheel: {shown} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def outside() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="dipole-wheel-") as temporary:
        folder = Path(temporary)
        pip = (sys.executable, "-m", "pip")
        run(*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", folder / "dist", ROOT)
        (wheel,) = (folder / "dist").glob("dipole_tui-*.whl")
        if wheel.name.split("-")[1] != source_version():
            raise SystemExit(f"check_wheel: {wheel.name} is not version {source_version()}")
        run(sys.executable, "-m", "venv", "--without-pip", folder / "venv")
        python = folder / "venv" / "bin" / "python"
        constraints = ROOT / ".ci" / "constraints.txt"
        run(*pip, "--python", python, "install", "--quiet", "-c", constraints, wheel)
        # Away from the source tree and its PYTHONPATH, so only the installed package is found.
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        command = folder / "venv" / "bin" / "dipole-tui"
        said = run(command, "--version", cwd=folder, env=env).strip()
        builds = ("pure Python", "compiled (mypyc)")  # hatch_build.py: either is a good wheel
        if said not in [f"dipole-tui {source_version()}, {build}" for build in builds]:
            raise SystemExit(f"check_wheel: dipole-tui --version said {said!r}")
        run(command, "--help", cwd=folder, env=env)
        run(python, Path(__file__).resolve(), INSIDE, *data_files(SOURCE), cwd=folder, env=env)
    print(f"check_wheel: {wheel.name} installs and runs ({time.perf_counter() - started:.1f} s)")


def inside(expected: list[str]) -> None:
    """In the fresh environment: the files are there, identical, and they load."""
    from importlib.metadata import version

    from textual.app import App
    from textual.css.stylesheet import Stylesheet

    import dipole_tui
    from dipole_tui import learn
    from dipole_tui.app.dialogs.help import HELP
    from dipole_tui.registry import REGISTRY

    package = Path(dipole_tui.__file__).parent
    problems: list[str] = []
    if Path(sys.prefix) not in package.parents:
        problems.append(f"dipole_tui imported from {package}, not the fresh environment")
    if version("dipole-tui") != dipole_tui.__version__:
        problems.append(f"metadata {version('dipole-tui')} v {dipole_tui.__version__}")
    installed = data_files(package)
    problems += [f"missing from the wheel: {name}" for name in expected if name not in installed]
    if not any(name.endswith(".tcss") for name in installed):
        problems.append("no .tcss file installed")
    for entry in REGISTRY.values():
        if not (HELP / entry.help_page).read_text(encoding="utf-8").strip():
            problems.append(f"empty help page {entry.help_page}")
    for key in REGISTRY:
        if not learn.items(key):
            problems.append(f"no lessons for {key}")
    problems += learn.problems()
    variables = App().get_css_variables()
    for path in sorted(package.rglob("*.tcss")):
        sheet = Stylesheet(variables=variables)
        sheet.read(path)
        sheet.parse()  # StylesheetParseError, with the file and line, if it does not parse
    if problems:
        raise SystemExit("\n".join(problems))


if __name__ == "__main__":
    if sys.argv[1:2] == [INSIDE]:
        inside(sys.argv[2:])
    else:
        outside()
