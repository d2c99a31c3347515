"""The hashlib-compatible streaming object."""

from __future__ import annotations

from _thread import allocate_lock

from . import _native
from ._buffers import borrow, contiguous_view
from ._errors import check
from ._oneshot import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer, Self

_NO_DATA = b""

# A short message costs one native call: updates below PART_BYTES are kept as
# bytes in the object and hashed at digest() by the one-shot call. More than
# MAX_PARTS of them are joined into one; once that reaches FLUSH_BYTES it goes
# to a C context. So an object holds at most FLUSH_BYTES + MAX_PARTS *
# PART_BYTES (5 KiB) of message bytes besides its context.
PART_BYTES = 512
MAX_PARTS = 8
FLUSH_BYTES = 1024

_MAKING_LOCKS = allocate_lock()

# The one-shot fast path (see _oneshot), bound here too once the library is loaded.
_fast_below = -1
_sha256_into_bytes: Any = None
_native.bind_fast_path(globals())


class SHA256:
    """SHA-256 with hashlib's interface: update, digest, hexdigest, copy.

    Works wherever hashlib's objects do, e.g. hmac.new(key, msg, libsha.new)
    and hashlib.file_digest(f, libsha.new). Safe to share between threads.
    """

    name = "sha256"
    digest_size = _native.DIGEST_SIZE
    block_size = _native.BLOCK_SIZE

    # Short updates append to _parts without a lock (list.append is atomic);
    # everything that rewrites _parts or touches _ctx holds the lock, made on
    # first need (most objects hash one short message and never need it).
    __slots__ = ("_parts", "_ctx", "_lock")

    def __init__(self, data: Buffer = _NO_DATA, *, usedforsecurity: bool = True) -> None:
        self._parts: list[bytes] = []
        self._ctx: Any = None  # a C context, made once the message outgrows _parts
        self._lock: Any = None
        if data is not _NO_DATA:  # every value but the default is checked and hashed
            self.update(data)

    def _locked(self) -> Any:
        lock = self._lock
        if lock is None:
            with _MAKING_LOCKS:  # two threads must not each make one
                lock = self._lock
                if lock is None:
                    lock = self._lock = allocate_lock()
        return lock

    def update(self, data: Buffer, /) -> None:
        if type(data) is bytes and len(data) < PART_BYTES:
            parts = self._parts
            parts.append(data)
            if len(parts) > MAX_PARTS:
                self._compact()
            return
        self._update_any(data)

    def _update_any(self, data: Buffer) -> None:
        if type(data) is not bytes:
            view = contiguous_view(data)
            if view.nbytes < PART_BYTES:
                self.update(view.tobytes())  # a copy: the caller may change its buffer later
                return
            with borrow(view) as (pointer, nbytes), self._locked():
                self._update_context(pointer, nbytes)
            return
        with self._locked():
            self._update_context(data, len(data))

    def _update_context(self, pointer: object, nbytes: int) -> None:
        """Holding the lock: the kept parts, then pointer[0..nbytes), into the C context."""
        lib = _native.lib()
        ctx = self._ctx
        if ctx is None:
            ctx = _native.Context()
            lib.libsha_sha256_init(ctx)
        parts = self._parts
        kept = len(parts)
        if kept:
            pending = b"".join(parts[:kept])
            check(lib.libsha_sha256_update(ctx, pending, len(pending)))
            # Published before the parts go, so an unlocked reader never misses
            # bytes; and at once, so a failure below cannot hash them twice.
            self._ctx = ctx
            del parts[:kept]
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
        # Without a lock while no C context exists: the join is one atomic step,
        # and a flush publishes its context before it removes any part, so a
        # reader that still sees none after joining has every byte.
        tail: bytes = b"".join(self._parts)
        if self._ctx is None:
            if len(tail) < _fast_below:
                out = bytes(32)
                _sha256_into_bytes(tail, len(tail), out)
                return out
            return sha256(tail)
        with self._locked():
            parts = self._parts
            tail = b"".join(parts)
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
        # The bytes are immutable: shared, not copied. Without a lock while no
        # C context exists, for the reason digest() gives.
        other._parts = self._parts[:]
        if self._ctx is None:
            other._ctx = None
            return other
        with self._locked():
            other._parts = self._parts[:]
            other._ctx = _native.Context.from_buffer_copy(self._ctx)
        return other

    def __reduce__(self) -> Any:
        raise TypeError(f"cannot pickle {type(self).__name__!r} object")

    def __repr__(self) -> str:
        return f"<libsha.{self.name} object @ {id(self):#x}>"
