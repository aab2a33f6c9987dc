"""The record round-trip properties of tests/engine/test_records_roundtrip.py, run with many more
examples than CI gives them: `python bench/fuzz_records.py 20000`."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path[:0] = [str(TESTS / "support"), str(TESTS / "engine")]
import test_records_roundtrip as roundtrip  # noqa: E402  (the tests' own strategies)

TAGS = st.sampled_from(["White", "Black", "Event", "Date", "X1"])
GAMES = st.sampled_from(roundtrip.GAMES)
COMMENTS = st.lists(st.lists(roundtrip.texts, max_size=2), min_size=4, max_size=4)


# The properties themselves, without CI's settings (hypothesis keeps them on the test).
TAG_VALUE = roundtrip.test_every_tag_value_reads_back.hypothesis.inner_test  # type: ignore[attr-defined]
COMMENT = roundtrip.test_every_comment_reads_back_where_it_stood.hypothesis.inner_test  # type: ignore[attr-defined]


def main() -> None:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    tests = {
        "tag values": given(GAMES, roundtrip.texts, TAGS)(TAG_VALUE),
        "comments": given(GAMES, COMMENTS)(COMMENT),
    }
    for name, test in tests.items():
        started = time.perf_counter()
        settings(max_examples=examples, deadline=None, database=None)(test)()
        print(f"{name}: {examples} examples read back, {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
