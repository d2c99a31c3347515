"""Finds and loads the native library, and declares its C signatures.

The one place that knows the library's file names and function signatures.
"""

from __future__ import annotations

import ctypes
import os
import sys
from _thread import allocate_lock
from ctypes import POINTER, c_char_p, c_int, c_size_t, c_uint, c_uint32, c_uint64, c_void_p

from . import _elf
from ._errors import ConfigurationError, LibraryLoadError, check, refuse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable

ENV_LIBRARY = "LIBSHA_LIBRARY"
# "ctypes": the ctypes path even where the accelerator loads; "accelerated": the accelerator or an error.
ENV_BINDING = "LIBSHA_BINDING"

# name: (restype, argtypes), as in libsha/include/libsha.h
SIGNATURES: dict[str, tuple[Any, list[Any]]] = {
    "libsha_version": (c_char_p, []),
    "libsha_build_type": (c_char_p, []),
    "libsha_autodetect": (c_char_p, [c_uint]),
    "libsha_implementation": (c_char_p, []),
    "libsha_implementation_at": (c_char_p, [c_size_t, POINTER(c_int)]),
    "libsha_implementation_needs": (c_char_p, [c_size_t, POINTER(c_uint), POINTER(c_uint), POINTER(c_uint)]),
    "libsha_implementation_for": (c_char_p, [c_uint, c_uint, c_uint]),
    "libsha_select": (c_int, [c_char_p]),
    "libsha_cpu_features": (c_uint, []),
    "libsha_cpu_feature_at": (c_char_p, [c_size_t, POINTER(c_uint)]),
    "libsha_cpu_tuning": (c_uint, []),
    "libsha_cpu_tuning_at": (c_char_p, [c_size_t, POINTER(c_uint)]),
    "libsha_cpu_model": (c_char_p, []),
    "libsha_cpu_model_at": (c_char_p, [c_size_t, POINTER(c_uint)]),
    "libsha_x86_decide": (c_int, [c_void_p, POINTER(c_uint), POINTER(c_uint), POINTER(c_char_p)]),
    "libsha_config_error": (c_char_p, []),
    "libsha_config_check": (c_int, [c_char_p, c_char_p, c_size_t]),
    "libsha_sha256_ctx_size": (c_size_t, []),
    "libsha_sha256_init": (None, [c_void_p]),
    "libsha_sha256_update": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_final": (c_int, [c_void_p, c_void_p]),
    "libsha_sha256_wipe": (None, [c_void_p]),
    "libsha_sha256_update_many": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_final_many": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_lanes": (c_size_t, []),
    "libsha_sha256": (c_int, [c_void_p, c_size_t, c_void_p]),
    "libsha_sha256d64": (None, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p]),
    "libsha_hmac_sha256_ctx_size": (c_size_t, []),
    "libsha_hmac_sha256_init": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256_update": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256_final": (c_int, [c_void_p, c_void_p]),
    "libsha_hmac_sha256_wipe": (None, [c_void_p]),
    "libsha_hmac_sha256_update_many": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t]),
    "libsha_merkle_root": (c_int, [c_void_p, c_void_p, c_size_t, POINTER(c_int)]),
    "libsha_pbkdf2_hmac_sha256": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t, c_uint64]),
    "libsha_pbkdf2_hmac_sha256_many": (c_int, [c_void_p, c_size_t, c_void_p, c_void_p, c_void_p, c_void_p, c_size_t,
                                               c_uint64]),
    "libsha_hkdf_sha256_extract": (c_int, [c_void_p, c_void_p, c_size_t, c_void_p, c_size_t]),
    "libsha_hkdf_sha256_expand": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t]),
    "libsha_hkdf_sha256": (c_int, [c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t, c_void_p, c_size_t]),
    "libsha_sha256_many": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint]),
    "libsha_sha256_batch": (c_int, [c_void_p, c_void_p, c_void_p, c_void_p, c_uint]),
    "libsha_sha256_export": (c_int, [c_void_p, c_void_p]),
    "libsha_sha256_import": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_hmac_sha256_export": (c_int, [c_void_p, c_void_p]),
    "libsha_hmac_sha256_import": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_midstate": (c_int, [c_void_p, c_void_p, POINTER(c_uint64)]),
    "libsha_sha256_init_midstate": (c_int, [c_void_p, c_void_p, c_uint64]),
    "libsha_hex": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_file": (c_int, [c_char_p, c_void_p, POINTER(c_int)]),
    "libsha_sha256_files": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_void_p]),
    "libsha_bep52_tree": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint64]),
    "libsha_bep52_tree_of_leaves": (c_int, [c_void_p, c_void_p, c_void_p, c_size_t, c_uint64]),
    "libsha_bep52_layer_nodes": (c_uint64, [c_uint64, c_uint64]),
    "libsha_sha256_64": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_ssz_merkleize": (c_int, [c_void_p, c_void_p, c_size_t, c_uint64]),
    "libsha_ssz_mix_in_length": (c_int, [c_void_p, c_void_p, c_uint64]),
    "libsha_rfc6962_leaf_hashes": (c_int, [c_void_p, c_void_p]),
    "libsha_rfc6962_root": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_rfc6962_log_init": (None, [c_void_p]),
    "libsha_rfc6962_log_append": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_rfc6962_log_root": (c_int, [c_void_p, c_void_p]),
    "libsha_rfc6962_tree_nodes": (c_size_t, [c_size_t]),
    "libsha_rfc6962_tree": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_rfc6962_inclusion_proof": (c_int, [c_void_p, POINTER(c_size_t), c_void_p, c_size_t, c_uint64, c_uint64]),
    "libsha_rfc6962_consistency_proof": (c_int, [c_void_p, POINTER(c_size_t), c_void_p, c_size_t, c_uint64,
                                                 c_uint64]),
    "libsha_rfc6962_verify_inclusion": (c_int, [c_void_p, c_uint64, c_uint64, c_void_p, c_size_t, c_void_p]),
    "libsha_rfc6962_verify_consistency": (c_int, [c_uint64, c_uint64, c_void_p, c_size_t, c_void_p, c_void_p]),
}

