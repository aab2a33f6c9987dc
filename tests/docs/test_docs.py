"""The docs stay true: every repository file that README.md, docs/*.md and the help pages name
exists, every name they place in a module is there, and every command the docs' shell blocks
show parses (a `dipole-tui` command with the real parser, without running it). A rename that
leaves a doc behind fails here, not in a reader's terminal."""

from __future__ import annotations

import builtins
import contextlib
import io
import itertools
import re
import shlex
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from paths import ROOT

# The real parser, built without running anything: the cli module has it today, and the
# package of subcommands it becomes keeps it.
from dipole_tui.cli import build_parser
from dipole_tui.registry import REGISTRY

ROOT = ROOT
PACKAGE = ROOT / "dipole_tui"
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((PACKAGE / "app" / "help").glob("*.md")),
]
# A word with one of these endings names a file; bare (no folder), only those of the first kind
# are looked for: a bare `learned.json`, `autosave.txt` or `game.txt` is the user's, not ours.
SOURCE_ENDINGS = (".py", ".md", ".tcss", ".toml", ".svg", ".sh")
FILE_ENDINGS = (*SOURCE_ENDINGS, ".txt", ".json", ".cfg")
# Folders that are tools' caches, not the project's.
NOT_OURS = {".git", ".venv", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
NOT_OURS |= {
    ".hypothesis",
    "build",
    "dist",
    ".bench-cache",
}  # bench/versus.py exports old commits there
# Names the docs rightly give that no file of ours defines: each entry says whose it is.
ELSEWHERE = {
    "Style.from_meta": "Rich's; our Style is a bot's way of playing",
    "NoColor": "Textual's filter, named as the one the app does not use",
}
PLACEHOLDER = re.compile(r"<[^<>]*>")
SHELL_BLOCKS = {"sh", "bash", "shell", "console"}


@cache
def repo_paths() -> frozenset[str]:
    """Every file and folder of the project, relative to its root, folders ending in /."""
    found: set[str] = set()

    def walk(folder: Path) -> None:
        for entry in folder.iterdir():
            if entry.name in NOT_OURS or entry.name.endswith(".egg-info"):
                continue
            relative = entry.relative_to(ROOT).as_posix()
            if entry.is_dir():
                found.add(relative + "/")
                walk(entry)
            else:
                found.add(relative)

    walk(ROOT)
    return frozenset(found)


def where(path: str) -> list[str]:
    """The project's files and folders a doc means by `path`: from the root, or the end of a
    longer path (`app/app.py` is dipole_tui/app/app.py), or a bare source file's name anywhere."""
    paths = repo_paths()
    path = path.rstrip("/")
    if path in paths or path + "/" in paths:
        return [path if path in paths else path + "/"]
    if "/" not in path:
        return sorted(p for p in paths if p.rstrip("/").rsplit("/", 1)[-1] == path)
    return sorted(p for p in paths if p.endswith("/" + path) or p.endswith("/" + path + "/"))


def expansions(path: str) -> list[list[str]]:
    """A path with `<game>` stands for one path per registered game, each in two spellings (its
    key, or a module's name: death_stacks), one of which must exist; a plain path for itself."""
    if "<game>" not in path:
        return [[path]]
    return [
        [path.replace("<game>", key), path.replace("<game>", key.replace("-", "_"))]
        for key in REGISTRY
    ]


def exists(path: str) -> bool:
    """Whether the project has what `path` names (a `*` matches any name)."""
    if "*" not in path:
        return bool(where(path))
    pattern = re.compile(".*".join(re.escape(part) for part in path.split("*")) + "/?$")
    return any(pattern.search(p) for p in repo_paths())


def cleaned(word: str) -> str | None:
    """The path a word of a doc names, or None when it names none of ours: a URL, an absolute
    or home path, an option, a placeholder other than `<game>`."""
    word = word.strip("\"'").lstrip("(").rstrip(".,;)")
    word = re.sub(r":\d+:?$", "", word)  # a file's line, as an error message quotes it
    word = word.removeprefix(".../")  # an elided start: the rest is the end of a path
    if not word or "://" in word or word[0] in "/~$-" or word.startswith(".venv/"):
        return None
    if any(p != "<game>" for p in PLACEHOLDER.findall(word)) or re.search(
        r"[<>]", word.replace("<game>", "")
    ):
        return None
    if "/" not in word and not word.endswith(SOURCE_ENDINGS):
        return None  # a bare file name, unless a source file's, is the user's (`game.txt`)
    if word.endswith(FILE_ENDINGS):
        return word if re.fullmatch(r"[\w.*<>/-]+", word) else None
    # A folder or an extensionless file: segments of name characters, the first with a letter,
    # so that `1/2-1/2` and the position strings' ranks are no paths.
    if "/" in word and re.fullmatch(r"\.?[A-Za-z_][\w.-]*(/[\w.*<>-]+)*/?", word):
        return word
    return None


def read(doc: Path) -> str:
    return doc.read_text(encoding="utf-8")


def fenced(text: str) -> Iterator[tuple[str, int, str]]:
    """(the block's language, line number, line) for every line inside a fenced code block."""
    language: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            language = line.strip().strip("`").strip() if language is None else None
        elif language is not None:
            yield language, number, line


def prose(text: str) -> str:
    """The text with its fenced blocks blanked, every offset kept."""
    inside = {number for _, number, _ in fenced(text)}
    return "\n".join(
        " " * len(line) if n in inside or line.lstrip().startswith("```") else line
        for n, line in enumerate(text.split("\n"), 1)
    )


CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)


