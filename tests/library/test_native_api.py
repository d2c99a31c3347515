"""The C API's contracts, called directly through ctypes."""

import ctypes
import hashlib
import os
import importlib.metadata

import pytest

import libsha
from libsha import _errors, _header, _native, _signatures
from support.binding import accelerator_internals, ctypes_internals
from support.data import pattern251
from support.header import header_text, struct
from support.paths import ROOT
from shabench import internal

pytestmark = [pytest.mark.core, pytest.mark.binding]

lib = _native.lib()
bench = internal.lib()  # with the internal benchmark loops declared
LENGTH = struct("libsha_sha256_ctx").length.offset  # where a context keeps its byte count


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
    assert bench.libsha_internal_bench(b"standard", internal.BENCH_HASH, buf, 16, 2) == _errors.OK
    first = hashlib.sha256(b"abcdefghijklmnop").digest()[:16]
    assert buf.raw == hashlib.sha256(first).digest()[:16]


def test_context_size_is_the_public_struct():
    assert lib.libsha_sha256_ctx_size() == ctypes.sizeof(struct("libsha_sha256_ctx"))
    assert lib.libsha_hmac_sha256_ctx_size() == 2 * ctypes.sizeof(struct("libsha_sha256_ctx"))


def test_implementations_are_listed_with_runnable_flags():
    impls = libsha.dispatch.implementations()
    # The portable fallback, last (only the tests' portable-lanes row, in a test build, comes after it).
    shipped = [i for i in impls if "portable" not in i.name]
    assert shipped[-1] == libsha.dispatch.Implementation("standard", True)
    assert len({i.name for i in impls}) == len(impls)
    assert libsha.dispatch.implementation() in {i.name for i in impls if i.runnable}
    assert lib.libsha_implementation_at(len(impls), None) is None


def test_autodetect_respects_the_mask():
    try:
        assert libsha.dispatch.autodetect(libsha.dispatch.USE_STANDARD) == "standard" == libsha.dispatch.implementation()
    finally:
        libsha.dispatch.autodetect()


@pytest.mark.parametrize("bad", [-1, 16, 1 << 40])
def test_autodetect_rejects_unknown_bits(bad):
    with pytest.raises(ValueError, match="USE_"):
        libsha.dispatch.autodetect(bad)


def test_autodetect_rejects_non_integers():
    with pytest.raises(TypeError):
        libsha.dispatch.autodetect("sse4")


def test_streaming_c_api_and_final_wipes():
    ctx = new_ctx()
    assert lib.libsha_sha256_update(ctx, b"ab", 2) == _errors.OK
    assert lib.libsha_sha256_update(ctx, b"c", 1) == _errors.OK
    out = ctypes.create_string_buffer(32)
    assert lib.libsha_sha256_final(ctx, out) == _errors.OK
    assert out.raw == hashlib.sha256(b"abc").digest()
    assert ctx.raw == bytes(len(ctx))  # wiped
    # A finalised context is refused, not silently reused.
    assert lib.libsha_sha256_update(ctx, b"x", 1) == _errors.ERR_STATE
    assert lib.libsha_sha256_final(ctx, out) == _errors.ERR_STATE


def test_uninitialised_context_is_refused():
    ctx = ctypes.create_string_buffer(b"\x5a" * lib.libsha_sha256_ctx_size())
    assert lib.libsha_sha256_update(ctx, b"x", 1) == _errors.ERR_STATE


def test_null_pointers():
    ctx = new_ctx()
    out = ctypes.create_string_buffer(32)
    assert lib.libsha_sha256_update(ctx, None, 0) == _errors.OK
    assert lib.libsha_sha256_update(ctx, None, 5) == _errors.ERR_NULL
    assert lib.libsha_sha256_update(None, b"x", 1) == _errors.ERR_NULL
    assert lib.libsha_sha256_final(ctx, None) == _errors.ERR_NULL
    assert lib.libsha_sha256_final(ctx, out) == _errors.OK
    assert out.raw == hashlib.sha256(b"").digest()  # the refused calls changed nothing
    assert lib.libsha_sha256(None, 0, out) == _errors.OK
    assert out.raw == hashlib.sha256(b"").digest()
    assert lib.libsha_sha256(None, 1, out) == _errors.ERR_NULL
    assert lib.libsha_sha256(b"abc", 3, None) == _errors.ERR_NULL
    lib.libsha_sha256d64(None, None, 0)
    before = out.raw
    lib.libsha_sha256d64(out, None, 1)  # does nothing rather than crash: out is not touched
    assert out.raw == before
    lib.libsha_sha256_init(None)
    lib.libsha_sha256_wipe(None)


def test_wipe():
    ctx = new_ctx()
    lib.libsha_sha256_update(ctx, b"secret", 6)
    lib.libsha_sha256_wipe(ctx)
    assert ctx.raw == bytes(len(ctx))
    assert lib.libsha_sha256_update(ctx, b"x", 1) == _errors.ERR_STATE


