"""What fs-verity's and dm-verity's Python calls share: their arguments' checks and messages, and
where a tree goes (returned, into a caller's buffer, or a file written whole or not at all)."""

from __future__ import annotations

import os
import tempfile

from .._buffers import writable_out
from .._views import contiguous_view, is_buffer
from .nodes import count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def block_size(value: object, name: str, low: int, high: int) -> int:
    """A block size: a power of two from low to high, or a ValueError naming it."""
    size = count(value, name)
    if size < low or size > high or size & (size - 1):
        raise ValueError(f"{name} must be a power of two from {low} to {high}, not {value}")
    return size


def salt_bytes(salt: object, limit: int, tree: str) -> bytes:
    """The salt as bytes, at most `limit` of them."""
    if salt is None:
        return b""
    data = bytes(contiguous_view(salt, "salt"))
    if len(data) > limit:
        raise ValueError(f"{tree}'s salt is at most {limit} bytes, not {len(data)}")
    return data


def blocks_of(nbytes: int, block: int) -> int:
    return -(-nbytes // block)


def bottom_offset(tree_size: int, leaves: int, block: int) -> int:
    """Where the leaves' level starts in a tree of tree_size bytes (the top level first)."""
    return tree_size - blocks_of(32 * leaves, block) * block


class TreeOut:
    """Where a tree goes (out=): None, returned as bytes; a writable buffer of exactly its size;
    a path, written whole to a new file that then replaces it (nothing half-written is ever
    there); or a binary file object, written at its position. Its kind is checked at once, before
    anything is hashed; a buffer's size too where nbytes is known then (else by sized())."""

    def __init__(self, out: Any, nbytes: int | None = None) -> None:
        self.out = out
        self.path = isinstance(out, (str, bytes, os.PathLike))
        self.file = not self.path and hasattr(out, "write") and not isinstance(out, (bytearray, memoryview))
        self.buffer = out is not None and not self.path and not self.file
        self.nbytes = 0
        if self.buffer:  # writable_out's type errors first; its size error only where nbytes is known
            self.sized(nbytes if nbytes is not None else memoryview(out).nbytes if is_buffer(out) else 0)
        elif nbytes is not None:
            self.sized(nbytes)

    def sized(self, nbytes: int) -> None:
        """The tree's size, now known: a buffer of another size is a ValueError."""
        self.nbytes = nbytes
        if self.buffer:
            writable_out(self.out, nbytes, 1, "tree").__exit__()

    def put(self, tree: bytes) -> bytes | None:
        """Writes the tree where it goes; the tree itself where it goes nowhere else."""
        if self.out is None:
            return tree
        if self.path:
            write_whole(self.out, tree)
        elif self.file:
            written = self.out.write(tree)
            if written is not None and written != len(tree):
                raise OSError(f"the tree's file took {written} of its {len(tree)} bytes")
        else:
            with writable_out(self.out, self.nbytes, 1, "tree") as w:
                w.view[:] = tree
        return None


def write_whole(path: Any, data: bytes) -> None:
    """data as the file at path: written to a new file beside it, which then replaces it, so the
    path holds the old file or the whole new one, never a part (a new file's mode: 0666 less umask)."""
    path = os.fsdecode(os.fspath(path))
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".libsha-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if hasattr(os, "fchmod"):
                mask = os.umask(0)
                os.umask(mask)
                os.fchmod(f.fileno(), 0o666 & ~mask)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