def code_spans(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, content) of every inline code span outside the fenced blocks."""
    for match in CODE_SPAN.finditer(prose(text)):
        yield match.start(), match.end(), match.group(2).strip()


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def named_paths(doc: Path) -> Iterator[tuple[int, str]]:
    """(line, path) for every path the doc names: in code spans, as link targets, in prose
    (with a folder and a file ending), and as the words of its shell blocks."""
    text = read(doc)
    body = prose(text)
    outside = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), body)
    for start, _, content in code_spans(text):
        for word in content.split():
            if (path := cleaned(word)) is not None:
                yield line_of(text, start), path
    for match in re.finditer(r"\]\(([^)\s]+)\)", outside):
        target = match.group(1).split("#")[0]
        if target and (path := cleaned(target)) is not None:
            yield line_of(text, match.start()), path
    ending = "|".join(re.escape(e) for e in FILE_ENDINGS)
    in_folder = rf"[\w.-]+(?:/[\w.-]+)+(?:{ending})"
    source = "|".join(re.escape(e) for e in SOURCE_ENDINGS)
    for match in re.finditer(rf"(?<![\w/.-])(?:{in_folder}|[\w-]+(?:{source}))\b", outside):
        if (path := cleaned(match.group(0))) is not None:
            yield line_of(text, match.start()), path
    for language, number, line in fenced(text):
        if language in SHELL_BLOCKS:
            for word in line.split():
                if (path := cleaned(word)) is not None:
                    yield number, path


def relative(doc: Path) -> str:
    return doc.relative_to(ROOT).as_posix()


def test_every_named_path_exists() -> None:
    missing = []
    for doc in DOCS:
        for number, path in named_paths(doc):
            for each_game in expansions(path):
                if not any(exists(p) for p in each_game):
                    missing.append(f"{relative(doc)}:{number}: `{each_game[0]}`")
    assert not missing, "named but not in the repository:\n" + "\n".join(missing)


# Names in the docs' code spans.
IDENTIFIER = r"[A-Za-z_]\w*"
DOTTED = re.compile(rf"({IDENTIFIER})\.({IDENTIFIER})(?:\(.*\))?")
CALLED = re.compile(rf"({IDENTIFIER})(?:\(.*\))?")


@cache
def sources() -> dict[str, str]:
    """Every Python file of the project (package, tests, scripts, benches) by its path."""
    return {p: (ROOT / p).read_text(encoding="utf-8") for p in repo_paths() if p.endswith(".py")}


def modules(stem: str) -> list[str]:
    """The package's modules (or packages) a dotted name's first part may be: `engine`,
    `process`, `bots`."""
    return sorted(
        p
        for p in sources()
        if p.startswith("dipole_tui/")
        and (p.endswith(f"/{stem}.py") or p.endswith(f"/{stem}/__init__.py"))
    )


def defines(source: str, name: str) -> bool:
    """Whether a module defines (or imports) `name`: a def, a class, an assignment or an
    annotation at the start of a line, or an import."""
    name = re.escape(name)
    return bool(
        re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{name}\b", source, re.M)
        or re.search(rf"^\s*(?:self\.)?{name}\s*(?::|=[^=])", source, re.M)
        or re.search(rf"^\s*(?:from\s+\S+\s+)?import\b[^\n]*\b{name}\b", source, re.M)
        or re.search(rf"^\s*{name},?\s*$", source, re.M)  # one of a parenthesised import
        or re.search(rf"\bself\.{name}\s*(?::[^=\n]+)?=[^=]", source)  # an instance attribute
    )


def files_at(path: str) -> list[str]:
    """The Python files a named path covers: the file, or every one in the folder, for every
    game when it holds `<game>`."""
    found = []
    for each_game in expansions(path):
        for p in each_game:
            for hit in where(p):
                found += [
                    s for s in sources() if s == hit or (hit.endswith("/") and s.startswith(hit))
                ]
    return found


def placed_names(text: str) -> Iterator[tuple[int, str, str]]:
    """(line, name, path) for every name a doc places in a file: `Name` (`path`...),
    `Name` in `path`, and `file.py` (... `Name` ...) as the app's row of the layers table
    lists a module's classes."""
    spans = list(code_spans(text))
    outside = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), prose(text))
    for (start, end, content), (next_start, _, next_content) in itertools.pairwise(spans):
        name = CALLED.fullmatch(content)
        path = cleaned(next_content)
        if name and text[end:next_start] in (" (", " in ") and path is not None:
            yield line_of(text, start), name.group(1), path
    for _, end, content in spans:
        path = cleaned(content)
        if path is not None and path.endswith(".py") and text.startswith(" (", end):
            closing = outside.index(")", end)
            for inner_start, _, inner in spans:
                # a class or a constant, not a word (`best`'s lines)
                named = re.fullmatch(IDENTIFIER, inner) and re.search(r"[A-Z_]", inner)
                if end < inner_start < closing and named:
                    yield line_of(text, inner_start), inner, path


