"""Ethereum consensus SSZ Merkleization (the consensus-specs' ssz/simple-serialize.md), on the
pure-Python SHA-256, written as the spec reads: chunks padded to a power of two with zero chunks,
each parent the SHA-256 of its two children, the length mixed in for lists."""

from __future__ import annotations

from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

BYTES_PER_CHUNK = 32


def next_pow_of_two(n: int) -> int:
    """The smallest power of two >= n (1 for n = 0: an empty input is one zero chunk)."""
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def zero_hashes(depth: int, sha256: Callable[[bytes], bytes] = sha256) -> list[bytes]:
    """zero_hashes(d)[i]: the root of a subtree i levels high over zero chunks, i = 0..d."""
    zero = [bytes(BYTES_PER_CHUNK)]
    for _ in range(depth):
        zero.append(sha256(zero[-1] + zero[-1]))
    return zero


def pack(data: bytes) -> list[bytes]:
    """Serialized basic values cut into 32-byte chunks, the last right-padded with zeros."""
    data = bytes(data)
    return [data[i : i + BYTES_PER_CHUNK].ljust(BYTES_PER_CHUNK, b"\0") for i in range(0, len(data), BYTES_PER_CHUNK)]


def merkleize(chunks: list[bytes], limit: int | None = None, sha256: Callable[[bytes], bytes] = sha256) -> bytes:
    """The root of the chunks, padded with zero chunks to next_pow_of_two(limit) (of their count
    when limit is None); more chunks than the limit is an error. `sha256`: the pure-Python one by
    default, or a faster one (hashlib's), the tree's logic the same."""
    if any(len(c) != BYTES_PER_CHUNK for c in chunks):
        raise ValueError("every chunk is 32 bytes")
    if limit is None:
        limit = len(chunks)
    if limit < len(chunks):
        raise ValueError(f"{len(chunks)} chunks exceed the limit {limit}")
    depth = (next_pow_of_two(limit) - 1).bit_length()
    zero = zero_hashes(depth, sha256)
    level = [bytes(c) for c in chunks]
    for d in range(depth):
        if len(level) % 2:
            level.append(zero[d])  # the zero subtree beside the last node, never hashed out
        level = [sha256(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0] if level else zero[depth]


def mix_in_length(root: bytes, length: int, sha256: Callable[[bytes], bytes] = sha256) -> bytes:
    """SHA-256 of the root and the length as a 32-byte little-endian integer (a list's root)."""
    return sha256(bytes(root) + length.to_bytes(32, "little"))
