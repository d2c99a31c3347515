"""The hashlib-compatible hash object, libsha.sha256, and hashlib's new() for its one algorithm."""

from __future__ import annotations

import ctypes
import sys
from _thread import RLock, allocate_lock

from . import _native, _state
from ._buffers import borrow, contiguous_view
from ._errors import check
from ._oneshot import sha256_digest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer, Self

# What the object holds, in the order it gets there:
# - as a `sha256`: the constructor's bytes argument, by reference (immutable:
#   no copy), hashed at digest() in one call. `sha256(data).digest()` is then
#   a constructor that stores one slot and a digest() that is the one-shot;
# - from its first update on, as a `_Streaming` (the same object, its class
#   switched once): short bytes kept in a list, hashed at digest() by the
#   one-shot call, and a C context behind them. Updates below PART_BYTES are
#   appended, more than MAX_PARTS of them are joined into one, and once that
#   reaches FLUSH_BYTES it goes to the context. So an object copies at most
#   FLUSH_BYTES + MAX_PARTS * PART_BYTES (5 KiB) of message bytes besides it.
PART_BYTES = 512
MAX_PARTS = 8
FLUSH_BYTES = 1024
# A held message this long has its digest kept by the first digest() (the
# object becomes a _Digested), so that hexdigest() then digest() do not hash
# it twice; below it, hashing it again costs less than keeping it. Its one
# cost: digest() then update() hashes it again, into the context. (Hashing it
# into a context at once instead cost 2-3 % of a 1 MiB sha256(m).digest(): the
# Python that runs after the hash, with the caches cold.)
HOLD_BYTES = 64 * 1024

# Without a GIL (free-threaded CPython, the GIL not switched back on) every
# method of a _Streaming holds the object's lock from start to end (see
# _serialize_methods); with the GIL, only the steps that rewrite the object
# do, and the rest rely on single list and attribute operations being atomic.
# Re-entrant there, because a serialized method calls others that take it. A
# `sha256` needs none: its one slot never changes, and the switch to
# _Streaming happens once, under _SWITCHING.
FREE_THREADED = not getattr(sys, "_is_gil_enabled", lambda: True)()
_new_lock: Any = RLock if FREE_THREADED else allocate_lock
_SWITCHING = allocate_lock()  # an object's one switch to _Streaming; making its lock
_SEALED = False  # sha256 takes no subclass but this module's



