"""Every board reads at a glance in every theme the app offers, and with NO_COLOR: each glyph
stands out from its square (a WCAG contrast ratio of at least 3:1), dark squares look darker
than light ones, and without colour every highlight still shows (reverse or underline).

What is measured is what the terminal receives: each board line as the board draws it, passed
through the app's line filters (NO_COLOR's Monochrome among them) as Textual passes it."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest
from app_steps import AnyBoard, AppFactory, Walkable, step_toward, type_move, walk_to
from paths import DATA
from rich.color import Color
from rich.style import Style
from textual.pilot import Pilot

from dipole_tui.app.app import GameApp
from dipole_tui.app.boards.bipod import BipodBoard
from dipole_tui.app.boards.death_stacks import DeathStacksBoard
from dipole_tui.app.boards.death_stacks_text import UNICODE as STACK_GLYPHS
from dipole_tui.app.boards.dipole import DipoleBoard
from dipole_tui.games import bipod, death_stacks, dipole
from dipole_tui.games.base import AnyGame
from dipole_tui.games.bipod import BIPOD
from dipole_tui.games.death_stacks import DEATH_STACKS
from dipole_tui.games.dipole import DIPOLE
from dipole_tui.session import Session

FLOOR = 3.0  # WCAG's least contrast for large text and graphics
SAMPLE = DATA / "sample-bipod.txt"

RGB = tuple[int, int, int]
Key = tuple[str, int]  # ("square", n), ("removal", count), ("cell", n), or ("wall", 0)


# -- colours as the terminal shows them ----------------------------------------------------------


def luminance(rgb: RGB) -> float:
    """WCAG's relative luminance."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb_01(rgb)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def rgb_01(rgb: RGB) -> list[float]:
    return [value / 255 for value in rgb]


def contrast(a: RGB, b: RGB) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@dataclass(frozen=True)
class Part:
    """Text drawn on a square as the terminal receives it, its colours taken after reverse."""

    text: str
    style: Style
    fg: RGB
    bg: RGB
    meta: dict[str, object]


def drawn_parts(board: AnyBoard) -> dict[Key, list[Part]]:
    """The board's lines, filtered as Textual filters them, grouped by the square, cell or
    removal chip they draw. ANSI and default colours are read through the terminal theme Textual
    assumes."""
    theme = board.app.ansi_theme
    background = board.background_colors[1]
    wall = STACK_GLYPHS.wall
    parts: dict[Key, list[Part]] = defaultdict(list)

    def rgb(color: Color | None, foreground: bool) -> RGB:
        triplet = (color or Color.default()).get_truecolor(theme, foreground=foreground)
        return triplet.red, triplet.green, triplet.blue

    for y in range(board.size.height):
        strip = board.render_line(y)
        metas = [segment.style.meta if segment.style else {} for segment in strip]
        for line_filter in board.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        for segment, meta in zip(strip, metas, strict=True):
            names = [name for name in ("square", "cell", "removal") if name in meta]
            if names:
                key: Key = (names[0], int(str(meta[names[0]])))
            elif isinstance(board, DeathStacksBoard) and set(segment.text) == {wall}:
                key = ("wall", 0)
            else:
                continue
            style = segment.style or Style()
            fg, bg = rgb(style.color, True), rgb(style.bgcolor, False)
            if style.reverse:
                fg, bg = bg, fg
            parts[key].append(Part(segment.text, style, fg, bg, dict(meta)))
    assert parts, "nothing of the board was drawn"
    return parts


def shade(parts: list[Part]) -> float:
    """A square's background luminance."""
    return luminance(parts[0].bg)


# -- which square each board highlights, and how, from the board's own state ---------------------


