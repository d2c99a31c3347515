"""Nodes of a Merkle tree as the C calls take them: fixed-size hashes end to end in one buffer."""

from __future__ import annotations

import operator
import sys

from .._buffers import contiguous_view, item_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable

_BYTES_ONLY = frozenset((bytes,))
_ONE = {"hashes": "hash", "leaves": "leaf"}  # what one of them is called in an error


def node_buffer(nodes: object, what: str, size: int = 32) -> memoryview | bytes:
    """`nodes` as one C-contiguous buffer of whole `size`-byte nodes: a bytes-like object (numpy
    rows, an Arrow buffer) as it is, a pyarrow FixedSizeBinary(size) array's values in place, or a
    sequence of `size`-byte bytes-like objects joined. `what` names them in errors ("leaves")."""
    if isinstance(nodes, str):
        raise TypeError(f"{what} are {size}-byte bytes-like objects, not a str")
    pyarrow = sys.modules.get("pyarrow")  # only an object of an imported module can be one of its types
    if pyarrow is not None and isinstance(nodes, pyarrow.Array):
        return _arrow_values(pyarrow, nodes, what, size)
    try:
        view = contiguous_view(nodes, what)
    except TypeError:
        view = None  # not a buffer: a sequence of nodes
    if view is None:
        return _joined(nodes, what, size)  # type: ignore[arg-type]
    if view.nbytes % size:
        raise ValueError(f"{what} are whole {size}-byte nodes; {view.nbytes} bytes is not a multiple of {size}")
    return view


def _arrow_values(pyarrow: Any, array: Any, what: str, size: int) -> memoryview:
    if array.type != pyarrow.binary(size):
        raise TypeError(f"{what} as an Arrow array are fixed_size_binary({size}), not {array.type}")
    if array.null_count:
        raise ValueError(f"{what} hold {array.null_count} nulls; a tree's nodes are all present")
    values = array.buffers()[1]
    start = array.offset * size
    return memoryview(values)[start : start + len(array) * size] if values is not None else memoryview(b"")


def _joined(nodes: Iterable[object], what: str, size: int) -> bytes:
    try:
        if type(nodes) is not list and type(nodes) is not tuple:
            nodes = list(nodes)
    except TypeError:
        raise TypeError(f"{what} are a bytes-like object or a sequence of {size}-byte bytes-like objects, "
                        f"not {type(nodes).__name__}") from None
    # The common case at C speed: every node a bytes object of the right size.
    if _BYTES_ONLY.issuperset(map(type, nodes)) and list(map(len, nodes)).count(size) == len(nodes):
        return b"".join(nodes)  # type: ignore[arg-type]
    return b"".join(_node(i, node, what, size) for i, node in enumerate(nodes))


def _node(index: int, node: object, what: str, size: int) -> bytes:
    name = f"{_ONE.get(what, what[:-1])} {index}"
    view = item_view(node, name, f"{what} are {size}-byte bytes-like objects")
    if view.nbytes != size:
        raise ValueError(f"{name} has {view.nbytes} bytes; {what} are {size} bytes")
    return view.tobytes()


def fixed(value: object, name: str, size: int = 32) -> bytes:
    """One hash argument (a root, a leaf hash) as bytes of exactly `size`."""
    view = item_view(value, name, f"{name} is {size} bytes")
    if view.nbytes != size:
        raise ValueError(f"{name} has {view.nbytes} bytes, not {size}")
    return view.tobytes()


def count(value: object, name: str, top: int = 2**64 - 1) -> int:
    """A size or index argument: an int 0..top."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not bool")
    try:
        value = operator.index(value)  # type: ignore[arg-type]  # numpy's integers too
    except TypeError:
        raise TypeError(f"{name} must be an int, not {type(value).__name__}") from None
    if not 0 <= value <= top:
        raise ValueError(f"{name} must be 0..{top}, not {value}")
    return value
