"""Streaming: every length around block borders, random splits, copies, hashlib interop."""

import hashlib
import hmac
import io
import os
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import libsha


def test_every_length_0_to_300_every_split_shape(implementation):
    data = os.urandom(300)
    for n in range(301):
        expected = hashlib.sha256(data[:n]).digest()
        assert libsha.sha256(data[:n]) == expected, n
        for step in (1, 7, 55, 56, 63, 64, 65):
            h = libsha.new()
            for i in range(0, n, step):
                h.update(data[i : min(i + step, n)])
            assert h.digest() == expected, (n, step)


def test_every_split_point_of_every_length_0_to_300(implementation):
    data = os.urandom(300)
    failures = []
    for n in range(301):
        expected = hashlib.sha256(data[:n]).digest()
        for k in range(n + 1):
            h = libsha.new(data[:k])
            h.update(data[k:n])
            if h.digest() != expected:
                failures.append((n, k))
    assert failures == []


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(min_size=0, max_size=300),
    cuts=st.lists(st.integers(min_value=0, max_value=300), max_size=8),
)
def test_random_split_points(data, cuts):
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    h = libsha.new()
    for start, end in zip(points, points[1:]):
        h.update(data[start:end])
    assert h.digest() == hashlib.sha256(data).digest()


@pytest.mark.parametrize("n", [55, 56, 63, 64, 119, 120, 127, 128])
def test_padding_borders_with_the_reference(n):
    from libsha import reference

    data = bytes(range(256))[:n] if n <= 256 else os.urandom(n)
    assert libsha.sha256(data) == reference.sha256(data)


def test_copy_is_independent():
    a = libsha.new(b"hello ")
    b = a.copy()
    a.update(b"world")
    b.update(b"there")
    assert a.digest() == hashlib.sha256(b"hello world").digest()
    assert b.digest() == hashlib.sha256(b"hello there").digest()
    assert a.digest() == a.digest()  # digest does not end the object
    a.update(b"!")
    assert a.hexdigest() == hashlib.sha256(b"hello world!").hexdigest()


def test_hashlib_interface():
    h = libsha.new(b"abc")
    assert (h.name, h.digest_size, h.block_size) == ("sha256", 32, 64)
    assert isinstance(h, libsha.SHA256)
    assert libsha.new(b"abc", usedforsecurity=False).digest() == hashlib.sha256(b"abc").digest()
    assert "libsha.sha256" in repr(h)


def test_hmac_interop():
    key, msg = os.urandom(100), os.urandom(1000)  # a key longer than a block is hashed first
    assert hmac.new(key, msg, libsha.new).digest() == hmac.new(key, msg, hashlib.sha256).digest()
    assert hmac.digest(key, msg, libsha.new) == hmac.digest(key, msg, "sha256")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="hashlib.file_digest is new in Python 3.11")
def test_file_digest_interop(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(os.urandom(1_000_003))  # spans several of file_digest's reads
    with open(path, "rb") as f:
        ours = hashlib.file_digest(f, libsha.new).hexdigest()
    assert ours == hashlib.sha256(path.read_bytes()).hexdigest()
    assert hashlib.file_digest(io.BytesIO(b"abc"), libsha.new).digest() == hashlib.sha256(b"abc").digest()


def test_one_object_shared_by_threads():
    # The GIL is released in C; the object's lock keeps concurrent updates whole.
    h = libsha.new()
    chunk = os.urandom(4096)

    def feed():
        for _ in range(200):
            h.update(chunk)

    threads = [threading.Thread(target=feed) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert h.digest() == hashlib.sha256(chunk * 800).digest()


def test_cannot_pickle():
    import pickle

    with pytest.raises(TypeError):
        pickle.dumps(libsha.new())
