"""The hashlib-compatible hash object, libsha.sha256, and hashlib's new() for its one algorithm."""

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

_SEALED = False  # sha256 takes no subclass (as hashlib's and the accelerator's types take none)


class sha256:
    """SHA-256 with hashlib's interface: sha256(data).digest(), update, hexdigest, copy.

    A drop-in for hashlib.sha256, e.g. in hmac.new(key, msg, libsha.sha256)
    and hashlib.file_digest(f, libsha.sha256). Safe to share between threads:
    each object's C context is under its own lock. This class is the ctypes
    path (one library call per operation); the accelerator's type replaces it
    where it loads.
    """

    name = "sha256"
    digest_size = DIGEST_SIZE
    block_size = BLOCK_SIZE
    __module__ = "libsha"  # its public home, as the accelerator's type says it

    __slots__ = ("_ctx", "_lock")
    _ctx: Any
    _lock: Any

    def __init__(self, data: Buffer = b"", *, usedforsecurity: bool = True, string: Buffer | None = None) -> None:
        if string is not None:  # hashlib's name for it
            if data != b"":
                refuse("data and string")
            data = string
        lib = _native.lib()  # (loads the library, and Context, on first use)
        ctx = _native.Context()
        lib.libsha_sha256_init(ctx)
        self._ctx, self._lock = ctx, allocate_lock()
        self.update(data)  # checks the type: TypeError for str and non-buffers, as hashlib

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if _SEALED:
            raise TypeError("type 'libsha.sha256' is not an acceptable base type")
        super().__init_subclass__(**kwargs)

    def update(self, data: Buffer, /) -> None:
        with borrow(data) as (pointer, nbytes), self._lock:
            check(_native.lib().libsha_sha256_update(self._ctx, pointer, nbytes))  # on error ctx is unchanged

    def digest(self) -> bytes:
        ctx = self._context_copy()  # final() wipes it; this object goes on
        out = _native.Digest()
        check(_native.lib().libsha_sha256_final(ctx, out))
        return out.raw

    def hexdigest(self) -> str:
        return self.digest().hex()

    def copy(self) -> Self:
        other = sha256.__new__(sha256)
        other._ctx, other._lock = self._context_copy(), allocate_lock()
        return other  # type: ignore[return-value]

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Self:
        return self.copy()

    def state(self) -> bytes:
        """The saved state of the message so far, as bytes (libsha.h's layout): from_state() resumes it,
        on any machine. As secret as the message so far."""
        with self._lock:
            return _state.export(self._ctx)

    @classmethod
    def from_state(cls, state: Buffer, /) -> sha256:
        """A new object resumed from a saved state (state() gives one); ValueError if it is not one."""
        other = sha256.__new__(sha256)
        other._ctx, other._lock = _state.context_of(state), allocate_lock()
        return other

    def _context_into(self, address: int) -> None:
        """The message so far as a context at address, the binding's buffer (a batch's start)."""
        with self._lock:
            ctypes.memmove(address, self._ctx, ctypes.sizeof(self._ctx))

    def __reduce__(self) -> Any:
        return (sha256.from_state, (self.state(),))  # the module's sha256: the class unpickling finds by name

    def midstate(self) -> tuple[bytes, int]:
        """(the eight chaining words as 32 big-endian bytes, the length in bytes) of a message so far
        that ends at a 64-byte block boundary (ValueError otherwise): Bitcoin's and mining's midstate."""
        with self._lock:
            return _state.midstate(self._ctx)

    @classmethod
    def from_midstate(cls, words: Buffer, length: int, /) -> sha256:
        """A new object resumed from a midstate: the 32 bytes of chaining words after `length` bytes
        (a multiple of 64), as midstate() gives them."""
        other = sha256.__new__(sha256)
        other._ctx, other._lock = _state.context_of_midstate(words, length), allocate_lock()
        return other

    def _context_copy(self) -> Any:
        """A new C context holding the message so far."""
        with self._lock:
            return _native.Context.from_buffer_copy(self._ctx)

    # Bound here, not looked up at the call: at interpreter exit the module's globals may be gone first.
    def __del__(self, _wipe: Any = _native.wipe) -> None:
        ctx = getattr(self, "_ctx", None)  # (None when __init__ failed before setting it)
        if ctx is not None:
            _wipe("libsha_sha256_wipe", ctx)

    def __repr__(self) -> str:
        return f"<libsha.{self.name} object @ {id(self):#x}>"


_SEALED = True

take_accelerated(globals(), "sha256")  # the accelerator's type where it loads (libsha/_accel.c)

_NAMES = frozenset({"sha256", "sha-256", "sha2-256"})  # hashlib's and OpenSSL's names for it, in any case


def new(name: str, data: Buffer = b"", *, usedforsecurity: bool = True) -> sha256:
    """hashlib.new for the one algorithm libsha has: new("sha256", data) is sha256(data).

    The name is sha256, sha-256 or sha2-256, in any case; any other raises ValueError, as hashlib
    does for a name it does not know.
    """
    if not isinstance(name, str):
        raise TypeError(f"new() argument 'name' must be str, not {type(name).__name__}")
    if name.lower() not in _NAMES:
        raise ValueError(f"unsupported hash type {name} (libsha has sha256 only)")
    return sha256(data, usedforsecurity=usedforsecurity)
