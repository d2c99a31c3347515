"""sha256_64, a Merkle level (hashtree's call): every count that reaches a new tail of the lanes,
in place and not, every input kind, bad input."""

import ctypes
import hashlib

import pytest

import libsha
from libsha import _native
from support.data import WIDEST_LANES

pytestmark = pytest.mark.core

COUNTS = sorted({*range(0, 301), *(p + d for p in (512, 1024, 4096) for d in (-1, 0, 1)), 3 * WIDEST_LANES - 1})


def by_hashlib(data):
    return b"".join(hashlib.sha256(data[i : i + 64]).digest() for i in range(0, len(data), 64))


def test_every_count_against_hashlib_and_in_place(lanes_row, rng):
    for count in COUNTS:
        data = rng.randbytes(64 * count)
        expected = by_hashlib(data)
        assert libsha.sha256_64(data) == expected, count
        buf = bytearray(data)
        assert libsha.sha256_64(buf, out=memoryview(buf)[: 32 * count]) is not None
        assert bytes(buf[: 32 * count]) == expected and bytes(buf[32 * count :]) == data[32 * count :], count


def test_unaligned_and_out_of_place_in_c(lanes_row, rng):
    for count in (1, 3, 17, 100):
        data = rng.randbytes(64 * count)
        src = ctypes.create_string_buffer(b"\xaa" * 3 + data, 64 * count + 3)
        out = ctypes.create_string_buffer(32 * count + 2)
        assert _native.lib().libsha_sha256_64(ctypes.addressof(out) + 1, ctypes.addressof(src) + 3, count) == 0
        assert out.raw[1 : 1 + 32 * count] == by_hashlib(data) and out.raw[0] == 0 and out.raw[-1] == 0


def test_input_kinds(rng):
    numpy = pytest.importorskip("numpy")
    pa = pytest.importorskip("pyarrow")
    data = rng.randbytes(64 * 50)
    expected = by_hashlib(data)
    rows = numpy.frombuffer(data, dtype=numpy.uint8).reshape(50, 64)
    assert libsha.sha256_64(rows) == expected
    out = numpy.zeros((50, 32), dtype=numpy.uint8)
    assert libsha.sha256_64(rows, out=out) is out and out.tobytes() == expected
    assert libsha.sha256_64([data[i : i + 64] for i in range(0, len(data), 64)]) == expected
    column = pa.array([data[i : i + 64] for i in range(0, len(data), 64)], pa.binary(64))
    assert libsha.sha256_64(column) == expected
    assert libsha.sha256_64(column.slice(7, 20)) == expected[32 * 7 : 32 * 27]


def test_bad_input_raises_and_writes_nothing(rng):
    data = rng.randbytes(64 * 4)
    with pytest.raises(ValueError, match="multiple of 64"):
        libsha.sha256_64(data[:-1])
    with pytest.raises(TypeError, match="str"):
        libsha.sha256_64("x" * 64)
    with pytest.raises(ValueError, match="block 1 has 63 bytes"):
        libsha.sha256_64([data[:64], data[:63]])
    with pytest.raises(TypeError, match="writable"):
        libsha.sha256_64(data, out=bytes(128))
    out = bytearray(129)
    with pytest.raises(ValueError, match="4 digests need 128"):
        libsha.sha256_64(data, out=out)
    assert out == bytearray(129)
    buf = bytearray(data)
    with pytest.raises(ValueError, match="overlaps"):
        libsha.sha256_64(memoryview(buf)[:128], out=memoryview(buf)[32:96])
    assert buf == bytearray(data)
    pa = pytest.importorskip("pyarrow")
    with pytest.raises(TypeError, match="fixed_size_binary"):
        libsha.sha256_64(pa.array([b"x"]))
    with pytest.raises(ValueError, match="nulls"):
        libsha.sha256_64(pa.array([data[:64], None], pa.binary(64)))
