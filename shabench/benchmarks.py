"""The benchmark rows: libsha's timed loops in C, and Python loops of libsha and its peers."""

import ctypes
import hashlib
import hmac
import ssl
from dataclasses import dataclass
from typing import Any, Callable, Optional

import libsha
from libsha import _native

MESSAGE_1M = 1_000_000
D64_BLOBS = 1024
MERKLE_LEAVES = 9001


@dataclass
class Benchmark:
    name: str  # e.g. SHA256_32b
    runner: str  # the implementation, or the peer, that runs it
    unit_bytes: int  # bytes hashed per iteration
    make_run: Optional[Callable[[], Callable[[int], None]]]  # allocates, then returns run(iterations)
    peer: bool = False
    max_epochs: Optional[int] = None  # a cap for rows whose one iteration takes seconds
    left_out: Optional[str] = None  # why this row cannot run here (a peer not installed): listed, not run
    # Measured by interleaved.measurement(row, epochs, min_time_ms), not by make_run: files.Interleaved (in turn
    # with its other rows) or openssl.PeerProcess (in a child process).
    interleaved: Optional[Any] = None

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


def _native_public_run(implementation, size):
    """The public init/update/final path, which runs on the active implementation:
    it is made the named one for each timed call (a self-test, once per epoch)."""
    def make():
        run_kernel = _native_run(implementation, _native.BENCH_STREAM, size)()

        def run(iterations):
            with libsha.using(implementation):
                run_kernel(iterations)

        return run

    return make