def test_every_placed_name_is_in_its_file() -> None:
    missing = []
    for doc in DOCS:
        text = read(doc)
        for number, name, path in placed_names(text):
            files = files_at(path)
            if files and not any(defines(sources()[f], name) for f in files):
                missing.append(f"{relative(doc)}:{number}: `{name}` not in `{path}`")
    assert not missing, "\n".join(missing)


def test_every_dotted_name_is_defined() -> None:
    """`module.name` (`engine.chances`, `process.Worker`) where the first part is one of the
    package's modules, and `Class.name` (`Session.play`) where a class of ours has that name."""
    missing = []
    classes = {
        match.group(1): path
        for path, source in sources().items()
        for match in re.finditer(rf"^class ({IDENTIFIER})\b", source, re.M)
    }
    for doc in DOCS:
        text = read(doc)
        for start, _, content in code_spans(text):
            match = DOTTED.fullmatch(content)
            if match is None or content.endswith(FILE_ENDINGS):
                continue
            owner, name = match.groups()
            if f"{owner}.{name}" in ELSEWHERE:
                continue
            if owner in classes:
                places = [classes[owner]]
            elif owner[0].islower() and modules(owner):
                places = modules(owner)
            else:
                continue  # a variable's attribute (`state.cut_cells()`), or another library's
            if not any(defines(sources()[p], name) for p in places):
                missing.append(f"{relative(doc)}:{line_of(text, start)}: `{content}`")
    assert not missing, "named but not defined where said:\n" + "\n".join(missing)


def test_every_class_and_constant_named_exists() -> None:
    """A code span that is a class's name (`GameApp`) or a constant's (`REGISTRY`) names
    something the project has, or something of another library's that ELSEWHERE explains."""
    missing = []
    # The project's words: a name is mentioned where it stands whole (`\bname\b`), as here.
    words = {word for source in sources().values() for word in re.findall(r"\w+", source)}
    for doc in DOCS:
        text = read(doc)
        for start, _, content in code_spans(text):
            name = CALLED.fullmatch(content)
            if name is None or content in ELSEWHERE or hasattr(builtins, name.group(1)):
                continue
            word = name.group(1)
            camel = re.fullmatch(r"[A-Z][a-z]+[A-Z]\w*|[A-Z][a-z]+", word)
            constant = re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{3,}[A-Z0-9]*", word)
            if (camel or constant) and word not in words:
                missing.append(f"{relative(doc)}:{line_of(text, start)}: `{content}`")
    assert not missing, "named but nowhere in the project:\n" + "\n".join(missing)


