"""SHA256D64 (double SHA-256 of 64-byte blobs) for every tail length, in place and not."""

import ctypes
import hashlib
import os

import pytest

import libsha
from conftest import sha256d64_by_hashlib
from libsha import _native, reference

COUNTS = list(range(41)) + [1024]


@pytest.mark.parametrize("count", COUNTS)
def test_against_hashlib(implementation, count):
    data = os.urandom(64 * count)
    assert libsha.sha256d64(data) == sha256d64_by_hashlib(data)


@pytest.mark.parametrize("count", list(range(10)) + [33])
def test_against_reference(implementation, count):
    data = os.urandom(64 * count)
    assert libsha.sha256d64(data) == reference.sha256d64(data)


@pytest.mark.parametrize("count", COUNTS)
def test_in_place_c_api(implementation, count):
    data = os.urandom(64 * count)
    buf = ctypes.create_string_buffer(data, len(data))
    _native.lib().libsha_sha256d64(buf, buf, count)
    assert buf.raw[: 32 * count] == sha256d64_by_hashlib(data)
    assert buf.raw[32 * count :] == data[32 * count :]  # the rest is untouched


def test_output_is_exactly_sized(implementation):
    data = os.urandom(64 * 5)
    guard = b"\xa5" * 64
    out = ctypes.create_string_buffer(guard * 5, 320)
    _native.lib().libsha_sha256d64(out, data, 5)
    assert out.raw[:160] == sha256d64_by_hashlib(data)
    assert out.raw[160:] == (guard * 5)[160:]


def test_reference_matches_definition():
    blob = bytes(range(64))
    assert reference.sha256d64(blob) == hashlib.sha256(hashlib.sha256(blob).digest()).digest()
