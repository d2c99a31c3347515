"""SHA-256 as FIPS 180-4 states it, written to be read, not to be fast.

Section numbers refer to FIPS 180-4 (August 2015).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator

    from typing_extensions import Buffer

import struct

BLOCK_SIZE = 64
DIGEST_SIZE = 32
MASK = 0xFFFFFFFF

# 4.2.2: the first 32 bits of the fractional parts of the cube roots of the
# first 64 primes.
K = (
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4, 0xAB1C5ED5,
    0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE, 0x9BDC06A7, 0xC19BF174,
    0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F, 0x4A7484AA, 0x5CB0A9DC, 0x76F988DA,
    0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7, 0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967,
    0x27B70A85, 0x2E1B2138, 0x4D2C6DFC, 0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85,
    0xA2BFE8A1, 0xA81A664B, 0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070,
    0x19A4C116, 0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7, 0xC67178F2,
)

# 5.3.3: the first 32 bits of the fractional parts of the square roots of the
# first 8 primes.
H0 = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19)


def rotr(x: int, n: int) -> int:
    """3.2: rotate a 32-bit word right by n bits."""
    return ((x >> n) | (x << (32 - n))) & MASK


# 4.1.2: the six logical functions.
def ch(x: int, y: int, z: int) -> int:
    return (x & y) ^ (~x & z)


def maj(x: int, y: int, z: int) -> int:
    return (x & y) ^ (x & z) ^ (y & z)


def big_sigma0(x: int) -> int:
    return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22)


def big_sigma1(x: int) -> int:
    return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25)


def small_sigma0(x: int) -> int:
    return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)


def small_sigma1(x: int) -> int:
    return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10)


def message_schedule(block: bytes) -> list[int]:
    """6.2.2 step 1: the 64 words W[0..63] of a 64-byte block's message schedule."""
    if len(block) != BLOCK_SIZE:
        raise ValueError(f"a block is {BLOCK_SIZE} bytes, not {len(block)}")
    w = list(struct.unpack(">16I", block))
    for t in range(16, 64):
        w.append((small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16]) & MASK)
    return w


def rounds(state: tuple[int, ...], w: list[int]) -> Iterator[tuple[int, ...]]:
    """6.2.2 steps 2 and 3: the working variables a..h after each of the 64 rounds."""
    a, b, c, d, e, f, g, h = state
    for t in range(64):
        t1 = (h + big_sigma1(e) + ch(e, f, g) + K[t] + w[t]) & MASK
        t2 = (big_sigma0(a) + maj(a, b, c)) & MASK
        h, g, f, e, d, c, b, a = g, f, e, (d + t1) & MASK, c, b, a, (t1 + t2) & MASK
        yield a, b, c, d, e, f, g, h


def compress(state: tuple[int, ...], block: bytes) -> tuple[int, ...]:
    """6.2.2: one compression of a 64-byte block into an 8-word state.

    Returns the new state as a tuple of eight 32-bit words.
    """
    for working in rounds(state, message_schedule(block)):
        pass
    # Step 4: the intermediate hash value.
    return tuple((x + y) & MASK for x, y in zip(state, working))


def padding(message_length: int) -> bytes:
    """5.1.1: the bytes appended to a message of message_length bytes.

    A 1 bit, zeros up to 56 bytes modulo 64, then the length in bits as a
    64-bit big-endian integer.
    """
    zeros = (55 - message_length) % BLOCK_SIZE
    return b"\x80" + b"\x00" * zeros + struct.pack(">Q", (message_length * 8) & (2**64 - 1))


class Sha256:
    """Streaming SHA-256 with the hashlib interface (update, digest, copy)."""

    name = "sha256"
    digest_size = DIGEST_SIZE
    block_size = BLOCK_SIZE

    def __init__(self, data: Buffer = b"") -> None:
        self._state: tuple[int, ...] = H0
        self._pending = b""  # bytes not yet compressed, always fewer than 64
        self._length = 0
        self.update(data)

    def update(self, data: Buffer) -> None:
        if isinstance(data, str):
            raise TypeError("Strings must be encoded before hashing")
        data = bytes(memoryview(data).cast("B"))
        self._length += len(data)
        data = self._pending + data
        whole = len(data) - len(data) % BLOCK_SIZE
        for i in range(0, whole, BLOCK_SIZE):
            self._state = compress(self._state, data[i : i + BLOCK_SIZE])
        self._pending = data[whole:]

    def digest(self) -> bytes:
        tail = self._pending + padding(self._length)
        state = self._state
        for i in range(0, len(tail), BLOCK_SIZE):
            state = compress(state, tail[i : i + BLOCK_SIZE])
        return struct.pack(">8I", *state)

    def hexdigest(self) -> str:
        return self.digest().hex()

    def copy(self) -> Sha256:
        other = Sha256.__new__(Sha256)
        other._state, other._pending, other._length = self._state, self._pending, self._length
        return other


def sha256(data: Buffer = b"") -> bytes:
    """SHA-256 of data (any bytes-like object)."""
    return Sha256(data).digest()


def sha256d(data: Buffer = b"") -> bytes:
    """Double SHA-256: SHA-256 of the SHA-256 of data (Bitcoin's hash)."""
    return sha256(sha256(data))


def sha256d64(data: Buffer) -> bytes:
    """Double SHA-256 of each 64-byte blob of data, the 32-byte digests concatenated."""
    data = bytes(memoryview(data).cast("B"))
    if len(data) % 64:
        raise ValueError(f"sha256d64 takes whole 64-byte blobs; {len(data)} bytes is not a multiple of 64")
    return b"".join(sha256d(data[i : i + 64]) for i in range(0, len(data), 64))
