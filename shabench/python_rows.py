"""libsha called from Python beside hashlib on the same messages (what a Python user gets), and
hashlib's other hashes for context."""

import hashlib
import hmac

import libsha

from . import stringzilla
from .native import D64_BLOBS
from .rows import MESSAGE_1M, Benchmark, backend, hashlib_oneshot, ours_label, peer_label, python_loop


def _three_calls(new):
    def call(message):
        h = new()
        h.update(message)
        return h.digest()
    return call


def _object_digest():
    sha256 = libsha.sha256
    return lambda message: sha256(message).digest()


KEY_32 = b"libsha benchmark key, 32 bytes."


def _hmac_calls():
    """(name, make_call, ours) for HMAC-SHA256 of a message under a 32-byte key."""
    return [
        ("libsha.hmac_sha256", lambda: lambda m: libsha.hmac_sha256(KEY_32, m), True),
        ("hmac.digest(digest='sha256')", lambda: lambda m: hmac.digest(KEY_32, m, "sha256"), False),
        ("hmac.new(digestmod=libsha.sha256)", lambda: lambda m: hmac.new(KEY_32, m, libsha.sha256).digest(), True),
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
    """libsha called from Python beside hashlib on the same messages: one-shot, stream, HMAC, D64."""
    rows = []
    for name, size in (("SHA256", MESSAGE_1M), ("SHA256_32b", 32), ("SHA256_64b", 64), ("SHA256_1K", 1024)):
        rows.append(Benchmark(name, ours_label("libsha.sha256_digest"), size, python_loop(lambda: libsha.sha256_digest, size),
                              True))
        if size != 64:  # the object as hashlib's users write it: sha256(m).digest()
            rows.append(Benchmark(name, ours_label("libsha.sha256(m).digest()"), size,
                                  python_loop(_object_digest, size), True))
        rows.append(Benchmark(name, peer_label("sha256"), size, python_loop(hashlib_oneshot("sha256"), size), True))
        if stringzilla.available():
            rows.append(stringzilla.oneshot(name, size))
    openssl = backend("sha256")
    for name, size in (("SHA256_32b_stream", 32), ("SHA256_1K_stream", 1024)):
        rows.append(Benchmark(name, ours_label("libsha.sha256, update, digest"), size,
                              python_loop(lambda: _three_calls(libsha.sha256), size), True))
        rows.append(Benchmark(name, f"hashlib.sha256, update, digest ({openssl}, Python loop)",
                              size, python_loop(lambda: _three_calls(hashlib.sha256), size), True))
        if stringzilla.available():
            rows.append(stringzilla.stream(name, size))
    for call, make_call, ours in _hmac_calls():
        runner = ours_label(call) if ours else f"{call} ({openssl}, Python loop)"
        rows.append(Benchmark("HMAC_SHA256_32b", runner, 32, python_loop(make_call, 32), True))
    if stringzilla.available():
        rows.append(stringzilla.hmac("HMAC_SHA256_32b", 32, KEY_32))
    rows.append(Benchmark(f"SHA256D64_{D64_BLOBS}", peer_label("sha256"), 64 * D64_BLOBS, _hashlib_d64, True))
    return rows


def hashlib_hash_benchmarks():
    """bench_bitcoin's other hashes through hashlib, for context."""
    return [Benchmark(name, peer_label(algorithm), MESSAGE_1M, python_loop(hashlib_oneshot(algorithm), MESSAGE_1M),
                      True)
            for name, algorithm in (("SHA1", "sha1"), ("SHA512", "sha512"), ("SHA3_256_1M", "sha3_256"),
                                    ("BLAKE2b", "blake2b"))]
