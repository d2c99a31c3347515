"""sha256_many: many messages at once, in C, one message per kernel lane."""

from __future__ import annotations

import ctypes
import struct
import sys
from array import array
from bisect import bisect_right
from itertools import accumulate

from . import _native
from ._buffers import item_view
from ._cpus import usable_cpus
from ._errors import check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable

    from typing_extensions import Buffer

# A list goes to C in chunks: up to CHUNK messages or CHUNK_BYTES bytes joined.
# Small enough that the joined bytes reuse heap memory instead of faulting in
# fresh pages, large enough that the per-chunk Python work is noise.
CHUNK = 4096
CHUNK_BYTES = 8 << 20
_PLAIN = frozenset((bytes, bytearray))
_UNPACK_CHUNK = struct.Struct("32s" * CHUNK)


def sha256_many(messages: Any, *, double: bool = False, threads: int = 1, hex: bool = False) -> Any:
    """SHA-256 of each message, as hashlib would give them, in input order.

    `messages` is one of:
    - a list, tuple or any iterable of bytes-like objects: returns a list of
      32-byte `bytes`;
    - a 2-D C-contiguous numpy uint8 array, one message per row: returns an
      (n, 32) uint8 array;
    - a pyarrow Binary, LargeBinary, String or LargeString Array (strings are
      hashed as their UTF-8 bytes, nulls stay null): returns a
      FixedSizeBinary(32) Array; a ChunkedArray of those gives a ChunkedArray;
    - a polars Binary or String Series: returns a Binary Series of the same name;
    - a pandas Series of bytes or str: returns a Series with the same index
      (Arrow-backed ones stay Arrow-backed; in object ones None and NaN stay None).

    `double=True` gives SHA256(SHA256(m)) (Bitcoin txids). `hex=True` gives
    lowercase hex instead of bytes: str, or a string column (encoded in C).
    `threads=N` splits the batch across N threads (0: one per CPU); the GIL is
    released while C hashes, and the order is kept. numpy, pyarrow, polars and
    pandas are imported only when such an object is passed.
    """
    flags = _native.DOUBLE if _flag(double, "double") else 0
    as_hex = _flag(hex, "hex")
    workers = _threads(threads)
    adapter = _adapter_for(messages)
    if adapter is not None:
        from . import _adapters

        return getattr(_adapters, adapter)(messages, flags, workers, as_hex)
    if isinstance(messages, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            f"sha256_many takes a collection of messages, not one {type(messages).__name__} "
            "(for one message use libsha.sha256)"
        )
    if type(messages) is not list and type(messages) is not tuple:
        try:
            messages = list(messages)
        except TypeError:
            raise TypeError(
                f"sha256_many takes an iterable of bytes-like objects, not {type(messages).__name__}"
            ) from None
    return hash_list(messages, flags, workers, as_hex)


def _adapter_for(messages: object) -> str | None:
    """The _adapters function for a column or array object, or None for a collection."""
    # Only an object of an imported module can be one of its types: nothing is imported here.
    modules = sys.modules
    numpy, pyarrow, polars, pandas = (modules.get(m) for m in ("numpy", "pyarrow", "polars", "pandas"))
    if numpy is not None and isinstance(messages, numpy.ndarray):
        return "numpy_rows"
    if pyarrow is not None and isinstance(messages, (pyarrow.Array, pyarrow.ChunkedArray)):
        return "arrow"
    if polars is not None and isinstance(messages, polars.Series):
        return "polars_series"
    if pandas is not None and isinstance(messages, pandas.Series):
        return "pandas_series"
    return None


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, (bool, int)):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return bool(value)


def _threads(threads: object) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int, not {type(threads).__name__}")
    if threads < 0:
        raise ValueError(f"threads must be 0 (one per CPU) or more, not {threads}")
    return threads or usable_cpus()


def _message(index: int, item: object) -> object:
    """A message that is not bytes or bytearray, as a flat byte view."""
    view = item_view(item, f"message {index}", "messages are bytes-like objects")
    return view.cast("B") if view.ndim != 1 or view.format not in ("B", "b", "c") else view


def hash_list(msgs: list[Any] | tuple[Any, ...], flags: int, workers: int, hex: bool = False) -> list[Any]:
    """Digests (bytes, or str with hex) of a list or tuple of bytes-like messages, in order."""
    digests: list[Any] = []
    unpack = _unpack_hex if hex else _unpack
    if workers == 1 or len(msgs) <= CHUNK:
        for chunk in _chunks(msgs):
            digests.extend(unpack(_hash_chunk(*chunk, flags), chunk[2]))
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
            window.append((pool.submit(_hash_chunk, *chunk, flags), chunk[2]))
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


def _hash_chunk(part: list[Any] | tuple[Any, ...], offsets: array[int], count: int, flags: int) -> ctypes.Array[ctypes.c_char]:
    # In a worker thread, join copies a chunk of 1 MiB or more without the GIL too.
    data = b"".join(part)
    out = ctypes.create_string_buffer(32 * count)
    check(_native.lib().libsha_sha256_many_offsets64(out, data, offsets.buffer_info()[0], count, flags))
    return out


def _unpack(out: Buffer, count: int) -> tuple[bytes, ...]:
    unpacker = _UNPACK_CHUNK if count == CHUNK else struct.Struct("32s" * count)
    return unpacker.unpack_from(out)


_HEX_SLICES = [slice(i, i + 64) for i in range(0, 64 * CHUNK, 64)]


def _unpack_hex(out: ctypes.Array[ctypes.c_char], count: int) -> Iterable[str]:
    """The digests as 64-character lowercase str, encoded in C."""
    text = ctypes.create_string_buffer(64 * count)
    check(_native.lib().libsha_hex(text, out, 32 * count))
    return map(text.raw.decode("ascii").__getitem__, _HEX_SLICES[:count])


def run_parts(call: Callable[[int, int], int], n: int, workers: int, what: str = "") -> None:
    """call(start, stop) over [0, n) in up to `workers` contiguous parts, in threads.

    Each part is one C call that releases the GIL; the first error is raised.
    """
    parts = max(1, min(workers, n // 1024 or 1))  # small batches: one call, no threads
    bounds = [n * k // parts for k in range(parts + 1)]
    if parts == 1:
        check(call(0, n), what)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=parts) as pool:
        codes = list(pool.map(call, bounds[:-1], bounds[1:]))
    for code in codes:
        check(code, what)
