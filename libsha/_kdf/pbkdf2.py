"""PBKDF2-HMAC-SHA256: hashlib.pbkdf2_hmac's call, and many derivations at once in the lanes."""

from __future__ import annotations

import ctypes
import operator
from contextlib import ExitStack

from .. import _native
from .._buffers import borrow, taken_and_wiped, writable_out
from .._cpus import worker_count
from .._errors import a_type, check
from .._header import DIGEST_SIZE
from .._threads import run_parts
from .._views import contiguous_view, item_view

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer

# The names OpenSSL (and so hashlib) gives SHA-256, compared case-blind.
_SHA256_NAMES = frozenset({"sha256", "sha-256", "sha2-256"})
# RFC 8018: at most 2**32 - 1 blocks of 32 bytes.
MAX_DKLEN = (2**32 - 1) * 32
_MAX_ITERATIONS = 2**64 - 1


def _check_hash_name(hash_name: object, function: str) -> None:
    if not isinstance(hash_name, str):
        raise TypeError(f"{function}() argument 'hash_name' must be str, not {type(hash_name).__name__}")
    if hash_name.lower() not in _SHA256_NAMES:
        raise ValueError(f"unsupported hash type {hash_name}: libsha derives keys with SHA-256 only ('sha256')")


def _iterations(iterations: object) -> int:
    count = operator.index(iterations)  # type: ignore[arg-type]  # a float is hashlib's TypeError too
    if count < 1:
        raise ValueError("iteration value must be greater than 0.")
    if count > _MAX_ITERATIONS:
        raise OverflowError("iteration value is too great.")
    return count


def _dklen(dklen: object) -> int:
    if dklen is None:
        return DIGEST_SIZE
    length = operator.index(dklen)  # type: ignore[arg-type]
    if length < 1:
        raise ValueError("key length must be greater than 0.")
    if length > MAX_DKLEN:
        raise OverflowError("key length is too great.")
    return length


def pbkdf2_hmac(hash_name: str, password: Buffer, salt: Buffer, iterations: int, dklen: int | None = None) -> bytes:
    """PBKDF2-HMAC-SHA256, as hashlib.pbkdf2_hmac("sha256", ...) gives it, with its errors.

    password and salt are any C-contiguous buffers; the key's 32-byte blocks
    run side by side in the lanes (dklen=64 costs little more than 32). The
    GIL is released while C derives; what C derived on the way is wiped.
    """
    _check_hash_name(hash_name, "pbkdf2_hmac")
    count, length = _iterations(iterations), _dklen(dklen)
    lib = _native.lib()
    out = ctypes.create_string_buffer(length)
    with borrow(password, "password") as (pw, pwlen), borrow(salt, "salt") as (sp, slen):
        check(lib.libsha_pbkdf2_hmac_sha256(out, length, pw, pwlen, sp, slen, count), "pbkdf2_hmac")
    return taken_and_wiped(out, length)


class _Kept:
    """A copy of a password or salt in a ctypes buffer, zeroed when the call is done."""

    def __init__(self, data: bytes) -> None:
        self.buffer = ctypes.create_string_buffer(data, len(data))

    def __enter__(self) -> _Kept:
        return self

    def __exit__(self, *exc: object) -> None:
        ctypes.memset(self.buffer, 0, ctypes.sizeof(self.buffer))


def _as_items(value: object, what: str) -> list[memoryview] | None:
    """One bytes-like shared by every derivation (None), or the list of views of a sequence's."""
    if isinstance(value, str):
        raise TypeError(f"{what} is a str; encode text first")
    try:
        view = contiguous_view(value, what)
    except TypeError:
        pass
    else:
        if view.ndim <= 1:
            view.release()
            return None
        # Rows of a 2-D (or deeper) buffer, a numpy array's: one item each, read in place.
        rows = view.shape[0]  # type: ignore[index]
        if view.nbytes == 0:
            return [memoryview(b"")] * rows
        flat, size = view.cast("B"), view.nbytes // rows
        return [flat[i * size:(i + 1) * size] for i in range(rows)]
    try:
        items = list(value)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"{what} must be a bytes-like object or a sequence of them, not {a_type(value)}") from None
    name = what[:-1] if what.endswith("s") else what
    return [item_view(item, f"{name} {i}", f"{what} are bytes-like objects") for i, item in enumerate(items)]


