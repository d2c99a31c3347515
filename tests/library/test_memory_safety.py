"""Unaligned buffers at every offset, and inputs that end at an unreadable page."""

import ctypes
import gc
import hashlib
import subprocess
import sys
import textwrap

import pytest

import libsha
from libsha import _buffers, _errors, _native
from shabench import internal
from support.data import sha256d64_by_hashlib

pytestmark = pytest.mark.core

lib = _native.lib()




@pytest.mark.parametrize("count", [1, 15, 17])
def test_d64_input_and_output_at_every_offset(lanes_row, rng, count):
    data = rng.randbytes(64 * count)
    expected = sha256d64_by_hashlib(data)
    arena = ctypes.create_string_buffer(64 * count + 64 + 64)
    base = (ctypes.addressof(arena) + 63) // 64 * 64  # a 64-byte aligned start inside the arena
    out = ctypes.create_string_buffer(32 * count + 64 + 64)
    out_base = (ctypes.addressof(out) + 63) // 64 * 64
    for offset in range(64):
        ctypes.memmove(base + offset, data, len(data))
        lib.libsha_sha256d64(out_base + (63 - offset), base + offset, count)
        assert ctypes.string_at(out_base + (63 - offset), 32 * count) == expected, offset
        # In place at the same offset.
        lib.libsha_sha256d64(base + offset, base + offset, count)
        assert ctypes.string_at(base + offset, 32 * count) == expected, offset


def test_streaming_from_every_offset(one_stream_row, rng):
    data = rng.randbytes(300)
    arena = ctypes.create_string_buffer(300 + 128)
    base = (ctypes.addressof(arena) + 63) // 64 * 64
    for offset in range(64):
        ctypes.memmove(base + offset, data, len(data))
        for n in (0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200, 300):
            view = (ctypes.c_char * n).from_address(base + offset)
            assert libsha.sha256_digest(view) == hashlib.sha256(data[:n]).digest(), (offset, n)


GUARD_PAGE_SCRIPT = textwrap.dedent(
    """
    import ctypes, hashlib, mmap, sys
    import libsha
    from libsha import _errors, _native

    lib = _native.lib()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    page = mmap.PAGESIZE

    def guarded():
        # Two pages; the second is made unreadable: whatever ends at `edge` has no byte after it.
        region = mmap.mmap(-1, 2 * page, prot=mmap.PROT_READ | mmap.PROT_WRITE)
        start = ctypes.addressof(ctypes.c_char.from_buffer(region))
        if libc.mprotect(start + page, page, 0) != 0:
            raise OSError(ctypes.get_errno(), "mprotect")
        return region, start + page

    _in, edge = guarded()
    _out, out_edge = guarded()
    data = bytes(i % 251 for i in range(2048))  # the 251-byte cycle (a separate process: no tests/support here)
    cases = 0
    for impl in [i.name for i in libsha.dispatch.implementations() if i.runnable]:
        libsha.dispatch.select(impl)
        out = ctypes.create_string_buffer(32)
        for n in range(301):
            ctypes.memmove(edge - n, data, n)
            assert lib.libsha_sha256(edge - n, n, out) == 0
            assert out.raw == hashlib.sha256(data[:n]).digest(), (impl, n)
            ctx = _native.Context()
            lib.libsha_sha256_init(ctx)
            cut = n // 3
            assert lib.libsha_sha256_update(ctx, edge - n, cut) == 0
            assert lib.libsha_sha256_update(ctx, edge - n + cut, n - cut) == 0
            assert lib.libsha_sha256_final(ctx, out_edge - 32) == 0
            assert ctypes.string_at(out_edge - 32, 32) == out.raw, (impl, n)
            cases += 2
        for blobs in range(18):
            n = 64 * blobs
            ctypes.memmove(edge - n, data, n)
            expected = b"".join(hashlib.sha256(hashlib.sha256(data[i:i + 64]).digest()).digest() for i in range(0, n, 64))
            lib.libsha_sha256d64(out_edge - 32 * blobs, edge - n, blobs)
            assert ctypes.string_at(out_edge - 32 * blobs, 32 * blobs) == expected, (impl, blobs)
            cases += 1
    print(cases)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses mprotect on an anonymous mapping")
def test_no_read_or_write_past_the_buffers(tmp_path):
    # In a child process: a fault there is a failed test here, not a crashed test run.
    result = subprocess.run([sys.executable, "-c", GUARD_PAGE_SCRIPT], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stderr}"
    runnable = sum(i.runnable for i in libsha.dispatch.implementations())
    assert int(result.stdout) == runnable * (2 * 301 + 18)


def test_dirty_upper_ymm_state_before_every_call(one_stream_row):
    # The kernel writes a 256-bit register before each hash; digests must not change.
    if "avx" not in libsha.dispatch.cpu_features():
        pytest.skip("this CPU has no AVX, so no upper YMM state to dirty")
    buf = ctypes.create_string_buffer(b"\x01" * 32, 32)
    code = internal.lib().libsha_internal_bench(one_stream_row.encode(), internal.BENCH_HASH_DIRTY_UPPER, buf, 32, 1000)
    assert code == _errors.OK
    expected = b"\x01" * 32
    for _ in range(1000):
        expected = hashlib.sha256(expected).digest()
    assert buf.raw == expected


@pytest.mark.binding
def test_the_address_of_bytes_handed_to_c_outlives_collections(rng):
    # PyPy's collector moves bytes, so the ctypes path hands C a copy: one taken from a temporary
    # c_char_p was freed and reused while C read it (sha256_many on a tuple, PyPy). Held by
    # address_of_bytes, the copy survives collections and same-size allocations.
    for _ in range(10):
        data = rng.randbytes(4096)
        with _buffers.address_of_bytes(data) as address:
            for _ in range(5):
                gc.collect()
                churn = [ctypes.c_char_p(rng.randbytes(4096)) for _ in range(20)]
            del churn
            assert ctypes.string_at(address, len(data)) == data
