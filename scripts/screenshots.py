"""Regenerate screenshots/*.svg from the scenes in tests/support/scenes.py, so the README never
shows a stale screen (tests/app/test_screenshots.py fails when one is).

python scripts/screenshots.py            # all of them
python scripts/screenshots.py opening    # just the named ones
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from scenes import SCENES, SHOTS, normalised, shoot  # (found through the path above)

from dipole_tui import storage


async def main(names: list[str]) -> None:
    unknown = [name for name in names if name not in SCENES]
    if unknown:
        sys.exit(f"no scene named {', '.join(unknown)}; the scenes: {', '.join(SCENES)}")
    SHOTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as fresh:
        for name in names or list(SCENES):
            shot = await shoot(name, Path(fresh))
            kept = SHOTS / shot.name
            # A screen that differs only in what changes from run to run (a temporary folder,
            # a time) is left as it is, so that git shows only the screens that changed.
            svg = shot.read_text(encoding="utf-8")
            if kept.exists() and normalised(kept.read_text(encoding="utf-8")) == normalised(svg):
                print(f"{kept} (unchanged)")
                continue
            storage.write_text(kept, svg)
            print(kept)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