def commands(line: str) -> Iterator[list[str]]:
    """The simple commands of a shell line, without its comment and redirections."""
    words = shlex.split(line, comments=True)
    command: list[str] = []
    skip = False
    for word in [*words, "&&"]:
        if skip:
            skip = False
        elif word in ("&&", "||", ";", "|"):
            if command:
                yield command
            command = []
        elif word in ("<", ">", ">>", "2>"):
            skip = True
        elif not word.startswith(("<", ">", "2>")):
            command.append(word)


def shell_lines(doc: Path) -> Iterator[tuple[int, str]]:
    for language, number, line in fenced(read(doc)):
        if language in SHELL_BLOCKS and line.strip():
            yield number, line


def parses(arguments: list[str]) -> str | None:
    """None when the parser takes the arguments as a user would type them; what went wrong
    otherwise. --help and --version end in SystemExit(0), their output swallowed."""
    expect_exit = any(a in ("-h", "--help", "--version") for a in arguments)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            build_parser().parse_args(arguments)
    except SystemExit as end:
        return None if expect_exit and end.code in (0, None) else f"exits with {end.code}"
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return "--help or --version did not exit" if expect_exit else None


def problems(program: str, arguments: list[str]) -> list[str]:
    """What is wrong with one command of a shell block: a `dipole-tui` command the real parser
    refuses, a `python` script, a `pip` file or extra, a `pytest` path that is not there. Any
    other program but git is wrong until it has a check here."""
    name = program.rsplit("/", 1)[-1]
    if name == "dipole-tui":
        problem = parses(arguments)
        return [] if problem is None else [problem]
    if name.startswith("python"):
        script = next((a for a in arguments if not a.startswith("-")), "")
        return [] if script.endswith(".py") and exists(script) else [f"no script {script!r}"]
    if name == "pip":
        pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        extras = set(pyproject["project"]["optional-dependencies"])
        wrong = []
        for option, value in itertools.pairwise(arguments):
            named = option in ("-c", "-r", "--constraint", "--requirement")
            if named and not exists(value):
                wrong.append(f"no file {value!r}")
            extra = re.fullmatch(r"\.\[(.+)\]", value)
            if option == "-e" and extra and set(extra.group(1).split(",")) - extras:
                wrong.append(f"no extra {extra.group(1)!r} in pyproject.toml")
        return wrong
    if name == "pytest":
        paths = [a.split("::")[0] for a in arguments if not a.startswith("-")]
        return [f"no test file {path!r}" for path in paths if not exists(path)]
    return [] if name == "git" else [f"no check for {name!r} commands in tests/docs/test_docs.py"]


def test_every_shell_command_parses() -> None:
    """Every command of README.md's and the docs' shell blocks (see `problems`)."""
    wrong = []
    checked = 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for number, line in shell_lines(doc):
            for program, *arguments in commands(line):
                checked += 1
                wrong += [
                    f"{relative(doc)}:{number}: {line.strip()}: {problem}"
                    for problem in problems(program, arguments)
                ]
    assert checked > 20, "the README's commands were not found"
    assert not wrong, "\n".join(wrong)


def test_the_command_check_can_fail() -> None:
    """The parser check tells a command it refuses from one it takes."""
    assert parses(["perft", "--game", "bipod", "--variant", "multi", "1"]) is None
    assert parses(["--help"]) is None
    assert parses(["perft", "--no-such-option", "1"]) is not None
    assert parses(["no-such-command"]) is not None
    assert parses(["perft", "--game", "chess", "1"]) is not None
    assert problems("python", ["bench/no_such_bench.py"])
    assert problems("pip", ["install", "-e", ".[no-such-extra]"])
    assert problems("make", ["all"])
