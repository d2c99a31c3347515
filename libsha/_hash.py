"""The hashlib-compatible streaming object."""

import ctypes
import threading

from . import _native
from ._buffers import borrow
from ._errors import check

_NO_DATA = b""


class SHA256:
    """SHA-256 with hashlib's interface: update, digest, hexdigest, copy.

    Works wherever hashlib's objects do, e.g. hmac.new(key, msg, libsha.new)
    and hashlib.file_digest(f, libsha.new). Safe to share between threads.
    """

    name = "sha256"
    digest_size = 32
    block_size = 64

    __slots__ = ("_ctx", "_lock")

    def __init__(self, data=_NO_DATA, *, usedforsecurity=True):
        lib = _native.lib()
        self._ctx = _native.Context()
        lib.libsha_sha256_init(self._ctx)
        self._lock = threading.Lock()  # the GIL is released while C hashes
        if data is not _NO_DATA:  # every value but the default is checked and hashed
            self.update(data)

    def update(self, data):
        lib = _native.lib()
        if type(data) is bytes:
            with self._lock:
                check(lib.libsha_sha256_update(self._ctx, data, len(data)))
            return
        with borrow(data) as (pointer, nbytes), self._lock:
            check(lib.libsha_sha256_update(self._ctx, pointer, nbytes))

    def _snapshot(self):
        with self._lock:
            return _native.Context.from_buffer_copy(self._ctx)

    def digest(self):
        ctx = self._snapshot()  # final() wipes its context; this object goes on
        out = _native.Digest()
        check(_native.lib().libsha_sha256_final(ctx, out))
        return out.raw

    def hexdigest(self):
        return self.digest().hex()

    def copy(self):
        other = SHA256.__new__(SHA256)
        other._ctx = self._snapshot()
        other._lock = threading.Lock()
        return other

    def __del__(self):
        ctx = getattr(self, "_ctx", None)
        if ctx is not None:
            ctypes.memset(ctx, 0, len(ctx))

    def __reduce__(self):
        raise TypeError(f"cannot pickle {type(self).__name__!r} object")

    def __repr__(self):
        return f"<libsha.{self.name} object @ {id(self):#x}>"
