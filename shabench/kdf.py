"""Key derivation rows: PBKDF2-HMAC-SHA256 (one key of 32 and 64 bytes at 1,200,000 iterations, 16
keys at once and one after another) and HKDF-SHA256. libsha's C loop per implementation beside its
one-chain SHA-256 (the 1 MB stream: the rate one chain of dependent compressions reaches, the
latency limit PBKDF2's one chain cannot pass) and OpenSSL's PKCS5_PBKDF2_HMAC; from Python beside
hashlib.pbkdf2_hmac (also with OpenSSL's SHA extensions masked, for the rows without SHA-NI) and
cryptography's HKDF.

A PBKDF2 row's bytes are those compressed: two 64-byte blocks an iteration and a key block, so its
ns/byte times 128 is the time of one iteration of one chain; beside the stream's ns/byte, it says
how near the chain comes to the latency limit."""

import ctypes
import hashlib
import os
import sys

import libsha

from . import internal
from .measure import measure
from .openssl import (MASKS, PeerProcess, _libcrypto, _openssl_version, child_arguments, masks_of, missing_for,
                      print_foresight, print_measurement)
from .rows import MESSAGE_1M, Benchmark, backend, ours_label

ROUNDS = 1_200_000  # Django's default (pyca/cryptography #12608)
MANY, MANY_ROUNDS = 16, 100_000
PASSWORD, SALT = b"correct horse battery staple", b"libsha salt 16 B"
BLOCK_BYTES = 128  # compressed per iteration and key block
ONE_ROW = f"PBKDF2_SHA256_{ROUNDS}"
WIDE_ROW = f"PBKDF2_SHA256_{ROUNDS}_64b"
MANY_ROW = f"PBKDF2_SHA256_{MANY}x{MANY_ROUNDS}"
SINGLE_ROW = f"PBKDF2_SHA256_1x{MANY_ROUNDS}"  # one of those keys, beside hashlib with OpenSSL's SHA-NI masked
HKDF_ROW = "HKDF_SHA256_32b"
IKM, HKDF_SALT, INFO = bytes(range(32)), b"salt", b"libsha hkdf info"


def _hashlib_label(how):
    return f"hashlib.pbkdf2_hmac ({backend('sha256')}, {how})"


def _native_pbkdf2(implementation, dklen, n, together, rounds):
    def make():
        lib = internal.lib()
        out = ctypes.create_string_buffer(n * dklen)
        name = implementation.encode()

        def run(iterations):
            code = lib.libsha_internal_bench_pbkdf2(name, out, dklen, n, together, rounds, iterations)
            if code != 0:
                raise RuntimeError(f"libsha_internal_bench_pbkdf2({implementation!r}) failed with {code}")

        return run

    return make


def native_kdf_benchmarks(implementation):
    """One key of 32 and of 64 bytes, 16 keys at once and one by one, and the one-chain stream, in C."""
    from .native import native_run

    return [
        Benchmark("SHA256", implementation, MESSAGE_1M, native_run(implementation, internal.BENCH_HASH, MESSAGE_1M)),
        Benchmark(ONE_ROW, implementation, ROUNDS * BLOCK_BYTES, _native_pbkdf2(implementation, 32, 1, 1, ROUNDS),
                  max_epochs=5),
        Benchmark(WIDE_ROW, implementation, 2 * ROUNDS * BLOCK_BYTES,
                  _native_pbkdf2(implementation, 64, 1, 1, ROUNDS), max_epochs=5),
        Benchmark(MANY_ROW, implementation, MANY * MANY_ROUNDS * BLOCK_BYTES,
                  _native_pbkdf2(implementation, 32, MANY, 1, MANY_ROUNDS), max_epochs=5),
        Benchmark(f"{MANY_ROW}_ONE_BY_ONE", implementation, MANY * MANY_ROUNDS * BLOCK_BYTES,
                  _native_pbkdf2(implementation, 32, MANY, 0, MANY_ROUNDS), max_epochs=5),
    ]


def _call(function, *args):
    def make():
        def run(iterations):
            for _ in range(iterations):
                function(*args)

        return run

    return make


def _openssl_pbkdf2():
    """OpenSSL's PKCS5_PBKDF2_HMAC, one foreign call per key (its 1,200,000 iterations are C)."""
    lib = _libcrypto()
    version = _openssl_version(lib) if lib is not None else None
    row = Benchmark(ONE_ROW, f"{version or 'OpenSSL'} PKCS5_PBKDF2_HMAC (C, one call per key)", ROUNDS * BLOCK_BYTES,
                    None, peer=True, max_epochs=5)
    if lib is None or version is None:
        row.left_out = "OpenSSL's libcrypto (1.1 or later) not found"
        return row
    f = lib.PKCS5_PBKDF2_HMAC
    f.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                  ctypes.c_int, ctypes.c_void_p]
    lib.EVP_sha256.restype = ctypes.c_void_p
    md, out = lib.EVP_sha256(), ctypes.create_string_buffer(32)
    f(PASSWORD, len(PASSWORD), SALT, len(SALT), 3, md, 32, out)
    if out.raw != hashlib.pbkdf2_hmac("sha256", PASSWORD, SALT, 3):
        row.left_out = "OpenSSL's PKCS5_PBKDF2_HMAC disagrees with hashlib here"
        return row
    row.make_run = _call(f, PASSWORD, len(PASSWORD), SALT, len(SALT), ROUNDS, md, 32, out)
    return row


