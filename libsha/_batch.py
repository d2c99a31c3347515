"""The batch primitives under sha256_many and its adapters: a list of messages hashed in chunks
(hash_list), and a C call split over worker threads (run_parts)."""

from __future__ import annotations

import ctypes
import struct
from array import array
from bisect import bisect_right
from itertools import accumulate

from . import _native
from ._buffers import item_view
from ._errors import check
from ._starts import many_function

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable

    from typing_extensions import Buffer

    from ._starts import Start

# A list goes to C in chunks: up to CHUNK messages or CHUNK_BYTES bytes joined.
# Small enough that the joined bytes reuse heap memory instead of faulting in
# fresh pages, large enough that the per-chunk Python work is noise.
CHUNK = 4096
CHUNK_BYTES = 8 << 20
_PLAIN = frozenset((bytes, bytearray))
_UNPACK_CHUNK = struct.Struct("32s" * CHUNK)


def _message(index: int, item: object) -> object:
    """A message that is not bytes or bytearray, as a flat byte view."""
    view = item_view(item, f"message {index}", "messages are bytes-like objects")
    return view.cast("B") if view.ndim != 1 or view.format not in ("B", "b", "c") else view


def hash_list(msgs: list[Any] | tuple[Any, ...], flags: int, workers: int, hex: bool = False,
              start: Start | None = None) -> list[Any]:
    """Digests (bytes, or str with hex) of a list or tuple of bytes-like messages, in order (each
    after start's prefix or under its key, if given)."""
    digests: list[Any] = []
    unpack = _unpack_hex if hex else _unpack
    flags |= _native.HEX if hex else 0
    accel = _native.ACCEL
    if accel is not None and (workers == 1 or len(msgs) <= CHUNK):
        _native.lib()  # (refused as every hashing call is while LIBSHA_IMPL is invalid)
        kind, address = (0, 0) if start is None else start.accel_arguments()
        made: list[Any] = accel.hash_list(msgs, flags, kind, address)
        if made is not NotImplemented:  # (it takes lists of bytes objects only)
            return made
    if workers == 1 or len(msgs) <= CHUNK:
        for chunk in _chunks(msgs):
            digests.extend(unpack(_hash_chunk(*chunk, flags, start), chunk[2]))
        return digests
    # The calling thread checks and measures the next chunks while the workers
    # join and hash them (mostly without the GIL); a window of 2 chunks per
    # worker bounds the copies.
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        window: deque[Any] = deque()
        for chunk in _chunks(msgs):
            if len(window) >= 2 * workers:
                future, count = window.popleft()
                digests.extend(unpack(future.result(), count))
            window.append((pool.submit(_hash_chunk, *chunk, flags, start), chunk[2]))
        for future, count in window:
            digests.extend(unpack(future.result(), count))
    return digests


def _chunks(msgs: list[Any] | tuple[Any, ...]) -> Iterable[tuple[list[Any] | tuple[Any, ...], array[int], int]]:
    """(messages, their n + 1 offsets end to end, n) for each chunk.

    Each chunk is a slice taken and checked under the GIL, so a list another
    thread changes meanwhile never hands C an unchecked object.
    """
    start = 0
    while start < len(msgs):
        part = msgs[start : start + CHUNK]
        if not _PLAIN.issuperset(map(type, part)):
            part = [m if type(m) in _PLAIN else _message(start + i, m) for i, m in enumerate(part)]
        lengths = list(map(len, part))
        count = len(part)
        if lengths.count(lengths[0]) == count:  # one length (records, hashes): no sums to run
            offsets = _uniform_offsets(lengths[0], count)
        else:
            offsets = array("q", accumulate(lengths, initial=0))
        if offsets[-1] > CHUNK_BYTES and count > 1:  # long messages: fewer per chunk
            count = max(1, bisect_right(offsets, CHUNK_BYTES) - 1)
            part, offsets = part[:count], offsets[: count + 1]
        yield part, offsets, count
        start += count


