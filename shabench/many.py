"""Rows for many messages at once: libsha's multi-buffer C loop per implementation,
and what a Python caller gets from sha256_many and merkle_root beside hashlib.

Every row's unit is a byte of message (or of leaf), so ns/byte compares with
the single-stream rows: a 64-byte-message row's ns/byte is ns per message / 64,
the same unit as SHA256D64's ns per 64-byte blob / 64.
"""

import ctypes
import hashlib
import importlib.util

import libsha
from libsha import _errors

from . import internal, stringzilla
from .batches import C_BATCHES, Batch
from .rows import Benchmark, ours_label, peer_label

PY_MESSAGES = 1_000_000
PY_LENGTH = 64
MERKLE_LEAVES_PY = 1_000_000
THREADS_BATCH = (65536, 1024)  # 64 MiB of 1 KiB messages


def _messages(count, length):
    return Batch("", count, length).messages()


def native_many(implementation, batch, start=internal.FROM_NOTHING, start_bytes=None):
    """libsha_internal_bench_many over one Batch; from start (internal's FROM_NOTHING, AFTER_PREFIX or
    UNDER_KEY) with start_bytes, the prefix or the key."""
    def make():
        lib = internal.lib()
        data = batch.buffer()
        offsets = batch.offsets
        out = ctypes.create_string_buffer(32 * batch.count)
        name = implementation.encode()

        def run(iterations):
            code = lib.libsha_internal_bench_many(name, out, data, offsets.buffer_info()[0], batch.count, 0, start,
                                                  start_bytes, len(start_bytes or b""), iterations)
            if code != _errors.OK:
                raise RuntimeError(f"libsha_internal_bench_many({implementation!r}, start {start}) failed with {code}")

        return run

    return make


def native_many_benchmarks(implementation):
    """libsha_sha256_batch (LIBSHA_OFFSETS64) over whole batches, timed in C."""
    return [Benchmark(batch.name, implementation, batch.total, native_many(implementation, batch)) for batch in C_BATCHES]


def _python_call(call, messages_of):
    def make():
        messages = messages_of()

        def run(iterations):
            for _ in range(iterations):
                call(messages)

        return run

    return make


def _hashlib_list(messages):
    sha256 = hashlib.sha256
    return [sha256(m).digest() for m in messages]


def _arrow_column():
    import pyarrow

    return pyarrow.array(_messages(PY_MESSAGES, PY_LENGTH), pyarrow.binary())


def _leaves():
    return _messages(MERKLE_LEAVES_PY, 32)


def _merkle_by_hashlib(leaves):
    from libsha.reference import merkle_root

    sha256 = hashlib.sha256
    return merkle_root(leaves, lambda pair: sha256(sha256(pair).digest()).digest())


def _one_call(call):
    return ours_label(call, "one Python call", path=False)  # batches go through ctypes on either path


def python_many_benchmarks():
    """One sha256_many call beside hashlib's list comprehension, on the same messages."""
    name = f"SHA256_MANY_{PY_MESSAGES}x{PY_LENGTH}b"
    unit = PY_MESSAGES * PY_LENGTH
    messages = lambda: _messages(PY_MESSAGES, PY_LENGTH)  # noqa: E731
    rows = [
        Benchmark(name, _one_call("libsha.sha256_many(list)"), unit,
                  _python_call(libsha.sha256_many, messages), True),
        Benchmark(name, peer_label("sha256", "list comprehension"), unit,
                  _python_call(_hashlib_list, messages), True, max_epochs=5),
    ]
    if stringzilla.available():
        rows.append(stringzilla.many(name, unit, messages, _python_call))
    # The Arrow row needs pyarrow (pip install 'libsha[columns]'). Looked up, not
    # imported: importing it loads numpy, whose BLAS threads spin for a while
    # and would take a core from the rows measured meanwhile.
    if importlib.util.find_spec("pyarrow") is not None:
        rows.append(Benchmark(name, _one_call("libsha.sha256_many(pyarrow binary array)"), unit,
                              _python_call(libsha.sha256_many, _arrow_column), True))
    count, length = THREADS_BATCH
    for threads in (1, 2):
        rows.append(Benchmark(f"SHA256_MANY_{count}x1KiB", _one_call(f"libsha.sha256_many(list, threads={threads})"),
                              count * length, _python_call(lambda m, t=threads: libsha.sha256_many(m, threads=t),
                                                           lambda: _messages(count, length)), True))
    for threads in (1, 2):  # the digests into one buffer made beforehand: no object a digest
        rows.append(Benchmark(f"SHA256_MANY_{count}x1KiB", _one_call(f"libsha.sha256_many(list, threads={threads}, "
                                                                     "out=bytearray)"),
                              count * length, _python_call(lambda m, t=threads: libsha.sha256_many(m[0], threads=t,
                                                                                                     out=m[1]),
                                                           lambda: (_messages(count, length), bytearray(32 * count))),
                              True))
    leaves = f"MERKLE_{MERKLE_LEAVES_PY}"
    rows.append(Benchmark(leaves, _one_call("libsha.merkle_root(list)"),
                          32 * MERKLE_LEAVES_PY, _python_call(libsha.merkle_root, _leaves), True))
    rows.append(Benchmark(leaves, _one_call("libsha.merkle_root(b''.join(leaves))"), 32 * MERKLE_LEAVES_PY,
                          _python_call(libsha.merkle_root, lambda: b"".join(_leaves())), True))
    rows.append(Benchmark(leaves, "libsha.reference.merkle_root over hashlib.sha256 (Python loop)",
                          32 * MERKLE_LEAVES_PY, _python_call(_merkle_by_hashlib, _leaves), True, max_epochs=3))
    return rows
