"""Finds and loads the native library, and declares its C signatures.

The one place that knows the library's file names and function signatures.
"""

import ctypes
import os
import sys
from ctypes import POINTER, c_char_p, c_int, c_size_t, c_uint, c_uint64, c_void_p
from importlib import resources

from . import _elf

ENV_LIBRARY = "LIBSHA_LIBRARY"

# name: (restype, argtypes), as in libsha/include/libsha.h
SIGNATURES = {
    "libsha_version": (c_char_p, []),
    "libsha_build_type": (c_char_p, []),
    "libsha_autodetect": (c_char_p, [c_uint]),
    "libsha_implementation": (c_char_p, []),
    "libsha_implementation_at": (c_char_p, [c_size_t, POINTER(c_int)]),
    "libsha_select": (c_int, [c_char_p]),
    "libsha_cpu_features": (c_uint, []),
    "libsha_config_error": (c_char_p, []),
    "libsha_sha256_ctx_size": (c_size_t, []),
    "libsha_sha256_init": (None, [c_void_p]),
    "libsha_sha256_update": (c_int, [c_void_p, c_void_p, c_size_t]),
    "libsha_sha256_final": (c_int, [c_void_p, c_void_p]),
    "libsha_sha256_wipe": (None, [c_void_p]),
    "libsha_sha256": (c_int, [c_void_p, c_size_t, c_void_p]),
    "libsha_sha256d64": (None, [c_void_p, c_void_p, c_size_t]),
    "libsha_bench": (c_int, [c_char_p, c_int, c_void_p, c_size_t, c_uint64]),
}

# Return codes (LIBSHA_OK, LIBSHA_ERR_*).
OK = 0
ERR_NULL = -1
ERR_STATE = -2
ERR_TOO_LONG = -3
ERR_UNKNOWN_IMPL = -4
ERR_NOT_RUNNABLE = -5
ERR_ARGUMENT = -6
ERR_SELFTEST = -7

BENCH_HASH = 0
BENCH_D64 = 1
BENCH_HASH_DIRTY_UPPER = 2


class LibraryLoadError(OSError):
    """The native library could not be found or loaded."""


class ConfigurationError(ValueError):
    """The LIBSHA_IMPL environment variable is invalid."""


def library_filenames(platform=sys.platform):
    """The file names to look for, this platform's first."""
    own = {"win32": "libsha.dll", "cygwin": "libsha.dll", "darwin": "libsha.dylib"}.get(platform, "libsha.so")
    return [own] + [n for n in ("libsha.so", "libsha.dylib", "libsha.dll") if n != own]


def _declare(cdll):
    for name, (restype, argtypes) in SIGNATURES.items():
        function = getattr(cdll, name)  # AttributeError: not (this version of) libsha
        function.restype = restype
        function.argtypes = argtypes


def _open(path):
    reason = _elf.problem(path)
    if reason is not None:
        raise OSError(reason)
    if sys.platform == "win32" and hasattr(os, "add_dll_directory"):
        os.add_dll_directory(os.path.dirname(os.path.abspath(path)))
    cdll = ctypes.CDLL(path)  # CDLL (not PyDLL): calls release the GIL
    try:
        _declare(cdll)
    except AttributeError as exc:
        raise OSError(f"not a libsha library of this version ({exc})") from None
    return cdll


def _candidates():
    override = os.environ.get(ENV_LIBRARY)
    if override:
        return [override], f"{ENV_LIBRARY}={override!r}"
    package = resources.files(__package__)
    return [str(package / name) for name in library_filenames()], f"the {__package__} package"


def load():
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


_lib = None

Digest = ctypes.c_char * 32
Context = None  # ctypes.c_char * sizeof(libsha_sha256_ctx), set by lib()


def lib():
    """The loaded library, loaded on first use so that libsha.reference never needs it."""
    global _lib, Context
    if _lib is None:
        loaded = load()
        error = loaded.libsha_config_error()
        if error is not None:
            value = os.environ.get("LIBSHA_IMPL", "")
            raise ConfigurationError(f"LIBSHA_IMPL={value!r}: {error.decode()}")
        Context = ctypes.c_char * loaded.libsha_sha256_ctx_size()
        _lib = loaded
    return _lib
