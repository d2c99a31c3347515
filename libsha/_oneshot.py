"""One-shot hashing: the digest of one buffer as bytes or hex, sha256d64 of many 64-byte blobs."""

from __future__ import annotations

import ctypes

from . import _native
from ._buffers import borrow, contiguous_view
from ._errors import check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer

# Buffers other than bytes below this size are copied into bytes, which costs
# less than borrowing their memory (a Py_buffer or a ctypes array per call).
COPY_BELOW = 4096

# The bytes fast path, switched on once hashing is allowed: until then no length is below it.
_fast_below = -1
_short_sha256: Any = None


def _set_fast_path(short_sha256: Any, fast_below: int) -> None:
    global _short_sha256, _fast_below
    _short_sha256, _fast_below = short_sha256, fast_below


_native.listen_fast_path(_set_fast_path)
_take_digest, _give_digest, _Digest = _native.DIGESTS.pop, _native.DIGESTS.append, _native.Digest


def sha256_digest(data: Buffer = b"", /) -> bytes:
    """SHA-256 of any C-contiguous buffer, as 32 bytes: hashlib.sha256(data).digest() in one call."""
    # The common case in as few Python operations as possible: a short bytes
    # object, hashed with the GIL kept, into a reused digest buffer.
    if type(data) is bytes and len(data) < _fast_below:
        try:
            out = _take_digest()
        except IndexError:
            out = _Digest()
        _short_sha256(data, len(data), out)
        digest: bytes = out.raw
        _give_digest(out)
        return digest
    return _sha256_any(data)


def _sha256_any(data: Buffer) -> bytes:
    lib = _native.lib()
    if type(data) is bytes and len(data) < _fast_below:  # the first call, which loaded the library
        return sha256_digest(data)
    out = _native.Digest()
    if type(data) is bytes:  # large: C reads it in place, without the GIL
        check(lib.libsha_sha256(data, len(data), out))
        return out.raw
    view = contiguous_view(data)
    if view.nbytes < COPY_BELOW:
        return sha256_digest(view.tobytes())
    with borrow(view) as (pointer, nbytes):
        check(lib.libsha_sha256(pointer, nbytes, out))
    return out.raw


def sha256_hexdigest(data: Buffer = b"", /) -> str:
    """SHA-256 of any C-contiguous buffer, as 64 lowercase hex digits: hashlib.sha256(data).hexdigest()."""
    return sha256_digest(data).hex()


if _native.ACCEL is not None:  # the same calls as C functions (libsha/_accel.c)
    sha256_digest = _native.ACCEL.sha256_digest  # noqa: F811
    sha256_hexdigest = _native.ACCEL.sha256_hexdigest  # noqa: F811


def sha256d64(data: Buffer, /) -> bytes:
    """Double SHA-256 of each 64-byte blob of data: 32 bytes out per 64 in."""
    lib = _native.lib()
    if type(data) is bytes:
        return _sha256d64(lib, data, len(data))
    with borrow(data) as (pointer, nbytes):
        return _sha256d64(lib, pointer, nbytes)


def _sha256d64(lib: ctypes.CDLL, pointer: object, nbytes: int) -> bytes:
    if nbytes % 64:
        raise ValueError(f"sha256d64 takes whole 64-byte blobs; {nbytes} bytes is not a multiple of 64")
    out = ctypes.create_string_buffer(nbytes // 2)
    lib.libsha_sha256d64(out, pointer, nbytes // 64)
    return out.raw
