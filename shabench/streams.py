"""Rows for many streams at once: N streams of M bytes fed in chunks, a chunk of each per round,
through one libsha_sha256_update_many per round against N libsha_sha256_update calls, both C
loops (libsha_internal_bench_streams) on the same implementation, timed in turn epoch by epoch.
Only implementations with lanes: on the others both loops are one stream after another."""

import ctypes
import os

import libsha
from libsha import _errors

from . import internal
from .measure import Interleaved
from .rows import Benchmark

# (row name, streams, bytes per stream, chunk bytes, runs per epoch)
STREAM_ROWS = [("SHA256_STREAMS_16x1MiB", 16, 1 << 20, 1 << 20, 1),
               ("SHA256_STREAMS_16x64KiB_64b_chunks", 16, 64 << 10, 64, 8)]
SEPARATE = "_SEPARATE"  # the name's suffix for the one-by-one loop


def _lanes(implementation):
    with libsha.dispatch.using(implementation):
        return libsha.dispatch.lanes()


def _make(implementation, together, streams, stream_bytes, chunk):
    def make():
        lib = internal.lib()
        data = ctypes.create_string_buffer(os.urandom(streams * stream_bytes), streams * stream_bytes)
        name = implementation.encode()

        def run():
            code = lib.libsha_internal_bench_streams(name, together, data, stream_bytes, chunk, streams, 1)
            if code != _errors.OK:
                raise RuntimeError(f"libsha_internal_bench_streams({implementation!r}) failed with {code}")

        return run

    return make


def stream_benchmarks(implementations):
    rows = []
    for impl in implementations:
        if _lanes(impl) < 2:
            continue
        for name, streams, stream_bytes, chunk, runs in STREAM_ROWS:
            entries = {name: _make(impl, 1, streams, stream_bytes, chunk),
                       name + SEPARATE: _make(impl, 0, streams, stream_bytes, chunk)}
            group = Interleaved(entries, runs=runs, key=lambda row: row.name)
            rows += [Benchmark(n, impl, streams * stream_bytes, None, interleaved=group) for n in entries]
    return rows
