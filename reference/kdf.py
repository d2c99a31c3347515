"""PBKDF2-HMAC-SHA256 (RFC 8018 5.2) and HKDF-SHA256 (RFC 5869) on the pure-Python HMAC, written to
be read against the RFCs."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing_extensions import Buffer

from .hmac import hmac_sha256

HASH_LEN = 32


def pbkdf2_hmac_sha256(password: Buffer, salt: Buffer, iterations: int, dklen: int = HASH_LEN) -> bytes:
    """DK = T_1 || T_2 || ..., cut to dklen bytes, where T_i = U_1 ^ ... ^ U_c,
    U_1 = PRF(P, S || INT(i)) and U_j = PRF(P, U_{j-1})."""
    if iterations < 1 or dklen < 1:
        raise ValueError("iterations and dklen must be at least 1")
    password, salt = bytes(password), bytes(salt)
    blocks = []
    for i in range(1, -(-dklen // HASH_LEN) + 1):
        u = hmac_sha256(password, salt + i.to_bytes(4, "big"))
        t = int.from_bytes(u, "big")
        for _ in range(iterations - 1):
            u = hmac_sha256(password, u)
            t ^= int.from_bytes(u, "big")
        blocks.append(t.to_bytes(HASH_LEN, "big"))
    return b"".join(blocks)[:dklen]


def hkdf_extract(salt: Buffer, ikm: Buffer) -> bytes:
    """PRK = HMAC-Hash(salt, IKM); an empty salt is HashLen zeros (the same HMAC key)."""
    return hmac_sha256(bytes(salt) or bytes(HASH_LEN), ikm)


def hkdf_expand(prk: Buffer, info: Buffer, length: int) -> bytes:
    """OKM = the first L bytes of T(1) || T(2) || ..., T(i) = HMAC-Hash(PRK, T(i-1) || info || i)."""
    if not 0 <= length <= 255 * HASH_LEN:
        raise ValueError("HKDF-SHA256 gives 0 to 8160 bytes")
    okm, t = b"", b""
    for i in range(1, -(-length // HASH_LEN) + 1):
        t = hmac_sha256(prk, t + bytes(info) + bytes([i]))
        okm += t
    return okm[:length]


def hkdf(ikm: Buffer, salt: Buffer, info: Buffer, length: int) -> bytes:
    return hkdf_expand(hkdf_extract(salt, ikm), info, length)
