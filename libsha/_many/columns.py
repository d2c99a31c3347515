"""sha256_many over numpy, Arrow, Polars and pandas data, read in place through Arrow's buffers.

Imported only when such an object is passed, and never imports those
packages itself before then: they stay optional.
"""

from __future__ import annotations

import ctypes
import importlib
import sys

from .._buffers import writable_out
from .._errors import NonContiguousError
from .._errors import a_type
from .._header import HEX
from .descriptor import offsets_batch, rows_batch, run_batch, views_batch
from .lists import hash_list, hash_list_into

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .starts import Start

# Arrow types whose layout is validity, offsets, data: offsets of 32 or 64 bits;
# and those of validity, 16-byte views, data buffers.
_OFFSETS32 = ("binary", "string")
_OFFSETS64 = ("large_binary", "large_string")
_VIEW_TYPES = ("binary_view", "string_view")
_VIEWS = 16
# The Arrow types a digest column can be made as (sha256_many's arrow_type=), the default first:
# 32 bytes, and 64 characters of hex. Spark's Arrow bridge takes the variable-width ones only.
_DIGEST_TYPES = ("fixed_size_binary[32]", "binary", "large_binary")
_HEX_TYPES = ("string", "large_string")


def numpy_rows(array: Any, flags: int, workers: int, hex: bool, start: Start | None = None, out: Any = None) -> Any:
    """(n, 32) uint8 digests of the rows of a 2-D uint8 array whose rows are contiguous (hex: n str of 64).

    The rows go down as they lie, (address, stride, length): a slice of rows or columns needs no copy."""
    numpy = sys.modules["numpy"]
    if array.ndim != 2:
        raise ValueError(
            f"sha256_many takes a 2-D numpy array, one message per row; this one is {array.ndim}-D"
            + (" (for one message use libsha.sha256_digest; for rows, reshape to (n, length))" if array.ndim == 1 else "")
        )
    if array.dtype != numpy.uint8:
        raise TypeError(f"sha256_many takes a numpy array of uint8, not {array.dtype}")
    n, length = array.shape
    stride = array.strides[0] if n > 1 else length
    if (length > 1 and array.strides[1] != 1) or stride < 0:
        raise NonContiguousError("the numpy array's rows must each be contiguous, in order "
                                 "(numpy.ascontiguousarray copies it)")
    batch = rows_batch(array.ctypes.data, stride, length, n)
    if out is not None:
        with writable_out(out, 32 * n, n) as target:
            target.refuse_overlap(array.ctypes.data, stride * (n - 1) + length if n else 0, "the messages")
            run_batch(target.address, batch, flags, workers, start, lambda i: i * length)
        return out
    digests = numpy.empty((n, 64) if hex else (n, 32), dtype=numpy.uint8)
    flags |= HEX if hex else 0
    run_batch(digests.ctypes.data, batch, flags, workers, start, lambda i: i * length)
    return digests.view("S64").reshape(n).astype("U64") if hex else digests


def digest_type(arrow_type: object, hex: bool) -> Any:
    """arrow_type checked: a pyarrow DataType a digest column can be made as, given hex."""
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is None or not isinstance(arrow_type, pyarrow.DataType):
        raise TypeError(f"arrow_type must be a pyarrow DataType such as pyarrow.binary(), not {type(arrow_type).__name__}")
    allowed = _HEX_TYPES if hex else _DIGEST_TYPES
    if str(arrow_type) not in allowed:
        kind = "hex digests (hex=True)" if hex else "digests"
        names = ", ".join(f"pyarrow.{'binary(32)' if name.startswith('fixed') else name + '()'}" for name in allowed)
        raise TypeError(f"arrow_type for {kind} is one of {names}; not {arrow_type}")
    return arrow_type


