"""The exact solver's transposition table (`proof.solve`): bounds on the scores of positions,
in a fixed share of memory that grows with what is stored and then replaces.

See `proof` for what the bounds are (they count plies from the position itself, so an entry is
true whatever path led there) and why losing one costs time, never a wrong answer.
"""

from __future__ import annotations

import mmap
import sys

# An entry is two unsigned 64-bit words: the position's key (a 64-bit Zobrist key) and its value,
# which packs (work << 59) | (best move's index + 1) << 44 | (lower + WIN) << 22 | (upper + WIN).
# The bounds count plies from the position itself and lie within (-WIN, WIN), so 22 bits hold
# them; work is the bit length of the nodes its proof took (at most 31); a move index past the
# 15 bits is not kept (the move is only tried first). 16 bytes an entry, measured: filling a 16 MB
# and a 64 MB table to the full (random keys, /proc/self/status before and after) grew the
# process's resident size by 16.0 and 64.0 MB, 16.00 bytes an entry. Besides the table only the
# proof-number search's sets and dict grow with a search, within half of `memory`, and they are
# let go before the table grows past a quarter of it (`proof.PROOF_BYTES`), so a solve's peak
# is the interpreter's plus `memory`. WIN is `proof.WIN`, 1 << 20.
ENTRY_BYTES = 16
START_BUCKETS = 1 << 16  # a table starts with these (2 MB), and grows as it fills
SCORE = (1 << 22) - 1
LOWER = 22
MOVE = 44
MOVES = (1 << 15) - 1
WORK = 59
BELOW_WORK = (1 << WORK) - 1


def _reserve(size: int) -> mmap.mmap:
    """`size` bytes of zeros, private to this process (a fork copies, never shares them), each
    page taking memory only once written; where the mmap module has MAP_NORESERVE, not even
    counted against the system's memory until then. MemoryError, in one line, when the system
    refuses (more than it would ever give)."""
    try:
        if sys.platform == "win32":
            return mmap.mmap(-1, size)
        return mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | getattr(mmap, "MAP_NORESERVE", 0))
    except (OSError, OverflowError) as error:
        said = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise MemoryError(f"the solver's table cannot have {size >> 20} MB: {said}") from None


class Table:
    """A bounded transposition table: buckets of two entries in one anonymous mapping of
    `memory` bytes, the system zeroing each page as it is first written. It grows by linear
    hashing (one bucket split at a time, in place) to keep itself a quarter full, so its
    resident memory follows what a search has stored (64 bytes an entry), not the bound; once
    every bucket is in use, a new entry replaces one. (Kept half full, a quarter of the buckets
    would be full and replace: 5% more nodes than a table that never loses an entry; a quarter
    full, 1%.) A bucket's first entry holds its most expensive proof (work: the bit length of
    the nodes it took), the second the latest; a new proof as expensive as the first moves it
    down. The same stores in the same order give the same table, whatever the search's budget,
    so a budget that suffices finds what an unlimited search finds."""

    def __init__(self, memory: int) -> None:
        self.most = max(1, memory // (2 * ENTRY_BYTES))  # buckets
        self._mapping = _reserve(self.most * 2 * ENTRY_BYTES)
        # slots[4b], slots[4b + 1]: bucket b's first key and value (value 0: empty); then its
        # second.
        self.slots = memoryview(self._mapping).cast("Q")
        self.count = min(self.most, START_BUCKETS)  # buckets in use
        self.low = (1 << (self.count.bit_length() - 1)) - 1  # count in (low, 2 * low + 1]
        self.high = 2 * self.low + 1
        self.filled = 0  # entries held

    def close(self) -> None:
        """Give the memory back now rather than when the table is collected."""
        self.slots.release()
        self._mapping.close()

    def bucket(self, key: int) -> int:
        """Where `key`'s bucket starts in `slots`: by the key's low bits, one more of them for
        the buckets already split."""
        index = key & self.high
        if index >= self.count:
            index &= self.low
        return index << 2

    def get(self, key: int) -> int:
        """The packed value kept for `key`, 0 when none (the search does this inline)."""
        slots, base = self.slots, self.bucket(key)
        if slots[base] == key:
            return slots[base + 1]
        if slots[base + 2] == key:
            return slots[base + 3]
        return 0

    def put(self, key: int, value: int) -> None:
        """Keep `value` (its work in its top bits) for `key`: in place of what the bucket held
        for it, with the larger work of the two; else in the first entry if as expensive as
        that one, which moves down to the second; else in the second."""
        slots, index = self.slots, key & self.high
        base = (index & self.low if index >= self.count else index) << 2  # as `bucket` says
        first = slots[base + 1]
        if not first:  # an empty bucket (a first entry is always filled before a second)
            slots[base] = key
            slots[base + 1] = value
        elif slots[base] == key:
            if value >> WORK < first >> WORK:
                value = value & BELOW_WORK | first >> WORK << WORK
            slots[base + 1] = value
            return
        else:
            second = slots[base + 3]
            if second and slots[base + 2] == key:
                if value >> WORK < second >> WORK:
                    value = value & BELOW_WORK | second >> WORK << WORK
                if value >> WORK < first >> WORK:
                    slots[base + 3] = value
                else:  # as expensive as the first now: the two change places
                    slots[base + 2] = slots[base]
                    slots[base + 3] = first
                    slots[base] = key
                    slots[base + 1] = value
                return
            if value >> WORK >= first >> WORK:
                slots[base + 2] = slots[base]
                slots[base + 3] = first
                slots[base] = key
                slots[base + 1] = value
            else:
                slots[base + 2] = key
                slots[base + 3] = value
            if second:  # one replaced: the table holds as many as before
                return
        self.filled += 1
        if 2 * self.filled > self.count < self.most:  # over a quarter full, and room to grow
            self._grow()

    def _grow(self) -> None:
        """Split buckets until the table is a quarter full again (or at its bound): each the
        first not yet split at this level, whose entries with the next bit of their key set
        go to the new bucket, each keeping its place (first or second)."""
        slots, count, low, high = self.slots, self.count, self.low, self.high
        least = min(2 * self.filled + 1, self.most)
        while count < least:
            source, target, split, mask = (count - low - 1) << 2, count << 2, count, high
            count += 1
            if count > high:  # every bucket split: the next level
                low, high = high, 2 * high + 1
            first = slots[source + 1]
            if not first:
                continue  # nothing to move: the new bucket is empty, as the mapping was
            second, key, other = slots[source + 3], slots[source], slots[source + 2]
            if key & mask == split:  # the level's mask, from before any change of level
                slots[target], slots[target + 1] = key, first
                if second and other & mask == split:
                    slots[target + 2], slots[target + 3] = other, second
                    slots[source] = slots[source + 1] = 0
                else:  # the second, if any, is the source's first now
                    slots[source], slots[source + 1] = other, second
            elif second and other & mask == split:
                slots[target], slots[target + 1] = other, second
            else:
                continue
            slots[source + 2] = slots[source + 3] = 0
        self.count, self.low, self.high = count, low, high
