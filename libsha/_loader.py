"""Finds and loads the native library file: the one place that knows its file names and where it
lies (the package's own folders, or LIBSHA_LIBRARY), and the error naming every path tried."""

from __future__ import annotations

import ctypes
import os
import sys

from . import _elf
from ._errors import LibraryLoadError
from ._signatures import SIGNATURES, declare

ENV_LIBRARY = "LIBSHA_LIBRARY"


def library_filenames(platform: str = sys.platform) -> list[str]:
    """The file names to look for, this platform's first."""
    own = {"win32": "libsha.dll", "cygwin": "libsha.dll", "darwin": "libsha.dylib"}.get(platform, "libsha.so")
    return [own] + [n for n in ("libsha.so", "libsha.dylib", "libsha.dll") if n != own]


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
