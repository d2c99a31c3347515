"""The hashlib-compatible hash object, libsha.sha256, and hashlib's new() for its one algorithm."""

from __future__ import annotations

import sys
from _thread import RLock, allocate_lock

from . import _native
from ._buffers import borrow, contiguous_view
from ._errors import check
from ._oneshot import sha256_digest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer, Self

# What the object holds, in the order it gets there:
# - the constructor's bytes argument, by reference (an immutable object: no
#   copy), hashed at digest() in one call. `sha256(data).digest()` is then a
#   constructor that stores one slot and a digest() that is the one-shot;
# - after an update, short bytes kept in a list, hashed at digest() by the
#   one-shot call: updates below PART_BYTES are appended, more than MAX_PARTS
#   of them are joined into one, and once that reaches FLUSH_BYTES it goes to
#   a C context. So an object copies at most FLUSH_BYTES + MAX_PARTS *
#   PART_BYTES (5 KiB) of message bytes besides its context.
PART_BYTES = 512
MAX_PARTS = 8
FLUSH_BYTES = 1024
# A held message this long is moved into a C context by the first digest(),
# so that hexdigest() then digest() do not hash it twice. Below it, hashing it
# again costs less than the calls a context takes.
HOLD_BYTES = 64 * 1024

# Without a GIL (free-threaded CPython, the GIL not switched back on) every
# method holds the object's lock from start to end (see _serialize_methods);
# with the GIL, only the steps that rewrite the object do, and the rest rely on
# single list and attribute operations being atomic. Re-entrant there, because
# a serialized method calls others that take it.
FREE_THREADED = not getattr(sys, "_is_gil_enabled", lambda: True)()
_new_lock: Any = RLock if FREE_THREADED else allocate_lock
_MAKING_LOCKS = allocate_lock()

# The one-shot fast path (see _oneshot), bound here too once the library is loaded.
_fast_below = -1
_sha256_into_bytes: Any = None
_native.bind_fast_path(globals())


