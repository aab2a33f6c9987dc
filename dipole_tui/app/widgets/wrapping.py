"""Wrapping the app's messages to a known width, so that nothing is ever cut.

Rich folds a word longer than the line mid-word, which makes a file path unreadable; here such a
word is broken after a `/`, and only a part still too long is folded.
"""

from __future__ import annotations

import re


def wrap(text: str, width: int) -> list[str]:
    """The lines of `text` (its own line breaks kept) in at most `width` columns."""
    width = max(width, 1)
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            if line and len(line) + 1 + len(word) <= width:
                line += " " + word
            elif len(word) <= width:
                if line:
                    lines.append(line)
                line = word
            else:  # longer than a line: on lines of its own, its parts joined without spaces
                if line:
                    lines.append(line)
                line = ""
                for piece in _pieces(word, width):
                    if line and len(line) + len(piece) > width:
                        lines.append(line)
                        line = ""
                    line += piece
        lines.append(line)
    return lines


def _pieces(word: str, width: int) -> list[str]:
    """A word too long for a line in parts that fit: split after each `/`, a part still too long
    after each `-`, and only what is left folded."""
    parts: list[str] = []
    for part in re.findall(r"[^/]*/|[^/]+", word):
        if len(part) > width:
            for piece in re.findall(r"[^-]*-|[^-]+", part):
                parts.extend(piece[i : i + width] for i in range(0, len(piece), width))
        else:
            parts.append(part)
    return parts
