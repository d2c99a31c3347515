"""The catalogue: every row shabench can run, in groups. A plain `shabench` runs the quick ones
(DEFAULT_GROUPS and the rows marked in_default); `--group NAME` and `--all` add the others."""

import libsha

from . import internal
from .native import native_benchmarks, native_run
from .python_rows import hashlib_hash_benchmarks, python_benchmarks
from .rows import Benchmark, hashlib_oneshot, ours_label, peer_label, python_loop

GROUPS = {
    "c": "libsha's C loops, per implementation: one message, SHA256D64, stream, HMAC, Merkle root",
    "python": "libsha from Python beside hashlib, call for call: one-shot, stream, HMAC, SHA256D64",
    "many": "many messages at once: C loops per implementation, and from Python sha256_many (lists, Arrow, "
            "threads) and merkle_root beside hashlib; many streams at once (update_many against one by one)",
    "midstates": "batches from a state, C loops per implementation beside the plain batch and from Python: HMAC of "
                 "many messages under one key (beside hmac.digest and StringZilla), many after one prefix, BIP-340 "
                 "tagged hashes (beside hashlib's copied object)",
    "kdf": "key derivation: PBKDF2-HMAC-SHA256 at 1,200,000 iterations (32- and 64-byte keys), 16 keys at once and "
           "one by one, C loops per implementation beside the one-chain stream and OpenSSL's PKCS5_PBKDF2_HMAC, and "
           "from Python beside hashlib.pbkdf2_hmac (also with OpenSSL's SHA extensions masked); HKDF-SHA256 beside "
           "cryptography's",
    "columns": "COLUMN rows: hex and binary digests of Arrow columns, beside polars-hash and DuckDB",
    "files": "FILE rows: libsha.sha256_file beside hashlib.file_digest; sha256_files on 16 large files, "
             "through the lanes and one stream per worker",
    "sum": "SUM rows: `libsha sum` beside GNU sha256sum and `openssl dgst`, whole commands by the wall clock",
    "merkle": "Merkle trees: the level call (1,000,000 x 64 B) per implementation beside hashtree's kernels; SSZ's "
              "root of 2^20 chunks, RFC 6962's root of 1,000,000 leaves and 1,000 inclusion proofs, BEP 52's root of a "
              "256 MiB file, from Python beside the hashlib loops tree code runs and libtorrent's create_torrent; fs-verity's "
              "digest and dm-verity's hash file of a 1 GiB file beside fsverity digest and veritysetup format, and of a "
              "buffer per implementation",
    "model": "cycle models: each implementation's batch of 1,000 x 16 KiB in cycles per block per lane on this CPU, "
             "beside llvm-mca's figure for its kernel under this CPU's family and each --model-cpu (a checkout and "
             "Debian's llvm-19)",
    "peers": "OpenSSL's C loop under each OPENSSL_ia32cap mask, isa-l_crypto's and IPsec-MB's batch managers "
             "(also in many), the same batches from Python through sha256_many beside StringZilla's Sha256s lanes, "
             "and hashlib's other hashes",
}
DEFAULT_GROUPS = ("c", "python")


def runnable_implementations():
    return [impl.name for impl in libsha.dispatch.implementations() if impl.runnable]


def _c_rows(implementations):
    return [row for impl in implementations for row in native_benchmarks(impl)]


def _batch_peer_rows():
    from .batch_peers import batch_peer_benchmarks
    from .batches import C_BATCHES

    return batch_peer_benchmarks(C_BATCHES, libsha.dispatch.cpu_features())


def _many_rows(implementations):
    from .many import native_many_benchmarks, python_many_benchmarks
    from .streams import stream_benchmarks

    python = python_many_benchmarks()
    for row in python[:2]:  # one batch from Python beside hashlib's list comprehension runs by default
        row.in_default = True
    native = [row for impl in implementations for row in native_many_benchmarks(impl)]
    return native + stream_benchmarks(implementations) + _batch_peer_rows() + python


def _midstates_rows(implementations):
    from .midstates import native_midstate_benchmarks, python_midstate_benchmarks

    return [row for impl in implementations for row in native_midstate_benchmarks(impl)] + python_midstate_benchmarks()


def _kdf_rows(implementations):
    from .kdf import native_kdf_benchmarks, python_kdf_benchmarks

    return [row for impl in implementations for row in native_kdf_benchmarks(impl)] + python_kdf_benchmarks(implementations)


def _columns_rows(implementations):
    from .columns import column_benchmarks

    return column_benchmarks()


def _files_rows(implementations):
    from .files import file_benchmarks

    return file_benchmarks()


def _sum_rows(implementations):
    from .files import sum_benchmarks

    return sum_benchmarks()


def _merkle_rows(implementations):
    from .merkle import merkle_benchmarks

    return merkle_benchmarks(implementations)


def _model_rows(implementations):
    from .cycle_models import model_benchmarks

    return model_benchmarks(implementations)


def _peers_rows(implementations):
    from .openssl import openssl_benchmarks

    from .python_batches import python_batch_benchmarks

    return (openssl_benchmarks(implementations, libsha.dispatch.cpu_features()) + _batch_peer_rows()
            + python_batch_benchmarks() + hashlib_hash_benchmarks())


_BUILDERS = {"c": _c_rows, "python": lambda implementations: python_benchmarks(), "many": _many_rows,
             "midstates": _midstates_rows, "kdf": _kdf_rows, "columns": _columns_rows, "files": _files_rows, "sum": _sum_rows,
             "merkle": _merkle_rows, "model": _model_rows, "peers": _peers_rows}


def group_rows(name, implementations):
    """The rows of one group, each marked with it."""
    rows = _BUILDERS[name](implementations)
    for row in rows:
        row.group = name
    return rows


def catalogue(implementations, groups=None):
    """The rows of the named groups (all of them by default), in GROUPS' order; a row two groups
    share (the batch peers) once, in the first."""
    rows, seen = [], set()
    for name in GROUPS:
        if groups is None or name in groups:
            for row in group_rows(name, implementations):
                if row.title not in seen:
                    seen.add(row.title)
                    rows.append(row)
    return rows


def default_benchmarks(implementations):
    """The rows of a plain `shabench`: the default groups', and the few marked in_default of the others."""
    rows = catalogue(implementations, set(DEFAULT_GROUPS) | {"many"})
    return [row for row in rows if row.group in DEFAULT_GROUPS or row.in_default]


def sweep_benchmarks(sizes, implementations):
    """SHA256 of each message size: per implementation in C, then libsha.sha256_digest and hashlib in Python loops."""
    rows = []
    for impl in implementations:
        rows += [Benchmark(f"SHA256_{label}", impl, size, native_run(impl, internal.BENCH_HASH, size))
                 for label, size in sizes]
    for label, size in sizes:
        rows.append(Benchmark(f"SHA256_{label}", ours_label("libsha.sha256_digest"), size,
                              python_loop(lambda: libsha.sha256_digest, size), True))
        rows.append(Benchmark(f"SHA256_{label}", peer_label("sha256"), size, python_loop(hashlib_oneshot("sha256"), size),
                              True))
    return rows
