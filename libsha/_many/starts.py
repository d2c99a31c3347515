"""Where a batch's messages start, when not from nothing: after a prefix (sha256_many's prefix=,
tagged hashes) or under an HMAC key (hmac_sha256_many). Each is a C context made once, from which
libsha_sha256_batch starts every lane."""

from __future__ import annotations

import ctypes

from .. import _native
from .._buffers import borrow
from .._errors import a_type, check
from .._views import is_buffer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Start:
    """A batch's start: a SHA-256 context (family 'sha256') or an HMAC one ('hmac_sha256'), wiped on exit."""

    __slots__ = ("_family", "ctx", "_wipe")

    def __init__(self, family: str, ctx: Any, wipe: str) -> None:
        self._family, self.ctx, self._wipe = family, ctx, wipe

    def taken_from(self, obj: Any) -> Start:
        """This start with obj's context (a libsha.sha256 or HMAC object of its family), copied in."""
        obj._context_into(ctypes.addressof(self.ctx))
        return self

    def contexts(self) -> tuple[int | None, int | None]:
        """libsha_sha256_batch's start arguments: (the prefix's context, None) or (None, the HMAC context)."""
        address = ctypes.addressof(self.ctx)
        return (address, None) if self._family == "sha256" else (None, address)

    def accel_arguments(self) -> tuple[int, int]:
        """(1 after a prefix, 2 under a key; the context's address): for the accelerator's hash_list."""
        return (1 if self._family == "sha256" else 2), ctypes.addressof(self.ctx)

    def __enter__(self) -> Start:
        return self

    def __exit__(self, *exc: object) -> None:
        _native.wipe(self._wipe, self.ctx)  # the prefix's state, or the key's


def after_prefix(prefix: object) -> Start:
    """A start after prefix: bytes-like (its bytes, hashed once here), or a libsha.sha256 object (its
    message so far; a saved state comes in through libsha.sha256.from_state)."""
    from .._one.sha256 import sha256

    _native.lib()  # (loads the library, and its context types, on first use)
    start = Start("sha256", _native.Context(), "libsha_sha256_wipe")
    if isinstance(prefix, sha256):
        return start.taken_from(prefix)
    if isinstance(prefix, str) or not is_buffer(prefix):
        raise TypeError(f"prefix is bytes-like or a libsha.sha256 object (for a saved state: "
                        f"libsha.sha256.from_state(state)), not {a_type(prefix)}")
    _native.lib().libsha_sha256_init(start.ctx)
    with borrow(prefix, "prefix") as (pointer, nbytes):
        check(_native.lib().libsha_sha256_update(start.ctx, pointer, nbytes))
    return start


def under_key(key: object) -> Start:
    """A start under an HMAC key: bytes-like, or a libsha.HMAC object (its key and what it has authenticated)."""
    from .._one.hmac import HMAC

    _native.lib()
    start = Start("hmac_sha256", _native.HmacContext(), "libsha_hmac_sha256_wipe")
    if isinstance(key, HMAC):
        return start.taken_from(key)
    if isinstance(key, str) or not is_buffer(key):
        raise TypeError(f"key is bytes-like or a libsha.HMAC object, not {a_type(key)}")
    with borrow(key, "key") as (pointer, nbytes):
        check(_native.lib().libsha_hmac_sha256_init(start.ctx, pointer, nbytes))
    return start

