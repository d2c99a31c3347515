"""The native library as this process uses it: loaded once on first use (_loader), and allowed to hash
once the automatic choice of a row is allowed (LIBSHA_IMPL valid or unset, or a row selected by name).
Both binding paths ask lib() before they hash; what must know when that is withdrawn again (the
accelerator, which asks lib() only until it is allowed) registers with on_withdraw()."""

from __future__ import annotations

import ctypes
from _thread import allocate_lock

from ._errors import ConfigurationError
from ._header import DIGEST_SIZE
from ._loader import load

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

# The library as loaded, for what lists, reports or selects by name (loaded()); and the same one
# published as _lib for hashing (lib()) once the automatic choice is allowed: at load where
# LIBSHA_IMPL is valid or unset, else from the first explicit selection on (allow_hashing()).
_loaded: ctypes.CDLL | None = None
_lib: ctypes.CDLL | None = None
_refusal: str | None = None  # why lib() refuses: LIBSHA_IMPL's problem and the way out
_LOADING = allocate_lock()  # two threads' first calls load the library once
# Called when hashing is withdrawn again (under _LOADING).
_on_withdraw: list[Callable[[], None]] = []

Digest = ctypes.c_char * DIGEST_SIZE
Context: Any = None  # ctypes.c_char * sizeof(libsha_sha256_ctx), set by lib()
HmacContext: Any = None  # ctypes.c_char * sizeof(libsha_hmac_sha256_ctx), set by lib()


def on_withdraw(callback: Callable[[], None]) -> None:
    """callback() whenever hashing is withdrawn again (refuse_hashing_again)."""
    with _LOADING:
        _on_withdraw.append(callback)


def loaded() -> ctypes.CDLL:
    """The library, loaded on first use (libsha.reference never needs it), for what lists, reports or
    selects by name: an invalid LIBSHA_IMPL never stops these."""
    if _loaded is None:
        with _LOADING:
            if _loaded is None:
                _load_once()
    return _loaded  # type: ignore[return-value]


def lib() -> ctypes.CDLL:
    """The library, for hashing: raises ConfigurationError while an invalid LIBSHA_IMPL stands and
    no implementation was selected by name (the automatic choice it would need is refused)."""
    if _lib is None:
        loaded()
        if _lib is None:
            raise ConfigurationError(_refusal)
    return _lib


def configuration_problem(library: ctypes.CDLL | None = None) -> str | None:
    """LIBSHA_IMPL's problem as the library reads it (one line naming the bad word and the valid
    ones), or None where it is valid or unset."""
    message = ctypes.create_string_buffer(256)
    if (library or loaded()).libsha_config_check(None, message, len(message)) == 0:
        return None
    return message.value.decode("utf-8", "replace")


def allow_hashing() -> None:
    """An implementation was selected by name: hashing needs no automatic choice any more."""
    if _lib is None:
        with _LOADING:
            if _lib is None and _loaded is not None:
                _publish(_loaded)


def refuse_hashing_again() -> None:
    """Back to no selection by name (dispatch.using's exit): refused again while LIBSHA_IMPL is invalid."""
    global _lib
    with _LOADING:
        if _refusal is not None and _lib is not None:
            _lib = None
            for callback in _on_withdraw:
                callback()


def hashing_allowed() -> bool:
    """Whether lib() gives the library (LIBSHA_IMPL valid or unset, or an implementation selected by name)."""
    loaded()
    return _lib is not None


def wipe(function: str, ctx: Any) -> None:
    """Zeroes a context (with libsha_sha256_wipe or libsha_hmac_sha256_wipe) as its object is freed:
    its state reveals the message's prefix, or the key."""
    try:
        getattr(loaded(), function)(ctx)  # never refused: a context made in a using() block is wiped after it
    except Exception:  # at interpreter exit, with the modules torn down: nothing left to call
        pass


def _load_once() -> None:
    global _loaded, _refusal, Context, HmacContext
    library = load()
    # Plain arrays: final() wipes the copies digests are taken from, and the
    # objects that own a context wipe it when they are freed (their __del__).
    Context = ctypes.c_char * library.libsha_sha256_ctx_size()
    HmacContext = ctypes.c_char * library.libsha_hmac_sha256_ctx_size()
    problem = configuration_problem(library)
    if problem is None:
        _publish(library)
    else:
        _refusal = (f"{problem}. Fix or unset LIBSHA_IMPL, or select an implementation by name with "
                    f"libsha.dispatch.select() (libsha.dispatch.implementations() lists them)")
    _loaded = library  # last: another thread that sees it sees everything above


def _publish(library: ctypes.CDLL) -> None:
    """Makes `library` the one lib() gives (under _LOADING). Its first hash here makes the automatic
    choice, so it waits for a valid LIBSHA_IMPL or a selection by name."""
    global _lib
    _lib = library  # last: another thread that sees it sees everything above


def library_version() -> str:
    """The native library's version string."""
    version: bytes = loaded().libsha_version()
    return version.decode()
