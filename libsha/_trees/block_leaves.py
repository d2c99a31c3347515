"""The plain leaves of the trees that cut their data into blocks of one size: each block's SHA-256,
the last block as short as it is (BEP 52's 16 KiB blocks, Glacier's 1 MiB parts), from a buffer or
a file, in the lanes and on threads. Formats with salted or padded leaves (fs-verity, dm-verity)
bring their own leaves_of to file_blocks."""

from __future__ import annotations

import ctypes
import os

from .._buffers import borrow
from .._many.descriptor import hash_batch, rows_batch, run_batch
from .file_blocks import file_leaves

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


def count_of(nbytes: int, block: int) -> int:
    """The leaves of nbytes: a block each, the last one short."""
    return -(-nbytes // block)


def leaves_at(block: int) -> Callable[[int, int, int], int]:
    """leaves_of(out, data, nbytes) for file_leaves: nbytes at address data cut into blocks, each one's
    digest to address out; libsha's code."""
    def leaves_of(out: int, data: int, nbytes: int) -> int:
        whole, rest = divmod(nbytes, block)
        code = hash_batch(out, rows_batch(data, block, block, whole), None, 0)
        if rest and code == 0:  # the last block, as short as it is
            code = hash_batch(out + 32 * whole, rows_batch(data + block * whole, rest, rest, 1), None, 0)
        return code
    return leaves_of


def buffer_leaves(view: memoryview, block: int, workers: int, what: str) -> Any:
    """The leaves of a buffer's bytes end to end (a ctypes buffer), on up to `workers` threads."""
    nbytes = view.nbytes
    whole = nbytes // block
    leaves = ctypes.create_string_buffer(max(32 * count_of(nbytes, block), 1))
    out = ctypes.addressof(leaves)
    with borrow(view, "data", address=True) as (address, _):
        run_batch(out, rows_batch(address, block, block, whole), 0, workers, None, block.__mul__, what)
        if whole * block < nbytes:
            rest = nbytes - whole * block
            run_batch(out + 32 * whole, rows_batch(address + block * whole, rest, rest, 1), 0, 1, None, None, what)
    return leaves


def file_block_leaves(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], block: int, workers: int,
                      what: str) -> tuple[bytes, int]:
    """(the leaves end to end, the bytes read) of the file at path, read as file_leaves reads."""
    return file_leaves(path, block, leaves_at(block), workers, what)
