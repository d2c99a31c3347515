"""sha256_many over numpy and Arrow data, read in place through their buffers.

Imported only when such an object is passed, and never imports numpy or
pyarrow itself before then: they stay optional.
"""

from __future__ import annotations

import ctypes
import sys

from . import _native
from ._buffers import NonContiguousError
from ._many import run_parts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Arrow types whose layout is validity, offsets, data: offsets of 32 or 64 bits.
_OFFSETS32 = ("binary", "string")
_OFFSETS64 = ("large_binary", "large_string")


def numpy_rows(array: Any, flags: int, workers: int) -> Any:
    """(n, 32) uint8 digests of the rows of a 2-D C-contiguous uint8 array."""
    numpy = sys.modules["numpy"]
    if array.ndim != 2:
        raise ValueError(
            f"sha256_many takes a 2-D numpy array, one message per row; this one is {array.ndim}-D"
            + (" (for one message use libsha.sha256; for rows, reshape to (n, length))" if array.ndim == 1 else "")
        )
    if array.dtype != numpy.uint8:
        raise TypeError(f"sha256_many takes a numpy array of uint8, not {array.dtype}")
    if not array.flags.c_contiguous:
        raise NonContiguousError("the numpy array must be C-contiguous (numpy.ascontiguousarray copies it)")
    n, length = array.shape
    out = numpy.empty((n, 32), dtype=numpy.uint8)
    offsets = numpy.arange(n + 1, dtype=numpy.int64) * length
    _offsets_call(out.ctypes.data, array.ctypes.data, offsets.ctypes.data, 8, n, flags, workers)
    return out


def arrow(column: Any, flags: int, workers: int) -> Any:
    """FixedSizeBinary(32) digests of a binary or string Array (or ChunkedArray)."""
    pyarrow = sys.modules["pyarrow"]
    if isinstance(column, pyarrow.ChunkedArray):
        _offset_width(column.type)  # refuse a wrong type even with no chunks
        chunks = [arrow(chunk, flags, workers) for chunk in column.chunks]
        return pyarrow.chunked_array(chunks, type=pyarrow.binary(32))
    width = _offset_width(column.type)
    n = len(column)
    validity, offsets_buffer, data_buffer = column.buffers()[:3]
    # Offsets of a sliced array start at its offset; every one must lie in the data.
    first = column.offset
    needed = width * (first + n + 1) if n else 0
    if n and (offsets_buffer is None or offsets_buffer.size < needed):
        raise ValueError(f"the Arrow array's offsets buffer holds fewer than {first + n + 1} offsets")
    if n:
        last = memoryview(offsets_buffer).cast("i" if width == 4 else "q")[first + n]
        data_size = data_buffer.size if data_buffer is not None else 0
        if last > data_size:
            raise ValueError(f"the Arrow array's offsets reach byte {last} of a {data_size}-byte data buffer")
    out = bytearray(32 * n)
    if n:
        out_view = (ctypes.c_char * len(out)).from_buffer(out)
        data_address = data_buffer.address if data_buffer is not None and data_buffer.size else None
        _offsets_call(
            ctypes.addressof(out_view),
            data_address,
            offsets_buffer.address + width * first,
            width,
            n,
            flags,
            workers,
        )
        del out_view
    if column.null_count == 0:
        validity = None
    elif column.offset != 0:  # the bitmap is shared with the parent: take a fresh one
        validity = column.is_valid().buffers()[1]
    return pyarrow.Array.from_buffers(
        pyarrow.binary(32), n, [validity, pyarrow.py_buffer(out)], null_count=column.null_count
    )


def _offset_width(arrow_type: Any) -> int:
    name = str(arrow_type)
    if name in _OFFSETS32:
        return 4
    if name in _OFFSETS64:
        return 8
    raise TypeError(
        f"sha256_many takes Arrow binary, large_binary, string or large_string data, not {arrow_type}"
    )


def _offsets_call(out: int, data: int | None, offsets: int, width: int, n: int, flags: int, workers: int) -> None:
    lib = _native.lib()
    function = lib.libsha_sha256_many_offsets32 if width == 4 else lib.libsha_sha256_many_offsets64

    def part(start: int, stop: int) -> int:
        # Offsets from `start` on: the C side reads data + offsets[i], so a part
        # needs no rebasing (its first offset is simply above 0).
        code: int = function(out + 32 * start, data, offsets + width * start, stop - start, flags)
        return code

    run_parts(part, n, workers, "sha256_many")