def dipole_kinds(board: AnyBoard) -> dict[Key, set[str]]:
    assert isinstance(board, DipoleBoard)
    kinds: dict[Key, set[str]] = defaultdict(set)
    if board.removal_cursor is not None:
        kinds[("removal", board.removal_cursor)].add("cursor")
    elif board.has_focus:
        kinds[("square", board.cursor)].add("cursor")
    if board.selected is not None:
        kinds[("square", board.selected)].add("selected")
    for square, move in board.targets.items():
        kinds[("square", square)].add("capture" if move.capture else "target")
    if board.last_move is not None:
        kinds[("square", board.last_move.origin)].add("last move")
        kinds[("square", board.last_move.target)].add("last move")
    hint = board.hint
    if hint is not None:
        kinds[("square", hint.origin)].add("hint")
        if hint.target == dipole.OFF:
            kinds[("removal", hint.count)].add("hint")
        else:
            kinds[("square", hint.target)].add("hint")
    return kinds


def stacks_kinds(board: AnyBoard) -> dict[Key, set[str]]:
    assert isinstance(board, DeathStacksBoard)
    kinds: dict[Key, set[str]] = defaultdict(set)
    state = board.state
    if board.has_focus:
        kinds[("square", board.cursor)].add("cursor")
    if board.selected is not None:
        kinds[("square", board.selected)].add("selected")
    for square in board.targets:
        enemy = state.owner(square) not in (None, state.to_move)
        kinds[("square", square)].add("capture" if enemy else "target")
    for way in board.path_to_cursor():
        for square in way:
            kinds[("square", square)].add("path")
    if board.last_move is not None:
        kinds[("square", board.last_move.origin)].add("last move")
        kinds[("square", board.last_move.target)].add("last move")
    for square in state.too_tall():
        kinds[("square", square)].add("too tall")
    if board.hint is not None:
        kinds[("square", board.hint.origin)].add("hint")
        kinds[("square", board.hint.target)].add("hint")
    return kinds


def bipod_kinds(board: AnyBoard) -> dict[Key, set[str]]:
    assert isinstance(board, BipodBoard)
    kinds: dict[Key, set[str]] = defaultdict(set)
    if board.has_focus:
        kinds[("cell", board.cursor)].add("cursor")
        if board.state.stone(board.cursor) == bipod.EMPTY and board.cursor not in board.marked:
            kinds[("cell", board.cursor)].add("preview")  # the stone Enter would place
    for cell in board.marked:
        kinds[("cell", cell)].add("marked")
    if isinstance(board.last_move, bipod.Move):
        for cell in board.last_move.cells:
            kinds[("cell", cell)].add("last move")
    for chain in board.state.chains().values():
        for cell in chain:
            kinds[("cell", cell)].add("chain")
    for cell in board.hint.cells if board.hint is not None else ():
        kinds[("cell", cell)].add("hint")
    return kinds


KINDS: dict[type[AnyBoard], Callable[[AnyBoard], dict[Key, set[str]]]] = {
    DipoleBoard: dipole_kinds,
    DeathStacksBoard: stacks_kinds,
    BipodBoard: bipod_kinds,
}


def shows(kind: str, drawn: list[Part], board: AnyBoard) -> bool:
    """Whether a square's parts show this kind of highlight without colour: the cursor is one
    reversed block (glyphs included), Bi-Pod's stone to place bracketed, a too-tall stack's
    height reverse, Death Stacks' pieces that move underlined, and every other highlight
    underlines its whole square."""
    if kind == "cursor":
        return all(part.style.reverse for part in drawn) and len({p.bg for p in drawn}) == 1
    if kind == "preview":  # bracketed, as no placed stone is
        text = "".join(part.text for part in drawn).strip()
        return text[:1] == "[" and text[-1:] == "]"
    if kind == "too tall":
        return any(part.style.reverse for part in drawn if part.text.strip())
    if kind == "selected" and isinstance(board, DeathStacksBoard):
        assert board.selected is not None
        moving_from = len(board.state.cells[board.selected]) - board.count
        moving = [p for p in drawn if int(str(p.meta.get("level", -1))) >= moving_from]
        return bool(moving) and all(part.style.underline for part in moving)
    return all(part.style.underline for part in drawn)


