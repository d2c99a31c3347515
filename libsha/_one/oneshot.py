"""One-shot hashing: the digest of one buffer as bytes or hex, sha256d64 of many 64-byte blobs."""

from __future__ import annotations

import ctypes

from .. import _native
from .._binding import take_accelerated
from .._buffers import borrow, writable_out
from .._errors import check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer

def sha256_digest(data: Buffer = b"", /) -> bytes:
    """SHA-256 of any C-contiguous buffer, as 32 bytes: hashlib.sha256(data).digest() in one call."""
    lib = _native.lib()
    out = _native.Digest()
    with borrow(data) as (pointer, nbytes):
        check(lib.libsha_sha256(pointer, nbytes, out))
    return out.raw


def sha256_hexdigest(data: Buffer = b"", /) -> str:
    """SHA-256 of any C-contiguous buffer, as 64 lowercase hex digits: hashlib.sha256(data).hexdigest()."""
    return sha256_digest(data).hex()


take_accelerated(globals(), "sha256_digest", "sha256_hexdigest")  # the accelerator's where it loads


def sha256d64(data: Buffer, /, *, out: Any = None) -> Any:
    """Double SHA-256 of each 64-byte blob of data: 32 bytes out per 64 in, as bytes; with `out`, a
    writable C-contiguous buffer of exactly that many bytes that does not overlap data, written
    there and returned (refused before anything is written otherwise)."""
    lib = _native.lib()
    with borrow(data) as (pointer, nbytes):
        if nbytes % 64:
            raise ValueError(f"sha256d64 takes whole 64-byte blobs; {nbytes} bytes is not a multiple of 64")
        if out is None:
            digests = ctypes.create_string_buffer(nbytes // 2)
            lib.libsha_sha256d64(digests, pointer, nbytes // 64)
            return digests.raw
        with writable_out(out, nbytes // 2, nbytes // 64) as target:
            if isinstance(pointer, int):  # (bytes never overlaps a writable buffer)
                target.refuse_overlap(pointer, nbytes, "data")
            lib.libsha_sha256d64(target.address, pointer, nbytes // 64)
    return out