# os_errors[i] of libsha_sha256_files that are not errno values.
FILE_CANCELLED = -1

# sha256_many's flags: SHA256(SHA256(m)); the digests as hex, made in the same call.
DOUBLE = 1
HEX = 2

DIGEST_SIZE = 32
# A saved state's size (libsha_sha256_export), and an HMAC context's (libsha_hmac_sha256_export).
STATE_SIZE = 120
HMAC_STATE_SIZE = 152
BLOCK_SIZE = 64

# The accelerator's C methods release the GIL from this many bytes on (below it, releasing and
# retaking it costs more than such a hash), as hashlib does. The ctypes path's calls always release it.
GIL_RELEASE_BYTES = 2048


class X86Cpuid(ctypes.Structure):
    """libsha_x86_cpuid: the CPUID and XGETBV readings libsha_x86_decide decides on."""

    _fields_ = [("max_leaf", c_uint32), ("vendor", ctypes.c_char * 16), ("leaf1", c_uint32 * 4),
                ("leaf7", c_uint32 * 4), ("xcr0", c_uint64)]


# libsha_batch's layouts.
POINTERS, OFFSETS32, OFFSETS64, ROWS, VIEWS = range(5)


class Batch(ctypes.Structure):
    """libsha_batch: where a batch's n messages lie, in one of the layouts above (libsha.h)."""

    _fields_ = [("layout", c_int), ("n", c_size_t), ("msgs", c_void_p), ("lens", c_void_p), ("data", c_void_p),
                ("offsets32", c_void_p), ("offsets64", c_void_p), ("stride", c_size_t), ("len", c_size_t),
                ("views", c_void_p), ("buffers", c_void_p), ("buffer_sizes", c_void_p), ("nbuffers", c_size_t)]


class Rfc6962Log(ctypes.Structure):
    """libsha_rfc6962_log: an append-only log's size and the roots of its perfect subtrees."""

    _fields_ = [("size", c_uint64), ("nodes", (ctypes.c_ubyte * 32) * 64)]


# The longest RFC 6962 proof of any tree, in nodes (LIBSHA_RFC6962_MAX_PROOF).
RFC6962_MAX_PROOF = 65


class FilesControl(ctypes.Structure):
    """libsha_files_control: bytes read so far, a flag that stops libsha_sha256_files, small files
    gathered, and whether a second thread reads large files ahead of the hash."""

    _fields_ = [("bytes", c_uint64), ("cancel", c_uint32), ("gathered", c_uint32), ("read_ahead", c_uint64)]


def library_filenames(platform: str = sys.platform) -> list[str]:
    """The file names to look for, this platform's first."""
    own = {"win32": "libsha.dll", "cygwin": "libsha.dll", "darwin": "libsha.dylib"}.get(platform, "libsha.so")
    return [own] + [n for n in ("libsha.so", "libsha.dylib", "libsha.dll") if n != own]


def declare(cdll: ctypes.CDLL, signatures: dict[str, tuple[Any, list[Any]]],
            names: Iterable[str] | None = None) -> None:
    """Sets restype and argtypes on cdll's functions: those of `names`, or every one in signatures."""
    for name in signatures if names is None else names:
        restype, argtypes = signatures[name]
        function = getattr(cdll, name)  # AttributeError: not (this version of) libsha
        function.restype = restype
        function.argtypes = argtypes


