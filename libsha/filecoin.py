"""Filecoin's piece commitment (commP) of a payload: what `go-fil-commp-hashhash` (Lotus's `commp`)
and `@web3-storage/data-segment` compute, with the piece's CIDs.

    from libsha import filecoin
    made = filecoin.file_piece_commitment("payload.car")    # or piece_commitment(data), threads=N
    made.cid_v1              # 'baga6ea4sea…' (fil-commitment-unsealed, sha2-256-trunc254-padded)
    made.cid_v2              # 'bafkzcib…' (FRC-0069: the padding and height in the digest)
    made.commp, made.padded_size, made.payload_size

The payload is fr32-padded (127 bytes to 128: two zero bits after every 254) into 32-byte leaves,
zero-filled to a power of two; each parent is SHA-256(left || right) truncated to 254 bits. The C
library builds it as a stream, the zero subtrees from a table; here the payload goes in parts of
PART_BYTES (each a perfect subtree of PART_LEAVES leaves, in the lanes, on threads), whose roots
are joined above them.
"""

from __future__ import annotations

import ctypes
import functools
import os
from typing import NamedTuple

from . import _native
from ._buffers import borrow
from ._cpus import worker_count
from ._threads import run_parts
from ._trees.dag_pb import CID, varint
from ._trees.file_blocks import file_leaves
from ._trees.level import sha256_64
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_PAYLOAD", "MIN_PAYLOAD", "PieceCommitment", "file_piece_commitment", "piece_commitment"]

MIN_PAYLOAD = 65  # go-fil-commp-hashhash's least (the C library's LIBSHA_COMMP_MIN_PAYLOAD)
MAX_PAYLOAD = 127 << 29  # a 64 GiB piece: the largest sector's (LIBSHA_COMMP_MAX_PAYLOAD)
GROUP = 127  # payload bytes to one fr32 group: 128 bytes, four leaves
PART_LEAVES = 1 << 15  # a part's subtree: 1 MiB of padded piece
PART_BYTES = GROUP * PART_LEAVES // 4
FIL_COMMITMENT_UNSEALED, SHA2_256_TRUNC254_PADDED = 0xF101, 0x1012  # multicodec codes
RAW, FR32_SHA256_TRUNC254_PADBINTREE = 0x55, 0x1011


class PieceCommitment(NamedTuple):
    """A Filecoin piece's commitment: commP (32 bytes), the padded piece size, the payload's size."""

    commp: bytes
    padded_size: int
    payload_size: int

    @property
    def cid_v1(self) -> CID:
        """The piece CID v1, `baga6ea4sea…`."""
        multihash = varint(SHA2_256_TRUNC254_PADDED) + varint(32) + self.commp
        return CID(varint(1) + varint(FIL_COMMITMENT_UNSEALED) + multihash)

    @property
    def cid_v2(self) -> CID:
        """FRC-0069's piece CID v2, `bafkzcib…`: the payload's padding and the tree's height with commP."""
        padding = self.padded_size // 128 * GROUP - self.payload_size
        digest = varint(padding) + bytes([self.padded_size.bit_length() - 6]) + self.commp
        return CID(varint(1) + varint(RAW) + varint(FR32_SHA256_TRUNC254_PADBINTREE) + varint(len(digest)) + digest)


def piece_commitment(data: Any, *, threads: int = 1) -> PieceCommitment:
    """The commitment of a bytes-like payload of MIN_PAYLOAD to MAX_PAYLOAD bytes; threads=N hashes
    its parts on N threads (0: one per CPU this process may use)."""
    workers = worker_count(threads, "threads")
    view = contiguous_view(data, "data")
    _check_size(view.nbytes)
    n = -(-view.nbytes // PART_BYTES)
    roots = ctypes.create_string_buffer(32 * n)
    with borrow(view, "data", address=True) as (address, _):
        def part(first: int, stop: int) -> int:
            end = min(view.nbytes, PART_BYTES * stop)
            return _part_roots(ctypes.addressof(roots) + 32 * first, address + PART_BYTES * first,
                               end - PART_BYTES * first)

        run_parts(part, n, workers, "filecoin", PART_BYTES.__mul__)
    return _joined(roots.raw, view.nbytes)


def file_piece_commitment(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *,
                          threads: int = 1) -> PieceCommitment:
    """The commitment of the file at path as the payload, read as sha256_file reads (never mapped):
    a file that shrinks or grows meanwhile gives the commitment of the bytes read. A directory, a
    vanished file, a failed read: OSError naming the file; a payload out of range: ValueError."""
    workers = worker_count(threads, "threads")
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0  # (the read below names what is wrong)
    if size > MAX_PAYLOAD:  # refused before 64 GiB are read
        _check_size(size)
    roots, nbytes = file_leaves(path, PART_BYTES, _part_roots, workers, "filecoin", limit=MAX_PAYLOAD + 1)
    _check_size(nbytes)
    return _joined(roots, nbytes)


def _check_size(nbytes: int) -> None:
    if not MIN_PAYLOAD <= nbytes <= MAX_PAYLOAD:
        raise ValueError(f"a Filecoin piece's payload is {MIN_PAYLOAD} to {MAX_PAYLOAD} bytes, not {nbytes}")


def _part_roots(out: int, data: int, nbytes: int) -> int:
    """leaves_of for file_leaves: the subtree root of each part of nbytes at data (whole parts, but
    for the payload's end), to out. A last part under MIN_PAYLOAD bytes is its group zero-filled,
    which has the same leaves."""
    lib = _native.lib()
    size = ctypes.c_uint64()
    for i in range(-(-nbytes // PART_BYTES)):
        at, length = data + PART_BYTES * i, min(PART_BYTES, nbytes - PART_BYTES * i)
        if length < MIN_PAYLOAD:
            group = ctypes.create_string_buffer(ctypes.string_at(at, length), GROUP)
            at, length = ctypes.addressof(group), GROUP
        code: int = lib.libsha_commp(out + 32 * i, ctypes.byref(size), at, length)
        if code:
            return code
    return 0


def _joined(roots: bytes, nbytes: int) -> PieceCommitment:
    """The parts' roots up to the piece's: the last part's lifted to a whole part's height, then
    paired level by level through the level call (an odd last one with its level's zero)."""
    leaves = 4 * -(-nbytes // GROUP)
    height = max(2, (leaves - 1).bit_length())
    if len(roots) == 32:  # one part: its root is the piece's
        return PieceCommitment(roots, 32 << height, nbytes)
    part_height = PART_LEAVES.bit_length() - 1
    last_leaves = leaves - PART_LEAVES * (len(roots) // 32 - 1)
    zero = _zero_hashes(height)
    node = roots[-32:]
    for h in range(max(2, (last_leaves - 1).bit_length()), part_height):
        node = _pairs(node + zero[h])
    level, h = roots[:-32] + node, part_height
    while h < height:
        if len(level) // 32 % 2:
            level += zero[h]
        level, h = _pairs(level), h + 1
    return PieceCommitment(level, 32 << height, nbytes)


def _pairs(nodes: bytes) -> bytes:
    """The level above: each 64-byte pair's SHA-256 with byte 31 & 0x3f."""
    out = bytearray(sha256_64(nodes))
    out[31::32] = bytes(b & 0x3F for b in out[31::32])
    return bytes(out)


@functools.lru_cache(maxsize=None)
def _zero_hashes(depth: int) -> list[bytes]:
    """zero[d], d <= depth: made once a depth, not once a call (the C library's are a table)."""
    zero = [bytes(32)]
    for _ in range(depth):
        zero.append(_pairs(zero[-1] * 2))
    return zero
