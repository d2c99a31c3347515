import hashlib
from pathlib import Path

import pytest

import libsha


def runnable_implementations():
    return [impl.name for impl in libsha.implementations() if impl.runnable]


@pytest.fixture(params=runnable_implementations())
def implementation(request):
    """Runs the test once per implementation this CPU can run, with it active."""
    previous = libsha.implementation()
    with libsha.using(request.param):
        assert libsha.implementation() == request.param
        yield request.param
    assert libsha.implementation() == previous


# LIBSHA_MAX_LANES in libsha/src/sha256_impl.h: the widest many-message kernel any row may have
# (test_portable_lanes.py checks the two agree).
WIDEST_LANES = 16


def pattern251(n, start=0):
    """n bytes of a 251-byte cycle: no power-of-two period for a lane or block bug to hide in."""
    return bytes((start + i) % 251 for i in range(n))


@pytest.fixture
def rng(request):
    """A seeded random.Random; the seed is printed so a failure can be replayed (LIBSHA_TEST_SEED)."""
    import os
    import random

    seed = int(os.environ.get("LIBSHA_TEST_SEED", random.randrange(1 << 32)))
    print(f"{request.node.name}: seed {seed} (LIBSHA_TEST_SEED={seed} replays it)")
    return random.Random(seed)


def run_threads(*targets):
    """Starts a thread per target, all at once, and waits for them."""
    import threading

    threads = [threading.Thread(target=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def sha256d(data):
    """Double SHA-256 by hashlib: the independent check for libsha's double hashes."""
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def sha256d64_by_hashlib(data):
    """Double SHA-256 of each 64-byte blob by hashlib, concatenated."""
    return b"".join(sha256d(data[i : i + 64]) for i in range(0, len(data), 64))


def merkle_root_by_hashlib(leaves):
    """Bitcoin Core's ComputeMerkleRoot, as libsha.reference writes it, over hashlib: (root, mutated)."""
    from libsha.reference import merkle_root

    return merkle_root(leaves, sha256d)


# A real Bitcoin block (see tests/data/README.md): 1,557 transactions, none with witnesses.
BLOCK = Path(__file__).parent / "data" / "block413567.raw"


def _read_varint(data, pos):
    first = data[pos]
    if first < 0xFD:
        return first, pos + 1
    size = {0xFD: 2, 0xFE: 4, 0xFF: 8}[first]
    return int.from_bytes(data[pos + 1 : pos + 1 + size], "little"), pos + 1 + size


def block_transactions(block):
    """The serialized transactions of a block without witnesses."""
    count, pos = _read_varint(block, 80)
    for _ in range(count):
        start = pos
        pos += 4  # version
        assert block[pos] != 0, "segwit marker: this parser reads blocks without witnesses"
        n_in, pos = _read_varint(block, pos)
        for _ in range(n_in):
            pos += 36  # previous output
            script, pos = _read_varint(block, pos)
            pos += script + 4  # script, sequence
        n_out, pos = _read_varint(block, pos)
        for _ in range(n_out):
            pos += 8  # value
            script, pos = _read_varint(block, pos)
            pos += script
        pos += 4  # lock time
        yield block[start:pos]
    assert pos == len(block), "the block holds exactly its transactions"
