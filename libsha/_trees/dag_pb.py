"""IPFS's blocks as bytes: dag-pb nodes in their canonical form (links sorted by name, then Data)
with UnixFS's Data message (a file's leaf or inner node, a directory, a symlink), and CIDs in
binary and as text (CIDv0: base58btc; CIDv1: multibase 'b', base32). Hashing is the caller's:
these functions build and name blocks, they never read a file."""

from __future__ import annotations

from typing import NamedTuple

from .._one.oneshot import sha256_digest

RAW, DAG_PB = 0x55, 0x70  # multicodec codes
SHA2_256 = b"\x12\x20"  # multihash: sha2-256, 32 bytes
FILE, DIRECTORY, SYMLINK = 2, 1, 4  # UnixFS Data.Type
_BASE32 = "abcdefghijklmnopqrstuvwxyz234567"
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


class Node(NamedTuple):
    cid: bytes  # binary
    tsize: int  # the bytes of its block and every block below it (dag-pb's Tsize)
    filesize: int  # the file's bytes below it (UnixFS blocksizes; 0 for a directory or symlink)


def varint(value: int) -> bytes:
    """An unsigned LEB128 varint, as protobuf and multiformats write them."""
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def cid(codec: int, digest: bytes, version: int) -> bytes:
    """A CID's binary form: CIDv0 is the multihash alone (dag-pb only), CIDv1 prefixes both codes."""
    if version == 0 and codec == DAG_PB:
        return SHA2_256 + digest
    return b"\x01" + varint(codec) + SHA2_256 + digest


def cid_text(binary: bytes) -> str:
    if binary[:1] == SHA2_256[:1]:
        value = int.from_bytes(binary, "big")
        out = []
        while value:
            value, digit = divmod(value, 58)
            out.append(_BASE58[digit])
        return "1" * (len(binary) - len(binary.lstrip(b"\0"))) + "".join(reversed(out))
    bits = int.from_bytes(binary, "big") << (-len(binary) * 8 % 5)
    n = -(-len(binary) * 8 // 5)
    return "b" + "".join(_BASE32[(bits >> (5 * (n - 1 - i))) & 31] for i in range(n))


_Binary = bytes  # (inside CID, `bytes` names the attribute)


class CID(str):
    """A CID as its string (base58 for CIDv0, base32 `b…` for CIDv1); `.bytes` is its binary form.
    (libsha.ipfs.CID; libsha.filecoin's piece CIDs are CIDs too.)"""

    bytes: _Binary

    def __new__(cls, binary: _Binary) -> CID:
        made = super().__new__(cls, cid_text(binary))
        made.bytes = binary
        return made

    def __reduce__(self) -> tuple[type[CID], tuple[_Binary]]:
        return CID, (self.bytes,)


def leaf_frame(length: int) -> tuple[bytes, bytes]:
    """A dag-pb leaf of `length` bytes of a file: its node's bytes before and after the chunk
    (PBNode.Data = UnixFS {Type: File, Data: chunk, filesize: length})."""
    if length == 0:
        unixfs = b"\x08\x02\x18\x00"  # no Data field for an empty chunk
        return b"\x0a" + varint(len(unixfs)) + unixfs, b""
    tail = b"\x18" + varint(length)
    inner = 2 + 1 + len(varint(length)) + length + len(tail)
    return b"\x0a" + varint(inner) + b"\x08\x02\x12" + varint(length), tail


def leaf(digest: bytes, length: int, raw: bool, version: int) -> Node:
    """The node of one chunk of `length` bytes whose block hashes to digest (raw: the chunk itself)."""
    if raw:
        return Node(cid(RAW, digest, 1), length, length)
    head, tail = leaf_frame(length)
    return Node(cid(DAG_PB, digest, version), len(head) + length + len(tail), length)


def _links(links: list[tuple[bytes, Node]]) -> bytes:
    """PBNode.Links, each {Hash, Name, Tsize}, in the order given."""
    parts = []
    for name, child in links:
        link = b"\x0a" + varint(len(child.cid)) + child.cid + b"\x12" + varint(len(name)) + name
        link += b"\x18" + varint(child.tsize)
        parts.append(b"\x12" + varint(len(link)) + link)
    return b"".join(parts)


def _node(links: list[tuple[bytes, Node]], unixfs: bytes, version: int, filesize: int) -> Node:
    block = _links(links) + b"\x0a" + varint(len(unixfs)) + unixfs
    return Node(cid(DAG_PB, sha256_digest(block), version), len(block) + sum(c.tsize for _, c in links), filesize)


def file_node(children: list[Node], version: int) -> Node:
    """A file's inner node: unnamed links to its children, their file bytes in blocksizes."""
    filesize = sum(c.filesize for c in children)
    unixfs = b"\x08\x02\x18" + varint(filesize) + b"".join(b"\x20" + varint(c.filesize) for c in children)
    return _node([(b"", c) for c in children], unixfs, version, filesize)


def directory_node(entries: dict[bytes, Node], version: int) -> Node:
    """A plain (unsharded) UnixFS directory: a link an entry, sorted by name's bytes."""
    return _node(sorted(entries.items()), b"\x08\x01", version, 0)


def symlink_node(target: bytes, version: int) -> Node:
    """A UnixFS symlink: the target path as its Data, no links."""
    return _node([], b"\x08\x04\x12" + varint(len(target)) + target, version, 0)


def link_size(name: bytes, child: Node) -> int:
    """The bytes one link adds to its directory's block (boxo's and the JS importer's "block-bytes")."""
    inner = 1 + len(varint(len(child.cid))) + len(child.cid) + 1 + len(varint(len(name))) + len(name)
    inner += 1 + len(varint(child.tsize))
    return 1 + len(varint(inner)) + inner