def pbkdf2_hmac_many(hash_name: str, passwords: Any, salts: Any, iterations: int, dklen: int | None = None, *,
                     threads: int = 1, out: Any = None) -> Any:
    """Many PBKDF2-HMAC-SHA256 keys at once, one per lane: key i from passwords[i] and salts[i].

    Either of passwords and salts may be one bytes-like object that every
    derivation shares (one password under many salts, or the reverse); the
    other is a sequence of bytes-like objects, or the rows of a 2-D buffer
    such as a numpy uint8 array (both may be, of one length).
    All derivations take `iterations` and `dklen`. Returns the keys, in order,
    as hashlib.pbkdf2_hmac would give each. `threads=N` splits them across N
    threads (0: one per CPU this process may use). `out=buf` writes the keys
    end to end into buf (a writable C-contiguous buffer of exactly n x dklen
    bytes, overlapping no password or salt) and returns it: no bytes object
    holds a key, and the caller wipes buf when done.
    """
    _check_hash_name(hash_name, "pbkdf2_hmac_many")
    count, length = _iterations(iterations), _dklen(dklen)
    workers = worker_count(threads, "threads")
    pw_items, salt_items = _as_items(passwords, "passwords"), _as_items(salts, "salts")
    if pw_items is None and salt_items is None:
        raise TypeError("pbkdf2_hmac_many needs a sequence of passwords or of salts (for one key: pbkdf2_hmac)")
    n = len(pw_items) if pw_items is not None else len(salt_items)  # type: ignore[arg-type]
    if pw_items is not None and salt_items is not None and len(salt_items) != n:
        raise ValueError(f"{n} passwords but {len(salt_items)} salts: give one salt each, or one for all")
    if n == 0 and out is None:
        return []
    lib = _native.lib()
    with ExitStack() as stack:
        target = None if out is None else stack.enter_context(writable_out(out, n * length, n, "keys"))
        def pointers(items: list[memoryview] | None, shared: Any, what: str) -> tuple[Any, Any]:
            addresses, lengths = (ctypes.c_void_p * n)(), (ctypes.c_size_t * n)()
            borrowed = [stack.enter_context(borrow(item, what)) for item in (items or [shared])]
            for i, (pointer, nbytes) in enumerate(borrowed):
                if isinstance(pointer, bytes):  # a copy, where there is no C API to borrow through
                    pointer = ctypes.addressof(stack.enter_context(_Kept(pointer)).buffer)
                addresses[i], lengths[i] = pointer, nbytes
            if items is None:  # one shared by all
                for i in range(1, n):
                    addresses[i], lengths[i] = addresses[0], lengths[0]
            return addresses, lengths

        pws, pwlens = pointers(pw_items, passwords, "password")
        salt_ptrs, salt_lens = pointers(salt_items, salts, "salt")
        if target is not None:
            for i in range(n):
                target.refuse_overlap(pws[i] or 0, pwlens[i], f"password {i}")
                target.refuse_overlap(salt_ptrs[i] or 0, salt_lens[i], f"salt {i}")
        keys_buffer = ctypes.create_string_buffer(n * length) if target is None else None
        base = target.address if target is not None else ctypes.addressof(keys_buffer)  # type: ignore[arg-type]
        pw_base, pwl_base = ctypes.addressof(pws), ctypes.addressof(pwlens)
        s_base, sl_base = ctypes.addressof(salt_ptrs), ctypes.addressof(salt_lens)
        size_p, size_l = ctypes.sizeof(ctypes.c_void_p), ctypes.sizeof(ctypes.c_size_t)

        def call(first: int, stop: int) -> int:
            return int(lib.libsha_pbkdf2_hmac_sha256_many(
                base + first * length, length, pw_base + first * size_p, pwl_base + first * size_l,
                s_base + first * size_p, sl_base + first * size_l, stop - first, count))

        blocks = -(-length // 32)
        if n:
            run_parts(call, n, workers, "pbkdf2_hmac_many", lambda i: i * count * blocks * 128)
    if keys_buffer is None:
        return out
    keys = [ctypes.string_at(base + i * length, length) for i in range(n)]
    ctypes.memset(keys_buffer, 0, ctypes.sizeof(keys_buffer))
    return keys
