"""The batches of many messages shabench times, written once for every row that hashes them: libsha's C
loop per implementation, the batch peers' C loops (isa-l_crypto, IPsec-MB) and the Python rows beside
StringZilla. A batch is its row name, its message count and its lengths: one length for all, or lengths
drawn uniformly from 0..MIXED_MAX by a seeded generator (the seed is in the batch's description), so
every tail length and block count a scheduler meets comes up, the same in every run.

Messages are cut from one 251-byte cycle: no period a lane could hide a mix-up in.
"""

import ctypes
import functools
import random
from array import array
from dataclasses import dataclass
from typing import Optional, Tuple

MIXED_SEED = 46
MIXED_MAX = 2048


def pattern(n):
    """n bytes of a 251-byte cycle, built at C speed."""
    cycle = bytes(range(251))
    return (cycle * (n // 251 + 1))[:n]


@dataclass(frozen=True)
class Batch:
    name: str
    count: int
    length: Optional[int] = None  # None: mixed lengths, 0..MIXED_MAX from MIXED_SEED

    @property
    def mixed(self):
        return self.length is None

    def describe(self):
        """What the row hashes, for its label."""
        if self.mixed:
            return f"{self.count:,} messages of 0..{MIXED_MAX} bytes, uniform, seed {MIXED_SEED}"
        return f"{self.count:,} messages of {self.length:,} bytes"

    @functools.cached_property
    def lengths(self) -> Tuple[int, ...]:
        """Every message's length, drawn once (the mixed batch's 100,000 draws are not free)."""
        if not self.mixed:
            return (self.length,) * self.count
        rng = random.Random(MIXED_SEED)
        return tuple(rng.randint(0, MIXED_MAX) for _ in range(self.count))

    @functools.cached_property
    def offsets(self):
        """Where each message starts in data(), and where the last ends: count + 1 int64s. Shared by every
        row of the batch: read, never written."""
        ends = array("q", [0])
        total = 0
        for length in self.lengths:
            total += length
            ends.append(total)
        return ends

    @property
    def total(self):
        """The batch's bytes, every message's length added up."""
        return self.offsets[-1]

    def data(self):
        return pattern(self.total)

    def buffer(self):
        """data() in a C buffer (one byte at least: a batch of empty messages still has an address)."""
        data = self.data()
        return ctypes.create_string_buffer(data, max(len(data), 1))

    def messages(self):
        data, ends = self.data(), self.offsets
        return [data[ends[i]:ends[i + 1]] for i in range(self.count)]


C_BATCHES = [Batch("SHA256_MANY_1000x16KiB", 1000, 16384), Batch("SHA256_MANY_10000x1KiB", 10000, 1024),
             Batch("SHA256_MANY_100000x256b", 100_000, 256), Batch("SHA256_MANY_1000000x64b", 1_000_000, 64),
             Batch("SHA256_MANY_100000x0to2KiB", 100_000)]
