"""Which implementation runs: listing, detecting, selecting, the CPU's features.

The choice is process-wide: select() and using() change it for every thread
(the C library swaps it atomically, so a hash already running finishes on the
engine it started with).
"""

from __future__ import annotations

import ctypes
import operator

from . import _errors, _native
from ._errors import check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator

# Implementation mask bits, as Bitcoin Core's sha256_implementation (LIBSHA_USE_* in libsha.h).
USE_STANDARD = 0
USE_SSE4 = 1
USE_AVX2 = 2
USE_SHANI = 4
USE_AVX512 = 8  # libsha's own: Bitcoin Core has no AVX-512 kernels
USE_ALL = USE_SSE4 | USE_AVX2 | USE_SHANI | USE_AVX512


_features: dict[str, int] | None = None

if TYPE_CHECKING:
    CPU_FEATURES: dict[str, int]  # name -> LIBSHA_CPU_* bit, e.g. {"sse4.1": 1, ...}


def _feature_table() -> dict[str, int]:
    """name -> LIBSHA_CPU_* bit of every feature the library knows, read once from its one table."""
    global _features
    if _features is None:
        lib = _native.lib()
        bit = ctypes.c_uint()
        table = {}
        index = 0
        while (name := lib.libsha_cpu_feature_at(index, ctypes.byref(bit))) is not None:
            table[name.decode()] = bit.value
            index += 1
        _features = table  # published whole: a reader in another thread never sees part of it
    return _features


def __getattr__(name: str) -> object:
    # CPU_FEATURES comes from the library, loaded on first use, not at import.
    if name == "CPU_FEATURES":
        return _feature_table()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"CPU_FEATURES"})


class Implementation(tuple):  # type: ignore[type-arg]
    """(name, runnable): an implementation compiled in, and whether this CPU runs it."""

    __slots__ = ()

    def __new__(cls, name: str, runnable: bool) -> Implementation:
        return tuple.__new__(cls, (name, runnable))

    @property
    def name(self) -> str:
        return self[0]  # type: ignore[no-any-return]

    @property
    def runnable(self) -> bool:
        return self[1]  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"Implementation(name={self.name!r}, runnable={self.runnable!r})"


def autodetect(use: int = USE_ALL) -> str:
    """Installs the fastest implementation that `use` (USE_* bits) allows; returns its name."""
    use = operator.index(use)
    if use & ~USE_ALL or use < 0:
        raise ValueError(f"use must combine the USE_* bits (0..{USE_ALL}), not {use}")
    name: bytes = _native.lib().libsha_autodetect(use)
    return name.decode()


def implementation() -> str:
    """The active implementation's name, as Bitcoin Core prints it."""
    name: bytes = _native.lib().libsha_implementation()
    return name.decode()


def lanes() -> int:
    """How many streams libsha.update_many hashes at once on the active implementation (its widest
    many-message kernel; 1: one after another)."""
    count: int = _native.lib().libsha_sha256_lanes()
    return count


def select(name: str) -> None:
    """Installs the implementation of that name (as implementations() lists it).

    Raises ValueError naming the reason: an unknown name, or a CPU that lacks
    what it needs (never an illegal-instruction crash).
    """
    if not isinstance(name, str):
        raise TypeError(f"implementation name must be a str, not {type(name).__name__}")
    if "\0" in name:
        raise ValueError("implementation name must not contain NUL")
    code = _native.lib().libsha_select(name.encode())
    if code == _errors.ERR_UNKNOWN_IMPL:
        known = ", ".join(repr(i.name) for i in implementations())
        raise ValueError(f"unknown implementation {name!r}; this build has {known}")
    if code == _errors.ERR_NOT_RUNNABLE:
        raise ValueError(f"implementation {name!r} needs CPU features this machine lacks (it has: "
                         f"{', '.join(cpu_features()) or 'none that libsha uses'})")
    check(code, f"select({name!r})")


class using:
    """with libsha.using(name): ... runs with that implementation, then restores the previous one."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._previous: list[str] = []  # a stack, so one object may be entered again

    def __enter__(self) -> str:
        previous = implementation()
        select(self._name)
        self._previous.append(previous)
        return self._name

    def __exit__(self, *exc: object) -> None:
        select(self._previous.pop())


def cpu_features() -> list[str]:
    """The CPU features libsha detected and uses, e.g. ['sse4.1', 'avx', 'avx2', 'sha']."""
    bits = _native.lib().libsha_cpu_features()
    return [name for name, bit in _feature_table().items() if bits & bit]


def _each_implementation() -> Iterator[Implementation]:
    lib = _native.lib()
    runnable = ctypes.c_int()
    index = 0
    while True:
        name = lib.libsha_implementation_at(index, ctypes.byref(runnable))
        if name is None:
            return
        yield Implementation(name.decode(), bool(runnable.value))
        index += 1


def implementations() -> list[Implementation]:
    """Every implementation compiled in, best first, with whether this CPU runs it."""
    return list(_each_implementation())


def build_type() -> str:
    """The native library's build configuration, e.g. 'Release'."""
    kind: bytes = _native.lib().libsha_build_type()
    return kind.decode()
