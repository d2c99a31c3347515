"""HMAC-SHA256 (RFC 2104, FIPS 198-1) on the pure-Python SHA-256, written to be read against the RFC."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing_extensions import Buffer

from .sha256 import BLOCK_SIZE, sha256

IPAD = 0x36
OPAD = 0x5C


def hmac_sha256(key: Buffer, message: Buffer) -> bytes:
    """HMAC-SHA256 of message under key (both bytes-like), as 32 bytes.

    H((K0 ^ opad) || H((K0 ^ ipad) || message)), where K0 is the key (hashed
    first when longer than a block) padded with zeros to one block.
    """
    key = bytes(key)
    if len(key) > BLOCK_SIZE:
        key = sha256(key)
    k0 = key.ljust(BLOCK_SIZE, b"\0")
    inner = sha256(bytes(b ^ IPAD for b in k0) + bytes(message))
    return sha256(bytes(b ^ OPAD for b in k0) + inner)
