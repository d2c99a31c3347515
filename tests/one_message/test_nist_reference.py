"""NIST CAVP SHA-256 vectors against the pure-Python reference and hashlib, which the oracle and the other tests
take as true. Not libsha's behaviour, so neither `core` nor `binding`: run once, by the suite, not again on each
binding path, wheel, sanitizer or emulated CPU (under qemu, the reference's LongMsg took 110 s a path)."""

import hashlib

import pytest

from libsha import reference
from libsha.reference.nist import messages, monte, monte_checkpoints


@pytest.mark.parametrize("name", ["SHA256ShortMsg.rsp", "SHA256LongMsg.rsp"])
def test_reference_and_hashlib(name):
    for message, digest in messages(name):
        assert reference.sha256(message) == digest, len(message)
        assert hashlib.sha256(message).digest() == digest, len(message)


def test_monte_reference_first_checkpoint():
    # Pure Python is slow: one checkpoint is 1000 chained hashes.
    seed, expected = monte()
    assert monte_checkpoints(reference.sha256, seed, 1) == expected[:1]
