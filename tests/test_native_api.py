"""The C API's contracts, called directly through ctypes."""

import ctypes
import hashlib
import os
import importlib.metadata

import pytest

import libsha
from libsha import _native

lib = _native.lib()


def new_ctx():
    ctx = ctypes.create_string_buffer(lib.libsha_sha256_ctx_size())
    lib.libsha_sha256_init(ctx)
    return ctx


def test_versions_agree():
    assert libsha.library_version() == importlib.metadata.version("libsha") == libsha.__version__


@pytest.mark.skipif("LIBSHA_LIBRARY" in os.environ, reason="LIBSHA_LIBRARY chose another build")
def test_build_type_is_release():
    # pip builds Release (pyproject's cmake.build-type); shabench warns on anything else.
    assert lib.libsha_build_type() == b"Release"


def test_short_message_bench_feeds_back_the_digest_prefix():
    buf = ctypes.create_string_buffer(b"abcdefghijklmnop", 16)
    assert lib.libsha_bench(b"standard", _native.BENCH_HASH, buf, 16, 2) == _native.OK
    first = hashlib.sha256(b"abcdefghijklmnop").digest()[:16]
    assert buf.raw == hashlib.sha256(first).digest()[:16]


def test_context_size_is_the_public_struct():
    # state[8] + length + pending[64] + marker + reserved
    assert lib.libsha_sha256_ctx_size() == 32 + 8 + 64 + 4 + 4


def test_implementations_are_listed_with_runnable_flags():
    impls = libsha.implementations()
    assert impls[-1] == libsha.Implementation("standard", True)  # the portable fallback, last
    assert len({i.name for i in impls}) == len(impls)
    assert libsha.implementation() in {i.name for i in impls if i.runnable}
    assert lib.libsha_implementation_at(len(impls), None) is None


def test_autodetect_respects_the_mask():
    try:
        assert libsha.autodetect(libsha.USE_STANDARD) == "standard" == libsha.implementation()
    finally:
        libsha.autodetect()


@pytest.mark.parametrize("bad", [-1, 8, 1 << 40])
def test_autodetect_rejects_unknown_bits(bad):
    with pytest.raises(ValueError, match="USE_"):
        libsha.autodetect(bad)


def test_autodetect_rejects_non_integers():
    with pytest.raises(TypeError):
        libsha.autodetect("sse4")


def test_streaming_c_api_and_final_wipes():
    ctx = new_ctx()
    assert lib.libsha_sha256_update(ctx, b"ab", 2) == _native.OK
    assert lib.libsha_sha256_update(ctx, b"c", 1) == _native.OK
    out = ctypes.create_string_buffer(32)
    assert lib.libsha_sha256_final(ctx, out) == _native.OK
    assert out.raw == hashlib.sha256(b"abc").digest()
    assert ctx.raw == bytes(len(ctx))  # wiped
    # A finalised context is refused, not silently reused.
    assert lib.libsha_sha256_update(ctx, b"x", 1) == _native.ERR_STATE
    assert lib.libsha_sha256_final(ctx, out) == _native.ERR_STATE


def test_uninitialised_context_is_refused():
    ctx = ctypes.create_string_buffer(b"\x5a" * lib.libsha_sha256_ctx_size())
    assert lib.libsha_sha256_update(ctx, b"x", 1) == _native.ERR_STATE


def test_null_pointers():
    ctx = new_ctx()
    out = ctypes.create_string_buffer(32)
    assert lib.libsha_sha256_update(ctx, None, 0) == _native.OK
    assert lib.libsha_sha256_update(ctx, None, 5) == _native.ERR_NULL
    assert lib.libsha_sha256_update(None, b"x", 1) == _native.ERR_NULL
    assert lib.libsha_sha256_final(ctx, None) == _native.ERR_NULL
    assert lib.libsha_sha256_final(ctx, out) == _native.OK
    assert out.raw == hashlib.sha256(b"").digest()  # the refused calls changed nothing
    assert lib.libsha_sha256(None, 0, out) == _native.OK
    assert out.raw == hashlib.sha256(b"").digest()
    assert lib.libsha_sha256(None, 1, out) == _native.ERR_NULL
    assert lib.libsha_sha256(b"abc", 3, None) == _native.ERR_NULL
    lib.libsha_sha256d64(None, None, 0)
    lib.libsha_sha256d64(out, None, 1)  # does nothing rather than crash
    lib.libsha_sha256_init(None)
    lib.libsha_sha256_wipe(None)


def test_wipe():
    ctx = new_ctx()
    lib.libsha_sha256_update(ctx, b"secret", 6)
    lib.libsha_sha256_wipe(ctx)
    assert ctx.raw == bytes(len(ctx))
    assert lib.libsha_sha256_update(ctx, b"x", 1) == _native.ERR_STATE


def test_one_shot_output_may_overlap_input():
    buf = ctypes.create_string_buffer(b"abc" + bytes(29), 32)
    assert lib.libsha_sha256(buf, 3, buf) == _native.OK
    assert buf.raw == hashlib.sha256(b"abc").digest()


def test_message_length_limit():
    # Push the byte count near 2^61 by editing the (private) length field.
    ctx = new_ctx()
    ctypes.c_uint64.from_buffer(ctx, 32).value = (1 << 61) - 2
    assert lib.libsha_sha256_update(ctx, b"ab", 2) == _native.ERR_TOO_LONG
    assert lib.libsha_sha256_update(ctx, b"a", 1) == _native.OK


def test_python_maps_the_length_limit_to_overflow_error():
    h = libsha.new()
    ctypes.c_uint64.from_buffer(h._ctx, 32).value = (1 << 61) - 1
    with pytest.raises(OverflowError, match="2\\*\\*61"):
        h.update(b"a")


def test_bench_kernel_arguments():
    buf = ctypes.create_string_buffer(64)
    assert lib.libsha_bench(b"standard", _native.BENCH_HASH, buf, 32, 1) == _native.OK
    assert lib.libsha_bench(b"standard", _native.BENCH_D64, buf, 64, 1) == _native.OK
    assert lib.libsha_bench(b"no-such", _native.BENCH_HASH, buf, 32, 1) == _native.ERR_UNKNOWN_IMPL
    assert lib.libsha_bench(b"standard", _native.BENCH_HASH, buf, 0, 1) == _native.OK
    assert lib.libsha_bench(b"standard", _native.BENCH_D64, buf, 63, 1) == _native.ERR_ARGUMENT
    assert lib.libsha_bench(b"standard", 99, buf, 64, 1) == _native.ERR_ARGUMENT
    assert lib.libsha_bench(None, _native.BENCH_HASH, buf, 32, 1) == _native.ERR_NULL
