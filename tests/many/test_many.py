"""sha256_many: every implementation against hashlib, the input forms, threads, a real block, bad input."""

import ctypes
import hashlib
import struct
import subprocess
import sys
from array import array

import pytest

import libsha
from support.bitcoin import BLOCK, block_transactions
from support.data import WIDEST_LANES, merkle_root_by_hashlib, pattern251, sha256d
from libsha import _errors, _header, _native
from libsha._many.descriptor import offsets_batch, views_batch

pytestmark = pytest.mark.core

lib = _native.lib()


def batch(out, descriptor, flags):
    """libsha_sha256_batch from nothing: the return code."""
    return lib.libsha_sha256_batch(out, ctypes.byref(descriptor), None, None, flags)


def by_hashlib(messages, double=False):
    return [sha256d(m) if double else hashlib.sha256(m).digest() for m in messages]


def mixed_batch(rng, n):
    """Lengths 0..5,000 and some 10 KiB, mixed so lanes finish at very different blocks."""
    lengths = [rng.choice((0, rng.randrange(64), rng.randrange(5001), 10240, 64 * rng.randrange(1, 40)))
               for _ in range(n)]
    return [rng.randbytes(length) for length in lengths]


@pytest.mark.parametrize("double", [False, True])
def test_random_batches_on_every_implementation(lanes_row, rng, double):
    for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 100, 300):
        messages = mixed_batch(rng, n)
        assert libsha.sha256_many(messages, double=double) == by_hashlib(messages, double)


# Every length 0..300 in each of 17 lane positions, DOUBLE on and off, is tests/c/test_libsha.c's,
# once per set of lane kernels.


@pytest.mark.parametrize("double", [False, True])
def test_runs_of_one_length(lanes_row, rng, double):
    # A fixed-width column is runs of one length, which rows with a whole-message kernel hash
    # without the lanes: every tail length, runs broken by other lengths, runs shorter than a kernel.
    for length in list(range(0, 301, 5)) + [55, 56, 63, 64, 119, 120, 128, 1000]:
        messages = [rng.randbytes(length) for _ in range(2 * WIDEST_LANES + 5)]
        assert libsha.sha256_many(messages, double=double) == by_hashlib(messages, double), length
    lengths = [64] * 20 + [3] * 2 + [64] * 17 + [120] * 16 + [0] * 33 + [64] * 15 + [7] * 8 + [9] * 16
    messages = [rng.randbytes(length) for length in lengths]
    assert libsha.sha256_many(messages, double=double) == by_hashlib(messages, double)


def views_of(messages, data, starts):
    """Arrow binary views of messages (inline up to 12 bytes, else buffer 0 at their start in data), in the
    machine's byte order, as Arrow writes them."""
    views = bytearray()
    for message, start in zip(messages, starts):
        if len(message) <= 12:
            views += struct.pack("=i12s", len(message), message)
        else:
            views += struct.pack("=i4sii", len(message), message[:4], 0, start)
    return bytes(views)


@pytest.mark.parametrize("double", [False, True])
def test_offsets_and_views_forms_on_every_implementation(lanes_row, rng, double):
    # The C forms Arrow columns use, on batches that fill every lane and finish at different blocks.
    flags = _header.DOUBLE if double else 0
    for n in (1, 15, 16, 17, 40):
        messages = mixed_batch(rng, n)
        starts = [sum(map(len, messages[:i])) for i in range(n + 1)]
        data = b"".join(messages) or b"\0"
        expected = b"".join(by_hashlib(messages, double))
        keep = ctypes.create_string_buffer(data, len(data))
        for width, kind in ((4, ctypes.c_int32), (8, ctypes.c_int64)):
            out = ctypes.create_string_buffer(32 * n)
            offsets = (kind * (n + 1))(*starts)
            assert batch(out, offsets_batch(width, ctypes.addressof(keep), ctypes.addressof(offsets), n),
                         flags) == _errors.OK
            assert out.raw == expected, (width, n, double)
        out = ctypes.create_string_buffer(32 * n)
        buffers, sizes = (ctypes.c_void_p * 1)(), (ctypes.c_int64 * 1)(len(data))
        buffers[0] = ctypes.addressof(keep)
        views = ctypes.create_string_buffer(views_of(messages, data, starts))
        assert batch(out, views_batch(ctypes.addressof(views), buffers, sizes, 1, n), flags) == _errors.OK
        assert out.raw == expected, ("views", n, double)


