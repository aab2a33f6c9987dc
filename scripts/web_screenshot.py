"""Regenerate screenshots/web.png: `dipole-tui web` in headless chromium after three moves typed
in the page, as the README shows it (tests/support/browser.py drives it; needs /usr/bin/chromium).

python scripts/web_screenshot.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from browser import (  # (found through the path above)
    browser_page,
    play,
    serving,
    start_a_game,
    wait_for_text,
)

SHOT = Path(__file__).resolve().parent.parent / "screenshots" / "web.png"

MOVES = [("e1-e3", "1. e1-e3"), ("d8-d6", "1. e1-e3 d8-d6"), ("e3-e5", "2. e3-e5")]


def main() -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(Path(folder, "data")) as served,
        browser_page(Path(folder, "chromium")) as page,
    ):
        page.goto(served.url, wait_until="domcontentloaded")
        start_a_game(page)  # a new visitor
        wait_for_text(page, "White to move")
        for move, shown in MOVES:
            play(page, move, shown)
        page.mouse.move(0, 0)  # no hover on the board
        wait_for_text(page, "White played e3-e5.")
        page.wait_for_timeout(300)  # the canvas draws the terminal's last frame
        page.screenshot(path=SHOT)
        print(SHOT)


if __name__ == "__main__":
    main()
