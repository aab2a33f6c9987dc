"""Every screenshot the README shows is its scene as the code draws it today
(tests/support/scenes.py): a change that alters one fails here until `python scripts/screenshots.py
<name>` regenerates it."""

from __future__ import annotations

import difflib
import html
import re
from pathlib import Path

import pytest
from paths import ROOT
from scenes import SCENES, SHOTS, normalised, shoot

# Scenes kept though the README shows no picture of them (none so far).
UNSHOWN: set[str] = set()


def readme_shots() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    return sorted(set(re.findall(r"\]\(screenshots/([\w.-]+)\.svg\)", readme)))


def test_every_readme_screenshot_has_a_scene_and_every_scene_a_place() -> None:
    shown = set(readme_shots())
    assert shown, "the README shows no screenshots/*.svg: has its markup changed?"
    assert shown - set(SCENES) == set(), (
        "README screenshots with no scene in tests/support/scenes.py"
    )
    assert set(SCENES) - shown == UNSHOWN, "scenes the README does not show (list them in UNSHOWN)"
    committed = {path.stem for path in SHOTS.glob("*.svg")}
    assert committed == set(SCENES), "screenshots/ holds exactly one SVG per scene"


def words(svg: list[str]) -> list[str]:
    """The characters each line of an SVG screenshot draws, to show what changed."""
    return [
        html.unescape("".join(re.findall(r">([^<]*)</text>", line))).replace("\xa0", " ")
        for line in svg
    ]


@pytest.mark.long
@pytest.mark.parametrize("name", readme_shots())
async def test_screenshot_is_its_scene(name: str, tmp_path: Path) -> None:
    drawn = normalised((await shoot(name, tmp_path)).read_text()).splitlines()
    committed = normalised((SHOTS / f"{name}.svg").read_text()).splitlines()
    if drawn != committed:
        before, after = words(committed), words(drawn)
        if before == after:  # the same characters: a colour or a style changed
            before, after = committed, drawn
        diff = difflib.unified_diff(before, after, "committed", "drawn now", n=0, lineterm="")
        shown = "\n".join(line[:160] for line in list(diff)[:12])
        pytest.fail(
            f"screenshots/{name}.svg is stale: the scene draws something else now. If the change "
            f"is intended, run `python scripts/screenshots.py {name}`, look at the SVG and commit "
            f"it.\n{shown}",
            pytrace=False,
        )
