"""A Python list (or tuple) of messages hashed: on the ctypes path in slices, each joined and handed
to the batch call (descriptor.py), over threads where asked; on the accelerated path by the
accelerator's hash_bytes_list, which reads a list of bytes in place, the ctypes path's slices taking
every other kind of item. _binding chooses between the two at import."""

from __future__ import annotations

import ctypes
import struct
from array import array
from bisect import bisect_right
from itertools import accumulate

from .._binding import take_accelerated
from .._buffers import address_of_bytes, writable_out
from .._errors import check
from .._header import HEX
from .._threads import run_parts
from .._views import item_view
from .descriptor import hash_batch, offsets_batch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable

    from typing_extensions import Buffer

    from .starts import Start

# A list goes to C in slices: up to SLICE messages or SLICE_BYTES bytes joined.
# Small enough that the joined bytes reuse heap memory instead of faulting in
# fresh pages, large enough that the per-slice Python work is noise.
SLICE = 4096
SLICE_BYTES = 8 << 20
# As a dict that changes size while it is iterated: whatever was hashed, no digest is returned.
_CHANGED_SIZE = "the list of messages changed size while it was hashed"
_PLAIN = frozenset((bytes, bytearray))
_UNPACK_SLICE = struct.Struct("32s" * SLICE)


def _message(index: int, item: object) -> object:
    """A message that is not bytes or bytearray, as a flat byte view."""
    view = item_view(item, f"message {index}", "messages are bytes-like objects")
    return view.cast("B") if view.ndim != 1 or view.format not in ("B", "b", "c") else view


def hash_list(msgs: list[Any] | tuple[Any, ...], flags: int, workers: int, hex: bool = False,
              start: Start | None = None) -> list[Any]:
    """Digests (bytes, or str with hex) of a list or tuple of bytes-like messages, in order (each
    after start's prefix or under its key, if given)."""
    digests = _digests(msgs, flags, workers, hex, start, None)
    assert digests is not None
    return digests


def hash_list_into(msgs: list[Any] | tuple[Any, ...], flags: int, workers: int, start: Start | None,
                   out: writable_out) -> None:
    """hash_list's digests written end to end into a caller's buffer (out=), checked by writable_out."""
    _digests(msgs, flags, workers, False, start, out)


def _ctypes_digests(msgs: list[Any] | tuple[Any, ...], flags: int, workers: int, hex: bool, start: Start | None,
                    out: writable_out | None) -> list[Any] | None:
    """The ctypes path's: the list in slices (over threads where asked), each joined into one buffer
    and handed to the batch call; the digests as a list, or into out."""
    flags |= HEX if hex else 0
    width = 64 if hex else 32
    n = _count(msgs, out, width)
    if out is not None:
        _overlaps_refused(msgs, out)
    if workers == 1 or n <= SLICE:
        digests: list[Any] = []
        done = 0
        for sliced in _slices(msgs, n):
            if out is not None:
                _hash_slice_at(out.address + width * done, *sliced, flags, start)
            else:
                digests.extend(_unpack_any(_hash_slice(*sliced, flags, start), sliced[2], hex))
            done += sliced[2]
        return None if out is not None else digests
    return _python_parts(msgs, n, flags, workers, hex, start, out)


def _count(msgs: list[Any] | tuple[Any, ...], out: writable_out | None, width: int) -> int:
    """How many messages are hashed: as many as out= was sized for (a list another thread shortens
    before they are read is refused against that count, never leaves out= part unwritten), else
    the list's length now."""
    return out.nbytes // width if out is not None else len(msgs)


def _accelerated_digests(msgs: list[Any] | tuple[Any, ...], flags: int, workers: int, hex: bool,
                         start: Start | None, out: writable_out | None) -> list[Any] | None:
    """The accelerated path's: a list of bytes read in place by the accelerator (in parts over
    threads where asked); a list holding other items goes the ctypes path's way."""
    flags |= HEX if hex else 0
    kind, address = (0, 0) if start is None else start.accel_arguments()
    width = 64 if hex else 32
    n = _count(msgs, out, width)
    # A caller's buffer is written only when no item can send the list to the Python path midway.
    if out is None or _all_bytes(msgs):
        if workers == 1 or n <= SLICE:
            made: list[Any] | None = _hash_bytes_list(msgs, flags, kind, address, SLICE, out.address if out else 0, 0, n)
            if made is not NotImplemented:  # (it takes lists of bytes objects only)
                return made
            if out is not None:  # (all bytes a moment before: it lost items meanwhile)
                raise RuntimeError(_CHANGED_SIZE)
        else:
            parts = _accel_parts(msgs, n, flags, workers, kind, address, out, width)
            if parts is not None:
                if out is not None:
                    return None
                joined: list[Any] = []
                for _, made in sorted(parts, key=lambda p: p[0]):
                    joined += made
                return joined
    return _ctypes_digests(msgs, flags, workers, hex, start, out)


