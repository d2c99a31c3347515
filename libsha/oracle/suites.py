"""The suites: where SHA-256 implementations break, as cases with their expected digests.

Content never repeats with a short period: byte i of a message is (start + 167 i) mod 251, so a
lane or block mix-up changes the answer. The expected digests come from hashlib (OpenSSL, or
CPython's own code), itself checked against FIPS 180-4 by libsha's tests.
"""

from __future__ import annotations

import hashlib
import random
import time

from libsha.reference import nist

from .runner import Case
from .spec import BLOB_HASHES, BLOB_NAMES, Spec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator

NAMES = ("nist", "lengths", "splits", "alignment", "guard", "blobs", "random", "large")
DEFAULT = tuple(n for n in NAMES if n != "large")
# Earlier names users' scripts may still pass to --suite: `d64` was the blob suite's before --level.
ALIASES = {"d64": "blobs"}
MONTE_CHECKPOINTS = 100
MONTE_CHECKPOINTS_QUICK = 10  # --quick
MONTE_CHECKPOINTS_COMMAND = 1  # a process per case: 1,000 cases instead of 100,000


def content(length: int, start: int = 0) -> bytes:
    """length bytes: byte i is (start + 167 i + 13) mod 251 (period 251, no power of two)."""
    return bytes((start + 167 * i + 13) % 251 for i in range(length))


def recipe(length: int, start: int = 0) -> str:
    return f"bytes(({start} + 167 * i + 13) % 251 for i in range({length}))"


_zeros_cache: dict[int, bytes] = {}


def _zeros_digest(length: int) -> bytes:
    """hashlib's SHA-256 of `length` zero bytes, a MiB at a time."""
    if length not in _zeros_cache:
        h, chunk, left = hashlib.sha256(), bytes(1 << 20), length
        while left:
            h.update(chunk[: min(left, len(chunk))] if left < len(chunk) else chunk)
            left -= min(left, len(chunk))
        _zeros_cache[length] = h.digest()
    return _zeros_cache[length]


def expected(case: Case) -> bytes:
    if case.zeros:
        return _zeros_digest(case.zeros)
    if case.blobs:
        return blob_digests(case.data, case.blobs)
    return hashlib.sha256(case.data).digest()


def blob_digests(data: bytes, times: int) -> bytes:
    """Each 64-byte blob of data hashed `times` times (spec.BLOB_HASHES), the digests end to end."""
    digests = []
    for i in range(0, len(data), 64):
        digest = data[i : i + 64]
        for _ in range(times):
            digest = hashlib.sha256(digest).digest()
        digests.append(digest)
    return b"".join(digests)


def applies(name: str, spec: Spec) -> str:
    """Why the suite does not apply to this candidate ('' when it does)."""
    if spec.kind in BLOB_HASHES:
        return "" if name in ("blobs", "random") else f"{BLOB_NAMES[spec.kind]} hashes whole 64-byte blobs only"
    if name == "blobs":
        return "needs a --d64 or --level candidate"
    if name == "splits" and not spec.streaming:
        return "needs a streaming candidate (--stream or --object)"
    if name in ("alignment", "guard") and not spec.in_memory:
        return "needs a library candidate (--symbol or --stream): it reads a copy we do not place"
    if name == "large" and not spec.in_memory:
        return "needs a library candidate (--symbol or --stream): gigabytes go to it in place"
    return ""


def cases(name: str, spec: Spec, seed: int, seconds: float, quick: bool = False) -> Iterator[Case]:
    if name == "nist":
        return _nist(spec, _checkpoints(spec, quick))
    return {"lengths": _lengths, "splits": _splits, "alignment": _alignment, "guard": _guard,
            "blobs": _blobs, "random": _random, "large": _large}[name](spec, seed, seconds)


def _checkpoints(spec: Spec, quick: bool) -> int:
    if spec.kind == "command":
        return MONTE_CHECKPOINTS_COMMAND
    return MONTE_CHECKPOINTS_QUICK if quick else MONTE_CHECKPOINTS


def monte_note(spec: Spec, quick: bool = False) -> str:
    count = _checkpoints(spec, quick)
    if count == MONTE_CHECKPOINTS:
        return ""
    why = "one process per case" if spec.kind == "command" else "--quick"
    return f"Monte Carlo: {count} of {MONTE_CHECKPOINTS} checkpoints ({why})"