_uniform_cache: dict[int, array[int]] = {}


def _uniform_offsets(length: int, count: int) -> array[int]:
    """0, length, 2 * length, ... (count + 1 of them); full chunks' are kept."""
    offsets = _uniform_cache.get(length) if count == CHUNK else None
    if offsets is None:
        offsets = array("q", range(0, (count + 1) * length, length)) if length else array("q", [0]) * (count + 1)
        if count == CHUNK:
            if len(_uniform_cache) >= 16:
                _uniform_cache.clear()
            _uniform_cache[length] = offsets
    return offsets


def _hash_chunk(part: list[Any] | tuple[Any, ...], offsets: array[int], count: int, flags: int,
                start: Start | None) -> ctypes.Array[ctypes.c_char]:
    # In a worker thread, join copies a chunk of 1 MiB or more without the GIL too.
    data = b"".join(part)
    out = ctypes.create_string_buffer((64 if flags & _native.HEX else 32) * count)
    check(many_function("_offsets64", start)(out, data, offsets.buffer_info()[0], count, flags))
    return out


def _unpack(out: Buffer, count: int) -> tuple[bytes, ...]:
    unpacker = _UNPACK_CHUNK if count == CHUNK else struct.Struct("32s" * count)
    return unpacker.unpack_from(out)


_HEX_SLICES = [slice(i, i + 64) for i in range(0, 64 * CHUNK, 64)]


def _unpack_hex(out: ctypes.Array[ctypes.c_char], count: int) -> Iterable[str]:
    """The digests' 64-character lowercase text, made by the hashing call (LIBSHA_HEX)."""
    return map(out.raw.decode("ascii").__getitem__, _HEX_SLICES[:count])


# A part of a split batch is worth a thread from about this much work: a
# message's bytes plus a block for its padding and call (1 ms at 0.5 GB/s).
PART_WORK = 512 << 10
# Parts per worker: the workers take parts as they finish, so one held back
# (a vCPU the host wakes late, another process) leaves its share to the others.
PARTS_PER_WORKER = 2


def run_parts(call: Callable[[int, int], int], n: int, workers: int, what: str = "",
              bytes_before: Callable[[int], int] | None = None) -> None:
    """call(start, stop) over [0, n) in contiguous parts of about equal work, on up to `workers` threads.

    Each part is one C call that releases the GIL; the first error is raised.
    bytes_before(i), the bytes of messages 0 .. i - 1, splits a batch by its
    bytes, not its count (without it every message counts as one block). The
    calling thread is one of the workers.
    """
    def work(i: int) -> int:
        return (bytes_before(i) if bytes_before is not None else 0) + 64 * i

    total = work(n)
    workers = max(1, min(workers, n, total // PART_WORK))  # small batches: one call, no threads
    if workers == 1:
        check(call(0, n), what)
        return
    parts = min(n, workers * PARTS_PER_WORKER, max(workers, total // PART_WORK))
    bounds = [0] + [_first_reaching(work, total * k // parts, n) for k in range(1, parts)] + [n]
    from queue import Empty, SimpleQueue
    from threading import Thread

    todo: SimpleQueue[tuple[int, int]] = SimpleQueue()
    for start, stop in zip(bounds[:-1], bounds[1:]):
        if start < stop:
            todo.put((start, stop))
    codes: list[int] = []

    def take_parts() -> None:
        try:
            while True:
                codes.append(call(*todo.get_nowait()))
        except Empty:
            pass

    helpers = [Thread(target=take_parts, daemon=True) for _ in range(workers - 1)]
    for helper in helpers:
        helper.start()
    take_parts()
    for helper in helpers:
        helper.join()
    for code in codes:
        check(code, what)


def _first_reaching(work: Callable[[int], int], target: int, n: int) -> int:
    """The least i in [0, n] with work(i) >= target (work grows with i)."""
    low, high = 0, n
    while low < high:
        middle = (low + high) // 2
        if work(middle) < target:
            low = middle + 1
        else:
            high = middle
    return low