class sha256:
    """SHA-256 with hashlib's interface: sha256(data).digest(), update, hexdigest, copy.

    A drop-in for hashlib.sha256, e.g. in hmac.new(key, msg, libsha.sha256)
    and hashlib.file_digest(f, libsha.sha256). Safe to share between threads.
    Not subclassable: the object changes its class to _Streaming at its first
    update (and hashlib.sha256, a function, makes no subclass's instance either).
    """

    name = "sha256"
    digest_size = _native.DIGEST_SIZE
    block_size = _native.BLOCK_SIZE
    __module__ = "libsha"  # its public home, as the accelerator's type says it

    # _held: the constructor's bytes (kept, unused, after the switch). The
    # others are _Streaming's, set by the switch (_ctx may keep a long held
    # message's digest before it).
    __slots__ = ("_held", "_parts", "_ctx", "_lock")
    _held: bytes
    _parts: list[bytes]
    _ctx: Any
    _lock: Any

    def __init__(self, data: Buffer = b"", *, usedforsecurity: bool = True, string: Buffer | None = None) -> None:
        if string is not None:  # hashlib's name for it
            if data != b"":
                raise TypeError("sha256() takes 'data' or 'string', not both")
            data = string
        if type(data) is bytes:
            self._held = data
            return
        self._held = b""
        _switch(self)
        self.update(data)  # checks the type: TypeError for str and non-buffers, as hashlib

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if _SEALED:  # (set below, once this module's own subclasses exist)
            raise TypeError("type 'libsha.sha256' is not an acceptable base type")
        super().__init_subclass__(**kwargs)

    def update(self, data: Buffer, /) -> None:
        _switch(self)
        self.update(data)  # _Streaming's

    def digest(self) -> bytes:
        held = self._held
        digest = sha256_digest(held)
        if len(held) >= HOLD_BYTES:
            with _SWITCHING:
                if type(self) is sha256:  # not switched meanwhile: the slot is still free to keep it in
                    self._ctx = digest
                    self.__class__ = _Digested
        return digest

    def hexdigest(self) -> str:
        return self.digest().hex()

    def copy(self) -> Self:
        other = sha256.__new__(sha256)
        other._held = self._held
        return other  # type: ignore[return-value]

    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Self:
        return self.copy()

    def state(self) -> bytes:
        """The saved state of the message so far, as bytes (libsha.h's layout): from_state() resumes it,
        on any machine. As secret as the message so far."""
        ctx = self._context_copy()
        try:
            return _state.export(ctx)
        finally:
            _native.wipe("libsha_sha256_wipe", ctx)

    @classmethod
    def from_state(cls, state: Buffer, /) -> sha256:
        """A new object resumed from a saved state (state() gives one); ValueError if it is not one."""
        ctx = _state.context_of(state)
        other = _Streaming.__new__(_Streaming)
        other._held = b""
        other._parts = []
        other._lock = None
        other._ctx = ctx
        return other

    def _context_into(self, address: int) -> None:
        """The message so far as a context at address, the binding's buffer (a batch's start)."""
        ctx = self._context_copy()
        try:
            ctypes.memmove(address, ctx, ctypes.sizeof(ctx))
        finally:
            _native.wipe("libsha_sha256_wipe", ctx)

    def __reduce__(self) -> Any:
        return (sha256.from_state, (self.state(),))  # the module's sha256: the class unpickling finds by name

    def midstate(self) -> tuple[bytes, int]:
        """(the eight chaining words as 32 big-endian bytes, the length in bytes) of a message so far
        that ends at a 64-byte block boundary (ValueError otherwise): Bitcoin's and mining's midstate."""
        return _state.midstate(self.state())

    @classmethod
    def from_midstate(cls, words: Buffer, length: int, /) -> sha256:
        """A new object resumed from a midstate: the 32 bytes of chaining words after `length` bytes
        (a multiple of 64), as midstate() gives them."""
        return cls.from_state(_state.from_midstate(words, length))

    def _context_copy(self) -> Any:
        """A new C context holding the message so far."""
        lib = _native.lib_keeping_gil()  # (loads the library, and Context, on first use)
        ctx = _native.Context()
        lib.libsha_sha256_init(ctx)
        held = self._held
        check(_native.lib_for(len(held)).libsha_sha256_update(ctx, held, len(held)))
        return ctx

    def __repr__(self) -> str:
        return f"<libsha.{self.name} object @ {id(self):#x}>"


class _Digested(sha256):
    """A sha256 holding a long message whose digest it has computed: kept in _ctx."""

    __slots__ = ()

    def digest(self) -> bytes:
        return self._ctx  # type: ignore[no-any-return]


def _switch(obj: sha256) -> None:
    """Makes obj a _Streaming whose message so far is what it held (once: other threads may race to)."""
    with _SWITCHING:
        if type(obj) is not sha256 and type(obj) is not _Digested:
            return
        held = obj._held
        obj._parts = [held] if held else []
        obj._ctx = None  # a C context, made once the message outgrows _parts
        obj._lock = None
        obj.__class__ = _Streaming
    if len(held) >= PART_BYTES:
        streaming: _Streaming = obj  # type: ignore[assignment]  # its class, now
        with streaming._locked():
            streaming._update_context(b"", 0)


