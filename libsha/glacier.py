"""Amazon S3 Glacier's SHA-256 tree hash: what an upload's `x-amz-sha256-tree-hash` header carries
(as hex), and what `botocore.utils.calculate_tree_hash` computes.

    from libsha import glacier
    glacier.file_tree_hash("backup.tar").hex()                # the archive's tree hash
    glacier.tree_hash(data, threads=2)                        # bytes in memory; the parts on two threads
    glacier.file_part_hashes("backup.tar", 8 << 20)           # each 8 MiB part's, for a multipart upload

The data's 1 MiB leaves (the last as short as it is; empty data is one empty leaf) are hashed in
the CPU's lanes; the levels above pair the hashes through the level call (hashtree's), an odd last
hash carried up as it is. A part of a multipart upload is 1 MiB times a power of two, so its tree
hash is a subtree of the archive's.
"""

from __future__ import annotations

import ctypes
import os

from . import _native
from ._cpus import worker_count
from ._errors import check
from ._one.oneshot import sha256_digest
from ._trees.block_leaves import buffer_leaves, count_of, file_block_leaves
from ._trees.nodes import count
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["LEAF_SIZE", "MAX_PART_SIZE", "file_part_hashes", "file_tree_hash", "part_hashes", "tree_hash"]

LEAF_SIZE = 1 << 20  # Glacier's 1 MiB
MAX_PART_SIZE = 4 << 30  # Glacier's largest part of a multipart upload


def tree_hash(data: Any, *, threads: int = 1) -> bytes:
    """The tree hash of a bytes-like object's contents; threads=N hashes its leaves on N threads (0:
    one per CPU this process may use)."""
    view = contiguous_view(data, "data")
    leaves = buffer_leaves(view, LEAF_SIZE, worker_count(threads, "threads"), "glacier")
    return _roots(leaves, view.nbytes, 0)[0]


def file_tree_hash(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, threads: int = 1) -> bytes:
    """The tree hash of the file at path, read as sha256_file reads (large reads, the next one while
    this one is hashed; never mapped): a file that shrinks or grows meanwhile gives the tree hash of
    the bytes read. A directory, a vanished file, a failed read: OSError naming the file."""
    leaves, nbytes = file_block_leaves(path, LEAF_SIZE, worker_count(threads, "threads"), "glacier")
    return _roots(leaves, nbytes, 0)[0]


def part_hashes(data: Any, part_size: int = LEAF_SIZE, *, threads: int = 1) -> list[bytes]:
    """The tree hash of each part of a multipart upload of the data in parts of part_size bytes (1 MiB
    times a power of two, up to 4 GiB), the last one as short as it is: each UploadMultipartPart's
    x-amz-sha256-tree-hash. (tree_hash is the archive's, for CompleteMultipartUpload.)"""
    size = _part_size(part_size)
    view = contiguous_view(data, "data")
    leaves = buffer_leaves(view, LEAF_SIZE, worker_count(threads, "threads"), "glacier")
    return _roots(leaves, view.nbytes, size // LEAF_SIZE)


def file_part_hashes(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], part_size: int = LEAF_SIZE, *,
                     threads: int = 1) -> list[bytes]:
    """part_hashes of the file at path, read as file_tree_hash reads it."""
    size = _part_size(part_size)
    leaves, nbytes = file_block_leaves(path, LEAF_SIZE, worker_count(threads, "threads"), "glacier")
    return _roots(leaves, nbytes, size // LEAF_SIZE)


def _part_size(value: object) -> int:
    size = count(value, "part_size")
    if size < LEAF_SIZE or size > MAX_PART_SIZE or size & (size - 1):
        raise ValueError(f"part_size must be 1 MiB times a power of two, up to 4 GiB, not {value}")
    return size


def _roots(leaves: Any, nbytes: int, per_part: int) -> list[bytes]:
    """The tree hash over every `per_part` leaves (0: over them all) of the nbytes' leaves."""
    n = count_of(nbytes, LEAF_SIZE)
    if n == 0:
        return [sha256_digest(b"")]
    room = ctypes.create_string_buffer(32 * n)
    ctypes.memmove(room, leaves, 32 * n)
    per_part = per_part or n
    address = ctypes.addressof(room)
    return [_root_in_place(address + 32 * first, min(per_part, n - first)) for first in range(0, n, per_part)]


def _root_in_place(address: int, n: int) -> bytes:
    """The tree hash over the n hashes at address, each level made in place over the one below."""
    lib = _native.lib()
    while n > 1:
        pairs = n // 2
        check(lib.libsha_sha256_64(address, address, pairs), "glacier")
        if n % 2:  # the odd last hash goes up as it is
            ctypes.memmove(address + 32 * pairs, address + 64 * pairs, 32)
        n = pairs + n % 2
    return ctypes.string_at(address, 32)
