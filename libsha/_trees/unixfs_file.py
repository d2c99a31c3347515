"""A file's UnixFS DAG, as `ipfs add` builds it in the balanced layout: its chunks' leaves hashed
in the CPU's lanes (raw leaves in place; dag-pb leaves each framed in its node first), then the
nodes above level by level, a node for every `max_links` of the level below, until one is left; a
file of one chunk is its leaf."""

from __future__ import annotations

import ctypes
import os

from .._buffers import borrow
from .._many.descriptor import hash_batch, rows_batch
from .._one.oneshot import sha256_digest
from .._threads import run_parts
from .block_leaves import buffer_leaves, count_of, leaves_at
from .dag_pb import Node, file_node, leaf, leaf_frame
from .file_blocks import file_leaves

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable


def buffer_dag(view: memoryview, chunk: int, max_links: int, raw: bool, version: int, workers: int) -> Node:
    """The root of the DAG of a buffer's bytes."""
    if raw:
        leaves = ctypes.string_at(buffer_leaves(view, chunk, workers, "ipfs"), 32 * count_of(view.nbytes, chunk))
    else:
        leaves = _framed_buffer_leaves(view, chunk, workers)
    return _root(leaves, view.nbytes, chunk, max_links, raw, version)


def file_dag(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], chunk: int, max_links: int, raw: bool,
             version: int, workers: int, on_hashed: Callable[[int], None] | None = None) -> Node:
    """The root of the DAG of the file at path, read as file_leaves reads (the bytes read, if it
    shrinks or grows meanwhile); on_hashed(n) is told of each n bytes hashed, from any thread."""
    leaves_of = leaves_at(chunk) if raw else _framed_leaves_at(chunk)
    if on_hashed is not None:
        leaves_of = _counted(leaves_of, on_hashed)
    leaves, nbytes = file_leaves(path, chunk, leaves_of, workers, "ipfs")
    return _root(leaves, nbytes, chunk, max_links, raw, version)


def _counted(leaves_of: Callable[[int, int, int], int], on_hashed: Callable[[int], None]) -> Callable[[int, int, int], int]:
    def counted(out: int, data: int, nbytes: int) -> int:
        code = leaves_of(out, data, nbytes)
        on_hashed(nbytes)
        return code

    return counted


def _framed_leaves_at(chunk: int) -> Callable[[int, int, int], int]:
    """leaves_of(out, data, nbytes) for dag-pb leaves: each chunk copied into its node's frame,
    the framed chunks hashed as rows of one length (the last, short one alone)."""
    head, tail = leaf_frame(chunk)
    row = len(head) + chunk + len(tail)

    def leaves_of(out: int, data: int, nbytes: int) -> int:
        whole, rest = divmod(nbytes, chunk)
        if whole:
            rows = ctypes.create_string_buffer(row * whole)
            base = ctypes.addressof(rows)
            for i in range(whole):
                at = base + row * i
                ctypes.memmove(at, head, len(head))
                ctypes.memmove(at + len(head), data + chunk * i, chunk)
                ctypes.memmove(at + len(head) + chunk, tail, len(tail))
            code = hash_batch(out, rows_batch(base, row, row, whole), None, 0)
            if code:
                return code
        if rest:
            short_head, short_tail = leaf_frame(rest)
            node = short_head + ctypes.string_at(data + chunk * whole, rest) + short_tail
            ctypes.memmove(out + 32 * whole, sha256_digest(node), 32)
        return 0

    return leaves_of


def _framed_buffer_leaves(view: memoryview, chunk: int, workers: int) -> bytes:
    n = count_of(view.nbytes, chunk)
    leaves = ctypes.create_string_buffer(max(32 * n, 1))
    leaves_of = _framed_leaves_at(chunk)
    with borrow(view, "data", address=True) as (address, _):
        def part(first: int, stop: int) -> int:
            end = min(view.nbytes, chunk * stop)
            return leaves_of(ctypes.addressof(leaves) + 32 * first, address + chunk * first, end - chunk * first)

        run_parts(part, n, workers, "ipfs", chunk.__mul__)
    return leaves.raw[: 32 * n]


def _root(leaves: bytes, nbytes: int, chunk: int, max_links: int, raw: bool, version: int) -> Node:
    if nbytes == 0:  # one empty chunk
        if raw:
            return leaf(sha256_digest(b""), 0, True, 1)
        head, tail = leaf_frame(0)
        return leaf(sha256_digest(head + tail), 0, False, version)
    n = count_of(nbytes, chunk)
    level = [leaf(leaves[32 * i : 32 * i + 32], min(chunk, nbytes - chunk * i), raw, version) for i in range(n)]
    while len(level) > 1:  # a file of one chunk is its leaf
        level = [file_node(level[i : i + max_links], version) for i in range(0, len(level), max_links)]
    return level[0]
