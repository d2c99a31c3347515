"""SHA256D64 (double SHA-256 of 64-byte blobs) through the binding: each blob count that reaches a
new tail of the widest kernels, in place and not. Every count 0..40 on every kernel set is
tests/c/test_libsha.c's."""

import ctypes
import hashlib

import pytest

import libsha
from libsha import _native, reference
from support.data import WIDEST_LANES, sha256d64_by_hashlib

pytestmark = pytest.mark.core

# Around each lane width (1, 2, 4, 8, 16) and their sums, and a large batch.
COUNTS = sorted({0, *range(1, 2 * WIDEST_LANES + 2), 3 * WIDEST_LANES - 1, 1024})


def test_against_hashlib_in_python_and_in_place_in_c(lanes_row, rng):
    for count in COUNTS:
        data = rng.randbytes(64 * count)
        expected = sha256d64_by_hashlib(data)
        assert libsha.sha256d64(data) == expected, count
        buf = ctypes.create_string_buffer(data, len(data))
        _native.lib().libsha_sha256d64(buf, buf, count)
        assert buf.raw[: 32 * count] == expected, count
        assert buf.raw[32 * count :] == data[32 * count :], count  # the rest is untouched


def test_against_reference(lanes_row, rng):
    for count in (0, 1, 2, 5, 9, 17):
        data = rng.randbytes(64 * count)
        assert libsha.sha256d64(data) == reference.sha256d64(data), count


def test_output_is_exactly_sized(lanes_row, rng):
    data = rng.randbytes(64 * 5)
    guard = b"\xa5" * 64
    out = ctypes.create_string_buffer(guard * 5, 320)
    _native.lib().libsha_sha256d64(out, data, 5)
    assert out.raw[:160] == sha256d64_by_hashlib(data)
    assert out.raw[160:] == (guard * 5)[160:]


def test_reference_matches_definition():
    blob = bytes(range(64))
    assert reference.sha256d64(blob) == hashlib.sha256(hashlib.sha256(blob).digest()).digest()