def _hashlib_masked_rows(implementations):
    """hashlib.pbkdf2_hmac in a child process whose OpenSSL runs without its SHA extensions, for each
    mask a listed row without SHA-NI is set against (OPENSSL_ia32cap is read as libcrypto loads)."""
    rows = []
    for key in masks_of(implementations):
        mask, path, _ = MASKS[key]
        row = Benchmark(SINGLE_ROW, _hashlib_label(f'OPENSSL_ia32cap="{mask}", {path}; one call per key'),
                        MANY_ROUNDS * BLOCK_BYTES, None, peer=True,
                        interleaved=PeerProcess(mask, MANY_ROUNDS, "shabench.kdf"))
        row.left_out = missing_for(key, libsha.dispatch.cpu_features())
        rows.append(row)
    return rows


def _cryptography_hkdf():
    try:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF
        import cryptography
    except ImportError:
        row = Benchmark(HKDF_ROW, "cryptography's HKDF", 32, None, peer=True)
        row.left_out = "cryptography is not installed (the oracle extra brings it)"
        return row
    sha256 = hashes.SHA256()
    return Benchmark(HKDF_ROW, f"cryptography {cryptography.__version__} HKDF(SHA256(), 32, salt, info).derive(key)"
                     " (Python loop)", 32, _call(lambda: HKDF(sha256, 32, HKDF_SALT, INFO).derive(IKM)), peer=True)


def python_kdf_benchmarks(implementations):
    """From Python: libsha's calls beside hashlib's, OpenSSL's and cryptography's, each row one call a key."""
    passwords = [PASSWORD + bytes([i]) for i in range(MANY)]
    return [
        Benchmark(ONE_ROW, ours_label("libsha.pbkdf2_hmac", "one call", path=False), ROUNDS * BLOCK_BYTES,
                  _call(libsha.pbkdf2_hmac, "sha256", PASSWORD, SALT, ROUNDS), True, max_epochs=5),
        Benchmark(ONE_ROW, _hashlib_label("one call"), ROUNDS * BLOCK_BYTES,
                  _call(hashlib.pbkdf2_hmac, "sha256", PASSWORD, SALT, ROUNDS), True, max_epochs=5),
        _openssl_pbkdf2(),
        Benchmark(WIDE_ROW, ours_label("libsha.pbkdf2_hmac(dklen=64)", "one call", path=False),
                  2 * ROUNDS * BLOCK_BYTES, _call(libsha.pbkdf2_hmac, "sha256", PASSWORD, SALT, ROUNDS, 64), True,
                  max_epochs=5),
        Benchmark(WIDE_ROW, _hashlib_label("dklen=64, one call"), 2 * ROUNDS * BLOCK_BYTES,
                  _call(hashlib.pbkdf2_hmac, "sha256", PASSWORD, SALT, ROUNDS, 64), True, max_epochs=5),
        Benchmark(MANY_ROW, ours_label(f"libsha.pbkdf2_hmac_many({MANY} passwords)", "one call", path=False),
                  MANY * MANY_ROUNDS * BLOCK_BYTES,
                  _call(libsha.pbkdf2_hmac_many, "sha256", passwords, SALT, MANY_ROUNDS), True, max_epochs=5),
        Benchmark(MANY_ROW, _hashlib_label(f"{MANY} calls"), MANY * MANY_ROUNDS * BLOCK_BYTES,
                  _call(lambda: [hashlib.pbkdf2_hmac("sha256", p, SALT, MANY_ROUNDS) for p in passwords]), True,
                  max_epochs=5),
        Benchmark(SINGLE_ROW, ours_label("libsha.pbkdf2_hmac", "one call", path=False), MANY_ROUNDS * BLOCK_BYTES,
                  _call(libsha.pbkdf2_hmac, "sha256", PASSWORD, SALT, MANY_ROUNDS), True, max_epochs=5),
        *_hashlib_masked_rows(implementations),
        Benchmark(HKDF_ROW, ours_label("libsha.hkdf(key, 32, salt, info)"), 32,
                  _call(libsha.hkdf, IKM, 32, HKDF_SALT, INFO), True),
        Benchmark(HKDF_ROW, ours_label("libsha.HKDF('sha256', 32, salt, info).derive(key)"), 32,
                  _call(lambda: libsha.HKDF("sha256", 32, HKDF_SALT, INFO).derive(IKM)), True),
        _cryptography_hkdf(),
    ]


def _child(mask, rounds, epochs, min_time_ms, iterations):
    """Times hashlib.pbkdf2_hmac under the mask this process was started with."""
    assert os.environ.get("OPENSSL_ia32cap") == mask, "the mask must be set before libcrypto loads"
    if hashlib.pbkdf2_hmac("sha256", PASSWORD, SALT, 3) != libsha.pbkdf2_hmac("sha256", PASSWORD, SALT, 3):
        raise SystemExit(f"hashlib.pbkdf2_hmac under OPENSSL_ia32cap={mask} disagrees with libsha")
    print_measurement(measure(_call(hashlib.pbkdf2_hmac, "sha256", PASSWORD, SALT, rounds)(), rounds * BLOCK_BYTES,
                              epochs, min_time_ms * 1e6, iterations, print_foresight))


if __name__ == "__main__":
    _child(*child_arguments(sys.argv[1:]))