def arrow(column: Any, flags: int, workers: int, hex: bool, arrow_type: Any = None, start: Start | None = None,
          out: Any = None) -> Any:
    """Digests of a binary or string Array (or ChunkedArray).

    They are FixedSizeBinary(32), or string with hex (large_string past 2 GiB of text), unless
    arrow_type (checked by digest_type) names another type; with out, end to end in that buffer.
    """
    pyarrow = sys.modules["pyarrow"]
    if out is not None:
        _arrow_into(pyarrow, column, flags, workers, start, out)
        return out
    if isinstance(column, pyarrow.ChunkedArray):
        _offset_width(column.type)  # refuse a wrong type even with no arrays in it
        # Every array's result type is checked before the first is hashed.
        types = {_result_for(pyarrow, len(array), hex, arrow_type) for array in column.chunks}
        if len(types) > 1:
            raise ValueError("hex digests of a chunked column over 2 GiB of text: pass "
                             "arrow_type=pyarrow.large_string(), or hash its arrays (column.chunks) one by one")
        arrays = [arrow(array, flags, workers, hex, arrow_type, start) for array in column.chunks]
        default = pyarrow.string() if hex else pyarrow.binary(32)
        return pyarrow.chunked_array(arrays, type=types.pop() if types else arrow_type or default)
    _offset_width(column.type)
    n = len(column)
    result = _result_for(pyarrow, n, hex, arrow_type)
    validity = column.buffers()[0]
    # Arrow's memory pool, not bytearray: its freed pages are reused, where a
    # fresh 64 MB bytearray is mapped and faulted in page by page on each call.
    out = pyarrow.allocate_buffer(64 * n if hex else 32 * n)  # hex: made in the same call
    if n:
        _array_call(out.address, column, flags | (HEX if hex else 0), workers, start)
    if column.null_count == 0:
        validity = None
    elif column.offset != 0:  # the bitmap is shared with the parent: take a fresh one
        validity = column.is_valid().buffers()[1]
    if result == pyarrow.binary(32):
        return pyarrow.Array.from_buffers(result, n, [validity, out], null_count=column.null_count)
    # binary, large_binary or hex's strings: the digests or their text, with offsets 0, 32 (64), 64 (128), ...
    return pyarrow.Array.from_buffers(result, n, [validity, _fixed_offsets(pyarrow, n, 64 if hex else 32, result), out],
                                      null_count=column.null_count)


def _arrow_into(pyarrow: Any, column: Any, flags: int, workers: int, start: Start | None, out: Any) -> None:
    """An Array's or ChunkedArray's digests end to end in out: every array of it checked (type, no
    nulls, no buffer shared with out) before the first is hashed."""
    arrays = column.chunks if isinstance(column, pyarrow.ChunkedArray) else [column]
    _offset_width(column.type)
    if column.null_count:
        raise ValueError(f"the column has {column.null_count} nulls, and out= has no place to say so: "
                         "drop them first (pyarrow.compute.drop_null), or leave out= and get a column back")
    n = len(column)
    with writable_out(out, 32 * n, n) as target:
        for array in arrays:
            for buffer in array.buffers():
                if buffer is not None:
                    target.refuse_overlap(buffer.address, buffer.size, "the column's buffers")
        done = 0
        for array in arrays:
            if len(array):
                _array_call(target.address + 32 * done, array, flags, workers, start)
            done += len(array)


def _array_call(out: int, array: Any, flags: int, workers: int, start: Start | None) -> None:
    """One Array's digests (or hex) to address out, read in place."""
    width, buffers = _offset_width(array.type), array.buffers()
    if width == _VIEWS:
        _views_call(out, buffers[1], buffers[2:], array.offset, len(array), flags, workers, start)
    else:
        _offsets_checked_call(out, buffers[1], buffers[2], width, array.offset, len(array), flags, workers, start)


