"""Turns the library's return codes into Python exceptions."""

from __future__ import annotations

from . import _native

_MESSAGES: dict[int, tuple[type[BaseException], str]] = {
    _native.ERR_NULL: (ValueError, "a NULL pointer reached libsha"),
    _native.ERR_STATE: (ValueError, "the hash object is not in a usable state"),
    _native.ERR_TOO_LONG: (OverflowError, "SHA-256 messages are limited to 2**61 - 1 bytes"),
    _native.ERR_UNKNOWN_IMPL: (ValueError, "no such implementation"),
    _native.ERR_NOT_RUNNABLE: (ValueError, "this CPU cannot run that implementation"),
    _native.ERR_ARGUMENT: (ValueError, "argument out of range"),
    _native.ERR_SELFTEST: (RuntimeError, "the implementation failed its known-answer self-test"),
    _native.ERR_IO: (OSError, "a file could not be opened or read"),
    _native.ERR_CANCELLED: (KeyboardInterrupt, "cancelled"),
}


def check(code: int, context: str = "") -> None:
    if code != _native.OK:
        kind, message = _MESSAGES.get(code, (RuntimeError, f"libsha returned error {code}"))
        raise kind(f"{context}: {message}" if context else message)
