"""sha256_64: a level of a Merkle tree, n 64-byte nodes to n digests in one C call (hashtree's call)."""

from __future__ import annotations

import ctypes

from .. import _native
from .._buffers import borrow, writable_out
from .._errors import ERR_ARGUMENT, check
from .nodes import SLICE, NotPlain, long_list, node_buffer, node_slices, plain_nodes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def sha256_64(blocks: Any, /, *, out: Any = None) -> Any:
    """SHA-256 of each 64-byte block: 32 bytes out per 64 in, as bytes.

    `blocks` is one bytes-like object of n x 64 bytes (numpy (n, 64) uint8 rows,
    an Arrow FixedSizeBinary(64) array's data buffer, a memoryview) or a sequence
    of 64-byte bytes-like objects. With `out`, a writable bytes-like object of
    exactly n x 32 bytes (a bytearray, numpy (n, 32) rows; it may be `blocks`'
    own buffer, to hash a level in place), the digests go there and `out` is
    returned. Nothing is written when an argument is wrong.
    """
    if long_list(blocks) and (out is None or plain_nodes(blocks, 64)):
        try:
            return _level_of_slices(blocks, out)
        except NotPlain:  # (out= given: only a list another thread changed since it was checked)
            pass
    data = node_buffer(blocks, "blocks", 64)
    nbytes = len(data) if isinstance(data, bytes) else data.nbytes
    lib = _native.lib()
    if out is None:
        result = ctypes.create_string_buffer(nbytes // 2)
        with borrow(data, "blocks") as (pointer, _):
            check(lib.libsha_sha256_64(result, pointer, nbytes // 64), "sha256_64")
        return result.raw[: nbytes // 2]
    # (The library refuses an overlap other than exactly in place, before it writes.)
    with writable_out(out, nbytes // 2, nbytes // 64) as target, borrow(data, "blocks") as (pointer, _):
        code = lib.libsha_sha256_64(target.address, pointer, nbytes // 64)
    check(code, "sha256_64: out overlaps blocks (only exactly in place is allowed)" if code == ERR_ARGUMENT else "sha256_64")
    return out


def _level_of_slices(blocks: list[Any] | tuple[Any, ...], out: Any) -> Any:
    """A long list of 64-byte bytes hashed a slice at a time, never joined: into a new buffer, or into
    out (whose list the caller checked first, so that nothing is written for a bad one)."""
    lib = _native.lib()
    n = len(blocks)

    def hash_to(address: int) -> None:
        for first, (blocks_at, count) in zip(range(0, n, SLICE), node_slices(blocks, 64)):
            check(lib.libsha_sha256_64(address + 32 * first, blocks_at, count), "sha256_64")

    if out is None:
        result = ctypes.create_string_buffer(32 * n)
        hash_to(ctypes.addressof(result))
        return result.raw
    with writable_out(out, 32 * n, n) as target:
        hash_to(target.address)
    return out