def _open(path: str) -> ctypes.CDLL:
    reason = _elf.problem(path)
    if reason is not None:
        raise OSError(reason)
    if sys.platform == "win32" and hasattr(os, "add_dll_directory"):
        os.add_dll_directory(os.path.dirname(os.path.abspath(path)))
    cdll = ctypes.CDLL(path)  # CDLL (not PyDLL): calls release the GIL
    try:
        declare(cdll, SIGNATURES)
    except AttributeError as exc:
        raise OSError(f"not a libsha library of this version ({exc})") from None
    return cdll


def _candidates() -> tuple[list[str], str]:
    override = os.environ.get(ENV_LIBRARY)
    if override:
        return [override], f"{ENV_LIBRARY}={override!r}"
    # The package's own directories (several in an editable install). Not
    # importlib.resources: importing it costs more than loading the library.
    package = sys.modules[__package__]
    folders = list(getattr(package, "__path__", [])) or [os.path.dirname(__file__)]
    return [os.path.join(f, name) for f in folders for name in library_filenames()], f"the {__package__} package"


def load() -> ctypes.CDLL:
    """Loads the library, or raises LibraryLoadError naming every path tried."""
    paths, source = _candidates()
    tried = []
    for path in paths:
        if not os.path.isfile(path):
            tried.append(f"{path}: no such file")
            continue
        try:
            return _open(path)
        except OSError as exc:
            tried.append(f"{path}: {exc}")
    raise LibraryLoadError(
        f"libsha: could not load the native library from {source}. Tried:\n  "
        + "\n  ".join(tried)
        + f"\nReinstall the package (pip install --force-reinstall libsha; building from source needs"
        f" CMake and a C compiler), or set {ENV_LIBRARY} to the path of a built libsha shared library."
    )


# The library as loaded, for what lists, reports or selects by name (loaded()); and the same one
# published as _lib for hashing (lib()) once the automatic choice is allowed: at load where
# LIBSHA_IMPL is valid or unset, else from the first explicit selection on (allow_hashing()).
_loaded: ctypes.CDLL | None = None
_lib: ctypes.CDLL | None = None
_refusal: str | None = None  # why lib() refuses: LIBSHA_IMPL's problem and the way out
_LOADING = allocate_lock()  # two threads' first calls load the library once

Digest = ctypes.c_char * DIGEST_SIZE
Context: Any = None  # ctypes.c_char * sizeof(libsha_sha256_ctx), set by lib()
HmacContext: Any = None  # ctypes.c_char * sizeof(libsha_hmac_sha256_ctx), set by lib()


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
            if ACCEL is not None:
                ACCEL.allow(False)


def _accelerator() -> Any:
    """libsha._accel (libsha/_accel.c: the per-call paths as C methods) where it was built and loads
    here (CPython 3.11+: abi3 with the GIL, its own build free-threaded), unless LIBSHA_BINDING says
    ctypes; else None (the ctypes path)."""
    choice = os.environ.get(ENV_BINDING, "")
    if choice not in ("", "ctypes", "accelerated"):
        raise ConfigurationError(f"{ENV_BINDING}={choice!r}: it is 'ctypes', 'accelerated' or unset")
    if choice == "ctypes":
        return None
    try:
        from . import _accel  # type: ignore[attr-defined,unused-ignore]  # (absent from py3-none wheels)
    except ImportError as exc:
        if choice == "accelerated":
            raise ConfigurationError(f"{ENV_BINDING}=accelerated, but the accelerator does not load here: {exc}") from None
        return None
    return _accel


def _view_error(data: object, what: str) -> None:
    """The accelerator's buffer errors, in the binding's words: raises what contiguous_view raises."""
    from ._buffers import contiguous_view

    contiguous_view(data, what)


def binding(build: bool = False) -> str:
    """'accelerated' (the C methods of libsha._accel) or 'ctypes': the path the bindings' calls take;
    with build, the accelerator's build too ('accelerated (abi3)', 'accelerated (cp313t)')."""
    if ACCEL is None:
        return "ctypes"
    return f"accelerated ({ACCEL.BUILD})" if build else "accelerated"


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
    """Makes `library` the one lib() gives, with its fast path (under _LOADING). Its first hash here
    makes the automatic choice, so it waits for a valid LIBSHA_IMPL or a selection by name."""
    global _lib
    if ACCEL is not None:  # the same library's entry points, for the accelerator's C methods
        addresses = tuple(ctypes.cast(getattr(library, name), c_void_p).value for name in ACCEL.ENTRY_POINTS)
        ACCEL.bind(addresses, library.libsha_sha256_ctx_size(), library.libsha_hmac_sha256_ctx_size())
    _lib = library  # last: another thread that sees it sees everything above


def library_version() -> str:
    """The native library's version string."""
    version: bytes = loaded().libsha_version()
    return version.decode()


# The accelerator, where it loads: its C methods ask lib() before their first hash (which loads the
# library and binds them), and raise the binding's own errors through these helpers.
ACCEL: Any = _accelerator()
if ACCEL is not None:
    ACCEL.setup(lib, _view_error, check, refuse, GIL_RELEASE_BYTES)
