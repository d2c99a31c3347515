"""sha256_many and hmac_sha256_many: many messages at once, in C, one message per kernel lane."""

from __future__ import annotations

import sys

from . import columns
from .._header import DOUBLE
from .lists import hash_list, hash_list_into
from .._buffers import writable_out
from .._cpus import worker_count
from .starts import Start, after_prefix, under_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable



def sha256_many(messages: Any, *, prefix: Any = None, double: bool = False, threads: int = 1, hex: bool = False,
                arrow_type: Any = None, out: Any = None) -> Any:
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

    `prefix` hashes every message after it: digest i is SHA-256(prefix || message i),
    the prefix hashed once and every lane started from its state. It is
    bytes-like, or a libsha.sha256 object (its message so far; a saved state
    comes in as libsha.sha256.from_state(state)).
    `double=True` gives SHA256(SHA256(m)) (Bitcoin txids). `hex=True` gives
    lowercase hex instead of bytes: str, or a string column (encoded in C).
    `arrow_type` makes an Arrow result (a pyarrow or Arrow-backed pandas
    input's) another type: pyarrow.binary() or pyarrow.large_binary() for the
    digests, pyarrow.large_string() for hex (Spark's Arrow bridge refuses
    FixedSizeBinary; the digest bytes are not copied).
    `threads=N` splits the batch across N threads (0: one per CPU this process
    may use); the GIL is
    released while C hashes, and the order is kept. numpy, pyarrow, polars and
    pandas are imported only when such an object is passed.
    `out=buf` writes the n digests end to end into buf, a writable C-contiguous
    buffer of exactly n x 32 bytes (numpy (n, 32) uint8, a bytearray, a
    memoryview), and returns buf: no object a digest. A wrong size, a read-only,
    non-contiguous or input-overlapping buffer is refused before anything is
    written (as are a column with nulls, and hex=True, which makes text).
    """
    flags = DOUBLE if _flag(double, "double") else 0
    as_hex = _flag(hex, "hex")
    count = worker_count(threads, "threads")
    if prefix is None:
        return hash_messages(messages, flags, count, as_hex, arrow_type, None, "sha256_many", out)
    with after_prefix(prefix) as start:
        return hash_messages(messages, flags, count, as_hex, arrow_type, start, "sha256_many", out)


def hmac_sha256_many(key: Any, messages: Any, *, threads: int = 1, hex: bool = False, arrow_type: Any = None,
                     out: Any = None) -> Any:
    """HMAC-SHA256 of each message under one key, as hmac.digest(key, m, "sha256") gives them, in order.

    `messages` and the results are as sha256_many's (a list of 32-byte bytes, an (n, 32) numpy
    array, an Arrow, polars or pandas column; `hex`, `threads`, `arrow_type` too). `key` is
    bytes-like, or a libsha.HMAC object (its key, and what it has authenticated goes before every
    message). The key's pads are hashed once; each message's inner hash starts from the inner pad's
    state and its outer hash (one block) from the outer pad's, both in the lanes. The key's states
    are wiped before this returns. `out=` as sha256_many's.
    """
    as_hex = _flag(hex, "hex")
    count = worker_count(threads, "threads")
    with under_key(key) as start:
        return hash_messages(messages, 0, count, as_hex, arrow_type, start, "hmac_sha256_many", out)


def hash_messages(messages: Any, flags: int, count: int, as_hex: bool, arrow_type: Any, start: Start | None,
                  name: str, out: Any = None) -> Any:
    """The batch functions' common body: the messages' kind picks the adapter; `name` is the caller's, for errors.
    With out (a caller's buffer), the digests go there and out is returned."""
    adapter = _adapter_for(messages)
    if out is not None:
        if as_hex or arrow_type is not None:
            raise TypeError(f"{name}: out= takes the digests' 32 bytes each; "
                            + ("hex=True makes text" if as_hex else "arrow_type= makes an Arrow column")
                            + ": pass one or the other")
        if adapter is not None:
            adapter(messages, flags, count, False, start=start, out=out)
            return out
    if arrow_type is not None:
        if adapter is not columns.arrow and adapter is not columns.pandas_series:
            raise TypeError(f"arrow_type applies to Arrow columns (pyarrow Arrays, Arrow-backed pandas Series), "
                            f"not a {type(messages).__name__}")
        return adapter(messages, flags, count, as_hex, columns.digest_type(arrow_type, as_hex), start=start)
    if adapter is not None:
        return adapter(messages, flags, count, as_hex, start=start)
    if isinstance(messages, (str, bytes, bytearray, memoryview)):
        raise TypeError(
            f"{name} takes a collection of messages, not one {type(messages).__name__} "
            f"(for one message use {_ONE_MESSAGE[name]})"
        )
    if type(messages) is not list and type(messages) is not tuple:
        try:
            messages = list(messages)
        except TypeError:
            raise TypeError(
                f"{name} takes an iterable of bytes-like objects, not {type(messages).__name__}"
            ) from None
    if out is None:
        return hash_list(messages, flags, count, as_hex, start)
    with writable_out(out, 32 * len(messages), len(messages)) as target:
        hash_list_into(messages, flags, count, start, target)
    return out


# What a caller who passed one message wants instead of each batch function.
_ONE_MESSAGE = {"sha256_many": "libsha.sha256_digest", "hmac_sha256_many": "libsha.hmac_sha256",
                "tagged_hash_many": "libsha.tagged_hash"}


def _adapter_for(messages: object) -> Callable[..., Any] | None:
    """The columns function for a column or array object, or None for a collection."""
    # Only an object of an imported module can be one of its types: nothing is imported here.
    modules = sys.modules
    numpy, pyarrow, polars, pandas = (modules.get(m) for m in ("numpy", "pyarrow", "polars", "pandas"))
    if numpy is not None and isinstance(messages, numpy.ndarray):
        return columns.numpy_rows
    if pyarrow is not None and isinstance(messages, (pyarrow.Array, pyarrow.ChunkedArray)):
        return columns.arrow
    if polars is not None and isinstance(messages, polars.Series):
        return columns.polars_series
    if pandas is not None and isinstance(messages, pandas.Series):
        return columns.pandas_series
    return None


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, (bool, int)):
        raise TypeError(f"{name} must be True or False, not {type(value).__name__}")
    return bool(value)