def test_unaligned_and_shared_memory(lanes_row):
    # Memoryviews at odd offsets into one buffer, overlapping one another.
    data = bytearray(pattern251(5000))
    messages = [memoryview(data)[i : i + 7 * i] for i in range(1, 300, 13)]
    assert libsha.sha256_many(messages) == by_hashlib(bytes(m) for m in messages)


def test_input_forms():
    messages = [b"", b"abc", bytearray(b"\x00" * 70), memoryview(b"0123456789")[3:]]
    expected = by_hashlib(bytes(m) for m in messages)
    assert libsha.sha256_many(messages) == expected
    assert libsha.sha256_many(tuple(messages)) == expected
    assert libsha.sha256_many(m for m in messages) == expected
    assert libsha.sha256_many([]) == []
    # Items of other formats and shapes are hashed as their bytes, as hashlib does.
    words = array("I", range(100))
    grid = memoryview(bytes(range(24))).cast("B", (4, 6))
    assert libsha.sha256_many([words, grid]) == by_hashlib([words.tobytes(), grid.tobytes()])


def test_many_slices_and_long_messages(rng):
    from libsha._many import lists as _lists

    messages = [rng.randbytes(rng.randrange(0, 3)) for _ in range(2 * _lists.SLICE + 5)]
    assert libsha.sha256_many(messages) == by_hashlib(messages)
    same = [rng.randbytes(33) for _ in range(_lists.SLICE + 1)]  # one length: the cached offsets
    assert libsha.sha256_many(same) == by_hashlib(same)
    # Messages past the chunk's byte budget go in chunks of their own.
    big = [b"a" * (_lists.SLICE_BYTES // 2 + 1), b"b", b"c" * (_lists.SLICE_BYTES + 3), b""]
    assert libsha.sha256_many(big, threads=2) == by_hashlib(big)


@pytest.mark.parametrize("threads", [0, 1, 2, 3, 8])
def test_threads_keep_the_order(rng, threads):
    from libsha._many import lists as _lists

    messages = [rng.randbytes(rng.randrange(200)) for _ in range(3 * _lists.SLICE + 11)]
    assert libsha.sha256_many(messages, threads=threads, double=True) == by_hashlib(messages, True)


def test_a_real_block_s_txids_and_merkle_root():
    if not BLOCK.exists():
        pytest.skip("needs tests/data/block413567.raw from the source checkout")
    block = BLOCK.read_bytes()
    transactions = list(block_transactions(block))
    txids = libsha.sha256_many(transactions, double=True)
    assert txids == [sha256d(tx) for tx in transactions]
    assert len(txids) == 1557
    header_root = block[36:68]
    assert libsha.merkle_root(txids) == (header_root, False)
    assert libsha.merkle_root(txids + txids[-1:]) == (header_root, True)
    root_1554 = merkle_root_by_hashlib(txids[:1554])[0]
    assert libsha.merkle_root(txids[:1554] + txids[1552:1554]) == (root_1554, True)


@pytest.mark.parametrize(
    "bad, kind, words",
    [
        ([b"ok", "text"], TypeError, "message 1 is a str"),
        ([b"ok", b"ok", 5], TypeError, "message 2 is an int"),
        ([None], TypeError, "message 0 is a NoneType"),
        ([memoryview(bytes(8))[::2]], ValueError, "message 0 must be a C-contiguous"),
        (b"abc", TypeError, "not one bytes"),
        ("abc", TypeError, "not one str"),
        (5, TypeError, "not int"),
    ],
)
def test_bad_input(bad, kind, words):
    with pytest.raises(kind, match=words):
        libsha.sha256_many(bad)


@pytest.mark.parametrize(
    "kwargs, kind, words",
    [
        ({"threads": -1}, ValueError, "threads must be 0"),
        ({"threads": "2"}, TypeError, "threads must be an int"),
        ({"threads": True}, TypeError, "threads must be an int"),
        ({"double": "yes"}, TypeError, "double must be True or False"),
    ],
)
def test_bad_options(kwargs, kind, words):
    with pytest.raises(kind, match=words):
        libsha.sha256_many([b"x"], **kwargs)


def test_a_str_added_by_another_thread_is_still_refused():
    # Each chunk is checked as it is taken: nothing unchecked reaches C.
    from libsha._many import lists as _lists

    messages = [b"x"] * (_lists.SLICE + 1) + ["late"]
    with pytest.raises(TypeError, match=f"message {_lists.SLICE + 1} is a str"):
        libsha.sha256_many(messages)


def test_numpy_rows(rng):
    numpy = pytest.importorskip("numpy")
    for n, length in [(0, 5), (5, 0), (1, 64), (37, 55), (3000, 17)]:
        rows = numpy.frombuffer(rng.randbytes(n * length), dtype=numpy.uint8).reshape(n, length)
        for double in (False, True):
            got = libsha.sha256_many(rows, double=double, threads=2)
            assert got.shape == (n, 32) and got.dtype == numpy.uint8
            assert [bytes(row) for row in got] == by_hashlib((bytes(row) for row in rows), double)


def test_numpy_bad_input():
    numpy = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match="2-D numpy array.*1-D"):
        libsha.sha256_many(numpy.zeros(64, dtype=numpy.uint8))
    with pytest.raises(ValueError, match="3-D"):
        libsha.sha256_many(numpy.zeros((2, 2, 2), dtype=numpy.uint8))
    with pytest.raises(TypeError, match="uint8, not int32"):
        libsha.sha256_many(numpy.zeros((2, 2), dtype=numpy.int32))
    for strided in (numpy.zeros((4, 8), dtype=numpy.uint8)[:, ::2], numpy.zeros((4, 8), dtype=numpy.uint8)[::-1],
                    numpy.asfortranarray(numpy.zeros((4, 8), dtype=numpy.uint8))):
        with pytest.raises(libsha.NonContiguousError, match="rows must each be contiguous"):
            libsha.sha256_many(strided)


def test_numpy_rows_in_place(rng):
    """Rows that lie apart (a slice of rows or columns, a broadcast row) go down as (address, stride)."""
    numpy = pytest.importorskip("numpy")
    table = numpy.frombuffer(rng.randbytes(3001 * 83), dtype=numpy.uint8).reshape(3001, 83)
    one_row = numpy.frombuffer(rng.randbytes(70), dtype=numpy.uint8)
    for rows in (table[:, 5:69], table[1::3, :64], table[::7, 40:], table[:1, 3:], table[2:2],
                 numpy.broadcast_to(one_row, (1500, 70))):
        assert not rows.flags.c_contiguous or rows.shape[0] <= 1
        expected = [hashlib.sha256(bytes(row)).digest() for row in rows]
        for threads in (1, 2):
            got = libsha.sha256_many(rows, threads=threads)
            assert [bytes(row) for row in got] == expected
            assert list(libsha.sha256_many(rows, hex=True, threads=threads)) == [d.hex() for d in expected]


ARROW_TYPES = ["binary", "large_binary", "string", "large_string", "binary_view", "string_view"]


@pytest.mark.parametrize("arrow_type", ARROW_TYPES)
def test_arrow_columns(arrow_type, rng):
    pyarrow = pytest.importorskip("pyarrow")
    texts = "string" in arrow_type
    values = [None if rng.random() < 0.1 else rng.randbytes(rng.randrange(0, 300)) for _ in range(2500)]
    if texts:
        values = [None if v is None else v.hex() + "é" for v in values]
    column = pyarrow.array(values, getattr(pyarrow, arrow_type)())

    def expected(items, double=False):
        return [None if v is None else (sha256d if double else lambda m: hashlib.sha256(m).digest())(
            v.encode() if texts else v) for v in items]

    for double in (False, True):
        got = libsha.sha256_many(column, double=double)
        assert got.type == pyarrow.binary(32)
        assert got.to_pylist() == expected(values, double)
    # A slice's offsets start above 0: read as they are, in threads too.
    part = column.slice(7, 2000)
    assert libsha.sha256_many(part, threads=2).to_pylist() == expected(values[7:2007])
    chunked = pyarrow.chunked_array([column.slice(0, 10), column.slice(10, 0), column.slice(10)])
    got = libsha.sha256_many(chunked)
    assert isinstance(got, pyarrow.ChunkedArray) and got.num_chunks == 3
    assert got.to_pylist() == expected(values)


def test_arrow_bad_input():
    pyarrow = pytest.importorskip("pyarrow")
    with pytest.raises(TypeError, match="not int32"):
        libsha.sha256_many(pyarrow.array([1, 2], pyarrow.int32()))
    with pytest.raises(TypeError, match="not fixed_size_binary"):
        libsha.sha256_many(pyarrow.chunked_array([], pyarrow.binary(32)))
    # Offsets that decrease (pyarrow's basic validation lets them through): refused.
    offsets = pyarrow.py_buffer(array("i", [0, 5, 3]).tobytes())
    data = pyarrow.py_buffer(b"0123456789")
    broken = pyarrow.Array.from_buffers(pyarrow.binary(), 2, [None, offsets, data])
    with pytest.raises(ValueError, match="argument out of range"):
        libsha.sha256_many(broken)


def test_optional_libraries_are_not_imported(tmp_path):
    code = (
        "import sys, libsha; libsha.sha256_many([b'abc'], threads=2); "
        "print(sorted(m for m in ('numpy', 'pyarrow') if m in sys.modules))"
    )
    # From tmp_path: in the checkout, its libsha/ (no library inside) would shadow the installed one.
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    assert out.strip() == "[]"


def out_buffer(n, fill=0x5A):
    return ctypes.create_string_buffer(bytes([fill]) * (32 * n), 32 * n)


def test_c_contracts():
    out = out_buffer(3)
    messages = (ctypes.c_void_p * 3)(ctypes.cast(ctypes.c_char_p(b"abc"), ctypes.c_void_p), None, None)
    lengths = (ctypes.c_size_t * 3)(3, 0, 1)
    assert lib.libsha_sha256_many(out, messages, lengths, 3, 0) == _errors.ERR_NULL
    assert out.raw == b"\x5a" * 96  # nothing written
    lengths[2] = 0
    assert lib.libsha_sha256_many(out, messages, lengths, 3, 4) == _errors.ERR_ARGUMENT
    assert lib.libsha_sha256_many(out, messages, lengths, (1 << 64) // 32, 0) == _errors.ERR_ARGUMENT
    assert out.raw == b"\x5a" * 96
    assert lib.libsha_sha256_many(out, messages, lengths, 3, 0) == _errors.OK
    assert out.raw == hashlib.sha256(b"abc").digest() + hashlib.sha256(b"").digest() * 2
    assert lib.libsha_sha256_many(None, None, None, 0, 0) == _errors.OK

    keep = ctypes.create_string_buffer(b"0123456789", 10)
    data = ctypes.addressof(keep)
    for bad in ([0, 5, 3], [-1, 2, 3]):  # decreasing, negative
        out = out_buffer(2)
        for width, kind in ((4, ctypes.c_int32), (8, ctypes.c_int64)):
            offsets = (kind * 3)(*bad)
            assert batch(out, offsets_batch(width, data, ctypes.addressof(offsets), 2), 0) == _errors.ERR_ARGUMENT
        assert out.raw == b"\x5a" * 64
    offsets = (ctypes.c_int64 * 3)(0, 1, 2)
    assert batch(out, offsets_batch(8, None, ctypes.addressof(offsets), 2), 0) == _errors.ERR_NULL
    assert batch(out, offsets_batch(8, data, None, 2), 0) == _errors.ERR_NULL
    assert lib.libsha_sha256_batch(out, None, None, None, 0) == _errors.ERR_NULL
    unknown = offsets_batch(8, data, ctypes.addressof(offsets), 2)
    unknown.layout = 5
    assert batch(out, unknown, 0) == _errors.ERR_ARGUMENT
    offsets = (ctypes.c_int64 * 3)(2, 5, 9)  # a slice: the first offset above 0
    assert batch(out, offsets_batch(8, data, ctypes.addressof(offsets), 2), _header.DOUBLE) == _errors.OK
    assert out.raw == sha256d(b"234") + sha256d(b"5678")
    # Output over the input is refused.
    buffer = ctypes.create_string_buffer(b"0123456789" * 10)
    offsets32 = (ctypes.c_int32 * 2)(0, 40)
    assert batch(buffer, offsets_batch(4, ctypes.addressof(buffer), ctypes.addressof(offsets32), 1),
                 0) == _errors.ERR_ARGUMENT
