"""BitTorrent v2's file tree (BEP 52) in C: a file's `pieces root` and `piece layers` entry.

    from libsha import bep52
    root, layer = bep52.file_tree("movie.mkv", piece_length=4 << 20)   # a path
    root, layer = bep52.tree(data, piece_length=1 << 20)               # bytes in memory
    root, layer = bep52.file_tree("movie.mkv", 4 << 20, threads=2)     # the leaves on two threads

The 16 KiB blocks are hashed in the CPU's lanes (equal-length messages read in place), the
leaves padded with zero leaves to a power of two, the padding subtrees' roots constants, never
hashed. `root` is None for an empty file (a .torrent gives it none); `layer` is the piece hashes
end to end, as the .torrent's "piece layers" maps the root to, b"" for a file of at most one piece.
"""

from __future__ import annotations

import ctypes
import os

from . import _native
from ._buffers import borrow
from ._cpus import worker_count
from ._errors import check
from ._threads import PART_WORK
from ._trees.block_leaves import buffer_leaves, file_block_leaves
from ._trees.nodes import count
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["BLOCK_SIZE", "file_tree", "tree"]

BLOCK_SIZE = 16384  # LIBSHA_BEP52_BLOCK


def _piece_length(piece_length: object) -> int:
    value = count(piece_length, "piece_length")
    if value < BLOCK_SIZE or value & (value - 1):
        raise ValueError(f"piece_length must be a power of two of at least 16 KiB (16384), not {piece_length}")
    return value


def tree(data: Any, piece_length: int, *, threads: int = 1) -> tuple[bytes | None, bytes]:
    """(pieces root, piece layer) of a file's contents given as a bytes-like object; threads=N
    hashes the 16 KiB blocks on N threads (0: one per CPU this process may use)."""
    return _tree(contiguous_view(data, "data"), _piece_length(piece_length), worker_count(threads, "threads"))


def file_tree(path: str | os.PathLike[str] | bytes, piece_length: int, *,
              threads: int = 1) -> tuple[bytes | None, bytes]:
    """(pieces root, piece layer) of the file at `path`, read as sha256_file reads (large reads, the
    next one while this one is hashed; never mapped): a file that shrinks or grows meanwhile gives
    the tree of the bytes read (threads as tree's)."""
    length = _piece_length(piece_length)
    leaves, nbytes = file_block_leaves(path, BLOCK_SIZE, worker_count(threads, "threads"), "bep52")
    return _tree_of_leaves(_native.lib(), leaves, nbytes, length)


def _tree(view: memoryview, piece_length: int, workers: int) -> tuple[bytes | None, bytes]:
    lib = _native.lib()
    nbytes = view.nbytes
    if workers > 1 and nbytes >= 2 * PART_WORK:  # the leaves in parts over the workers, then the tree over them
        return _tree_of_leaves(lib, buffer_leaves(view, BLOCK_SIZE, workers, "bep52"), nbytes, piece_length)
    nodes = lib.libsha_bep52_layer_nodes(nbytes, piece_length)
    root = ctypes.create_string_buffer(32)
    layer = ctypes.create_string_buffer(max(32 * nodes, 1))
    with borrow(view, "data", address=True) as (address, _):
        check(lib.libsha_bep52_tree(root, layer, address, nbytes, piece_length), "bep52")
    return (root.raw if nbytes else None), layer.raw[: 32 * nodes]


def _tree_of_leaves(lib: Any, leaves: Any, nbytes: int, piece_length: int) -> tuple[bytes | None, bytes]:
    """The tree of a file of nbytes bytes from its leaves (a buffer C reads: bytes, a ctypes array)."""
    nodes = lib.libsha_bep52_layer_nodes(nbytes, piece_length)
    root = ctypes.create_string_buffer(32)
    layer = ctypes.create_string_buffer(max(32 * nodes, 1))
    blocks = -(-nbytes // BLOCK_SIZE)
    check(lib.libsha_bep52_tree_of_leaves(root, layer, leaves, blocks, piece_length), "bep52")
    return (root.raw if nbytes else None), layer.raw[: 32 * nodes]