def test_one_shot_output_may_overlap_input():
    buf = ctypes.create_string_buffer(b"abc" + bytes(29), 32)
    assert lib.libsha_sha256(buf, 3, buf) == _errors.OK
    assert buf.raw == hashlib.sha256(b"abc").digest()


def test_message_length_limit():
    # Push the byte count near 2^61 by editing the (private) length field.
    ctx = new_ctx()
    ctypes.c_uint64.from_buffer(ctx, LENGTH).value = (1 << 61) - 2
    assert lib.libsha_sha256_update(ctx, b"ab", 2) == _errors.ERR_TOO_LONG
    assert lib.libsha_sha256_update(ctx, b"a", 1) == _errors.OK


@ctypes_internals
def test_python_maps_the_length_limit_to_overflow_error():
    h = libsha.sha256()
    h.update(bytes(4096))
    ctypes.c_uint64.from_buffer(h._ctx, LENGTH).value = (1 << 61) - 1
    with pytest.raises(OverflowError, match="2\\*\\*61"):
        h.update(bytes(4096))
    with pytest.raises(OverflowError, match="2\\*\\*61"):
        h.update(b"a")  # one call per update: short ones are checked at once too


@ctypes_internals
def test_a_refused_update_leaves_the_context_as_it_was():
    h = libsha.sha256()
    h.update(bytes(4096))
    length = ctypes.c_uint64.from_buffer(h._ctx, LENGTH)
    length.value = (1 << 61) - 1 - 5
    h.update(b"12345")
    with pytest.raises(OverflowError):
        h.update(bytes(4097))
    assert length.value == (1 << 61) - 1
    with pytest.raises(OverflowError):
        h.update(b"x")  # again: nothing hashed twice
    assert length.value == (1 << 61) - 1


def test_bench_kernel_arguments():
    buf = ctypes.create_string_buffer(64)
    assert bench.libsha_internal_bench(b"standard", internal.BENCH_HASH, buf, 32, 1) == _errors.OK
    assert bench.libsha_internal_bench(b"standard", internal.BENCH_D64, buf, 64, 1) == _errors.OK
    assert bench.libsha_internal_bench(b"no-such", internal.BENCH_HASH, buf, 32, 1) == _errors.ERR_UNKNOWN_IMPL
    assert bench.libsha_internal_bench(b"standard", internal.BENCH_HASH, buf, 0, 1) == _errors.OK
    assert bench.libsha_internal_bench(b"standard", internal.BENCH_D64, buf, 63, 1) == _errors.ERR_ARGUMENT
    assert bench.libsha_internal_bench(b"standard", 99, buf, 64, 1) == _errors.ERR_ARGUMENT
    assert bench.libsha_internal_bench(None, internal.BENCH_HASH, buf, 32, 1) == _errors.ERR_NULL


def test_bench_peer_runs_the_same_loop_as_bench_hash():
    # A peer's SHA256(data, len, md) in libsha's C loop: the same feedback, so the
    # same bytes come out as from libsha's own LIBSHA_INTERNAL_BENCH_HASH loop.
    peer_type = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p)

    @peer_type
    def peer(data, length, md):
        ctypes.memmove(md, hashlib.sha256(ctypes.string_at(data, length)).digest(), 32)
        return md

    for size in (0, 5, 32, 64, 1000):
        ours = ctypes.create_string_buffer(pattern251(size), max(size, 1))
        theirs = ctypes.create_string_buffer(ours.raw, max(size, 1))
        assert bench.libsha_internal_bench(b"standard", internal.BENCH_HASH, ours, size, 3) == _errors.OK
        assert bench.libsha_internal_bench_peer(ctypes.cast(peer, ctypes.c_void_p), theirs, size, 3) == _errors.OK
        assert theirs.raw == ours.raw, size
    assert bench.libsha_internal_bench_peer(None, theirs, 1, 1) == _errors.ERR_NULL
    assert bench.libsha_internal_bench_peer(ctypes.cast(peer, ctypes.c_void_p), None, 1, 1) == _errors.ERR_NULL


