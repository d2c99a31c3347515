import hashlib

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
