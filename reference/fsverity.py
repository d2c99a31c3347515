"""fs-verity's Merkle tree, descriptor and file digest (the kernel's
Documentation/filesystems/fsverity.rst, "Merkle tree" and "fs-verity descriptor") on the
pure-Python SHA-256, as the kernel documents them."""

from __future__ import annotations

import struct

from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

DIGEST_SIZE = 32
HASH_ALG_SHA256 = 1  # FS_VERITY_HASH_ALG_SHA256


def _check(block_size: int, salt: bytes) -> None:
    if block_size < 1024 or block_size > 65536 or block_size & (block_size - 1):
        raise ValueError("block_size is a power of two from 1024 to 65536")
    if len(salt) > 32:
        raise ValueError("the salt is at most 32 bytes")


def tree(data: bytes, block_size: int = 4096, salt: bytes = b"",
         sha256: Callable[[bytes], bytes] = sha256) -> tuple[bytes, bytes]:
    """(root hash, Merkle tree as the kernel stores it) of a file's contents."""
    data, salt = bytes(data), bytes(salt)
    _check(block_size, salt)
    # "If a salt was specified, then it's zero-padded to the closest multiple of the input size
    # of the hash algorithm's compression function, e.g. 64 bytes for SHA-256. The padded salt is
    # prepended to every data or Merkle tree block that is hashed."
    padded = salt + bytes(-len(salt) % 64) if salt else b""
    if not data:
        return bytes(DIGEST_SIZE), b""  # "the root hash of an empty file is all zeroes"
    # "The file is split into blocks... If the file size isn't a multiple of the block size, the
    # final block is zero-padded."
    level = [data[i : i + block_size].ljust(block_size, b"\0") for i in range(0, len(data), block_size)]
    stored: list[bytes] = []  # each level's blocks, the leaves' level first
    while len(level) > 1:
        # "The resulting hashes are concatenated... then zero-padded to the next block boundary."
        hashes = b"".join(sha256(padded + block) for block in level)
        hashes += bytes(-len(hashes) % block_size)
        level = [hashes[i : i + block_size] for i in range(0, len(hashes), block_size)]
        stored.append(hashes)
    root = sha256(padded + level[0])
    # "the levels are stored in order from the root level to the leaf level"
    return root, b"".join(reversed(stored))


def descriptor(root: bytes, data_size: int, block_size: int = 4096, salt: bytes = b"") -> bytes:
    """struct fsverity_descriptor (version 1, SHA-256, sig_size 0), as FS_IOC_MEASURE_VERITY hashes it."""
    salt = bytes(salt)
    _check(block_size, salt)
    return struct.pack("<BBBBIQ64s32s144s", 1, HASH_ALG_SHA256, block_size.bit_length() - 1, len(salt), 0,
                       data_size, bytes(root), salt, bytes(144))


def digest(data: bytes, block_size: int = 4096, salt: bytes = b"",
           sha256: Callable[[bytes], bytes] = sha256) -> bytes:
    """The file digest: SHA-256 of the descriptor of data's tree."""
    root, _ = tree(data, block_size, salt, sha256)
    return sha256(descriptor(root, len(data), block_size, salt))
