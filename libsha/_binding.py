"""The one switch between the binding's two paths, decided here once, at import.

Where the accelerator (libsha/_accel.c, CPython 3.11+: each version's own build, free-threaded ones
included, or the abi3 one) loads, its C types and functions are the API; the ctypes path (PyPy, older
CPython, the py3-none wheels, LIBSHA_BINDING=ctypes) is the Python written over ctypes. A module that
has something of each path hands the ctypes path's to take_accelerated, which puts the accelerator's
(an attribute of _accel of that name, or a Python function of the accelerated path given by name) in
its place. Nothing else asks which path runs; binding() says which one does.

REPLACED records what each module defined for the ctypes path, so that the tests can run one process
on either path (tests/support/binding.py swaps these names back).

The accelerator opens the library itself (the file _loader.path() names): a command that only hashes
(libsha sum) starts without importing ctypes. Where that cannot be, or LIBSHA_IMPL is invalid, the
ctypes path's loading (_native) decides and words the error, and the accelerator then opens the file
ctypes loaded.
"""

from __future__ import annotations

import os
from _thread import allocate_lock

from . import _loader
from ._errors import ConfigurationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# "ctypes": the ctypes path even where the accelerator loads; "accelerated": the accelerator or an error.
ENV_BINDING = "LIBSHA_BINDING"

# module name -> {name: the ctypes path's object}, for every module that called take_accelerated
REPLACED: dict[str, dict[str, Any]] = {}


def _accelerator() -> Any:
    """libsha._accel where it was built and loads here, unless LIBSHA_BINDING says ctypes; else None."""
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


_ACCEL: Any = _accelerator()


def take_accelerated(namespace: dict[str, Any], *names: str, **accelerated: Any) -> None:
    """In a module's globals, the accelerated path's objects in place of the module's own (kept in
    REPLACED) where the accelerator loads: for each of `names` the accelerator's attribute of that name;
    for each name=value of `accelerated`, the accelerator's attribute `value` where it is a str, else
    the value itself (a Python function of the accelerated path). Nothing changes where it does not load."""
    REPLACED[namespace["__name__"]] = {name: namespace[name] for name in (*names, *accelerated)}
    if _ACCEL is not None:
        for name in names:
            namespace[name] = getattr(_ACCEL, name)
        for name, value in accelerated.items():
            namespace[name] = getattr(_ACCEL, value) if isinstance(value, str) else value


def binding(build: bool = False) -> str:
    """'accelerated' (the C methods of libsha._accel) or 'ctypes': the path the binding's calls take;
    with build, the accelerator's build too ('accelerated (abi3)', 'accelerated (cp313t)')."""
    if _ACCEL is None:
        return "ctypes"
    return f"accelerated ({_ACCEL.BUILD})" if build else "accelerated"


_BINDING = allocate_lock()  # free-threaded, two threads' first hashes open and allow one at a time
_open = False  # the accelerator has opened the library (once: hashing may be refused many times over)
_withdrawing = False  # whether _native tells the accelerator when hashing is withdrawn again


def _opened_alone() -> bool:
    """The accelerator opens the library by itself (no ctypes): whether it has (False: ctypes' loading
    below says why, naming every path tried). Under _BINDING."""
    global _open
    path = None if _open else _loader.path()
    if path is not None:
        try:
            _ACCEL.open(path)
        except (OSError, ValueError):
            return False
        _loader.opened(path)
        _open = True
    return _open


def configuration_problem() -> str | None:
    """LIBSHA_IMPL's problem in the library's words (one line naming the bad word and the valid ones),
    or None where it is valid or unset; on the accelerated path without ctypes where it can be."""
    if _ACCEL is not None:
        with _BINDING:
            if _opened_alone():
                problem: str | None = _ACCEL.configuration_problem()
                return problem
    from . import _native

    return _native.configuration_problem()


def _ready() -> None:
    """The accelerator's first step while hashing is not allowed: the library opened and hashing
    allowed where LIBSHA_IMPL is valid or unset; else ctypes' loading decides (_native.lib() raises
    LibraryLoadError or ConfigurationError, or gives the library once a row was selected by name)."""
    global _open, _withdrawing
    with _BINDING:
        if _opened_alone() and _ACCEL.configuration_problem() is None:
            _ACCEL.allow(True)
            return
        from . import _native

        if not _withdrawing:  # allowed by a selection by name, hashing is refused again at its end
            _native.on_withdraw(lambda: _ACCEL.allow(False))
            _withdrawing = True
        library = _native.lib()
        if not _open:
            _ACCEL.open(library._name)
            _open = True
        _ACCEL.allow(True)


if _ACCEL is not None:
    _ACCEL.setup(_ready)
