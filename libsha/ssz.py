"""Ethereum consensus SSZ Merkleization in C: merkleize, mix_in_length, and the roots of lists.

    from libsha import ssz
    ssz.merkleize(chunks)                      # chunks: n x 32 bytes, or a list of 32-byte chunks
    ssz.merkleize(chunks, limit=2**40)         # padded to the limit's power of two (zero subtrees)
    ssz.merkleize_packed(serialized, limit=L)  # basic values packed into chunks, the last zero-padded
    ssz.mix_in_length(root, n)                 # SHA-256(root || n as 32 little-endian bytes)
    ssz.basic_list_root(serialized, item_size, limit)   # List[uintN, limit]'s hash_tree_root
    ssz.composite_list_root(roots, limit)               # List[Container, limit]'s, from its items' roots

Every all-zero subtree is a precomputed constant, never hashed; the chunks' own levels go through
the CPU's widest lanes, a slice at a time (bounded memory for any count).
"""

from __future__ import annotations

import ctypes

from . import _native
from ._buffers import borrow
from ._errors import check
from ._one.oneshot import sha256_digest as _sha256
from ._trees.nodes import SLICE, SLICE_HEIGHT, NotPlain, count, fixed, long_list, node_buffer, node_slices
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["basic_list_root", "composite_list_root", "merkleize", "merkleize_packed", "mix_in_length"]

_NO_LIMIT = 2**64 - 1  # LIBSHA_SSZ_NO_LIMIT


def merkleize(chunks: Any, limit: int | None = None) -> bytes:
    """The SSZ root of 32-byte chunks (a bytes-like object of whole chunks, or a sequence of 32-byte
    bytes-like objects), padded with zero chunks to the power of two >= `limit` (>= their count
    when limit is None; no chunks are one zero chunk). More chunks than `limit` is a ValueError."""
    return _merkleize_nodes(chunks, limit, "chunks")[0]


def merkleize_packed(data: Any, limit: int | None = None) -> bytes:
    """merkleize(pack(data), limit): serialized basic values (any length) cut into 32-byte chunks,
    the last one right-padded with zeros; `limit` counts chunks."""
    return _merkleize(contiguous_view(data, "data"), limit, "data")


def _merkleize_nodes(nodes: Any, limit: int | None, what: str) -> tuple[bytes, int]:
    """(root, how many) of 32-byte nodes in any form node_buffer takes; a long list of bytes a slice
    at a time, never joined."""
    if long_list(nodes):
        bound = _bound(len(nodes), limit, what)
        try:
            return _merkleize_slices(nodes, bound), len(nodes)
        except NotPlain:
            pass
    data = node_buffer(nodes, what)
    return _merkleize(data, limit, what), (len(data) if isinstance(data, bytes) else data.nbytes) // 32


def _bound(chunks: int, limit: int | None, what: str) -> int:
    """The limit as the C call takes it, checked to hold the chunks."""
    bound = _NO_LIMIT if limit is None else count(limit, "limit", _NO_LIMIT - 1)
    if bound < chunks:
        raise ValueError(f"{chunks} {'roots' if what == 'roots' else 'chunks'} exceed the limit of {limit}")
    return bound


def _merkleize(data: Any, limit: int | None, what: str) -> bytes:
    nbytes = len(data) if isinstance(data, bytes) else data.nbytes
    bound = _bound(-(-nbytes // 32), limit, what)
    out = ctypes.create_string_buffer(32)
    with borrow(data, what) as (pointer, _):
        check(_native.lib().libsha_ssz_merkleize(out, pointer, nbytes, bound), "merkleize")
    return out.raw


def _merkleize_slices(chunks: list[Any] | tuple[Any, ...], bound: int) -> bytes:
    """The root of more than SLICE chunks from the roots of their slices. Each slice is a perfect
    subtree of SLICE chunks (the last one padded with zero chunks, as the whole is); above them, the
    slices' roots padded to a power of two with the root of SLICE zero chunks are a perfect tree,
    whose root goes up the whole's remaining levels beside the zero subtree of each height."""
    lib = _native.lib()
    width = 1 << (-(-len(chunks) // SLICE) - 1).bit_length()
    roots = ctypes.create_string_buffer(_zero_subtree(SLICE_HEIGHT) * width, 32 * width)
    for i, (address, n) in enumerate(node_slices(chunks)):
        check(lib.libsha_ssz_merkleize(ctypes.addressof(roots) + 32 * i, address, 32 * n, SLICE), "merkleize")
    root = _merkleize(memoryview(roots), None, "chunks")
    whole = len(chunks) if bound == _NO_LIMIT else bound
    for height in range(SLICE_HEIGHT + width.bit_length() - 1, (whole - 1).bit_length()):
        root = _sha256(root + _zero_subtree(height))
    return root


def _zero_subtree(height: int) -> bytes:
    """The root of 2^height zero chunks (the C library's precomputed constant)."""
    return _merkleize(b"", 1 << height, "chunks")


def mix_in_length(root: Any, length: int) -> bytes:
    """SHA-256(root || length as a 32-byte little-endian integer): a list's root from its items'."""
    out = ctypes.create_string_buffer(32)
    check(_native.lib().libsha_ssz_mix_in_length(out, fixed(root, "root"), count(length, "length")))
    return out.raw


def basic_list_root(data: Any, item_size: int, limit: int) -> bytes:
    """hash_tree_root of List[B, limit] for a basic type B of `item_size` bytes (1, 2, 4, 8, 16,
    32), given its serialization (len(data) / item_size values, little-endian as SSZ serializes)."""
    size = count(item_size, "item_size")
    if size not in (1, 2, 4, 8, 16, 32):
        raise ValueError(f"item_size is a basic type's size (1, 2, 4, 8, 16 or 32 bytes), not {item_size}")
    view = contiguous_view(data, "data")
    if view.nbytes % size:
        raise ValueError(f"data has {view.nbytes} bytes, not whole {size}-byte values")
    length, bound = view.nbytes // size, count(limit, "limit", _NO_LIMIT - 1)
    if length > bound:
        raise ValueError(f"{length} values exceed the limit of {limit}")
    return mix_in_length(_merkleize(view, -(-bound * size // 32), "data"), length)


def composite_list_root(roots: Any, limit: int) -> bytes:
    """hash_tree_root of List[C, limit] for a composite type C, given its items' roots (a bytes-like
    object of whole 32-byte roots, or a sequence of them)."""
    root, length = _merkleize_nodes(roots, count(limit, "limit", _NO_LIMIT - 1), "roots")
    return mix_in_length(root, length)
