"""BitTorrent v2's file tree (BEP 52) in C: a file's `pieces root` and `piece layers` entry.

    from libsha import bep52
    root, layer = bep52.file_tree("movie.mkv", piece_length=4 << 20)   # a path
    root, layer = bep52.tree(data, piece_length=1 << 20)               # bytes in memory
    root, layer = bep52.file_tree("movie.mkv", 4 << 20, threads=2)     # the leaves on two threads

The 16 KiB blocks are hashed in the CPU's lanes (equal-length messages; a buffer's read in place,
a file's read in chunks, never mapped: a file cut short meanwhile is no SIGBUS), the
leaves padded with zero leaves to a power of two, the padding subtrees' roots constants, never
hashed. `root` is None for an empty file (a .torrent gives it none); `layer` is the piece hashes
end to end, as the .torrent's "piece layers" maps the root to, b"" for a file of at most one piece.
"""

from __future__ import annotations

import ctypes
import os

from . import _native
from ._buffers import borrow, contiguous_view
from ._cpus import worker_count
from ._errors import check
from ._many.descriptor import rows_batch, run_batch
from ._threads import PART_WORK
from ._trees.nodes import count

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
    """(pieces root, piece layer) of the file at `path`, read in chunks of whole blocks, each
    chunk's blocks hashed as tree's (threads too). A file that grows or shrinks meanwhile gives the
    tree of the bytes that were read, as sha256_file gives their digest."""
    # Read, not mapped: a mapped file that another process truncates kills its reader with SIGBUS.
    length = _piece_length(piece_length)
    workers = worker_count(threads, "threads")
    leaves, nbytes = bytearray(), 0
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        # A file smaller than a chunk in one read, with room to see it end (a short read).
        chunk = bytearray(min(_CHUNK, (size // BLOCK_SIZE + 1) * BLOCK_SIZE))
        view = memoryview(chunk)
        try:
            while True:
                n = f.readinto(chunk)  # a buffered file fills it, unless the file ends first
                if n:
                    leaves += _leaves(view[:n], workers)
                    nbytes += n
                if n < len(chunk):
                    break
        finally:
            view.release()
    return _tree_of_leaves(bytes(leaves), nbytes, length) if nbytes else (None, b"")


_CHUNK = 1024 * BLOCK_SIZE  # file_tree's reads: 16 MiB, whole blocks


def _leaves(view: memoryview, workers: int) -> bytes:
    """The leaves of the blocks of view (the last one as short as it is), on up to `workers` threads."""
    nbytes = view.nbytes
    blocks, whole = -(-nbytes // BLOCK_SIZE), nbytes // BLOCK_SIZE
    leaves = ctypes.create_string_buffer(32 * blocks)
    with borrow(view, "data", address=True) as (address, _):
        if whole:
            run_batch(ctypes.addressof(leaves), rows_batch(address, BLOCK_SIZE, BLOCK_SIZE, whole), 0, workers, None,
                      BLOCK_SIZE.__mul__, "bep52")
        if whole < blocks:
            rest = nbytes - BLOCK_SIZE * whole
            tail = rows_batch(address + BLOCK_SIZE * whole, rest, rest, 1)
            run_batch(ctypes.addressof(leaves) + 32 * whole, tail, 0, 1, None, None, "bep52")
    return leaves.raw


def _tree(view: memoryview, piece_length: int, workers: int) -> tuple[bytes | None, bytes]:
    nbytes = view.nbytes
    if workers > 1 and nbytes >= 2 * PART_WORK:  # the leaves in parts over the workers (run_parts)
        return _tree_of_leaves(_leaves(view, workers), nbytes, piece_length)
    lib = _native.lib()
    nodes = lib.libsha_bep52_layer_nodes(nbytes, piece_length)
    root, layer = ctypes.create_string_buffer(32), ctypes.create_string_buffer(max(32 * nodes, 1))
    with borrow(view, "data", address=True) as (address, _):
        check(lib.libsha_bep52_tree(root, layer, address, nbytes, piece_length), "bep52")
    return (root.raw if nbytes else None), layer.raw[: 32 * nodes]


def _tree_of_leaves(leaves: bytes, nbytes: int, piece_length: int) -> tuple[bytes | None, bytes]:
    """(pieces root, piece layer) from the leaves of nbytes (> 0) of a file, in one call."""
    lib = _native.lib()
    nodes = lib.libsha_bep52_layer_nodes(nbytes, piece_length)
    root, layer = ctypes.create_string_buffer(32), ctypes.create_string_buffer(max(32 * nodes, 1))
    check(lib.libsha_bep52_tree_of_leaves(root, layer, leaves, len(leaves) // 32, piece_length), "bep52")
    return root.raw, layer.raw[: 32 * nodes]
