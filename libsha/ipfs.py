"""IPFS content identifiers (CIDs) of files, as `ipfs add --only-hash` computes them: UnixFS's
Merkle DAG of fixed-size chunks in the balanced layout, dag-pb nodes with UnixFS `Data` and
`blocksizes`, raw or dag-pb leaves, CIDv0 (base58 `Qm…`) or CIDv1 (base32 `bafy…`, `bafk…`).

    from libsha import ipfs
    ipfs.file_cid("photo.jpg")                              # Kubo's default: 'Qm…' (unixfs-v0-2015)
    ipfs.file_cid("photo.jpg", profile="unixfs-v1-2025")    # 'bafk…' or 'bafy…'
    ipfs.cid(data, chunk_size=1 << 20, raw_leaves=True)     # a profile's parameters, each overridable
    ipfs.cid(data).bytes                                    # the CID's binary form

The profiles are IPIP-499's: `unixfs-v0-2015` (256 KiB chunks, 174 links a node, dag-pb leaves,
CIDv0; what `ipfs add` does by default) and `unixfs-v1-2025` (1 MiB chunks, 1,024 links, raw
leaves, CIDv1). The chunks are hashed in the CPU's lanes (raw leaves in place; dag-pb leaves each
framed in its node first); the nodes above are built level by level, a node for every `max_links`
of the level below, until one is left.
"""

from __future__ import annotations

import ctypes
import os
from typing import NamedTuple

from ._buffers import borrow
from ._cpus import worker_count
from ._many.descriptor import hash_batch, rows_batch
from ._one.oneshot import sha256_digest
from ._threads import run_parts
from ._trees.block_leaves import buffer_leaves, count_of, file_block_leaves
from ._trees.file_blocks import file_leaves
from ._trees.nodes import count
from ._views import contiguous_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["CID", "PROFILES", "Profile", "cid", "file_cid"]

RAW, DAG_PB = 0x55, 0x70  # multicodec codes
SHA2_256 = b"\x12\x20"  # multihash: sha2-256, 32 bytes
_BASE32 = "abcdefghijklmnopqrstuvwxyz234567"
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


class Profile(NamedTuple):
    """How a file becomes a DAG: its chunks' size, the links a node holds, raw leaves or dag-pb
    ones, and the CID version of the dag-pb nodes (raw leaves are always CIDv1)."""

    chunk_size: int
    max_links: int
    raw_leaves: bool
    cid_version: int


PROFILES = {
    "unixfs-v0-2015": Profile(chunk_size=256 << 10, max_links=174, raw_leaves=False, cid_version=0),
    "unixfs-v1-2025": Profile(chunk_size=1 << 20, max_links=1024, raw_leaves=True, cid_version=1),
}
MAX_CHUNK = 1 << 20  # Kubo's largest chunk (its blocks are at most 1 MiB plus framing)


_Binary = bytes  # (inside CID, `bytes` names the attribute)


class CID(str):
    """A CID as its string (base58 for CIDv0, base32 `b…` for CIDv1); `.bytes` is its binary form."""

    bytes: _Binary

    def __new__(cls, binary: _Binary) -> CID:
        text = _base58(binary) if binary[:1] == b"\x12" else "b" + _base32(binary)
        made = super().__new__(cls, text)
        made.bytes = binary
        return made

    def __reduce__(self) -> tuple[type[CID], tuple[_Binary]]:
        return CID, (self.bytes,)


def cid(data: Any, *, profile: str = "unixfs-v0-2015", chunk_size: int | None = None, max_links: int | None = None,
        raw_leaves: bool | None = None, cid_version: int | None = None, threads: int = 1) -> CID:
    """The CID of a bytes-like object's contents as a file; threads=N hashes its chunks on N threads
    (0: one per CPU this process may use)."""
    params = _params(profile, chunk_size, max_links, raw_leaves, cid_version)
    workers = worker_count(threads, "threads")
    view = contiguous_view(data, "data")
    if params.raw_leaves:
        leaves = ctypes.string_at(buffer_leaves(view, params.chunk_size, workers, "ipfs"),
                                  32 * count_of(view.nbytes, params.chunk_size))
    else:
        leaves = _framed_buffer_leaves(view, params.chunk_size, workers)
    return _root(leaves, view.nbytes, params)


def file_cid(path: str | bytes | os.PathLike[str] | os.PathLike[bytes], *, profile: str = "unixfs-v0-2015",
             chunk_size: int | None = None, max_links: int | None = None, raw_leaves: bool | None = None,
             cid_version: int | None = None, threads: int = 1) -> CID:
    """The CID of the file at path (`ipfs add --only-hash`'s), read as sha256_file reads (large
    reads, the next one while this one is hashed; never mapped): a file that shrinks or grows
    meanwhile gives the CID of the bytes read. A directory, a vanished file, a failed read: OSError
    naming the file."""
    params = _params(profile, chunk_size, max_links, raw_leaves, cid_version)
    workers = worker_count(threads, "threads")
    if params.raw_leaves:
        leaves, nbytes = file_block_leaves(path, params.chunk_size, workers, "ipfs")
    else:
        leaves, nbytes = file_leaves(path, params.chunk_size, _framed_leaves_at(params.chunk_size), workers, "ipfs")
    return _root(leaves, nbytes, params)


