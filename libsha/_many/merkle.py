"""The Bitcoin Merkle root of 32-byte leaves, in C."""

from __future__ import annotations

import ctypes

from .. import _native
from .._buffers import borrow, contiguous_view, item_view
from .._errors import check

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
    if isinstance(leaves, str):
        raise TypeError("merkle_root takes 32-byte leaves, not a str")
    try:
        view = contiguous_view(leaves, "leaves")
    except TypeError:
        view = None  # not a buffer: a sequence of leaves
    if view is None:
        data = _joined_leaves(leaves)  # type: ignore[arg-type]
        return _root(data, len(data))
    if view.nbytes % 32:
        raise ValueError(f"merkle_root takes whole 32-byte leaves; {view.nbytes} bytes is not a multiple of 32")
    with borrow(view, "leaves") as (pointer, nbytes):
        return _root(pointer, nbytes)


def _joined_leaves(leaves: Iterable[object]) -> bytes:
    """The leaves end to end, each checked to be 32 bytes."""
    if type(leaves) is not list and type(leaves) is not tuple:
        leaves = list(leaves)
    # The common case at C speed: every leaf a bytes object of 32 bytes.
    if _BYTES_ONLY.issuperset(map(type, leaves)) and list(map(len, leaves)).count(32) == len(leaves):
        return b"".join(leaves)  # type: ignore[arg-type]
    return b"".join(_leaf(i, leaf) for i, leaf in enumerate(leaves))


_BYTES_ONLY = frozenset((bytes,))


def _leaf(index: int, leaf: object) -> bytes:
    view = item_view(leaf, f"leaf {index}", "leaves are 32-byte bytes-like objects")
    if view.nbytes != 32:
        raise ValueError(f"leaf {index} has {view.nbytes} bytes; leaves are 32 bytes")
    return view.tobytes()


def _root(pointer: object, nbytes: int) -> tuple[bytes, bool]:
    out = _native.Digest()
    mutated = ctypes.c_int()
    check(_native.lib().libsha_merkle_root(out, pointer, nbytes // 32, ctypes.byref(mutated)))
    return bytes(out.raw), bool(mutated.value)
