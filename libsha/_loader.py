"""Finds and loads the native library file: the one place that knows its file names and where it
lies (the package's own folders, or LIBSHA_LIBRARY), and the error naming every path tried. The
accelerator opens the file path() names itself; ctypes (load()) then opens the same one."""

from __future__ import annotations

import os
import sys

from ._errors import LibraryLoadError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import ctypes

ENV_LIBRARY = "LIBSHA_LIBRARY"

_opened: str | None = None  # the file this process opened the library from (either path's first)


def library_filenames(platform: str = sys.platform) -> list[str]:
    """The file names to look for, this platform's first."""
    own = {"win32": "libsha.dll", "cygwin": "libsha.dll", "darwin": "libsha.dylib"}.get(platform, "libsha.so")
    return [own] + [n for n in ("libsha.so", "libsha.dylib", "libsha.dll") if n != own]


def _open(path: str) -> ctypes.CDLL:
    # Imported here: a command that only hashes, on the accelerated path, never needs them.
    import ctypes

    from . import _elf
    from ._signatures import SIGNATURES, declare

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
        # Absolute: the file isfile() saw (a bare name would send dlopen to the system's folders), and
        # the one both paths open (LoadLibraryExW takes nothing else with the flags ctypes uses).
        return [os.path.abspath(override)], f"{ENV_LIBRARY}={override!r}"
    # The package's own directories (several in an editable install). Not
    # importlib.resources: importing it costs more than loading the library.
    package = sys.modules[__package__]
    folders = list(getattr(package, "__path__", [])) or [os.path.dirname(__file__)]
    return [os.path.join(f, name) for f in folders for name in library_filenames()], f"the {__package__} package"


def path() -> str | None:
    """The library's file for the accelerator to open: the one opened before, else the first
    candidate that is a file _elf finds sound (a truncated one would kill the process in dlopen), as
    load() tries them; None where there is none: load() then says what was tried."""
    if _opened is not None:
        return _opened
    from . import _elf

    return next((p for p in _candidates()[0] if os.path.isfile(p) and _elf.problem(p) is None), None)


def opened(path: str) -> None:
    """The library was opened from `path` (by the accelerator): ctypes' load() opens that file too."""
    global _opened
    if _opened is None:
        _opened = path


def load() -> ctypes.CDLL:
    """Loads the library, or raises LibraryLoadError naming every path tried."""
    paths, source = ([_opened], "the file opened before") if _opened is not None else _candidates()
    tried = []
    for candidate in paths:
        if not os.path.isfile(candidate):
            tried.append(f"{candidate}: no such file")
            continue
        try:
            cdll = _open(candidate)
        except OSError as exc:
            tried.append(f"{candidate}: {exc}")
            continue
        opened(candidate)
        return cdll
    raise LibraryLoadError(
        f"libsha: could not load the native library from {source}. Tried:\n  "
        + "\n  ".join(tried)
        + f"\nReinstall the package (pip install --force-reinstall libsha; building from source needs"
        f" CMake and a C compiler), or set {ENV_LIBRARY} to the path of a built libsha shared library."
    )
