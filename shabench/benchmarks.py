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

    @property
    def title(self):
        if self.runner.startswith("hashlib"):
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
                raise RuntimeError(f"libsha_bench({implementation!r}) failed with {code}")

        return run

    return make


def native_benchmarks(implementation):
    rows = [
        Benchmark("SHA256", implementation, MESSAGE_1M, _native_run(implementation, _native.BENCH_HASH, MESSAGE_1M)),
        Benchmark("SHA256_32b", implementation, 32, _native_run(implementation, _native.BENCH_HASH, 32)),
        Benchmark(
            f"SHA256D64_{D64_BLOBS}",
            implementation,
            64 * D64_BLOBS,
            _native_run(implementation, _native.BENCH_D64, 64 * D64_BLOBS),
        ),
    ]
    if "shani" in implementation and "avx" in libsha.cpu_features():
        # A 256-bit register write before every call: shows the cost of a dirty
        # upper YMM state, which libsha clears on entry.
        rows.append(
            Benchmark("SHA256_32b_dirty_upper", implementation, 32,
                      _native_run(implementation, _native.BENCH_HASH_DIRTY_UPPER, 32))
        )
    return rows


def _hashlib_1m():
    message = bytes(MESSAGE_1M)
    sha256 = hashlib.sha256

    def run(iterations):
        for _ in range(iterations):
            sha256(message).digest()

    return run


def _hashlib_32b():
    sha256 = hashlib.sha256

    def run(iterations):
        buf = bytes(32)
        for _ in range(iterations):
            buf = sha256(buf).digest()

    return run


def _hashlib_d64():
    blobs = [bytes([i % 256]) * 64 for i in range(D64_BLOBS)]
    sha256 = hashlib.sha256

    def run(iterations):
        for _ in range(iterations):
            for blob in blobs:
                sha256(sha256(blob).digest()).digest()

    return run


def peer_benchmarks():
    openssl = ssl.OPENSSL_VERSION.split(" ")[1] if ssl.OPENSSL_VERSION.startswith("OpenSSL") else ssl.OPENSSL_VERSION
    peer = f"hashlib.sha256 (OpenSSL {openssl}, Python loop)"
    return [
        Benchmark("SHA256", peer, MESSAGE_1M, _hashlib_1m),
        Benchmark("SHA256_32b", peer, 32, _hashlib_32b),
        Benchmark(f"SHA256D64_{D64_BLOBS}", peer, 64 * D64_BLOBS, _hashlib_d64),
    ]


def all_benchmarks():
    """Every row this machine can run: each runnable implementation, then the peers."""
    rows = []
    for impl in libsha.implementations():
        if impl.runnable:
            rows.extend(native_benchmarks(impl.name))
    return rows + peer_benchmarks()