def test_constants_mirrored_from_the_header():
    # One source of truth: every value the Python side copies from libsha.h.
    import re

    from libsha import dispatch

    header = header_text()
    defines = {m[1]: m[2] for m in re.finditer(r"#define LIBSHA_(\w+) \(?(-?\d+)u?\)?", header)}
    mirrored = {k: v for k, v in vars(_header).items()
                if re.fullmatch(r"FILE_\w+|DIGEST_SIZE|BLOCK_SIZE|DOUBLE|HEX|POINTERS|OFFSETS(32|64)|ROWS|VIEWS", k)}
    mirrored.update({k: v for k, v in vars(_errors).items() if re.fullmatch(r"OK|ERR_\w+", k)})
    mirrored.update({k: v for k, v in vars(dispatch).items() if re.fullmatch(r"USE_(?!ALL$)\w+", k)})
    for name, value in mirrored.items():
        assert name in defines, f"LIBSHA_{name} is not in libsha.h"
        assert value == int(defines[name]), name
    assert set(k for k in defines if k.startswith(("ERR_", "FILE_", "USE_"))) <= set(mirrored)
    assert not [k for k in defines if "BENCH" in k], "the benchmark loops' codes are internal (libsha/src/bench/bench.h)"
    # USE_ALL is an expression of the others in the header: the same bits here.
    use_all = re.search(r"#define LIBSHA_USE_ALL \(([^)]*)\)", header)[1]
    assert dispatch.USE_ALL == sum({int(defines[n]) for n in re.findall(r"LIBSHA_(USE_\w+)", use_all)})
    assert set(re.findall(r"LIBSHA_(USE_\w+)", use_all)) == {k for k in defines if k.startswith("USE_")} - {"USE_STANDARD"}
    # CPU features: Python reads names and bits from the library's one table; every
    # LIBSHA_CPU_* of the header must have its row there (a new one without fails here).
    header_cpu = {int(shift) for shift in re.findall(r"#define LIBSHA_CPU_\w+ \(1u << (\d+)\)", header)}
    table = dispatch.CPU_FEATURES
    assert sorted(1 << shift for shift in header_cpu) == sorted(table.values())
    assert len(set(table)) == len(table) and all(re.fullmatch(r"[a-z0-9.-]+", name) for name in table)
    # libsha_files_control: the same fields, in order, of the same widths.
    struct = re.search(r"typedef struct libsha_files_control \{(.*?)\} libsha_files_control;", header, re.S)[1]
    fields = [(name, int(bits) // 8) for bits, name in re.findall(r"uint(\d+)_t (\w+);", struct)]
    assert [(name, ctypes.sizeof(t)) for name, t in _header.FilesControl._fields_] == fields
    # libsha_batch: the same fields, in order (pointers, sizes and the int layout).
    struct = re.search(r"typedef struct libsha_batch \{(.*?)\} libsha_batch;", header, re.S)[1]
    struct = re.sub(r"/\*.*?\*/", "", struct, flags=re.S)
    names = [name for declaration in struct.split(";") for name in re.findall(r"\**(\w+)\s*(?:,|$)", declaration.strip())]
    assert [name for name, _ in _header.Batch._fields_] == names


def test_the_internal_loops_are_declared_as_their_header_says():
    # shabench's copy of libsha/src/bench/bench.h: the operation codes, and the functions (those as
    # tools/check_wheel.py reads the header: test_check_wheel).
    import re
    from pathlib import Path

    from shabench import internal

    header = (ROOT / "libsha" / "src" / "bench" / "bench.h").read_text()
    defines = {m[1]: int(m[2]) for m in re.finditer(r"#define LIBSHA_INTERNAL_(BENCH_\w+) (\d+)", header)}
    assert defines == {k: v for k, v in vars(internal).items() if k.startswith("BENCH_")}
    assert all(name.startswith("libsha_internal_") for name in internal.SIGNATURES)
    assert not set(internal.SIGNATURES) & set(_signatures.SIGNATURES)


def test_digests_written_into_new_bytes_objects_are_fresh():
    # The fast path fills bytes(32) in place; no two results may share storage.
    results = [libsha.sha256_digest(bytes([i])) for i in range(50)]
    assert len({id(r) for r in results}) == 50
    assert results == [hashlib.sha256(bytes([i])).digest() for i in range(50)]
    assert hash(results[0]) == hash(hashlib.sha256(b"\0").digest())


@accelerator_internals
def test_the_accelerator_maps_the_length_limit_to_overflow_error():
    from libsha import _accel

    h = libsha.sha256(b"x")
    # The (private) length field of the object's own context, 32 bytes in (libsha.h's layout).
    length = ctypes.c_uint64.from_address(id(h) + _accel.SHA256_CONTEXT_OFFSET + LENGTH)
    assert length.value == 1
    length.value = (1 << 61) - 1
    with pytest.raises(OverflowError, match="2\\*\\*61"):
        h.update(b"ab")
    with pytest.raises(OverflowError, match="2\\*\\*61"):
        libsha.update_many([h], [b"ab"])
    assert length.value == (1 << 61) - 1  # refused: nothing hashed
    mac = libsha.HMAC(b"key", b"x")  # its inner context comes first (libsha.h)
    ctypes.c_uint64.from_address(id(mac) + _accel.HMAC_CONTEXT_OFFSET + LENGTH).value = (1 << 61) - 1
    with pytest.raises(OverflowError, match="2\\*\\*61"):
        mac.update(b"ab")