def darker_pairs(board: AnyBoard, parts: dict[Key, list[Part]]) -> list[tuple[str, Key, Key]]:
    """(what, the lightest of the darker, the darkest of the lighter) for the plain squares that
    must look darker than others: dark squares than light ones, Death Stacks' wall than its
    zone, Bi-Pod's cut-off cells than the live ones."""
    kinds = KINDS[type(board)](board)
    plain = [key for key in parts if key[0] in ("square", "cell") and not kinds.get(key)]
    if isinstance(board, DipoleBoard):
        dark = [key for key in plain if dipole.is_dark(key[1])]
        groups = [("dark squares", dark, [key for key in plain if key not in dark])]
    elif isinstance(board, DeathStacksBoard):
        size = death_stacks.SIZE
        dark = [key for key in plain if (key[1] % size + key[1] // size) % 2 == 0]
        light = [key for key in plain if key not in dark]
        groups = [("dark squares", dark, light), ("the wall", [("wall", 0)], plain)]
    else:
        assert isinstance(board, BipodBoard)
        dead = board.state.dead_cells()  # none early in a game: nothing to compare
        cut_off = [key for key in plain if key[1] in dead]
        groups = (
            [("cut-off cells", cut_off, [k for k in plain if k not in cut_off])] if dead else []
        )
    pairs = []
    for what, darker, lighter in groups:
        assert darker and lighter, f"nothing to compare for {what}"
        lightest = max(darker, key=lambda key: shade(parts[key]))
        darkest = min(lighter, key=lambda key: shade(parts[key]))
        pairs.append((what, lightest, darkest))
    return pairs


# -- the scenes: each board showing every kind of highlight ---------------------------------------

Setup = Callable[[Pilot[None], AnyBoard], Awaitable[None]]


@dataclass
class Scene:
    """A game at a position (Bi-Pod's a record), the keys that bring up its highlights, the
    squares the cursor then visits (each a frame to check), and the highlights shown."""

    game: AnyGame
    position: str
    setup: Setup
    cursor_at: list[int]
    kinds: set[str]

    def app(self, make_app: AppFactory) -> GameApp:
        if self.game is BIPOD:
            return make_app(session=Session.from_text(self.position))
        return make_app(self.game.key, position=self.position)


def cursor_to(board: AnyBoard, square: int) -> None:
    """The arrow keys' action without the Pilot's pause after each key, so that the frames of
    every theme stay quick."""
    assert isinstance(board, Walkable)
    for _ in range(40):
        step = step_toward(board, square)
        if step is None:
            return
        board.action_cursor(*step)
    raise AssertionError(f"the cursor did not reach {square}")


async def dipole_setup(pilot: Pilot[None], board: AnyBoard) -> None:
    # White moves; Black's b4 then goes to empty squares, onto its own a3, captures on c3, or
    # leaves the board.
    await type_move(pilot, "e1-g3")
    assert isinstance(board, DipoleBoard)
    await walk_to(pilot, board, dipole.parse_square("b4", 8))
    await pilot.press("enter")


async def stacks_setup(pilot: Pilot[None], board: AnyBoard) -> None:
    # Black cuts its too-tall c4 down; Red's b5 is then too tall, and four of its five pieces
    # reach f5 (a capture) by c5, d5 (a landing square too) and e5.
    await type_move(pilot, "c4-2-c2")
    await pilot.press("4")


async def bipod_marking(pilot: Pilot[None], board: AnyBoard) -> None:
    # Before adoption in the multi variant: First marks two cells for one turn.
    assert isinstance(board, BipodBoard)
    for name in ("h2", "k3"):
        await walk_to(pilot, board, bipod.parse_cell(name))
        await pilot.press("space")


async def other_colour(pilot: Pilot[None], board: AnyBoard) -> None:
    # The Runner switches to O: the cursor's empty cell shows a dark stone to place.
    await pilot.press("c")


def hint(text: str) -> Setup:
    """The board marks a hint, as the app has it do when the bots' answer comes."""

    async def setup(pilot: Pilot[None], board: AnyBoard) -> None:
        app = pilot.app
        assert isinstance(app, GameApp)
        board.show_hint(app.session.game.parse_move(text, app.session.state))
        await pilot.pause()

    return setup


def bipod_sample(plies: int) -> str:
    """The sample game's record cut after `plies` moves."""
    text = SAMPLE.read_text().replace("0-1", "*").replace("12. resign", "")
    session = Session.from_text(text)
    while len(session.state.moves_played) > plies:
        session.state.undo()
    return session.record_text()


SCENES = {
    "dipole": Scene(
        DIPOLE,
        "8:W:Wc3=1,e1=3,g1=2:Ba3=1,b4=2,d4=2,f8=3",
        dipole_setup,
        [dipole.parse_square(name, 8) for name in ("b4", "c3", "g1")],
        {"cursor", "selected", "target", "capture", "last move"},
    ),
    "death-stacks": Scene(
        DEATH_STACKS,
        "bb,b,rbb,,,/,rrbrr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/,,,,, b",
        stacks_setup,
        [death_stacks.parse_square(name) for name in ("f5", "a3")],
        {"cursor", "selected", "target", "capture", "path", "last move", "too tall"},
    ),
    "bipod-blocking": Scene(
        BIPOD,
        bipod_sample(2),
        bipod_marking,
        [bipod.parse_cell("m3")],  # an empty cell: the cursor shows the stone Enter places
        {"cursor", "preview", "marked", "last move", "chain"},
    ),
    "dipole-hint": Scene(
        DIPOLE,
        "8:W:Wc3=1,e1=3,g1=2:Ba3=1,b4=2,d4=2,f8=3",
        hint("e1-h4"),
        [dipole.parse_square("c3", 8)],
        {"cursor", "hint"},
    ),
    "dipole-hint-removal": Scene(
        DIPOLE,
        "8:W:Wh6=2,e1=3:Ba3=1,f8=3",
        hint("h6-off:2"),
        [dipole.parse_square("e1", 8)],
        {"cursor", "hint"},
    ),
    "death-stacks-hint": Scene(
        DEATH_STACKS,
        "bb,b,rbb,,,/,rrbr,,,,rb/,,brrbrb,,,/b,,,,r,/,r,b,,,r/,,,,, r",
        hint("b5-3-e4"),
        [death_stacks.parse_square("a3")],
        {"cursor", "hint"},
    ),
    "bipod-hint": Scene(
        BIPOD,
        bipod_sample(22),
        hint("n4 O"),
        [bipod.parse_cell("q5")],  # the Runner's o to place
        {"cursor", "preview", "last move", "chain", "hint"},
    ),
    "bipod-running": Scene(
        BIPOD,
        bipod_sample(22),
        other_colour,
        [bipod.parse_cell(name) for name in ("q5", "w3", "v2")],
        {"cursor", "preview", "last move", "chain"},
    ),
}


def contrast_failures(board: AnyBoard, where: str) -> list[str]:
    failures = []
    parts = drawn_parts(board)
    for key, drawn in parts.items():
        if key[0] == "wall":
            continue  # a texture that says nothing
        for part in drawn:
            ratio = contrast(part.fg, part.bg)
            if part.text.strip() and ratio < FLOOR:
                text = part.text.strip()
                failures.append(f"{where} {key}: {text!r} {part.fg} on {part.bg}: {ratio:.2f}")
    for what, darker, lighter in darker_pairs(board, parts):
        if shade(parts[darker]) >= shade(parts[lighter]):
            failures.append(
                f"{where}: {what} do not look darker "
                f"({darker} on {parts[darker][0].bg}, {lighter} on {parts[lighter][0].bg})"
            )
    return failures


async def use_theme(app: GameApp, theme: str) -> None:
    """Switch the theme and wait until the app has restyled itself (the Pilot's pause would
    also wait for the app to go idle, slowly, twenty times over)."""
    app.theme = theme
    restyled = asyncio.Event()
    app.call_next(restyled.set)  # after the restyling the theme's watcher queued
    await restyled.wait()


def set_no_color(monkeypatch: pytest.MonkeyPatch, no_color: bool) -> None:
    """NO_COLOR as the user sets it: the app reads it when it starts."""
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)


FLAGS = ("bold", "dim", "italic", "underline", "overline", "reverse", "strike")


def flags_of(drawn: list[Part]) -> set[str]:
    """The text attributes every part of a square carries."""
    return {flag for flag in FLAGS if all(getattr(part.style, flag) for part in drawn)}


def last_move_apart(kinds: dict[Key, set[str]], parts: dict[Key, list[Part]]) -> str:
    """Underline alone is what targets, paths and chains show too: the last move's squares
    carry an attribute that no other square, highlighted or not, has anywhere. "" when they
    do, else what is wrong."""
    last = [key for key in parts if "last move" in kinds.get(key, set())]
    if not last:
        return "no last move drawn"
    own = set.intersection(*(flags_of(parts[key]) for key in last))
    others = {
        flag
        for key, drawn in parts.items()
        if key not in last
        for part in drawn
        for flag in FLAGS
        if getattr(part.style, flag)
    }
    return "" if own - others else f"the last move ({own}) looks like other squares ({others})"


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
@pytest.mark.parametrize("scene", list(SCENES))
async def test_every_glyph_stands_out_in_every_theme(
    make_app: AppFactory, scene: str, no_color: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_no_color(monkeypatch, no_color)
    shown = SCENES[scene]
    app = shown.app(make_app)
    failures: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.board
        await shown.setup(pilot, board)
        assert app.no_color == no_color
        assert len(app.available_themes) > 10
        for theme in app.available_themes:
            await use_theme(app, theme)
            for square in shown.cursor_at:
                cursor_to(board, square)
                failures += contrast_failures(board, f"{theme}, cursor at {square}:")
        await pilot.resize_terminal(120, 40)  # larger squares: heights above their pieces
        await pilot.pause()
        for square in shown.cursor_at:
            cursor_to(board, square)
            failures += contrast_failures(board, f"120x40, cursor at {square}:")
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} in all)"


