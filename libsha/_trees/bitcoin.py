"""The Bitcoin Merkle root of 32-byte leaves, in C."""

from __future__ import annotations

import ctypes

from .. import _native
from .._buffers import borrow
from .._errors import check
from .nodes import SLICE, SLICE_HEIGHT, NotPlain, long_list, node_buffer, node_slices

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable

    from typing_extensions import Buffer


def merkle_root(leaves: Buffer | Iterable[Buffer], /) -> tuple[bytes, bool]:
    """(root, mutated) of the leaves, as Bitcoin Core's ComputeMerkleRoot.

    `leaves` is a sequence of 32-byte bytes-like objects, or one bytes-like
    object of n x 32 bytes. An odd level pairs its last node with itself;
    `mutated` is True when some level holds two equal nodes at a pair position
    (CVE-2012-2459). No leaves give 32 zero bytes.
    """
    if long_list(leaves):
        try:
            return _root_of_slices(leaves)  # type: ignore[arg-type]
        except NotPlain:
            pass
    with borrow(node_buffer(leaves, "leaves"), "leaves") as (pointer, nbytes):
        return _root(pointer, nbytes)


def _root_of_slices(leaves: list[object] | tuple[object, ...]) -> tuple[bytes, bool]:
    """The root of more than SLICE leaves from the roots of their slices. Each full slice is a perfect
    subtree. Below the last, partial one the levels of the whole are even to its left, so its
    nodes pair (and its odd last nodes go with themselves) as in a tree of its own; from its root
    up to the slices' height that node is a level's odd last one each time, hashed with itself.
    Above, the tree is the Merkle tree of the slices' roots; a level is mutated where one of these
    is."""
    lib = _native.lib()
    roots = ctypes.create_string_buffer(32 * -(-len(leaves) // SLICE))
    mutated = False
    for i, (address, n) in enumerate(node_slices(leaves)):
        root, flag = _root(address, 32 * n)
        for _ in range(SLICE_HEIGHT - (n - 1).bit_length()):  # a partial slice's root, up to the slices' height
            digest = _native.Digest()
            lib.libsha_sha256d64(digest, root + root, 1)
            root = digest.raw
        ctypes.memmove(ctypes.addressof(roots) + 32 * i, root, 32)
        mutated |= flag
    root, flag = _root(roots, len(roots))
    return root, mutated or flag


def _root(pointer: object, nbytes: int) -> tuple[bytes, bool]:
    out = _native.Digest()
    mutated = ctypes.c_int()
    check(_native.lib().libsha_merkle_root(out, pointer, nbytes // 32, ctypes.byref(mutated)))
    return bytes(out.raw), bool(mutated.value)
