"""The batch descriptor, libsha_batch (libsha.h): built here in each layout, a part of it (a
contiguous run of its messages), and the one call that hashes it (run_batch, split over threads by
_threads.run_parts)."""

from __future__ import annotations

import ctypes

from .. import _native
from .._header import HEX, OFFSETS32, OFFSETS64, POINTERS, ROWS, VIEWS, Batch
from .._threads import run_parts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from .starts import Start


def offsets_batch(width: int, data: int | None, offsets: int, n: int) -> Batch:
    """Arrow's layout: n + 1 offsets of `width` bytes (4 or 8) into data."""
    if width == 4:
        return Batch(layout=OFFSETS32, n=n, data=data, offsets32=offsets)
    return Batch(layout=OFFSETS64, n=n, data=data, offsets64=offsets)


def rows_batch(data: int, stride: int, length: int, n: int) -> Batch:
    """Rows of one length, stride bytes apart."""
    return Batch(layout=ROWS, n=n, data=data, stride=stride, len=length)


def views_batch(views: int, buffers: Any, sizes: Any, nbuffers: int, n: int) -> Batch:
    """Arrow's binary views into nbuffers buffers (ctypes arrays of their addresses and sizes)."""
    return Batch(layout=VIEWS, n=n, views=views, buffers=ctypes.addressof(buffers),
                         buffer_sizes=ctypes.addressof(sizes), nbuffers=nbuffers)


# What one message takes in each layout's arrays, for a part's (a slice of the batch) first message.
_STEP = {POINTERS: (("msgs", ctypes.sizeof(ctypes.c_void_p)), ("lens", ctypes.sizeof(ctypes.c_size_t))),
         OFFSETS32: (("offsets32", 4),), OFFSETS64: (("offsets64", 8),), VIEWS: (("views", 16),)}


def batch_part(batch: Batch, first: int, stop: int) -> Batch:
    """Messages [first, stop) of batch, as a batch of their own (no byte copied: offsets need no rebasing,
    the C side reads data + offsets[i])."""
    part = Batch.from_buffer_copy(batch)
    part.n = stop - first
    if batch.layout == ROWS:
        part.data = (batch.data or 0) + batch.stride * first if batch.len else batch.data
    for field, size in _STEP.get(batch.layout, ()):
        setattr(part, field, getattr(batch, field) + size * first)
    return part


def hash_batch(out: int, batch: Batch, start: Start | None, flags: int) -> int:
    """libsha_sha256_batch: the batch's digests (or hex) to address out, from start if given; the return code."""
    prefix, hmac = (None, None) if start is None else start.contexts()
    code: int = _native.lib().libsha_sha256_batch(out, ctypes.byref(batch), prefix, hmac, flags)
    return code


def run_batch(out: int, batch: Batch, flags: int, workers: int, start: Start | None,
              bytes_before: Callable[[int], int] | None, what: str = "sha256_many") -> None:
    """The batch hashed to address out, in parts over up to `workers` threads (see run_parts)."""
    size = 64 if flags & HEX else 32

    def part(first: int, stop: int) -> int:
        return hash_batch(out + size * first, batch_part(batch, first, stop), start, flags)

    run_parts(part, batch.n, workers, what, bytes_before)