def _result_for(pyarrow: Any, n: int, hex: bool, arrow_type: Any) -> Any:
    """The Arrow type of n digests; refused before any hashing where 32-bit offsets cannot reach them."""
    width = 64 if hex else 32
    fits = width * n < 1 << 31
    if arrow_type is None:
        return (pyarrow.string() if fits else pyarrow.large_string()) if hex else pyarrow.binary(32)
    if not fits and arrow_type in (pyarrow.string(), pyarrow.binary()):
        raise ValueError(f"{n} digests of {width} bytes pass the 2 GiB that {arrow_type}'s 32-bit offsets reach: "
                         f"use arrow_type=pyarrow.large_{arrow_type}(), or hash the column in parts")
    return arrow_type


def _offsets_checked_call(out: int, offsets_buffer: Any, data_buffer: Any, width: int, first: int, n: int,
                          flags: int, workers: int, start: Start | None) -> None:
    """Offsets of a sliced array start at its offset; every one must lie in the data."""
    if offsets_buffer is None or offsets_buffer.size < width * (first + n + 1):
        raise ValueError(f"the Arrow array's offsets buffer holds fewer than {first + n + 1} offsets")
    last = memoryview(offsets_buffer).cast("i" if width == 4 else "q")[first + n]
    data_size = data_buffer.size if data_buffer is not None else 0
    if last > data_size:
        raise ValueError(f"the Arrow array's offsets reach byte {last} of a {data_size}-byte data buffer")
    data_address = data_buffer.address if data_buffer is not None and data_buffer.size else None
    _offsets_call(out, data_address, offsets_buffer.address + width * first, width, n, flags, workers, start)


def _views_call(out: int, views: Any, data_buffers: list[Any], first: int, n: int, flags: int, workers: int,
                start: Start | None) -> None:
    """Binary views (Polars' and DuckDB's layout): C checks each view against its buffer's size."""
    if views is None or views.size < 16 * (first + n):
        raise ValueError(f"the Arrow array's views buffer holds fewer than {first + n} views")
    count = len(data_buffers)
    addresses = (ctypes.c_void_p * max(count, 1))(*[b.address if b is not None else None for b in data_buffers])
    sizes = (ctypes.c_int64 * max(count, 1))(*[b.size if b is not None else 0 for b in data_buffers])
    # Views give no running total of their lengths: the parts assume the bytes
    # of the data buffers are spread evenly over the views.
    spread = sum(sizes[:count])
    run_batch(out, views_batch(views.address + 16 * first, addresses, sizes, count, n), flags, workers, start,
              lambda i: spread * i // n)


def polars_series(series: Any, flags: int, workers: int, hex: bool, start: Start | None = None,
                  out: Any = None) -> Any:
    """A Binary or String polars Series in, a Series of the same name out (Binary, or String with hex)."""
    polars = sys.modules["polars"]
    if series.dtype not in (polars.Binary, polars.String):
        raise TypeError(f"sha256_many takes a polars Binary or String Series, not {series.dtype}")
    _import_pyarrow()
    # Polars keeps binary views: at the newest compat level they come out as they are, no copy.
    newest = getattr(getattr(polars, "CompatLevel", None), "newest", None)
    column = series.to_arrow(compat_level=newest()) if newest is not None else series.to_arrow()
    if out is not None:
        return arrow(column, flags, workers, hex, None, start, out)
    return polars.Series(series.name, arrow(column, flags, workers, hex, None, start))


def pandas_series(series: Any, flags: int, workers: int, hex: bool, arrow_type: Any = None,
                  start: Start | None = None, out: Any = None) -> Any:
    """A pandas Series of bytes or str in, a Series with the same index and name out.

    Arrow-backed Series go through Arrow without a copy and come back Arrow-backed (as
    arrow_type, if given); object Series go through the list path (str as UTF-8; None and
    NaN stay None).
    """
    pandas = sys.modules["pandas"]
    dtype = series.dtype
    if hasattr(series.array, "__arrow_array__") and not isinstance(dtype, pandas.CategoricalDtype) \
            and (isinstance(dtype, pandas.ArrowDtype) or getattr(dtype, "storage", None) == "pyarrow"):
        pyarrow = _import_pyarrow()
        arrow_column = series.array.__arrow_array__()
        try:
            _offset_width(arrow_column.type)
        except TypeError:
            raise TypeError(f"sha256_many takes a pandas Series of bytes or str, not {dtype}") from None
        if out is not None:
            return arrow(arrow_column, flags, workers, hex, None, start, out)
        digests = arrow(arrow_column, flags, workers, hex, arrow_type, start)
        if isinstance(digests, pyarrow.ChunkedArray) and digests.num_chunks == 1:
            digests = digests.chunk(0)
        return pandas.Series(pandas.arrays.ArrowExtensionArray(digests), index=series.index, name=series.name)
    if dtype != object and not isinstance(dtype, pandas.StringDtype):
        raise TypeError(f"sha256_many takes a pandas Series of bytes or str, not {dtype}")
    if arrow_type is not None:
        raise TypeError(f"arrow_type applies to Arrow-backed pandas Series; this one is {dtype} "
                        "(its digests come back as bytes or str objects)")
    values = series.tolist()
    present = [i for i, v in enumerate(values) if not _missing(pandas, v)]
    messages = [_as_bytes(values[i], series.index[i]) for i in present]
    if out is not None:
        if len(present) != len(values):
            raise ValueError(f"the Series has {len(values) - len(present)} missing values, and out= has no place "
                             "to say so: drop them first (Series.dropna), or leave out= and get a Series back")
        with writable_out(out, 32 * len(messages), len(messages)) as target:
            hash_list_into(messages, flags, workers, start, target)
        return out
    column: list[Any] = [None] * len(values)
    for i, digest in zip(present, hash_list(messages, flags, workers, hex, start)):
        column[i] = digest
    return pandas.Series(column, index=series.index, name=series.name, dtype=object)


def _missing(pandas: Any, value: object) -> bool:
    return value is None or value is pandas.NA or (isinstance(value, float) and value != value)


def _as_bytes(value: object, label: object) -> object:
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, (bytes, bytearray, memoryview)):
        return value
    raise TypeError(f"the value at index {label!r} is {a_type(value)}; sha256_many takes bytes or str")


