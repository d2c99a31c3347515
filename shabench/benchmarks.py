"""The benchmark rows: libsha's timed loops (native) and hashlib peers."""

import ctypes
import hashlib
import ssl
from dataclasses import dataclass
from typing import Callable

import libsha
from libsha import _native

MESSAGE_1M = 1_000_000
D64_BLOBS = 1024


@dataclass
class Benchmark:
    name: str  # e.g. SHA256_32b
    runner: str  # the implementation, or the peer, that runs it
    unit_bytes: int  # bytes hashed per iteration
    make_run: Callable[[], Callable[[int], None]]  # allocates, then returns run(iterations)
    peer: bool = False

    @property
    def title(self):
        if self.peer:
            return f"{self.name} using {self.runner}"
        return f"{self.name} using the '{self.runner}' SHA256 implementation"


def _native_run(implementation, op, size):
    def make():
        lib = _native.lib()
        buf = ctypes.create_string_buffer(size)
        name = implementation.encode()

        def run(iterations):
            code = lib.libsha_bench(name, op, buf, size, iterations)
            if code != _native.OK:
                raise RuntimeError(f"libsha_bench({implementation!r}, op {op}) failed with {code}")

        return run

    return make


def native_benchmarks(implementation):
    """Bitcoin Core's SHA256 rows, with libsha's timed loop in C."""
    rows = [
        Benchmark("SHA256", implementation, MESSAGE_1M, _native_run(implementation, _native.BENCH_HASH, MESSAGE_1M)),
        Benchmark("SHA256_32b", implementation, 32, _native_run(implementation, _native.BENCH_HASH, 32)),
        Benchmark("SHA256_64b", implementation, 64, _native_run(implementation, _native.BENCH_HASH, 64)),
        Benchmark(f"SHA256D64_{D64_BLOBS}", implementation, 64 * D64_BLOBS,
                  _native_run(implementation, _native.BENCH_D64, 64 * D64_BLOBS)),
    ]
    if "shani" in implementation and "avx" in libsha.cpu_features():
        # A 256-bit register write before every call: shows the cost of a dirty
        # upper YMM state, which libsha clears on entry.
        rows.append(Benchmark("SHA256_32b_dirty_upper", implementation, 32,
                              _native_run(implementation, _native.BENCH_HASH_DIRTY_UPPER, 32)))
    return rows


def backend(algorithm):
    """Who computes hashlib's `algorithm` here: OpenSSL or CPython's own code."""
    if type(hashlib.new(algorithm)).__module__ == "_hashlib":
        return " ".join(ssl.OPENSSL_VERSION.split(" ")[:2])  # e.g. "OpenSSL 3.0.19"
    return "CPython built-in"


def _peer(algorithm):
    return f"hashlib.{algorithm} ({backend(algorithm)}, Python loop)"


def _hashlib_feedback(algorithm, size):
    def make():
        new = getattr(hashlib, algorithm)

        def run(iterations):
            buf = bytearray(size)
            head = min(size, 32)
            for _ in range(iterations):
                # As the native kernel: the digest (or its first `size` bytes) feeds the next hash.
                buf[:head] = new(buf).digest()[:head]

        return run

    return make


def _hashlib_large(algorithm, size):
    def make():
        new = getattr(hashlib, algorithm)
        message = bytes(size)

        def run(iterations):
            for _ in range(iterations):
                new(message).digest()

        return run

    return make


def _hashlib_d64():
    blobs = [bytes([i % 256]) * 64 for i in range(D64_BLOBS)]
    sha256 = hashlib.sha256

    def run(iterations):
        for _ in range(iterations):
            for blob in blobs:
                sha256(sha256(blob).digest()).digest()

    return run


def peer_benchmarks():
    """hashlib on the same messages, and bench_bitcoin's other hashes for context."""
    rows = [
        Benchmark("SHA256", _peer("sha256"), MESSAGE_1M, _hashlib_large("sha256", MESSAGE_1M), True),
        Benchmark("SHA256_32b", _peer("sha256"), 32, _hashlib_feedback("sha256", 32), True),
        Benchmark("SHA256_64b", _peer("sha256"), 64, _hashlib_feedback("sha256", 64), True),
        Benchmark(f"SHA256D64_{D64_BLOBS}", _peer("sha256"), 64 * D64_BLOBS, _hashlib_d64, True),
        Benchmark("SHA1", _peer("sha1"), MESSAGE_1M, _hashlib_large("sha1", MESSAGE_1M), True),
        Benchmark("SHA512", _peer("sha512"), MESSAGE_1M, _hashlib_large("sha512", MESSAGE_1M), True),
        Benchmark("SHA3_256_1M", _peer("sha3_256"), MESSAGE_1M, _hashlib_large("sha3_256", MESSAGE_1M), True),
        Benchmark("BLAKE2b", _peer("blake2b"), MESSAGE_1M, _hashlib_large("blake2b", MESSAGE_1M), True),
    ]
    return rows


def sweep_benchmarks(sizes, implementations):
    """SHA256 of each message size, per implementation and through hashlib."""
    rows = []
    for impl in implementations:
        rows += [Benchmark(f"SHA256_{label}", impl, size, _native_run(impl, _native.BENCH_HASH, size))
                 for label, size in sizes]
    return rows + [Benchmark(f"SHA256_{label}", _peer("sha256"), size, _hashlib_feedback("sha256", size), True)
                   for label, size in sizes]


def runnable_implementations():
    return [impl.name for impl in libsha.implementations() if impl.runnable]


def default_benchmarks(implementations):
    """Every row of a default run: each implementation's, then the peers'."""
    rows = []
    for impl in implementations:
        rows += native_benchmarks(impl)
    return rows + peer_benchmarks()
