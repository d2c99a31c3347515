"""Amazon S3 Glacier's SHA-256 tree hash on the pure-Python SHA-256, as Glacier's developer guide
("Computing Checksums") describes it: the data cut into 1 MiB parts (the last one as short as it
is), each part hashed, then the hashes paired level by level, each pair's concatenation hashed and
an odd last hash carried up as it is, until one is left. Empty data is one empty part."""

from __future__ import annotations

from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

LEAF_SIZE = 1 << 20  # a leaf covers 1 MiB of the data


def root_of(hashes: list[bytes], sha256: Callable[[bytes], bytes] = sha256) -> bytes:
    """The tree hash over a list of hashes (leaves, or the tree hashes of aligned parts)."""
    level = list(hashes)
    while len(level) > 1:
        pairs = [sha256(level[i] + level[i + 1]) for i in range(0, len(level) - 1, 2)]
        level = pairs + level[len(pairs) * 2 :]  # an odd one goes up unhashed
    return level[0]


def leaves(data: bytes, sha256: Callable[[bytes], bytes] = sha256) -> list[bytes]:
    """Each 1 MiB part's SHA-256; one part of nothing for empty data."""
    data = bytes(data)
    return [sha256(data[i : i + LEAF_SIZE]) for i in range(0, max(len(data), 1), LEAF_SIZE)]


def tree_hash(data: bytes, sha256: Callable[[bytes], bytes] = sha256) -> bytes:
    """The tree hash of data (x-amz-sha256-tree-hash is its hex). `sha256` is the pure-Python one by
    default; a faster one (hashlib's) keeps the tree's logic for large data."""
    return root_of(leaves(data, sha256), sha256)


def part_hashes(data: bytes, part_size: int, sha256: Callable[[bytes], bytes] = sha256) -> list[bytes]:
    """The tree hash of each part of a multipart upload of data in parts of part_size bytes (a power
    of two times 1 MiB), the last one as short as it is."""
    if part_size < LEAF_SIZE or part_size & (part_size - 1):
        raise ValueError("part_size is 1 MiB times a power of two")
    data = bytes(data)
    return [tree_hash(data[i : i + part_size], sha256) for i in range(0, max(len(data), 1), part_size)]
