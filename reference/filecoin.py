"""Filecoin's piece commitment (commP) on the pure-Python SHA-256, as Filecoin's specs describe it
(spec.filecoin.io: Piece, fr32 padding; FRC-0069 for the v2 piece CID): the payload zero-filled to
whole 127-byte groups, each group fr32-padded to 128 bytes (two zero bits after every 254), the
result zero-filled to a power of two (at least 128 bytes) and cut into 32-byte leaves, each parent
SHA-256(left || right) with its last byte's two high bits cleared (sha2-256-trunc254-padded). The
piece CID v1 is <cidv1><fil-commitment-unsealed><sha2-256-trunc254-padded><32><commP>; v2 is
<cidv1><raw><fr32-sha256-trunc254-padbintree><len><padding varint><height><commP>."""

from __future__ import annotations

from .ipfs import _varint, cid_string
from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

MIN_PAYLOAD = 65  # go-fil-commp-hashhash's smallest payload (the smallest piece is 128 bytes)
FIL_COMMITMENT_UNSEALED, SHA2_256_TRUNC254_PADDED = 0xF101, 0x1012
RAW, FR32_SHA256_TRUNC254_PADBINTREE = 0x55, 0x1011


def fr32(group: bytes) -> bytes:
    """127 bytes as 128: the group's 1,016 bits, least significant first, in four runs of 254, each
    followed by two zero bits."""
    bits = int.from_bytes(group, "little")
    out = 0
    for i in range(4):
        out |= ((bits >> (254 * i)) & ((1 << 254) - 1)) << (256 * i)
    return out.to_bytes(128, "little")


def truncated(digest: bytes) -> bytes:
    """A node: the digest with its last byte's two high bits cleared (254 bits)."""
    return digest[:31] + bytes([digest[31] & 0x3F])


def zero_hashes(depth: int, sha256: Callable[[bytes], bytes] = sha256) -> list[bytes]:
    """zero[d]: the root of a tree d levels high over 32-byte zero leaves (fr32 of zeros is zeros)."""
    out = [bytes(32)]
    for _ in range(depth):
        out.append(truncated(sha256(out[-1] * 2)))
    return out


def padded_size(payload: int) -> int:
    """The piece's size: the payload's fr32 groups, 128 bytes each, to the power of two."""
    groups = -(-payload // 127)
    return max(128, 1 << (128 * groups - 1).bit_length())


def piece_commitment(data: bytes, sha256: Callable[[bytes], bytes] = sha256) -> tuple[bytes, int]:
    """(commP, the padded piece size) of a payload of at least MIN_PAYLOAD bytes."""
    if len(data) < MIN_PAYLOAD:
        raise ValueError(f"a piece's payload is at least {MIN_PAYLOAD} bytes")
    data = bytes(data) + bytes(-len(data) % 127)
    size = padded_size(len(data))
    padded = b"".join(fr32(data[i : i + 127]) for i in range(0, len(data), 127))
    zero = zero_hashes(size.bit_length(), sha256)
    level = [padded[i : i + 32] for i in range(0, len(padded), 32)]
    height = 0
    while (32 << height) < size:
        if len(level) % 2:
            level.append(zero[height])
        level = [truncated(sha256(level[i] + level[i + 1])) for i in range(0, len(level), 2)]
        height += 1
    return level[0], size


def cid_v1(commp: bytes) -> str:
    """The piece CID v1 (`baga6ea4sea…`)."""
    return cid_string(_varint(1) + _varint(FIL_COMMITMENT_UNSEALED) + _varint(SHA2_256_TRUNC254_PADDED)
                      + _varint(32) + commp)


def cid_v2(commp: bytes, payload: int) -> str:
    """FRC-0069's piece CID v2 (`bafkzcib…`): the padding (the zeros added to the payload before
    fr32) and the tree's height travel in the digest."""
    size = padded_size(payload)
    padding = size // 128 * 127 - payload
    digest = _varint(padding) + bytes([size.bit_length() - 6]) + commp  # height: log2 of the leaves
    return cid_string(_varint(1) + _varint(RAW) + _varint(FR32_SHA256_TRUNC254_PADBINTREE) + _varint(len(digest))
                      + digest)
