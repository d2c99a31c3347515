"""The library's return codes, and every exception libsha defines, with the codes mapped onto them.

Imports nothing of libsha: _native takes the codes and its loading errors from here.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NoReturn

# Return codes (LIBSHA_OK, LIBSHA_ERR_*).
OK = 0
ERR_NULL = -1
ERR_STATE = -2
ERR_TOO_LONG = -3
ERR_UNKNOWN_IMPL = -4
ERR_NOT_RUNNABLE = -5
ERR_ARGUMENT = -6
ERR_SELFTEST = -7
ERR_IO = -8
ERR_CANCELLED = -9
ERR_NOMEM = -10
ERR_FORMAT = -11


# The hash objects' refusals, raised by both binding paths (the accelerator's C methods through
# refuse()): the exception and its words, about a `subject` ({subject}, or {a_type} for its type).
REFUSALS: dict[str, tuple[type[Exception], str]] = {
    "data and string": (TypeError, "sha256() takes 'data' or 'string', not both"),
    "pickle": (TypeError, "cannot pickle {subject!r} object: its state is as good as the key (state() gives it, "
                          "where that is meant)"),
    "no midstate": (ValueError, "no midstate: the message so far does not end at a 64-byte block boundary"),
    "midstate length type": (TypeError, "length must be an int, not {a_type}"),
    "midstate length": (ValueError, "a midstate's length is a multiple of 64 below 2**61, not {subject}"),
    "midstate words type": (TypeError, "words are 32 bytes, not {a_type}"),
    "midstate words size": (ValueError, "a midstate's words are 32 bytes, not {subject}"),
}


def refuse(what: str, subject: object = "") -> NoReturn:
    """Raises the refusal REFUSALS[what] about subject (the object's type name, a wrong value)."""
    kind, words = REFUSALS[what]
    raise kind(words.format(subject=subject, a_type=a_type(subject)))


def a_type(value: object) -> str:
    """The value's type with its article, for messages: 'an int', 'a float'."""
    name = type(value).__name__
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


class AlreadyFinalized(Exception):
    """A one-use key derivation object (HKDF, HKDFExpand) used again, as cryptography raises it."""


class InvalidKey(Exception):
    """HKDF.verify: the key derived is not the one expected."""


class NonContiguousError(ValueError, BufferError):
    """A buffer that is not C-contiguous (a ValueError, and the BufferError hashlib raises)."""


class LibraryLoadError(OSError):
    """The native library could not be found or loaded."""


class ConfigurationError(ValueError):
    """The LIBSHA_IMPL environment variable is invalid."""


_MESSAGES: dict[int, tuple[type[BaseException], str]] = {
    ERR_NULL: (ValueError, "a NULL pointer reached libsha"),
    ERR_STATE: (ValueError, "the hash object is not in a usable state"),
    ERR_TOO_LONG: (OverflowError, "SHA-256 messages are limited to 2**61 - 1 bytes"),
    ERR_UNKNOWN_IMPL: (ValueError, "no such implementation"),
    ERR_NOT_RUNNABLE: (ValueError, "this CPU cannot run that implementation"),
    ERR_ARGUMENT: (ValueError, "argument out of range"),
    ERR_SELFTEST: (RuntimeError, "the implementation failed its known-answer self-test"),
    ERR_IO: (OSError, "a file could not be opened or read"),
    ERR_CANCELLED: (KeyboardInterrupt, "cancelled"),
    ERR_NOMEM: (MemoryError, "libsha could not allocate its scratch memory"),
    ERR_FORMAT: (ValueError, "not a libsha saved state (wrong size, version or kind, damaged, or an impossible length)"),
}


def check(code: int, context: str = "") -> None:
    if code != OK:
        kind, message = _MESSAGES.get(code, (RuntimeError, f"libsha returned error {code}"))
        raise kind(f"{context}: {message}" if context else message)
