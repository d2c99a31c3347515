"""BitTorrent v2's per-file Merkle tree (BEP 52, "File tree" and "piece layers") on the
pure-Python SHA-256, as the BEP describes it."""

from __future__ import annotations

from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

BLOCK_SIZE = 16 * 1024  # a leaf covers 16 KiB of the file


def _root(nodes: list[bytes], pad: bytes, sha256: Callable[[bytes], bytes]) -> tuple[bytes, list[list[bytes]]]:
    """The root of nodes padded with `pad` to a power of two, and every level, bottom up."""
    width = 1
    while width < len(nodes):
        width *= 2
    level = nodes + [pad] * (width - len(nodes))
    levels = [level]
    while len(level) > 1:
        level = [sha256(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
        levels.append(level)
    return level[0], levels


def tree(data: bytes, piece_length: int, sha256: Callable[[bytes], bytes] = sha256) -> tuple[bytes | None, bytes]:
    """(pieces root, piece layer) of a file's contents: the root is None for an empty file, the
    layer (its piece hashes end to end) empty for a file of at most one piece. `sha256` is the
    pure-Python one by default; a faster one (hashlib's) keeps the tree's logic for large files."""
    if piece_length < BLOCK_SIZE or piece_length & (piece_length - 1):
        raise ValueError("piece_length is a power of two of at least 16 KiB")
    data = bytes(data)
    if not data:
        return None, b""
    # The leaves: each 16 KiB block hashed, the last one as short as it is.
    leaves = [sha256(data[i : i + BLOCK_SIZE]) for i in range(0, len(data), BLOCK_SIZE)]
    # "The remaining leaf hashes beyond the end of the file required to construct upper layers of
    # the merkle tree are set to zero."
    root, levels = _root(leaves, bytes(32), sha256)
    if len(data) <= piece_length:
        return root, b""
    height = (piece_length // BLOCK_SIZE).bit_length() - 1  # the level whose nodes cover a piece
    pieces = -(-len(data) // piece_length)
    return root, b"".join(levels[height][:pieces])