class _Streaming(sha256):
    """A sha256 after its first update: kept parts and a C context (see above)."""

    # Short updates append to _parts without a lock (list.append is atomic);
    # everything that rewrites _parts or touches _ctx holds the lock, made on
    # first need (most objects hash a few short updates and never need it).
    __slots__ = ()

    def _locked(self) -> Any:
        lock = self._lock
        if lock is None:
            with _SWITCHING:  # two threads must not each make one
                lock = self._lock
                if lock is None:
                    lock = self._lock = _new_lock()
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
        ctx = self._ctx
        if ctx is None:
            init = _native.lib_keeping_gil().libsha_sha256_init  # (loads the library, and Context, on first use)
            ctx = _native.Context()
            init(ctx)
        parts = self._parts
        kept = len(parts)
        if kept:
            pending = b"".join(parts[:kept])
            check(_native.lib_for(len(pending)).libsha_sha256_update(ctx, pending, len(pending)))
            # Published before the parts go, so an unlocked reader never misses
            # bytes; and at once, so a failure below cannot hash them twice.
            self._ctx = ctx
            del parts[:kept]
        if nbytes:
            # On error C leaves ctx as it was.
            check(_native.lib_for(nbytes).libsha_sha256_update(ctx, pointer, nbytes))
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
            return sha256_digest(tail)
        with self._locked():
            tail = b"".join(self._parts)
            # final() wipes the copy it is given; this object goes on.
            ctx = _native.Context.from_buffer_copy(self._ctx)
        short = _native.lib_keeping_gil()  # the tail is below 5 KiB: not worth releasing the GIL
        try:
            if tail:
                check(short.libsha_sha256_update(ctx, tail, len(tail)))
        except BaseException:
            short.libsha_sha256_wipe(ctx)
            raise
        return _native.final_digest(ctx)

    def _context_copy(self) -> Any:
        with self._locked():
            tail = b"".join(self._parts)
            if self._ctx is None:
                ctx = _native.Context()
                _native.lib_keeping_gil().libsha_sha256_init(ctx)
            else:
                ctx = _native.Context.from_buffer_copy(self._ctx)
        check(_native.lib_for(len(tail)).libsha_sha256_update(ctx, tail, len(tail)))
        return ctx

    # Bound here, not looked up at the call: at interpreter exit the module's globals may be gone first.
    def __del__(self, _wipe: Any = _native.wipe) -> None:
        ctx = self._ctx
        if ctx is not None:
            _wipe("libsha_sha256_wipe", ctx)

    def copy(self) -> Self:
        other = _Streaming.__new__(_Streaming)
        other._held = b""
        other._lock = None
        # The bytes are immutable: shared, not copied. Without a lock while no
        # C context exists, for the reason digest() gives.
        other._parts = self._parts[:]
        if self._ctx is None:
            other._ctx = None
            return other  # type: ignore[return-value]
        with self._locked():
            other._parts = self._parts[:]
            other._ctx = _native.Context.from_buffer_copy(self._ctx)
        return other  # type: ignore[return-value]


def _serialize_methods(cls: type) -> None:
    """Without a GIL: each public method runs holding the object's lock, start to end."""

    def serialized(method: Any) -> Any:
        def locked(self: Any, *args: Any) -> Any:
            with self._locked():
                return method(self, *args)

        locked.__name__ = locked.__qualname__ = method.__name__
        locked.__doc__ = method.__doc__
        return locked

    for name in ("update", "digest", "copy", "_context_copy"):
        setattr(cls, name, serialized(cls.__dict__[name]))


_SEALED = True
if FREE_THREADED:
    _serialize_methods(_Streaming)

if _native.ACCEL is not None:  # the same object as C methods (libsha/_accel.c); the classes above are the ctypes path
    _python_sha256 = sha256
    sha256 = _native.ACCEL.sha256  # type: ignore[misc]  # noqa: F811
    for _name in ("midstate", "from_midstate"):  # the C type's too: one definition, over its state()
        setattr(sha256, _name, _python_sha256.__dict__[_name])

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