def _import_pyarrow() -> Any:
    try:
        return importlib.import_module("pyarrow")
    except ImportError:
        raise ImportError("hashing this column goes through Arrow: pip install pyarrow (or 'libsha[columns]')") from None


def _offset_width(arrow_type: Any) -> int:
    name = str(arrow_type)
    if name in _OFFSETS32:
        return 4
    if name in _OFFSETS64:
        return 8
    if name in _VIEW_TYPES:
        return _VIEWS
    raise TypeError(
        f"sha256_many takes Arrow binary, large_binary, string, large_string, binary_view or string_view data, "
        f"not {arrow_type}"
    )


def _fixed_offsets(pyarrow: Any, n: int, width: int, arrow_type: Any) -> Any:
    """Arrow offsets 0, width, 2 * width, ... (n + 1 of them) for arrow_type, summed by Arrow, not in Python."""
    compute = importlib.import_module("pyarrow.compute")
    large = arrow_type in (pyarrow.large_string(), pyarrow.large_binary())
    kind = pyarrow.int64() if large else pyarrow.int32()
    steps = pyarrow.repeat(pyarrow.scalar(width, kind), n)
    sums = compute.cumulative_sum(steps) if n else pyarrow.array([], kind)
    return pyarrow.concat_arrays([pyarrow.array([0], kind), sums]).buffers()[1]


def _offsets_call(out: int, data: int | None, offsets: int, width: int, n: int, flags: int, workers: int,
                  start: Start | None) -> None:
    read = (ctypes.c_int32 if width == 4 else ctypes.c_int64) * (n + 1)
    at = read.from_address(offsets)  # the parts are split by the bytes they hash
    run_batch(out, offsets_batch(width, data, offsets, n), flags, workers, start, lambda i: at[i] - at[0])
