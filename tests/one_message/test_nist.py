"""NIST CAVP SHA-256 vectors against every runnable implementation (the reference and hashlib: test_nist_reference.py)."""

import pytest

import libsha
from libsha.reference.nist import messages, monte, monte_checkpoints

pytestmark = [pytest.mark.core, pytest.mark.binding]

SHORT = messages("SHA256ShortMsg.rsp")
LONG = messages("SHA256LongMsg.rsp")


def test_vector_files_are_complete():
    assert len(SHORT) == 65 and len(LONG) == 64
    seed, checkpoints = monte()
    assert len(seed) == 32 and len(checkpoints) == 100


@pytest.mark.parametrize("vectors", [SHORT, LONG], ids=["ShortMsg", "LongMsg"])
def test_native_one_shot_and_streaming(one_stream_row, vectors):
    for message, digest in vectors:
        assert libsha.sha256_digest(message) == digest, len(message)
        h = libsha.sha256()
        for i in range(0, len(message), 37):  # 37: a split that crosses block borders everywhere
            h.update(message[i : i + 37])
        assert h.digest() == digest, len(message)


def test_monte_native(one_stream_row):
    seed, expected = monte()
    assert monte_checkpoints(libsha.sha256_digest, seed, len(expected)) == expected
