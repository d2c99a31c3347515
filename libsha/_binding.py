"""The binding's two paths, and what differs between them.

Where the accelerator (libsha/_accel.c, CPython 3.11+ with the GIL) loads, its C types and functions
are the API: a module that defines the ctypes path's version of a name hands it to take_accelerated,
which puts the accelerator's in its place. The ctypes path (PyPy, free-threaded and older CPython,
the py3-none wheels, LIBSHA_BINDING=ctypes) keeps the module's own. Every call that reaches the
accelerator otherwise (batches of a list, update_many, hkdf) asks _native.ACCEL at the call.

REPLACED records what each module defined for the ctypes path, so that the tests can run one process
on either path (tests/support/binding.py swaps these names and _native.ACCEL).
"""

from __future__ import annotations

from . import _native

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# module name -> {name: the ctypes path's object}, for every module that called take_accelerated
REPLACED: dict[str, dict[str, Any]] = {}


def take_accelerated(namespace: dict[str, Any], *names: str) -> None:
    """In a module's globals, the accelerator's objects of these names in place of the module's own
    (kept in REPLACED), where the accelerator loads; nothing changes where it does not."""
    REPLACED[namespace["__name__"]] = {name: namespace[name] for name in names}
    if _native.ACCEL is not None:
        for name in names:
            namespace[name] = getattr(_native.ACCEL, name)
