"""The binding's two paths in one process, as CPython's test_hashlib runs its constructors.

Every test marked `binding` (pyproject.toml) runs once on each path this interpreter has: the
accelerator (libsha/_accel.c) where it loads, and the ctypes path everywhere. The ctypes path is put
in place for a test by swapping back what libsha/_binding.py's one switch replaced (each module's
ctypes-path objects, and libsha's public names for them); the library itself is the same. A test of
one path's insides says so with `internals_of(path)`.
"""

import importlib
import os

import pytest

import libsha
from libsha import _binding

LOADED = libsha.dispatch.binding()  # the path this process took at import
# The paths a binding test runs on here: the accelerator's first where it loads. LIBSHA_TEST_PATHS
# (comma-separated) keeps some of them: tools/sanitize.sh runs the accelerator's alone, whose C
# methods call every entry point the ctypes path calls.
ENV_PATHS = "LIBSHA_TEST_PATHS"
PATHS = ["accelerated", "ctypes"] if LOADED == "accelerated" else ["ctypes"]
if os.environ.get(ENV_PATHS):
    wanted = os.environ[ENV_PATHS].split(",")
    assert set(wanted) <= {"accelerated", "ctypes"}, f"{ENV_PATHS}={os.environ[ENV_PATHS]!r}: accelerated, ctypes"
    PATHS = [path for path in PATHS if path in wanted]
    assert PATHS, f"{ENV_PATHS}={os.environ[ENV_PATHS]!r}: none of them loads here ({LOADED})"


def _ctypes_objects():
    """(module, name, object) of every ctypes-path object the accelerator replaced, and libsha's public
    names for them."""
    for name in libsha.__all__:
        getattr(libsha, name)  # each module records what it replaces as it loads; libsha's lazy names are
        # resolved now, before any is swapped, so that monkeypatch puts back the loaded path's objects
    for module_name, objects in _binding.REPLACED.items():
        module = importlib.import_module(module_name)
        for name, value in objects.items():
            yield module, name, value
            if libsha._HOMES.get(name) == module_name.removeprefix("libsha."):
                yield libsha, name, value


def use_path(path, monkeypatch):
    """Makes this test's calls take `path` ('accelerated' or 'ctypes'); monkeypatch undoes it."""
    if path == LOADED:
        return
    assert path == "ctypes", f"the {path} path does not load here"
    for module, name, value in list(_ctypes_objects()):
        monkeypatch.setattr(module, name, value)


def internals_of(path):
    """The mark of a test of that path's insides: it runs only on that path."""
    return pytest.mark.internals_of(path)


ctypes_internals = internals_of("ctypes")
accelerator_internals = internals_of("accelerated")