class sha256:
    """SHA-256 with hashlib's interface: sha256(data).digest(), update, hexdigest, copy.

    A drop-in for hashlib.sha256, e.g. in hmac.new(key, msg, libsha.sha256)
    and hashlib.file_digest(f, libsha.sha256). Safe to share between threads.
    """

    name = "sha256"
    digest_size = _native.DIGEST_SIZE
    block_size = _native.BLOCK_SIZE

    # _parts is the held bytes, or once updated a list of short bytes. Short
    # updates append to the list without a lock (list.append is atomic);
    # everything that rewrites _parts or touches _ctx holds the lock, made on
    # first need (most objects hash one message and never need it).
    __slots__ = ("_parts", "_ctx", "_lock")

    def __init__(self, data: Buffer = b"", *, usedforsecurity: bool = True) -> None:
        self._ctx: Any = None  # a C context, made once the message outgrows _parts
        self._lock: Any = None
        if type(data) is bytes:
            self._parts: Any = data  # bytes, or a list of bytes (see above)
            return
        self._parts = []
        self.update(data)  # checks the type: TypeError for str and non-buffers, as hashlib

    def _locked(self) -> Any:
        lock = self._lock
        if lock is None:
            with _MAKING_LOCKS:  # two threads must not each make one
                lock = self._lock
                if lock is None:
                    lock = self._lock = _new_lock()
        return lock

    def update(self, data: Buffer, /) -> None:
        parts = self._parts
        if type(data) is bytes and len(data) < PART_BYTES and type(parts) is list:
            parts.append(data)
            if len(parts) > MAX_PARTS:
                self._compact()
            return
        self._update_any(data)

    def _update_any(self, data: Buffer) -> None:
        if type(data) is not bytes:
            view = contiguous_view(data)
            if view.nbytes >= PART_BYTES:
                with borrow(view) as (pointer, nbytes), self._locked():
                    self._update_context(pointer, nbytes)
                return
            data = view.tobytes()  # a copy: the caller may change its buffer later
        if len(data) >= PART_BYTES:
            with self._locked():
                self._update_context(data, len(data))
            return
        if type(self._parts) is bytes:
            with self._locked():
                self._release_held()
        self.update(data)  # now a list

    def _release_held(self) -> None:
        """Holding the lock: the held bytes become the first part, or go to the context if long."""
        held = self._parts
        if type(held) is not bytes:
            return  # another thread did it meanwhile
        if len(held) < PART_BYTES:
            self._parts = [held] if held else []
        else:
            self._update_context(b"", 0)

    def _update_context(self, pointer: object, nbytes: int) -> None:
        """Holding the lock: the held bytes or kept parts, then pointer[0..nbytes), into the C context."""
        lib = _native.lib()
        ctx = self._ctx
        if ctx is None:
            ctx = _native.Context()
            lib.libsha_sha256_init(ctx)
        parts = self._parts
        if type(parts) is bytes:
            if parts:
                check(lib.libsha_sha256_update(ctx, parts, len(parts)))
            # Published before the bytes go, as below.
            self._ctx = ctx
            self._parts = parts = []
        kept = len(parts)
        if kept:
            pending = b"".join(parts[:kept])
            check(lib.libsha_sha256_update(ctx, pending, len(pending)))
            # Published before the parts go, so an unlocked reader never misses
            # bytes; and at once, so a failure below cannot hash them twice.
            self._ctx = ctx
            del parts[:kept]
        if nbytes:
            check(lib.libsha_sha256_update(ctx, pointer, nbytes))  # on error C leaves ctx as it was
        self._ctx = ctx

    def _compact(self) -> None:
        with self._locked():
            parts = self._parts
            kept = len(parts)
            if kept <= MAX_PARTS:
                return  # another thread compacted them meanwhile
            joined = b"".join(parts[:kept])
            parts[:kept] = [joined]  # one step: appends from other threads stay after it
            if len(joined) >= FLUSH_BYTES:
                self._update_context(b"", 0)

    def digest(self) -> bytes:
        parts = self._parts
        if type(parts) is bytes:  # the constructor's message, hashed in one call
            if len(parts) < _fast_below:
                out = bytes(32)
                _sha256_into_bytes(parts, len(parts), out)
                return out
            if len(parts) < HOLD_BYTES:
                return sha256_digest(parts)
            with self._locked():
                self._release_held()
            return self._digest_context()
        # Without a lock while no C context exists: the join is one atomic step,
        # and a flush publishes its context before it removes any part, so a
        # reader that still sees none after joining has every byte.
        tail: bytes = b"".join(parts)
        if self._ctx is None:
            if len(tail) < _fast_below:
                out = bytes(32)
                _sha256_into_bytes(tail, len(tail), out)
                return out
            return sha256_digest(tail)
        return self._digest_context()

    def _digest_context(self) -> bytes:
        with self._locked():
            tail = b"".join(self._parts)
            # final() wipes the context it is given; this object goes on.
            ctx = _native.Context.from_buffer_copy(self._ctx)
        lib = _native.lib()
        digest = _native.Digest()
        check(lib.libsha_sha256_update(ctx, tail, len(tail)))
        check(lib.libsha_sha256_final(ctx, digest))
        return bytes(digest.raw)

    def hexdigest(self) -> str:
        return self.digest().hex()

    def copy(self) -> Self:
        other = type(self).__new__(type(self))
        other._lock = None
        other._ctx = None
        # The bytes are immutable: shared, not copied. Without a lock while no
        # C context exists, for the reason digest() gives.
        parts = self._parts
        other._parts = parts if type(parts) is bytes else parts[:]
        if type(parts) is bytes or self._ctx is None:
            return other
        with self._locked():
            other._parts = self._parts[:]
            other._ctx = _native.Context.from_buffer_copy(self._ctx)
        return other

    def __reduce__(self) -> Any:
        raise TypeError(f"cannot pickle {type(self).__name__!r} object")

    def __repr__(self) -> str:
        return f"<libsha.{self.name} object @ {id(self):#x}>"


def _serialize_methods(cls: type) -> None:
    """Without a GIL: each public method runs holding the object's lock, start to end."""

    def serialized(method: Any) -> Any:
        def locked(self: Any, *args: Any) -> Any:
            with self._locked():
                return method(self, *args)

        locked.__name__ = locked.__qualname__ = method.__name__
        locked.__doc__ = method.__doc__
        return locked

    for name in ("update", "digest", "copy"):
        setattr(cls, name, serialized(getattr(cls, name)))


if FREE_THREADED:
    _serialize_methods(sha256)

_NAMES = frozenset({"sha256", "sha-256"})


def new(name: str, data: Buffer = b"", *, usedforsecurity: bool = True) -> sha256:
    """hashlib.new for the one algorithm libsha has: new("sha256", data) is sha256(data).

    Any other name raises ValueError, as hashlib does for a name it does not know.
    """
    if not isinstance(name, str):
        raise TypeError(f"new() argument 'name' must be str, not {type(name).__name__}")
    if name.lower() not in _NAMES:
        raise ValueError(f"unsupported hash type {name} (libsha has sha256 only)")
    return sha256(data, usedforsecurity=usedforsecurity)
