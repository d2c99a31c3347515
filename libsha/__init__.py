"""libsha: fast SHA-256 with run-time CPU dispatch, through ctypes.

    import libsha
    libsha.sha256(b"abc").hex()
    h = libsha.new(); h.update(b"a"); h.hexdigest()
    libsha.sha256d64(blobs)           # double SHA-256 of each 64-byte blob

The pure-Python oracle is libsha.reference (it never loads the native library).
"""

import ctypes
import operator
from collections import namedtuple

from . import _native
from ._buffers import NonContiguousError, borrow
from ._errors import check
from ._hash import SHA256
from ._native import LibraryLoadError

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

Implementation = namedtuple("Implementation", "name runnable")

__all__ = [
    "SHA256",
    "USE_ALL",
    "USE_AVX2",
    "USE_SHANI",
    "USE_SSE4",
    "USE_STANDARD",
    "Implementation",
    "LibraryLoadError",
    "NonContiguousError",
    "autodetect",
    "implementation",
    "implementations",
    "library_version",
    "new",
    "sha256",
    "sha256d64",
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
