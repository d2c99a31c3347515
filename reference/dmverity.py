"""dm-verity's hash tree and veritysetup's superblock (the kernel's
Documentation/admin-guide/device-mapper/verity.rst; cryptsetup's docs/on-disk-format of
VERITY) on the pure-Python SHA-256, as they are documented."""

from __future__ import annotations

import struct

from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable


def _check(size: int) -> None:
    if size < 512 or size > 65536 or size & (size - 1):
        raise ValueError("a block size is a power of two from 512 to 65536")


def tree(data: bytes, data_block_size: int = 4096, hash_block_size: int = 4096, salt: bytes = b"",
         format: int = 1, sha256: Callable[[bytes], bytes] = sha256) -> tuple[bytes, bytes]:
    """(root hash, hash area as veritysetup writes it after the superblock) of the whole data blocks
    of data (a short tail is not part of the device)."""
    _check(data_block_size)
    _check(hash_block_size)
    if format not in (0, 1) or len(salt) > 256:
        raise ValueError("format 0 or 1, a salt of at most 256 bytes")
    data, salt = bytes(data), bytes(salt)

    def digest(block: bytes) -> bytes:
        # "version 1: salt prepended to each block; version 0 (Chrome OS): the salt appended"
        return sha256(salt + block if format == 1 else block + salt)

    count = len(data) // data_block_size
    if count == 0:
        raise ValueError("no data block")
    level = [data[i * data_block_size : (i + 1) * data_block_size] for i in range(count)]
    stored: list[bytes] = []  # the levels, bottom first
    while len(level) > 1:
        hashes = b"".join(digest(block) for block in level)
        hashes += bytes(-len(hashes) % hash_block_size)  # each hash block zero-filled after its digests
        level = [hashes[i : i + hash_block_size] for i in range(0, len(hashes), hash_block_size)]
        stored.append(hashes)
    # The top level (one hash block) is first on the device, the leaves' level last.
    return digest(level[0]), b"".join(reversed(stored))


def superblock(uuid: bytes, data_blocks: int, data_block_size: int = 4096, hash_block_size: int = 4096,
               salt: bytes = b"", format: int = 1) -> bytes:
    """cryptsetup's struct verity_sb, 512 bytes, little-endian."""
    return struct.pack("<8sII16s32sIIQH6s256s168s", b"verity", 1, format, bytes(uuid), b"sha256", data_block_size,
                       hash_block_size, data_blocks, len(salt), bytes(6), bytes(salt), bytes(168))
