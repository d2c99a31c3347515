"""Streaming: every length around block borders, random splits, copies, hashlib interop."""

import hashlib
import hmac
import io
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import libsha
from support.data import pattern251
from support.processes import run_threads
from support.binding import ctypes_internals

pytestmark = [pytest.mark.core, pytest.mark.binding]


# Every split point, piece size and length to 1,100 of the C kernels is tests/c/test_libsha.c's (once
# per one-way kernel); here, what the Python object adds: its own buffering in front of the C context.


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(min_size=0, max_size=300),
    cuts=st.lists(st.integers(min_value=0, max_value=300), max_size=8),
)
def test_random_split_points(data, cuts):
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    h = libsha.sha256()
    for start, end in zip(points, points[1:]):
        h.update(data[start:end])
    assert h.digest() == hashlib.sha256(data).digest()


@pytest.mark.parametrize("n", [55, 56, 63, 64, 119, 120, 127, 128])
def test_padding_borders_with_the_reference(n):
    from libsha import reference

    data = bytes(range(256))[:n]
    assert libsha.sha256_digest(data) == reference.sha256(data)


def test_copy_is_independent():
    a = libsha.sha256(b"hello ")
    b = a.copy()
    a.update(b"world")
    b.update(b"there")
    assert a.digest() == hashlib.sha256(b"hello world").digest()
    assert b.digest() == hashlib.sha256(b"hello there").digest()
    assert a.digest() == a.digest()  # digest does not end the object
    a.update(b"!")
    assert a.hexdigest() == hashlib.sha256(b"hello world!").hexdigest()


def test_hashlib_interface():
    h = libsha.sha256(b"abc")
    assert (h.name, h.digest_size, h.block_size) == ("sha256", 32, 64)
    assert isinstance(h, libsha.sha256)
    assert libsha.sha256(b"abc", usedforsecurity=False).digest() == hashlib.sha256(b"abc").digest()
    assert "<libsha.sha256 object" in repr(h)


def test_hmac_interop(rng):
    key, msg = rng.randbytes(100), rng.randbytes(1000)  # a key longer than a block is hashed first
    assert hmac.new(key, msg, libsha.sha256).digest() == hmac.new(key, msg, hashlib.sha256).digest()
    assert hmac.digest(key, msg, libsha.sha256) == hmac.digest(key, msg, "sha256")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="hashlib.file_digest is new in Python 3.11")
def test_file_digest_interop(tmp_path, rng):
    path = tmp_path / "data.bin"
    path.write_bytes(rng.randbytes(1_000_003))  # spans several of file_digest's reads
    with open(path, "rb") as f:
        ours = hashlib.file_digest(f, libsha.sha256).hexdigest()
    assert ours == hashlib.sha256(path.read_bytes()).hexdigest()
    assert hashlib.file_digest(io.BytesIO(b"abc"), libsha.sha256).digest() == hashlib.sha256(b"abc").digest()


def test_one_object_shared_by_threads(rng):
    # The GIL is released in C; the object's lock keeps concurrent updates whole.
    h = libsha.sha256()
    chunk = rng.randbytes(4096)

    def feed():
        for _ in range(200):
            h.update(chunk)

    run_threads(*[feed] * 4)
    assert h.digest() == hashlib.sha256(chunk * 800).digest()


def _carried(rng, piece):
    """The same bytes in a buffer type rng chooses."""
    kind = rng.randrange(4)
    if kind == 0:
        return piece
    if kind == 1:
        return bytearray(piece)
    if kind == 2:
        return memoryview(b"\0" + piece)[1:]  # not at its object's first byte
    return memoryview(piece).toreadonly()


def test_random_update_sequences_with_copies_and_digests(one_stream_row, rng):
    # Sizes 0..5000 cross every threshold of the object: kept parts, their
    # compaction, the flush into a C context, and updates that go to C directly.
    for _ in range(40):
        # The constructor's message is held as it is until the first update or digest.
        first = pattern251(rng.choice([0, rng.randrange(600), rng.randrange(5000), rng.randrange(60000, 70000)]), 3)
        ours, theirs = libsha.sha256(first), hashlib.sha256(first)
        forks = []
        for _ in range(rng.randrange(1, 30)):
            n = rng.choice([rng.randrange(0, 64), rng.randrange(0, 600), rng.randrange(0, 5001)])
            piece = pattern251(n, rng.randrange(251))
            ours.update(_carried(rng, piece))
            theirs.update(piece)
            action = rng.randrange(4)
            if action == 0:
                assert ours.digest() == theirs.digest()
            elif action == 1:
                forks.append((ours.copy(), theirs.copy()))
        for mine, reference in forks + [(ours, theirs)]:
            extra = pattern251(rng.randrange(0, 700), 7)
            mine.update(extra)
            reference.update(extra)
            assert mine.hexdigest() == reference.hexdigest()
            assert mine.digest() == reference.digest()  # again: digest does not end it


def test_many_short_updates():
    h, expected = libsha.sha256(), hashlib.sha256()
    for i in range(20000):
        piece = pattern251(i % 97, i)
        h.update(piece)
        expected.update(piece)
    assert h.digest() == expected.digest()


def test_threaded_hashing_as_cpython_tests_hashlib():
    # CPython's test_threaded_hashing: five threads feed one object the same
    # periodic data in chunks of 1.6 MB down to 160 B. Any order of whole
    # updates gives the same digest; a torn or lost update does not.
    hasher = libsha.sha256()
    data = b"swineflu" * 200000
    run_threads(*[lambda size=len(data) // 10**k: [hasher.update(data[i:i + size]) for i in range(0, len(data), size)]
                  for k in range(5)])
    assert hasher.hexdigest() == hashlib.sha256(data * 5).hexdigest()


def test_short_updates_from_threads_with_digests_meanwhile():
    # Lock-free appends of short pieces race compactions, flushes and digests.
    hasher = libsha.sha256()
    piece = b"0123456789abcdef" * 4
    errors = []

    def feed():
        for _ in range(3000):
            hasher.update(piece)

    def watch():
        for _ in range(300):
            d = hasher.digest()
            if len(d) != 32:
                errors.append(d)

    run_threads(feed, feed, feed, feed, watch)
    assert errors == []
    assert hasher.digest() == hashlib.sha256(piece * 12000).digest()
