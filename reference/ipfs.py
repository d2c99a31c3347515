"""IPFS's UnixFS file DAG and its CID on the pure-Python SHA-256, as the UnixFS and dag-pb specs
(github.com/ipfs/specs: UNIXFS.md; ipld.io: dag-pb) and IPIP-499's profiles describe them: the file
cut into fixed-size chunks, each a leaf (a raw block, or a dag-pb node whose UnixFS Data holds the
chunk), the leaves linked by dag-pb nodes of at most max_links links each, level by level (the
balanced layout), until one node is left; a file of one chunk is its leaf. A CID is
<version><codec><multihash> (CIDv0: the multihash alone, base58btc; CIDv1: multibase 'b', base32)."""

from __future__ import annotations

from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

# name: (chunk size, links a node, raw leaves, CID version of the dag-pb nodes)
PROFILES = {"unixfs-v0-2015": (262144, 174, False, 0), "unixfs-v1-2025": (1048576, 1024, True, 1)}
CODEC_RAW, CODEC_DAG_PB, MULTIHASH_SHA2_256 = 0x55, 0x70, 0x12
UNIXFS_DIRECTORY, UNIXFS_FILE, UNIXFS_SYMLINK = 1, 2, 4


def _varint(n: int) -> bytes:
    """An unsigned LEB128 varint, as protobuf and multiformats write them."""
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def _field(number: int, value: int | bytes) -> bytes:
    """One protobuf field: a varint (wire type 0) or length-delimited bytes (wire type 2)."""
    if isinstance(value, int):
        return _varint(number << 3) + _varint(value)
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def unixfs_file(data: bytes | None, filesize: int, blocksizes: list[int]) -> bytes:
    """UnixFS's Data message of a file node: Type, Data (absent when empty), filesize, blocksizes."""
    out = _field(1, UNIXFS_FILE)
    if data:
        out += _field(2, data)
    out += _field(3, filesize)
    for size in blocksizes:
        out += _field(4, size)
    return out


def dag_pb(links: list[tuple[bytes, str, int]], data: bytes) -> bytes:
    """A dag-pb PBNode in its canonical form: its links (Hash, Name, Tsize), sorted by name, then Data."""
    out = b""
    for cid, name, tsize in sorted(links, key=lambda link: link[1].encode()):
        out += _field(2, _field(1, cid) + _field(2, name.encode()) + _field(3, tsize))
    return out + _field(1, data)


def cid_bytes(block: bytes, codec: int, version: int, sha256: Callable[[bytes], bytes] = sha256) -> bytes:
    multihash = bytes([MULTIHASH_SHA2_256, 32]) + sha256(block)
    if version == 0:
        return multihash
    return _varint(1) + _varint(codec) + multihash


def cid_string(binary: bytes) -> str:
    if binary[0] == MULTIHASH_SHA2_256:  # CIDv0: base58btc, no multibase prefix
        alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
        n, digits = int.from_bytes(binary, "big"), ""
        while n:
            n, d = divmod(n, 58)
            digits = alphabet[d] + digits
        return "1" * (len(binary) - len(binary.lstrip(b"\0"))) + digits
    bits = "".join(f"{b:08b}" for b in binary)
    bits += "0" * (-len(bits) % 5)
    return "b" + "".join("abcdefghijklmnopqrstuvwxyz234567"[int(bits[i : i + 5], 2)] for i in range(0, len(bits), 5))


def cid(data: bytes, profile: str = "unixfs-v0-2015", chunk_size: int | None = None, max_links: int | None = None,
        raw_leaves: bool | None = None, cid_version: int | None = None,
        sha256: Callable[[bytes], bytes] = sha256) -> str:
    """The CID of a file of these bytes. `sha256` is the pure-Python one by default; a faster one
    (hashlib's) keeps the DAG's logic for large files."""
    return cid_string(file_root(data, profile, chunk_size, max_links, raw_leaves, cid_version, sha256)[0])


def file_root(data: bytes, profile: str = "unixfs-v0-2015", chunk_size: int | None = None,
              max_links: int | None = None, raw_leaves: bool | None = None, cid_version: int | None = None,
              sha256: Callable[[bytes], bytes] = sha256) -> tuple[bytes, int]:
    """(the binary CID, the Tsize: its block's bytes and all below) of a file of these bytes."""
    size, links, raw, version = PROFILES[profile]
    size = chunk_size or size
    links = max_links or links
    raw = raw if raw_leaves is None else raw_leaves
    version = version if cid_version is None else cid_version
    data = bytes(data)
    chunks = [data[i : i + size] for i in range(0, len(data), size)] or [b""]
    # (cid, Tsize: the bytes of its block and all below, the file's bytes below it)
    level = []
    for chunk in chunks:
        if raw:
            level.append((cid_bytes(chunk, CODEC_RAW, 1, sha256), len(chunk), len(chunk)))
        else:
            block = dag_pb([], unixfs_file(chunk, len(chunk), []))
            level.append((cid_bytes(block, CODEC_DAG_PB, version, sha256), len(block), len(chunk)))
    while len(level) > 1:
        parents = []
        for i in range(0, len(level), links):
            group = level[i : i + links]
            filesize = sum(n[2] for n in group)
            block = dag_pb([(n[0], "", n[1]) for n in group], unixfs_file(None, filesize, [n[2] for n in group]))
            parents.append((cid_bytes(block, CODEC_DAG_PB, version, sha256),
                            len(block) + sum(n[1] for n in group), filesize))
        level = parents
    return level[0][0], level[0][1]


def directory_block(entries: dict[str, tuple[bytes, int]]) -> bytes:
    """A plain UnixFS directory's dag-pb block: a link a (name: (CID, Tsize)) entry."""
    return dag_pb([(c, name, tsize) for name, (c, tsize) in entries.items()], _field(1, UNIXFS_DIRECTORY))


def symlink_block(target: bytes) -> bytes:
    """A UnixFS symlink's dag-pb block: its target as the Data."""
    return dag_pb([], _field(1, UNIXFS_SYMLINK) + _field(2, target))


def node(block: bytes, below: int, version: int, sha256: Callable[[bytes], bytes] = sha256) -> tuple[bytes, int]:
    """(the binary CID, the Tsize) of a dag-pb block above `below` bytes of blocks."""
    return cid_bytes(block, CODEC_DAG_PB, version, sha256), len(block) + below