def _params(profile: str, chunk_size: object, max_links: object, raw_leaves: object,
            cid_version: object) -> Profile:
    if not isinstance(profile, str) or profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(map(repr, PROFILES))}, not {profile!r}")
    base = PROFILES[profile]
    size = base.chunk_size if chunk_size is None else count(chunk_size, "chunk_size")
    if not 1 <= size <= MAX_CHUNK:
        raise ValueError(f"chunk_size must be 1..{MAX_CHUNK}, not {chunk_size}")
    links = base.max_links if max_links is None else count(max_links, "max_links")
    if links < 2:
        raise ValueError(f"max_links must be 2 or more, not {max_links}")
    if raw_leaves is not None and not isinstance(raw_leaves, bool):
        raise TypeError(f"raw_leaves must be a bool, not {type(raw_leaves).__name__}")
    version = base.cid_version if cid_version is None else cid_version
    if version not in (0, 1) or isinstance(version, bool):
        raise ValueError(f"cid_version must be 0 or 1, not {cid_version!r}")
    return Profile(size, links, base.raw_leaves if raw_leaves is None else bool(raw_leaves), version)


# -- leaves -------------------------------------------------------------------------------------

def _leaf_frame(length: int) -> tuple[bytes, bytes]:
    """A dag-pb leaf of `length` bytes of the file: its node's bytes before and after the chunk
    (PBNode.Data = UnixFS {Type: File, Data: chunk, filesize: length})."""
    if length == 0:
        unixfs = b"\x08\x02\x18\x00"  # no Data field for an empty chunk
        return b"\x0a" + _varint(len(unixfs)) + unixfs, b""
    tail = b"\x18" + _varint(length)
    inner = 2 + 1 + len(_varint(length)) + length + len(tail)
    return b"\x0a" + _varint(inner) + b"\x08\x02\x12" + _varint(length), tail


def _framed_leaves_at(chunk: int) -> Callable[[int, int, int], int]:
    """leaves_of(out, data, nbytes) for dag-pb leaves: each chunk copied into its node's frame,
    the framed chunks hashed as rows of one length (the last, short one alone)."""
    head, tail = _leaf_frame(chunk)
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
            short_head, short_tail = _leaf_frame(rest)
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


# -- the DAG ------------------------------------------------------------------------------------

class _Node(NamedTuple):
    cid: bytes  # binary
    tsize: int  # the bytes of its block and every block below it (dag-pb's Tsize)
    filesize: int  # the file's bytes below it (UnixFS blocksizes)


def _root(leaves: bytes, nbytes: int, params: Profile) -> CID:
    chunk = params.chunk_size
    if nbytes == 0:  # one empty chunk
        if params.raw_leaves:
            return CID(_cid(RAW, sha256_digest(b""), 1))
        head, tail = _leaf_frame(0)
        return CID(_cid(DAG_PB, sha256_digest(head + tail), params.cid_version))
    n = count_of(nbytes, chunk)
    level = []
    for i in range(n):
        length = min(chunk, nbytes - chunk * i)
        digest = leaves[32 * i : 32 * i + 32]
        if params.raw_leaves:
            level.append(_Node(_cid(RAW, digest, 1), length, length))
        else:
            head, tail = _leaf_frame(length)
            level.append(_Node(_cid(DAG_PB, digest, params.cid_version), len(head) + length + len(tail), length))
    if n == 1:  # a file of one chunk is its leaf
        return CID(level[0].cid)
    while True:
        level = [_parent(level[i : i + params.max_links], params.cid_version)
                 for i in range(0, len(level), params.max_links)]
        if len(level) == 1:
            return CID(level[0].cid)


def _parent(children: list[_Node], version: int) -> _Node:
    """A dag-pb node linking `children` (links first, then Data, as dag-pb's canonical form)."""
    filesize = sum(c.filesize for c in children)
    unixfs = b"\x08\x02\x18" + _varint(filesize) + b"".join(b"\x20" + _varint(c.filesize) for c in children)
    parts = []
    for c in children:
        link = b"\x0a" + _varint(len(c.cid)) + c.cid + b"\x12\x00\x18" + _varint(c.tsize)
        parts.append(b"\x12" + _varint(len(link)) + link)
    parts.append(b"\x0a" + _varint(len(unixfs)) + unixfs)
    block = b"".join(parts)
    return _Node(_cid(DAG_PB, sha256_digest(block), version), len(block) + sum(c.tsize for c in children), filesize)


def _cid(codec: int, digest: bytes, version: int) -> bytes:
    if version == 0 and codec == DAG_PB:
        return SHA2_256 + digest
    return b"\x01" + _varint(codec) + SHA2_256 + digest


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _base32(data: bytes) -> str:
    bits = int.from_bytes(data, "big") << (-len(data) * 8 % 5)
    n = -(-len(data) * 8 // 5)
    return "".join(_BASE32[(bits >> (5 * (n - 1 - i))) & 31] for i in range(n))


def _base58(data: bytes) -> str:
    value = int.from_bytes(data, "big")
    out = []
    while value:
        value, digit = divmod(value, 58)
        out.append(_BASE58[digit])
    zeros = len(data) - len(data.lstrip(b"\0"))
    return "1" * zeros + "".join(reversed(out))
