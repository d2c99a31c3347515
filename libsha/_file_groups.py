"""Large files hashed k at a time, their reads overlapping the hash: each file read sequentially in
chunks, the k streams updated together (libsha_sha256_update_many), so their blocks share the CPU's
lanes, while a second thread reads the next round. What FileHasher does with the files C defers to
it where its workers leave a core free for those reads; elsewhere C's own loop (files.c: the
reads and the hash in turn, its buffers in L2) is faster, and takes them."""

from __future__ import annotations

import ctypes
import os
from _thread import allocate_lock, start_new_thread

from . import _errors, _native

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

# Per stream and buffer, 8 MiB over the lanes, from 1 to 4 MiB: two sets of buffers stay at 16 MiB per
# worker (32 MiB with 16 lanes). Measured on 16 page-cached files of 64 MiB (Zen 3, two lanes): reads
# of 256 KiB took 1.8 times as long as 1 MiB ones (the system time of many reads, and a round's
# Python), 2 and 4 MiB 5-7 % less than 1 MiB.
MAX_CHUNK = 4 << 20
MIN_CHUNK = 1 << 20
BUFFERS_PER_WORKER = 8 << 20
CHUNK = 0  # 0: chosen from the lanes as above (tests set a size)


def chunk_size(lanes: int) -> int:
    return CHUNK or max(MIN_CHUNK, min(MAX_CHUNK, BUFFERS_PER_WORKER // max(lanes, 1)))


class _Stream:
    """One open file in a group: its C context, and its two buffers (this round's, the next's)."""

    __slots__ = ("index", "file", "ctx", "buffers", "arrays", "filled")

    def __init__(self, index: int, file: Any, buffers: list[bytearray]) -> None:
        size = len(buffers[0])
        self.index = index
        self.file = file
        self.ctx = _native.Context()
        _native.lib_keeping_gil().libsha_sha256_init(self.ctx)
        self.buffers = buffers
        self.arrays = [(ctypes.c_char * size).from_buffer(b) for b in buffers]  # (they pin the buffers)
        self.filled: Any = 0  # bytes in the buffer read last, or the exception reading it raised

    def close(self) -> None:
        _native.wipe("libsha_sha256_wipe", self.ctx)
        self.arrays = []  # the buffers are free to be resized or freed again
        self.file.close()


def hash_group(paths: list[bytes], lanes: int, hashed: Callable[[int], None]) -> list[bytes | OSError]:
    """The digests of the files at paths (or the OSError of each that fails), up to `lanes` at once:
    when one ends, the next waiting file takes its place. hashed(n) runs after each n bytes (it may
    raise to stop). A file that fails to open or to read fails alone; the others go on."""
    results: list[bytes | OSError] = [OSError("not hashed")] * len(paths)
    waiting = iter(range(len(paths)))
    # Two buffers per lane, kept for the next file a lane takes; fresh ones each call. (Kept
    # between calls, in one pool or one per worker thread, they measured slower: 16 files of
    # 64 MiB in pairs took 0.62-0.73 s against 0.47-0.54 s, the system time doubled.)
    size = chunk_size(lanes)
    spare = [[bytearray(size), bytearray(size)] for _ in range(min(lanes, len(paths)))]
    active: list[_Stream] = []
    side = 0  # the buffer each active stream's last chunk is in
    try:
        _fill(active, waiting, paths, spare, results, lanes, side)
        while active:
            for s in [s for s in active if not isinstance(s.filled, int) or s.filled == 0]:
                active.remove(s)
                _finish(s, results, paths)
                spare.append(s.buffers)
            _fill(active, waiting, paths, spare, results, lanes, side)
            if active:
                side = _round(active, side, hashed)
    finally:
        for s in active:
            s.close()
    return results


def _fill(active: list[_Stream], waiting: Any, paths: list[bytes], spare: list[list[bytearray]],
          results: list[bytes | OSError], lanes: int, side: int) -> None:
    """Opens waiting files until `lanes` are active, each one's first chunk read now into buffer `side`."""
    while len(active) < lanes:
        index = next(waiting, None)
        if index is None:
            return
        try:
            file = open(paths[index], "rb", buffering=0)
        except OSError as exc:
            results[index] = exc
            continue
        stream = _Stream(index, file, spare.pop())
        active.append(stream)
        _read_one(stream, side)


def _read_one(stream: _Stream, side: int) -> None:
    try:
        stream.filled = stream.file.readinto(stream.buffers[side])
    except OSError as exc:  # handed on: the file fails alone
        stream.filled = exc


def _read_round(active: list[_Stream], side: int) -> None:
    for stream in active:
        if isinstance(stream.filled, int) and stream.filled > 0:
            _read_one(stream, side)


def _round(active: list[_Stream], side: int, hashed: Callable[[int], None]) -> int:
    """Hashes every active stream's last chunk (in buffer `side`) together while a second thread
    reads each one's next chunk into the other buffer; returns the side to hash next."""
    n = len(active)
    lens = [s.filled for s in active]
    ctxs = (ctypes.c_void_p * n)(*[ctypes.addressof(s.ctx) for s in active])
    data = (ctypes.c_void_p * n)(*[ctypes.addressof(s.arrays[side]) for s in active])
    sizes = (ctypes.c_size_t * n)(*lens)
    done = allocate_lock()
    done.acquire()
    failure: list[BaseException] = []

    def read() -> None:
        try:
            _read_round(active, 1 - side)
        except BaseException as exc:  # handed to the caller's thread below
            failure.append(exc)
        done.release()

    start_new_thread(read, ())
    try:
        code = _native.lib().libsha_sha256_update_many(ctxs, data, sizes, n)
    finally:
        done.acquire()  # the reader touches the buffers: it must be done before anything goes on
    if failure:
        raise failure[0]
    _errors.check(code)
    hashed(sum(lens))
    return 1 - side


def _finish(stream: _Stream, results: list[bytes | OSError], paths: list[bytes]) -> None:
    """The stream's digest, or its read's OSError, into results; its file closed, its context wiped."""
    if isinstance(stream.filled, OSError):
        error = stream.filled
        if error.filename is None:
            error = OSError(error.errno, error.strerror, os.fsdecode(paths[stream.index]))
        results[stream.index] = error
        stream.close()
        return
    if isinstance(stream.filled, BaseException):
        stream.close()
        raise stream.filled
    out = _native.Digest()
    code = _native.lib_keeping_gil().libsha_sha256_final(stream.ctx, out)
    stream.close()
    _errors.check(code)
    results[stream.index] = out.raw
