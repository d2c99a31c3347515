"""fs-verity's Merkle tree, descriptor and file digest in C: what `fsverity digest` prints and
writes, and what the kernel's FS_IOC_MEASURE_VERITY returns for a file with verity enabled.

    from libsha import fsverity
    fsverity.file_digest("app.apk").hex()                        # sha256:<this> in fsverity's output
    t = fsverity.file_tree("app.apk", block_size=4096, salt=b"")   # digest, root, tree, descriptor, size
    fsverity.file_tree("app.apk", out="app.merkle")               # the tree to a file, as --out-merkle-tree
    fsverity.tree(data, threads=2)                               # bytes in memory; blocks on two threads

The blocks (a power of two from 1 KiB to 64 KiB) are hashed in the CPU's lanes, each after the
salt (up to 32 bytes, zero-padded to 64), the file's last block zero-filled; the levels above
hash the blocks of the one below. `tree` is the Merkle tree as the kernel stores it (top level
first), empty for a file of one block or less; an empty file's root is 32 zero bytes.
"""

from __future__ import annotations

import ctypes
import os
from typing import NamedTuple

from . import _native
from ._buffers import borrow
from ._cpus import worker_count
from ._errors import check
from ._threads import run_parts
from ._trees.file_blocks import file_leaves
from ._trees.verity import TreeOut, block_size as _block_size, blocks_of, bottom_offset, salt_bytes
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DESCRIPTOR_SIZE", "MAX_SALT", "Tree", "digest", "file_digest", "file_tree", "tree", "tree_size"]

MAX_SALT = 32  # LIBSHA_FSVERITY_MAX_SALT
DESCRIPTOR_SIZE = 256  # LIBSHA_FSVERITY_DESCRIPTOR_SIZE


class Tree(NamedTuple):
    """A file's fs-verity tree: its digest (SHA-256 of the descriptor), the tree's root hash, the
    tree as the kernel stores it (None where out= took it), the descriptor, the bytes hashed."""

    digest: bytes
    root: bytes
    tree: bytes | None
    descriptor: bytes
    size: int


def tree_size(data_size: int, block_size: int = 4096) -> int:
    """The bytes of the Merkle tree of a file of data_size bytes (0 for one block or less)."""
    size: int = _native.lib().libsha_fsverity_tree_size(data_size, _block_size(block_size, "block_size", 1024, 65536))
    return size


def tree(data: Any, *, block_size: int = 4096, salt: Any = b"", threads: int = 1, out: Any = None) -> Tree:
    """The fs-verity tree of a bytes-like object's contents; threads=N hashes the blocks on N threads
    (0: one per CPU this process may use); out= takes the tree (see Tree)."""
    view = contiguous_view(data, "data")
    block, salted, workers = _arguments(block_size, salt, threads)
    nbytes = view.nbytes
    size = tree_size(nbytes, block)
    where = TreeOut(out, size)
    lib = _native.lib()
    room = ctypes.create_string_buffer(max(size, 1))
    root = ctypes.create_string_buffer(32)
    n = blocks_of(nbytes, block)
    with borrow(view, "data", address=True) as (address, _):
        if workers == 1 or n < 2:
            check(lib.libsha_fsverity_tree(root, room, address, nbytes, block, salted, len(salted)), "fsverity")
        else:  # the leaves into the tree's bottom level in parts over the threads, then the levels above
            bottom = ctypes.addressof(room) + bottom_offset(size, n, block)

            def part(first: int, stop: int) -> int:
                end = min(nbytes, block * stop)
                code: int = lib.libsha_fsverity_leaves(bottom + 32 * first, address + block * first,
                                                       end - block * first, block, salted, len(salted))
                return code

            run_parts(part, n, workers, "fsverity", block.__mul__)
            check(lib.libsha_fsverity_tree_of_leaves(root, room, bottom, nbytes, block, salted, len(salted)),
                  "fsverity")
    return _finish(root.raw, room.raw[:size], nbytes, block, salted, where)


def file_tree(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, block_size: int = 4096,
              salt: Any = b"", threads: int = 1, out: Any = None) -> Tree:
    """The fs-verity tree of the file at path, read as sha256_file reads (in large reads, the next one
    while this one is hashed; never mapped): a file that shrinks or grows meanwhile gives the tree of
    the bytes read. A directory, a vanished file, a failed read: OSError naming the file."""
    block, salted, workers = _arguments(block_size, salt, threads)
    lib = _native.lib()
    where = TreeOut(out)  # its kind checked now, a buffer's size once the file's is known

    def leaves_of(out_address: int, data: int, nbytes: int) -> int:
        code: int = lib.libsha_fsverity_leaves(out_address, data, nbytes, block, salted, len(salted))
        return code

    leaves, nbytes = file_leaves(path, block, leaves_of, workers, "fsverity")
    size = tree_size(nbytes, block)
    where.sized(size)
    room = ctypes.create_string_buffer(max(size, 1))
    root = ctypes.create_string_buffer(32)
    check(lib.libsha_fsverity_tree_of_leaves(root, room, leaves, nbytes, block, salted, len(salted)), "fsverity")
    return _finish(root.raw, room.raw[:size], nbytes, block, salted, where)


def digest(data: Any, *, block_size: int = 4096, salt: Any = b"", threads: int = 1) -> bytes:
    """The fs-verity file digest of a bytes-like object's contents."""
    return tree(data, block_size=block_size, salt=salt, threads=threads).digest


def file_digest(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, block_size: int = 4096,
                salt: Any = b"", threads: int = 1) -> bytes:
    """The fs-verity file digest of the file at path: `fsverity digest`'s."""
    return file_tree(path, block_size=block_size, salt=salt, threads=threads).digest


def _arguments(block_size: object, salt: object, threads: object) -> tuple[int, bytes, int]:
    return (_block_size(block_size, "block_size", 1024, 65536), salt_bytes(salt, MAX_SALT, "fs-verity"),
            worker_count(threads, "threads"))


def _finish(root: bytes, tree_bytes: bytes, nbytes: int, block: int, salt: bytes, where: TreeOut) -> Tree:
    descriptor = ctypes.create_string_buffer(DESCRIPTOR_SIZE)
    file_digest = ctypes.create_string_buffer(32)
    check(_native.lib().libsha_fsverity_descriptor(descriptor, file_digest, root, nbytes, block, salt, len(salt)),
          "fsverity")
    return Tree(file_digest.raw, root, where.put(tree_bytes), descriptor.raw, nbytes)