def _nist(spec: Spec, count: int) -> Iterator[Case]:
    for name in ("SHA256ShortMsg.rsp", "SHA256LongMsg.rsp"):
        for message, _ in nist.messages(name):
            yield Case(message)
    # SHAVS 6.4 Monte Carlo: each message is the last three digests; the chain is hashlib's, so a
    # wrong digest is caught at its own case, not 1,000 cases later.
    seed_md, _ = nist.monte()
    for _ in range(count):
        md = [seed_md] * 3
        for _ in range(1000):
            message = md[0] + md[1] + md[2]
            yield Case(message)
            md = [md[1], md[2], hashlib.sha256(message).digest()]
        seed_md = md[2]


def _lengths(spec: Spec, seed: int, seconds: float) -> Iterator[Case]:
    for length in range(1101):
        yield Case(content(length, length), recipe=recipe(length, length))


def _splits(spec: Spec, seed: int, seconds: float) -> Iterator[Case]:
    for length in range(301):
        data = content(length, length)
        for cut in range(length + 1):
            yield Case(data, splits=(cut,), recipe=recipe(length, length))
    borders = [b + d for b in (64, 128, 192, 256) for d in (-1, 0, 1)]
    for length in range(64, 301):
        data = content(length, length)
        for a in borders:
            for b in borders:
                if a < b <= length:
                    yield Case(data, splits=(a, b), recipe=recipe(length, length))


_ALIGNMENT_LENGTHS = (0, 1, 3, 16, 31, 55, 56, 63, 64, 65, 100, 119, 120, 127, 128, 129, 200, 1000)


def _alignment(spec: Spec, seed: int, seconds: float) -> Iterator[Case]:
    for length in _ALIGNMENT_LENGTHS:
        for offset in range(64):
            yield Case(content(length, offset), splits=(length // 3,) if spec.streaming else (), offset=offset,
                       recipe=recipe(length, offset))


def _guard(spec: Spec, seed: int, seconds: float) -> Iterator[Case]:
    for length in range(301):
        yield Case(content(length, length), splits=(length // 2,) if spec.streaming else (), guard=True,
                   recipe=recipe(length, length))


def _blobs(spec: Spec, seed: int, seconds: float) -> Iterator[Case]:
    times = BLOB_HASHES[spec.kind]
    for blobs in range(65):
        data = content(64 * blobs, blobs)  # every blob different: a lane swap changes the answer
        yield Case(data, blobs=times, recipe=recipe(64 * blobs, blobs))
        yield Case(data, blobs=times, in_place=True, recipe=recipe(64 * blobs, blobs))


def _random(spec: Spec, seed: int, seconds: float) -> Iterator[Case]:
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if spec.kind in BLOB_HASHES:
            blobs = rng.randrange(0, 300)
            yield Case(rng.randbytes(64 * blobs), blobs=BLOB_HASHES[spec.kind], in_place=rng.random() < 0.5)
            continue
        length = rng.choice((rng.randrange(300), rng.randrange(5000), rng.randrange(70000)))
        splits = tuple(sorted(rng.randrange(length + 1) for _ in range(rng.randrange(4)))) if spec.streaming else ()
        yield Case(rng.randbytes(length), splits=splits, offset=rng.randrange(64) if spec.in_memory else 0)


# ACVP's large-data test, as zero bytes: just past 2^29 bytes (the length in bits no longer fits in 32
# bits), 2^32 + 1 bytes (nor the length in bytes) and 5 GiB, after 16 MiB that times the candidate
# (pace.py). A streaming candidate gets 2^32 + 1 bytes in one update (a 32-bit length inside update)
# and 5 GiB in pieces that cut across the 2^32-byte line.
PACE_PROBE = 16 << 20
LARGE = ((1 << 29) + 1, (1 << 32) + 1, 5 << 30)


def _large(spec: Spec, seed: int, seconds: float) -> Iterator[Case]:
    for length in (PACE_PROBE, *LARGE):
        splits = (length // 3, (1 << 32) - 1) if spec.streaming and length == LARGE[-1] else ()
        yield Case(b"", splits=tuple(sorted(splits)), zeros=length, recipe=f"bytes({length})")