def native_benchmarks(implementation):
    """Bitcoin Core's SHA256 rows, with libsha's timed loop in C; and our own C-loop rows."""
    rows = [
        Benchmark("SHA256", implementation, MESSAGE_1M, _native_run(implementation, _native.BENCH_HASH, MESSAGE_1M)),
        Benchmark("SHA256_32b", implementation, 32, _native_run(implementation, _native.BENCH_HASH, 32)),
        Benchmark("SHA256_64b", implementation, 64, _native_run(implementation, _native.BENCH_HASH, 64)),
        # Beside OpenSSL's 1 KiB row (shabench/openssl.py) on rows without SHA-NI.
        Benchmark("SHA256_1K", implementation, 1024, _native_run(implementation, _native.BENCH_HASH, 1024)),
        Benchmark(f"SHA256D64_{D64_BLOBS}", implementation, 64 * D64_BLOBS,
                  _native_run(implementation, _native.BENCH_D64, 64 * D64_BLOBS)),
        # libsha_sha256_init/update/final as a C caller makes the three calls.
        Benchmark("SHA256_32b_stream", implementation, 32, _native_public_run(implementation, 32)),
        Benchmark("HMAC_SHA256_32b", implementation, 32, _native_run(implementation, _native.BENCH_HMAC, 32)),
        # Bitcoin Core's MerkleRoot bench: 9001 leaves (ns/byte over the leaves' 32 bytes each).
        Benchmark(f"MERKLE_{MERKLE_LEAVES}", implementation, 32 * MERKLE_LEAVES,
                  _native_run(implementation, _native.BENCH_MERKLE, 32 * MERKLE_LEAVES)),
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


def _ours(call):
    return f"{call} ('{libsha.implementation()}', Python loop)"


# Python loops, ours and the peers' alike: one call per message, on the same
# bytes, as a Python program makes them. They measure what a Python caller
# gets, interpreter and foreign-function call included, not the C kernels.
def _python_loop(make_call, size):
    def make():
        call = make_call()
        message = bytes(i % 251 for i in range(size))

        def run(iterations):
            for _ in range(iterations):
                call(message)

        return run

    return make


def _hashlib_oneshot(algorithm):
    def make_call():
        new = getattr(hashlib, algorithm)
        return lambda message: new(message).digest()
    return make_call


def _libsha_oneshot():
    return libsha.sha256


def _three_calls(new):
    def call(message):
        h = new()
        h.update(message)
        return h.digest()
    return call


KEY_32 = b"libsha benchmark key, 32 bytes."


def _hmac_calls():
    """(name, make_call, ours) for HMAC-SHA256 of a message under a 32-byte key."""
    return [
        ("libsha.hmac_sha256", lambda: lambda m: libsha.hmac_sha256(KEY_32, m), True),
        ("hmac.digest(digest='sha256')", lambda: lambda m: hmac.digest(KEY_32, m, "sha256"), False),
        ("hmac.new(digestmod=libsha.new)", lambda: lambda m: hmac.new(KEY_32, m, libsha.new).digest(), True),
        ("hmac.new(digestmod=hashlib.sha256)", lambda: lambda m: hmac.new(KEY_32, m, hashlib.sha256).digest(), False),
    ]


def _hashlib_d64():
    data = bytes((i * 131 + 7) % 251 for i in range(64 * D64_BLOBS))  # no repeating blobs
    blobs = [data[64 * i : 64 * i + 64] for i in range(D64_BLOBS)]
    sha256 = hashlib.sha256

    def run(iterations):
        for _ in range(iterations):
            for blob in blobs:
                sha256(sha256(blob).digest()).digest()

    return run


def python_benchmarks():
    """libsha called from Python beside hashlib on the same messages: what a Python user gets."""
    rows = []
    for name, size in (("SHA256", MESSAGE_1M), ("SHA256_32b", 32), ("SHA256_64b", 64)):
        rows.append(Benchmark(name, _ours("libsha.sha256"), size, _python_loop(_libsha_oneshot, size), True))
        rows.append(Benchmark(name, _peer("sha256"), size, _python_loop(_hashlib_oneshot("sha256"), size), True))
    rows.append(Benchmark("SHA256_32b_stream", _ours("libsha.new, update, digest"), 32,
                          _python_loop(lambda: _three_calls(libsha.new), 32), True))
    openssl = backend("sha256")
    rows.append(Benchmark("SHA256_32b_stream", f"hashlib.sha256, update, digest ({openssl}, Python loop)",
                          32, _python_loop(lambda: _three_calls(hashlib.sha256), 32), True))
    for call, make_call, ours in _hmac_calls():
        runner = _ours(call) if ours else f"{call} ({openssl}, Python loop)"
        rows.append(Benchmark("HMAC_SHA256_32b", runner, 32, _python_loop(make_call, 32), True))
    rows.append(Benchmark(f"SHA256D64_{D64_BLOBS}", _peer("sha256"), 64 * D64_BLOBS, _hashlib_d64, True))
    return rows


def peer_benchmarks():
    """bench_bitcoin's other hashes through hashlib, for context."""
    return [Benchmark(name, _peer(algorithm), MESSAGE_1M, _python_loop(_hashlib_oneshot(algorithm), MESSAGE_1M), True)
            for name, algorithm in (("SHA1", "sha1"), ("SHA512", "sha512"), ("SHA3_256_1M", "sha3_256"),
                                    ("BLAKE2b", "blake2b"))]


def sweep_benchmarks(sizes, implementations):
    """SHA256 of each message size: per implementation in C, then libsha.sha256 and hashlib in Python loops."""
    rows = []
    for impl in implementations:
        rows += [Benchmark(f"SHA256_{label}", impl, size, _native_run(impl, _native.BENCH_HASH, size))
                 for label, size in sizes]
    for label, size in sizes:
        rows.append(Benchmark(f"SHA256_{label}", _ours("libsha.sha256"), size, _python_loop(_libsha_oneshot, size), True))
        rows.append(Benchmark(f"SHA256_{label}", _peer("sha256"), size,
                              _python_loop(_hashlib_oneshot("sha256"), size), True))
    return rows


def runnable_implementations():
    return [impl.name for impl in libsha.implementations() if impl.runnable]


def default_benchmarks(implementations):
    """Every row of a default run: each implementation's, then the peers'."""
    from .columns import column_benchmarks
    from .files import file_benchmarks
    from .many import native_many_benchmarks, python_many_benchmarks
    from .openssl import openssl_benchmarks

    rows = []
    for impl in implementations:
        rows += native_benchmarks(impl) + native_many_benchmarks(impl)
    rows += openssl_benchmarks(implementations, libsha.cpu_features())
    return (rows + python_benchmarks() + python_many_benchmarks() + column_benchmarks() + file_benchmarks()
            + peer_benchmarks())