def _accel_parts(msgs: list[Any] | tuple[Any, ...], n: int, flags: int, workers: int, kind: int, address: int,
                 out: writable_out | None, width: int) -> list[tuple[int, list[Any]]] | None:
    """The accelerator's hash_bytes_list on parts of the list over up to `workers` threads: each part's
    digests into its place in out, or as (first, its list of digests), each part's objects made by its
    own thread while the others hash (no list shared between threads: free-threaded, each write to
    one would take its lock). None where an item is not exact bytes (only without out, which
    all_bytes checked first): the Python path takes the list. n: _count's."""
    # The parts are split by an estimate of each message's bytes: a sample's mean length (summing
    # every length would cost a tenth of hashing short messages).
    sample = msgs[:: max(1, n // 64)]
    try:
        mean = sum(map(len, sample)) // max(1, len(sample))
    except TypeError:
        return None  # an item without a length: not bytes
    parts: list[tuple[int, list[Any]]] = []
    refused = []

    def part(first: int, stop: int) -> int:
        into = out.address + width * first if out is not None else 0
        made = _hash_bytes_list(msgs, flags, kind, address, SLICE, into, first, stop)
        if made is NotImplemented:
            if out is not None:  # (all bytes a moment before: it lost items meanwhile)
                raise RuntimeError(_CHANGED_SIZE)
            refused.append(first)
        elif made is not None:
            parts.append((first, made))  # (list.append is atomic, free-threaded too)
        return 0

    run_parts(part, n, workers, "sha256_many", lambda i: i * mean)
    return None if refused else parts


def _python_parts(msgs: list[Any] | tuple[Any, ...], n: int, flags: int, workers: int, hex: bool,
                  start: Start | None, out: writable_out | None) -> list[Any] | None:
    """The Python path's slices over worker threads: the calling thread checks and measures the next
    slices while the workers join and hash them (mostly without the GIL); a window of 2 slices per
    worker bounds the copies."""
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    width = 64 if hex else 32
    digests: list[Any] = []
    done = 0
    with ThreadPoolExecutor(max_workers=workers) as pool:
        window: deque[Any] = deque()
        for sliced in _slices(msgs, n):
            if len(window) >= 2 * workers:
                future, count = window.popleft()
                result = future.result()
                if out is None:
                    digests.extend(_unpack_any(result, count, hex))
            if out is not None:
                window.append((pool.submit(_hash_slice_at, out.address + width * done, *sliced, flags, start), sliced[2]))
            else:
                window.append((pool.submit(_hash_slice, *sliced, flags, start), sliced[2]))
            done += sliced[2]
        for future, count in window:
            result = future.result()
            if out is None:
                digests.extend(_unpack_any(result, count, hex))
    return None if out is not None else digests


def _overlaps_refused(msgs: list[Any] | tuple[Any, ...], out: writable_out) -> None:
    """Every message checked (the error naming it) and none sharing memory with out, before anything
    is written (bytes never does)."""
    for i, m in enumerate(msgs):
        if type(m) is not bytes:
            view = _message(i, m)
            out.refuse_overlap_with(view, f"message {i}")


def _unpack_any(out: ctypes.Array[ctypes.c_char], count: int, hex: bool) -> Iterable[Any]:
    return _unpack_hex(out, count) if hex else _unpack(out, count)


def hash_list_joined(msgs: list[Any] | tuple[Any, ...], start: Start | None) -> ctypes.Array[ctypes.c_char]:
    """The digests of a list or tuple of bytes-like messages end to end in one buffer, 32 bytes
    each: no bytes object a digest (a Merkle tree's leaves, read by the next call in place)."""
    n = len(msgs)
    out = ctypes.create_string_buffer(32 * n)
    _joined_into(ctypes.addressof(out), msgs, n, start)  # (n: a list shortened meanwhile is refused)
    return out


def _ctypes_joined_into(address: int, msgs: list[Any] | tuple[Any, ...], n: int, start: Start | None) -> None:
    """The ctypes path's hash_list_joined: slice by slice to address."""
    done = 0
    for part, offsets, count in _slices(msgs, n):
        _hash_slice_at(address + 32 * done, part, offsets, count, 0, start)
        done += count


def _accelerated_joined_into(address: int, msgs: list[Any] | tuple[Any, ...], n: int, start: Start | None) -> None:
    """The accelerated path's: the accelerator reads a list of bytes in place; other items go the
    ctypes path's way."""
    kind, context = (0, 0) if start is None else start.accel_arguments()
    if _hash_bytes_list(msgs, 0, kind, context, SLICE, address, 0, n) is NotImplemented:
        _ctypes_joined_into(address, msgs, n, start)


def _slices(msgs: list[Any] | tuple[Any, ...], n: int) -> Iterable[tuple[list[Any] | tuple[Any, ...], array[int], int]]:
    """(messages, their count + 1 offsets end to end, count) for each slice of the first n messages
    (a list of another length is refused: it changed size since n was taken).

    Each slice is taken and checked under the GIL, so a list another
    thread changes meanwhile never hands C an unchecked object.
    """
    first = 0
    while first < n:
        if len(msgs) != n:
            raise RuntimeError(_CHANGED_SIZE)
        part = msgs[first : first + SLICE]
        if not _PLAIN.issuperset(map(type, part)):
            part = [m if type(m) in _PLAIN else _message(first + i, m) for i, m in enumerate(part)]
        lengths = list(map(len, part))
        count = len(part)
        if lengths.count(lengths[0]) == count:  # one length (records, hashes): no sums to run
            offsets = _uniform_offsets(lengths[0], count)
        else:
            offsets = array("q", accumulate(lengths, initial=0))
        if offsets[-1] > SLICE_BYTES and count > 1:  # long messages: fewer per slice
            count = max(1, bisect_right(offsets, SLICE_BYTES) - 1)
            part, offsets = part[:count], offsets[: count + 1]
        yield part, offsets, count
        first += count


_uniform_cache: dict[int, array[int]] = {}


def _uniform_offsets(length: int, count: int) -> array[int]:
    """0, length, 2 * length, ... (count + 1 of them); full slices' are kept."""
    offsets = _uniform_cache.get(length) if count == SLICE else None
    if offsets is None:
        offsets = array("q", range(0, (count + 1) * length, length)) if length else array("q", [0]) * (count + 1)
        if count == SLICE:
            if len(_uniform_cache) >= 16:
                _uniform_cache.clear()
            _uniform_cache[length] = offsets
    return offsets


def _hash_slice(messages: list[Any] | tuple[Any, ...], offsets: array[int], count: int, flags: int,
                start: Start | None) -> ctypes.Array[ctypes.c_char]:
    out = ctypes.create_string_buffer((64 if flags & HEX else 32) * count)
    _hash_slice_at(ctypes.addressof(out), messages, offsets, count, flags, start)
    return out


def _hash_slice_at(out: int, messages: list[Any] | tuple[Any, ...], offsets: array[int], count: int, flags: int,
                   start: Start | None) -> None:
    # In a worker thread, join copies a slice of 1 MiB or more without the GIL too.
    with address_of_bytes(b"".join(messages)) as data:
        check(hash_batch(out, offsets_batch(8, data, offsets.buffer_info()[0], count), start, flags))


def _unpack(out: Buffer, count: int) -> tuple[bytes, ...]:
    unpacker = _UNPACK_SLICE if count == SLICE else struct.Struct("32s" * count)
    return unpacker.unpack_from(out)


_HEX_SLICES = [slice(i, i + 64) for i in range(0, 64 * SLICE, 64)]


def _unpack_hex(out: ctypes.Array[ctypes.c_char], count: int) -> Iterable[str]:
    """The digests' 64-character lowercase text, made by the hashing call (LIBSHA_HEX)."""
    return map(out.raw.decode("ascii").__getitem__, _HEX_SLICES[:count])


# Each path's list call: the ctypes path's, and the accelerated path's where the accelerator loads
# (libsha/_binding.py), with the accelerator's two list functions it calls (None on the ctypes path).
_digests, _joined_into = _ctypes_digests, _ctypes_joined_into
_hash_bytes_list: Any = None
_all_bytes: Any = None
take_accelerated(globals(), _digests=_accelerated_digests, _joined_into=_accelerated_joined_into,
                 _hash_bytes_list="hash_bytes_list", _all_bytes="all_bytes")