@pytest.mark.parametrize("scene", list(SCENES))
async def test_without_colour_every_highlight_still_shows(
    make_app: AppFactory, scene: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_no_color(monkeypatch, True)
    shown = SCENES[scene]
    app = shown.app(make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.board
        await shown.setup(pilot, board)
        seen: set[str] = set()
        for square in shown.cursor_at:
            cursor_to(board, square)
            kinds = KINDS[type(board)](board)
            parts = drawn_parts(board)
            if "last move" in shown.kinds:
                wrong = last_move_apart(kinds, parts)
                assert not wrong, wrong
            for key, drawn in parts.items():
                if key[0] == "wall":
                    continue
                marked = kinds.get(key, set())
                seen |= marked
                for kind in marked:
                    assert shows(kind, drawn, board), f"{kind} at {key} does not show: {drawn}"
                if "cursor" not in marked:
                    assert not all(part.style.reverse for part in drawn), (
                        f"{key} looks like the cursor"
                    )
                if not marked:
                    assert not any(p.style.reverse or p.style.underline for p in drawn), (
                        f"the plain {key} looks highlighted"
                    )
        assert seen == shown.kinds


def test_without_colour_no_theme_draws_black_on_black(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual's NO_COLOR filter turns the ANSI themes' colours all black: not offered then."""
    set_no_color(monkeypatch, True)
    assert not [name for name in make_app().available_themes if name.startswith("ansi")]
    set_no_color(monkeypatch, False)
    assert "ansi-dark" in make_app().available_themes
