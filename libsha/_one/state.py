"""Saved states through the library (libsha_sha256_export and _import; libsha.h gives the layout):
contexts to bytes and back, and midstates: the ctypes path's objects' state(), from_state(), pickling
and midstates (the accelerator's call the same library functions, with the same refusals)."""

from __future__ import annotations

import ctypes

from .. import _native
from .._buffers import borrow
from .._errors import ERR_ARGUMENT, a_type, check, refuse
from .._header import HMAC_STATE_SIZE, STATE_SIZE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from typing_extensions import Buffer


def export(ctx: Any) -> bytes:
    """A SHA-256 context's saved state."""
    out = ctypes.create_string_buffer(STATE_SIZE)
    check(_native.lib().libsha_sha256_export(ctx, out))
    return out.raw


def export_hmac(ctx: Any) -> bytes:
    """An HMAC context's saved state (as good as its key)."""
    out = ctypes.create_string_buffer(HMAC_STATE_SIZE)
    try:
        check(_native.lib().libsha_hmac_sha256_export(ctx, out))
        return out.raw
    finally:
        ctypes.memset(out, 0, HMAC_STATE_SIZE)


def context_of(state: Buffer) -> Any:
    """A new SHA-256 context resumed from a saved state; ValueError if it is not one."""
    _native.lib()  # (loads the library, and the context types, on first use)
    return _imported(state, _native.Context, "libsha_sha256_import")


def hmac_context_of(state: Buffer) -> Any:
    """A new HMAC context resumed from an HMAC object's saved state; ValueError if it is not one."""
    _native.lib()
    return _imported(state, _native.HmacContext, "libsha_hmac_sha256_import")


def _imported(state: Buffer, kind: Any, function: str) -> Any:
    if isinstance(state, str):
        raise TypeError(f"a saved state is bytes, not {a_type(state)}")
    lib = _native.lib()
    ctx = kind()
    with borrow(state, "state") as (pointer, nbytes):
        check(getattr(lib, function)(ctx, pointer, nbytes))
    return ctx


def midstate(ctx: Any) -> tuple[bytes, int]:
    """(the 32-byte chaining words, the length in bytes) of a SHA-256 context at a block boundary."""
    words = ctypes.create_string_buffer(32)
    length = ctypes.c_uint64()
    code = _native.lib().libsha_sha256_midstate(ctx, words, ctypes.byref(length))
    if code == ERR_ARGUMENT:  # bytes wait after the last whole block
        refuse("no midstate")
    check(code)
    return words.raw, length.value


def context_of_midstate(words: Buffer, length: int) -> Any:
    """A new SHA-256 context at a block boundary: its chaining words and its length in bytes."""
    if not isinstance(length, int) or isinstance(length, bool):
        refuse("midstate length type", length)
    if isinstance(words, str):
        refuse("midstate words type", words)
    lib = _native.lib()
    ctx = _native.Context()
    with borrow(words, "words") as (pointer, nbytes):
        if nbytes != 32:  # (C reads 32 bytes from the pointer: the size is checked here)
            refuse("midstate words size", nbytes)
        code = lib.libsha_sha256_init_midstate(ctx, pointer, length) if 0 <= length < 1 << 64 else ERR_ARGUMENT
    if code == ERR_ARGUMENT:  # the library's check: a multiple of 64, within SHA-256's limit
        refuse("midstate length", length)
    check(code)
    return ctx
