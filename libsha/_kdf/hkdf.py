"""HKDF-SHA256 (RFC 5869): one call, its two steps, and cryptography's HKDF and HKDFExpand shapes."""

from __future__ import annotations

import ctypes
import hmac as _hmac

from .. import _native
from .._buffers import borrow, taken_and_wiped
from .._binding import take_accelerated
from .._errors import AlreadyFinalized, InvalidKey, check
from .._header import DIGEST_SIZE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing_extensions import Buffer

MAX_LENGTH = 255 * DIGEST_SIZE


def _length(length: object) -> int:
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"length must be an int, not {type(length).__name__}")
    if length < 0:
        raise ValueError("length must be 0 or more")
    if length > MAX_LENGTH:
        raise ValueError(f"Cannot derive keys larger than {MAX_LENGTH} octets.")
    return length


def _optional(value: object) -> object:
    return b"" if value is None else value


def hkdf(key_material: Buffer, length: int = 32, salt: Buffer | None = None, info: Buffer | None = None) -> bytes:
    """HKDF-SHA256 of key_material: extract (under salt; None is RFC 5869's 32 zero bytes), then
    expand to `length` bytes (0 to 8160) with info, in one C call; the PRK never reaches Python."""
    return _hkdf_call(key_material, _length(length), salt, info)


def _hkdf_call(key_material: Buffer, length: int, salt: Buffer | None, info: Buffer | None) -> bytes:
    """The ctypes path's one call (length checked; the accelerator's hkdf does the same in C)."""
    lib = _native.lib()
    out = ctypes.create_string_buffer(max(length, 1))
    salt_bytes, info_bytes = _optional(salt), _optional(info)
    with borrow(key_material, "key_material") as (ikm, ikm_len), borrow(salt_bytes, "salt") as (sp, slen), \
            borrow(info_bytes, "info") as (ip, ilen):
        check(lib.libsha_hkdf_sha256(out, length, sp, slen, ikm, ikm_len, ip, ilen), "hkdf")
    return taken_and_wiped(out, length)


take_accelerated(globals(), _hkdf_call="hkdf")  # the accelerator's where it loads (libsha/_binding.py)


def hkdf_extract(salt: Buffer | None, key_material: Buffer) -> bytes:
    """HKDF-SHA256's extract step: the 32-byte PRK, HMAC-SHA256(salt, key_material)."""
    out = _native.Digest()
    with borrow(_optional(salt), "salt") as (sp, slen), borrow(key_material, "key_material") as (ikm, ikm_len):
        check(_native.lib().libsha_hkdf_sha256_extract(out, sp, slen, ikm, ikm_len), "hkdf_extract")
    return taken_and_wiped(out, DIGEST_SIZE)


def hkdf_expand(prk: Buffer, length: int = 32, info: Buffer | None = None) -> bytes:
    """HKDF-SHA256's expand step: `length` bytes (0 to 8160) from a pseudorandom key and info."""
    length = _length(length)
    out = ctypes.create_string_buffer(max(length, 1))
    with borrow(prk, "prk") as (kp, klen), borrow(_optional(info), "info") as (ip, ilen):
        check(_native.lib().libsha_hkdf_sha256_expand(out, length, kp, klen, ip, ilen), "hkdf_expand")
    return taken_and_wiped(out, length)


def _check_algorithm(algorithm: object) -> None:
    """"sha256", or an object named so (cryptography's hashes.SHA256())."""
    name = algorithm if isinstance(algorithm, str) else getattr(algorithm, "name", None)
    if not isinstance(name, str) or name.lower() not in ("sha256", "sha-256"):
        raise ValueError(f"libsha's HKDF is HKDF-SHA256 only; algorithm {algorithm!r} is not SHA-256")


class _OneUse:
    """derive once, as cryptography's key derivation objects allow, and verify."""

    __slots__ = ("_used",)

    def __init__(self) -> None:
        self._used = False

    def _derive(self, key_material: Buffer) -> bytes:
        raise NotImplementedError

    def derive(self, key_material: Buffer) -> bytes:
        if self._used:
            raise AlreadyFinalized("Context was already finalized.")
        self._used = True
        return self._derive(key_material)

    def verify(self, key_material: Buffer, expected_key: bytes) -> None:
        """Raises InvalidKey unless derive(key_material) is expected_key (compared in constant time)."""
        if not _hmac.compare_digest(self.derive(key_material), expected_key):
            raise InvalidKey("Keys do not match.")


class HKDF(_OneUse):
    """cryptography's HKDF(algorithm, length, salt, info) with libsha's SHA-256: derive(key_material)."""

    __slots__ = ("_length", "_salt", "_info")

    def __init__(self, algorithm: object, length: int, salt: Buffer | None, info: Buffer | None,
                 backend: object = None) -> None:
        super().__init__()
        _check_algorithm(algorithm)
        self._length, self._salt, self._info = _length(length), salt, info

    def _derive(self, key_material: Buffer) -> bytes:
        return hkdf(key_material, self._length, self._salt, self._info)


class HKDFExpand(_OneUse):
    """cryptography's HKDFExpand(algorithm, length, info): derive(key_material) expands a PRK."""

    __slots__ = ("_length", "_info")

    def __init__(self, algorithm: object, length: int, info: Buffer | None, backend: object = None) -> None:
        super().__init__()
        _check_algorithm(algorithm)
        self._length, self._info = _length(length), info

    def _derive(self, key_material: Buffer) -> bytes:
        return hkdf_expand(key_material, self._length, self._info)
