"""Nodes of a Merkle tree as the C calls take them: fixed-size hashes end to end in one buffer."""

from __future__ import annotations

import ctypes
import operator
import sys

from .._binding import take_accelerated
from .._views import contiguous_view, item_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable, Iterator

_BYTES_ONLY = frozenset((bytes,))
# Nodes a slice of a long list: 128 KiB of 32-byte nodes, a scratch buffer that stays in the cache. A
# list of more goes to the tree a slice at a time (node_slices): a buffer of the whole list would be
# fresh memory, whose page faults cost more than reading the list (32 MiB: 20 ms on a KVM guest).
SLICE = 4096
SLICE_HEIGHT = SLICE.bit_length() - 1  # a whole slice of leaves is a perfect subtree this high
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


class NotPlain(Exception):
    """node_slices met a node that is not bytes of the nodes' size (or the list shrank): the caller
    starts again from node_buffer, which takes any bytes-like node and words the errors."""


def long_list(nodes: object) -> bool:
    """Whether `nodes` is a list or tuple of more than a slice of nodes: node_slices' kind."""
    return (type(nodes) is list or type(nodes) is tuple) and len(nodes) > SLICE


def node_slices(nodes: list[object] | tuple[object, ...], size: int = 32) -> Iterator[tuple[int, int]]:
    """(address, count) of each SLICE of nodes in turn, copied to one scratch buffer (valid until
    the next slice): every node bytes of `size` bytes, else NotPlain is raised."""
    scratch = ctypes.create_string_buffer(SLICE * size)
    address = ctypes.addressof(scratch)
    n = len(nodes)
    for first in range(0, n, SLICE):
        count = min(SLICE, n - first)
        if _nodes_into(nodes, size, first, count, address) is NotImplemented:
            raise NotPlain
        yield address, count


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
    joined = _joined_nodes(nodes, size)
    if joined is not NotImplemented:
        return joined
    return b"".join(_node(i, node, what, size) for i, node in enumerate(nodes))


def plain_nodes(nodes: list[Any] | tuple[Any, ...], size: int) -> bool:
    """Whether every node is a bytes object of `size` bytes (the accelerator's plain_nodes reads them
    in one pass): what node_slices takes without raising NotPlain."""
    return _BYTES_ONLY.issuperset(map(type, nodes)) and list(map(len, nodes)).count(size) == len(nodes)


def _joined_nodes(nodes: list[object] | tuple[object, ...], size: int) -> bytes:
    """The common case at C speed: every node a bytes object of `size` bytes, joined (the
    accelerator's joined_nodes reads them in one pass); NotImplemented for any other list."""
    return b"".join(nodes) if plain_nodes(nodes, size) else NotImplemented  # type: ignore[arg-type]


def _nodes_into(nodes: list[object] | tuple[object, ...], size: int, first: int, count: int, address: int) -> bool:
    """nodes[first:first + count] end to end at address, each bytes of `size` bytes (the accelerator's
    nodes_into reads them in place); NotImplemented for any other slice, or a list shorter now."""
    part = nodes[first : first + count]
    joined = _joined_nodes(part, size) if len(part) == count else NotImplemented
    if joined is NotImplemented:
        return NotImplemented  # type: ignore[no-any-return]
    ctypes.memmove(address, joined, count * size)
    return True


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


take_accelerated(globals(), "plain_nodes", _joined_nodes="joined_nodes", _nodes_into="nodes_into")
