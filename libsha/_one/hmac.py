"""HMAC-SHA256 (RFC 2104) in C: the one-shot call and an object with hmac.HMAC's interface."""

from __future__ import annotations

import ctypes
from _thread import allocate_lock

from .. import _native
from .._binding import take_accelerated
from . import state as _state
from .._buffers import borrow
from .._errors import check, refuse
from .._header import BLOCK_SIZE, DIGEST_SIZE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer, Self


def hmac_sha256(key: Buffer, msg: Buffer, /) -> bytes:
    """HMAC-SHA256 of msg under key (any C-contiguous buffers), as 32 bytes."""
    lib = _native.lib()
    out = _native.Digest()
    with borrow(key, "key") as (key_pointer, keylen), borrow(msg, "msg") as (msg_pointer, msglen):
        check(lib.libsha_hmac_sha256(key_pointer, keylen, msg_pointer, msglen, out))
    return out.raw


class HMAC:
    """HMAC-SHA256 with hmac.HMAC's interface: update, digest, hexdigest, copy.

    The key's two chaining states live in a C context that is wiped when the
    object is freed; the key itself is not kept. Safe to share between threads.
    """

    name = "hmac-sha256"
    digest_size = DIGEST_SIZE
    block_size = BLOCK_SIZE
    __module__ = "libsha"  # its public home, as the accelerator's type says it

    __slots__ = ("_ctx", "_lock")

    def __init__(self, key: Buffer, msg: Buffer | None = None) -> None:
        lib = _native.lib()
        ctx = _native.HmacContext()
        with borrow(key, "key") as (pointer, keylen):
            check(lib.libsha_hmac_sha256_init(ctx, pointer, keylen))
        self._ctx = ctx
        self._lock = allocate_lock()
        if msg is not None:
            self.update(msg)

    def update(self, msg: Buffer, /) -> None:
        with borrow(msg, "msg") as (pointer, nbytes), self._lock:
            check(_native.lib().libsha_hmac_sha256_update(self._ctx, pointer, nbytes))

    def digest(self) -> bytes:
        with self._lock:
            ctx = _native.HmacContext.from_buffer_copy(self._ctx)  # final() wipes it; this object goes on
        out = _native.Digest()
        check(_native.lib().libsha_hmac_sha256_final(ctx, out))
        return out.raw

    # Bound here, not looked up at the call: at interpreter exit the module's globals may be gone first.
    def __del__(self, _wipe: Any = _native.wipe) -> None:
        ctx = getattr(self, "_ctx", None)  # (None when __init__ failed before setting it)
        if ctx is not None:
            _wipe("libsha_hmac_sha256_wipe", ctx)

    def hexdigest(self) -> str:
        return self.digest().hex()

    def copy(self) -> Self:
        other = type(self).__new__(type(self))
        with self._lock:
            other._ctx = _native.HmacContext.from_buffer_copy(self._ctx)
        other._lock = allocate_lock()
        return other

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Self:
        return self.copy()

    def state(self) -> bytes:
        """The saved state (libsha.h's layout): the key's two chaining states and the message so far.
        As good as the key: keep it as secret. HMAC.from_state() resumes it; pickle refuses the object."""
        with self._lock:
            return _state.export_hmac(self._ctx)

    @classmethod
    def from_state(cls, state: Buffer, /) -> HMAC:
        """A new HMAC object resumed from an HMAC object's saved state; ValueError if it is not one."""
        other = cls.__new__(cls)
        other._ctx = _state.hmac_context_of(state)
        other._lock = allocate_lock()
        return other

    def _context_into(self, address: int) -> None:
        """The context copied to the binding's buffer at address (a batch's start; no bytes to linger)."""
        with self._lock:
            ctypes.memmove(address, self._ctx, ctypes.sizeof(self._ctx))

    def __reduce__(self) -> Any:
        refuse("pickle", type(self).__name__)

    def __repr__(self) -> str:
        return f"<libsha.{self.name} object @ {id(self):#x}>"


take_accelerated(globals(), "hmac_sha256", "HMAC")  # the accelerator's where it loads (libsha/_accel.c)


def hmac_new(key: Buffer, msg: Buffer | None = None) -> HMAC:
    """A new HMAC-SHA256 object under key, optionally fed msg (as hmac.new(key, msg, 'sha256'))."""
    return HMAC(key, msg)
