"""libsha: fast SHA-256 with run-time CPU dispatch, through ctypes.

    import libsha
    libsha.sha256(b"abc").hex()
    h = libsha.new(); h.update(b"a"); h.hexdigest()
    libsha.sha256d64(blobs)           # double SHA-256 of each 64-byte blob

The pure-Python oracle is libsha.reference (it never loads the native library).
"""

import contextlib
import ctypes
import operator
from collections import namedtuple

from . import _native
from ._buffers import NonContiguousError, borrow
from ._errors import check
from ._hash import SHA256
from ._native import ConfigurationError, LibraryLoadError

try:
    from importlib.metadata import PackageNotFoundError, version as _dist_version

    __version__ = _dist_version("libsha")
except PackageNotFoundError:  # imported from a source tree
    __version__ = "0+unknown"

# Implementation mask bits, as Bitcoin Core's sha256_implementation.
USE_STANDARD = 0
USE_SSE4 = 1
USE_AVX2 = 2
USE_SHANI = 4
USE_ALL = USE_SSE4 | USE_AVX2 | USE_SHANI

# CPU feature bits of cpu_features(), as LIBSHA_CPU_* in libsha.h.
CPU_FEATURES = {"sse4.1": 1, "avx": 2, "avx2": 4, "sha": 8, "arm-sha2": 16}

Implementation = namedtuple("Implementation", "name runnable")

__all__ = [
    "SHA256",
    "USE_ALL",
    "USE_AVX2",
    "USE_SHANI",
    "USE_SSE4",
    "USE_STANDARD",
    "CPU_FEATURES",
    "ConfigurationError",
    "Implementation",
    "LibraryLoadError",
    "NonContiguousError",
    "autodetect",
    "build_type",
    "cpu_features",
    "implementation",
    "implementations",
    "library_version",
    "new",
    "select",
    "sha256",
    "sha256d64",
    "using",
]


def new(data=b"", *, usedforsecurity=True):
    """A new hashlib-compatible SHA-256 object, optionally fed data."""
    return SHA256(data, usedforsecurity=usedforsecurity)


def sha256(data=b""):
    """SHA-256 of any C-contiguous buffer, as 32 bytes."""
    lib = _native.lib()
    out = _native.Digest()
    if type(data) is bytes:
        check(lib.libsha_sha256(data, len(data), out))
    else:
        with borrow(data) as (pointer, nbytes):
            check(lib.libsha_sha256(pointer, nbytes, out))
    return out.raw


def sha256d64(data):
    """Double SHA-256 of each 64-byte blob of data: 32 bytes out per 64 in."""
    lib = _native.lib()
    if type(data) is bytes:
        return _sha256d64(lib, data, len(data))
    with borrow(data) as (pointer, nbytes):
        return _sha256d64(lib, pointer, nbytes)


def _sha256d64(lib, pointer, nbytes):
    if nbytes % 64:
        raise ValueError(f"sha256d64 takes whole 64-byte blobs; {nbytes} bytes is not a multiple of 64")
    out = ctypes.create_string_buffer(nbytes // 2)
    lib.libsha_sha256d64(out, pointer, nbytes // 64)
    return out.raw


def autodetect(use=USE_ALL):
    """Installs the fastest implementation that `use` (USE_* bits) allows; returns its name."""
    use = operator.index(use)
    if use & ~USE_ALL or use < 0:
        raise ValueError(f"use must combine the USE_* bits (0..{USE_ALL}), not {use}")
    return _native.lib().libsha_autodetect(use).decode()


def implementation():
    """The active implementation's name, as Bitcoin Core prints it."""
    return _native.lib().libsha_implementation().decode()


def select(name):
    """Installs the implementation of that name (as implementations() lists it).

    Raises ValueError naming the reason: an unknown name, or a CPU that lacks
    what it needs (never an illegal-instruction crash).
    """
    if not isinstance(name, str):
        raise TypeError(f"implementation name must be a str, not {type(name).__name__}")
    if "\0" in name:
        raise ValueError("implementation name must not contain NUL")
    code = _native.lib().libsha_select(name.encode())
    if code == _native.ERR_UNKNOWN_IMPL:
        known = ", ".join(repr(i.name) for i in implementations())
        raise ValueError(f"unknown implementation {name!r}; this build has {known}")
    if code == _native.ERR_NOT_RUNNABLE:
        raise ValueError(f"implementation {name!r} needs CPU features this machine lacks (it has: "
                         f"{', '.join(cpu_features()) or 'none that libsha uses'})")
    check(code, f"select({name!r})")


@contextlib.contextmanager
def using(name):
    """with libsha.using(name): ... runs with that implementation, then restores the previous one."""
    previous = implementation()
    select(name)
    try:
        yield name
    finally:
        select(previous)


def cpu_features():
    """The CPU features libsha detected and uses, e.g. ['sse4.1', 'avx', 'avx2', 'sha']."""
    bits = _native.lib().libsha_cpu_features()
    return [name for name, bit in CPU_FEATURES.items() if bits & bit]


def implementations():
    """Every implementation compiled in, best first, with whether this CPU runs it."""
    lib = _native.lib()
    found = []
    runnable = ctypes.c_int()
    while True:
        name = lib.libsha_implementation_at(len(found), ctypes.byref(runnable))
        if name is None:
            return found
        found.append(Implementation(name.decode(), bool(runnable.value)))


def library_version():
    """The native library's version string."""
    return _native.lib().libsha_version().decode()


def build_type():
    """The native library's build configuration, e.g. 'Release'."""
    return _native.lib().libsha_build_type().decode()
