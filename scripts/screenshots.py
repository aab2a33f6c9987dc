"""Regenerate screenshots/*.svg from the scenes in tests/scenes.py, so the README never shows a
stale screen (tests/test_screenshots.py fails when one is).

python scripts/screenshots.py            # all of them
python scripts/screenshots.py opening    # just the named ones
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from scenes import SCENES, SHOTS, shoot  # (found through the path above)


async def main(names: list[str]) -> None:
    unknown = [name for name in names if name not in SCENES]
    if unknown:
        sys.exit(f"no scene named {', '.join(unknown)}; the scenes: {', '.join(SCENES)}")
    SHOTS.mkdir(exist_ok=True)
    for name in names or list(SCENES):
        print(await shoot(name, SHOTS))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
