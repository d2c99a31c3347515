"""libsha's C-loop rows, per implementation: Bitcoin Core's SHA256 benchmarks and ours, each timed
in libsha_internal_bench's loop in C (no Python per message)."""

import ctypes

import libsha
from libsha import _errors

from . import internal
from .rows import MESSAGE_1M, Benchmark

D64_BLOBS = 1024
MERKLE_LEAVES = 9001


def native_run(implementation, op, size):
    def make():
        lib = internal.lib()
        buf = ctypes.create_string_buffer(size)
        name = implementation.encode()

        def run(iterations):
            code = lib.libsha_internal_bench(name, op, buf, size, iterations)
            if code != _errors.OK:
                raise RuntimeError(f"libsha_internal_bench({implementation!r}, op {op}) failed with {code}")

        return run

    return make


def _native_public_run(implementation, size):
    """The public init/update/final path, which runs on the active implementation:
    it is made the named one for each timed call (a self-test, once per epoch)."""
    def make():
        run_kernel = native_run(implementation, internal.BENCH_STREAM, size)()

        def run(iterations):
            with libsha.dispatch.using(implementation):
                run_kernel(iterations)

        return run

    return make


def native_benchmarks(implementation):
    """Bitcoin Core's SHA256 rows, with libsha's timed loop in C; and our own C-loop rows."""
    rows = [
        Benchmark("SHA256", implementation, MESSAGE_1M, native_run(implementation, internal.BENCH_HASH, MESSAGE_1M)),
        Benchmark("SHA256_32b", implementation, 32, native_run(implementation, internal.BENCH_HASH, 32)),
        Benchmark("SHA256_64b", implementation, 64, native_run(implementation, internal.BENCH_HASH, 64)),
        # Beside OpenSSL's 1 KiB row (shabench/openssl.py) on rows without SHA-NI.
        Benchmark("SHA256_1K", implementation, 1024, native_run(implementation, internal.BENCH_HASH, 1024)),
        Benchmark(f"SHA256D64_{D64_BLOBS}", implementation, 64 * D64_BLOBS,
                  native_run(implementation, internal.BENCH_D64, 64 * D64_BLOBS)),
        # libsha_sha256_init/update/final as a C caller makes the three calls.
        Benchmark("SHA256_32b_stream", implementation, 32, _native_public_run(implementation, 32)),
        Benchmark("HMAC_SHA256_32b", implementation, 32, native_run(implementation, internal.BENCH_HMAC, 32)),
        # Bitcoin Core's MerkleRoot bench: 9001 leaves (ns/byte over the leaves' 32 bytes each).
        Benchmark(f"MERKLE_{MERKLE_LEAVES}", implementation, 32 * MERKLE_LEAVES,
                  native_run(implementation, internal.BENCH_MERKLE, 32 * MERKLE_LEAVES)),
    ]
    if "shani" in implementation and "avx" in libsha.dispatch.cpu_features():
        # A 256-bit register write before every call: shows the cost of a dirty
        # upper YMM state, which libsha clears on entry.
        rows.append(Benchmark("SHA256_32b_dirty_upper", implementation, 32,
                              native_run(implementation, internal.BENCH_HASH_DIRTY_UPPER, 32)))
    return rows
