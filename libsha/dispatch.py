"""Which implementation runs: listing, detecting, selecting, the CPU's features.

The choice is process-wide: select() and using() change it for every thread
(the C library swaps it atomically, so a hash already running finishes on the
engine it started with).
"""

from __future__ import annotations

import ctypes
import operator

from . import _errors, _native
from . import _binding
from ._header import X86Cpuid
from ._errors import ConfigurationError
from ._errors import check as _check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, Iterator, Sequence

__all__ = [
    "USE_STANDARD", "USE_SSE4", "USE_AVX2", "USE_SHANI", "USE_AVX512", "USE_ALL", "CPU_FEATURES", "CPU_TUNING",
    "Implementation", "Decision", "autodetect", "implementation", "implementations", "lanes", "select", "using",
    "cpu_features", "cpu_tuning", "cpu_model", "cpu_models", "implementation_for", "decide_x86", "build_type",
    "binding",
]

# Implementation mask bits, as Bitcoin Core's sha256_implementation (LIBSHA_USE_* in libsha.h).
USE_STANDARD = 0
USE_SSE4 = 1
USE_AVX2 = 2
USE_SHANI = 4
USE_AVX512 = 8  # libsha's own: Bitcoin Core has no AVX-512 kernels
USE_ALL = USE_SSE4 | USE_AVX2 | USE_SHANI | USE_AVX512


_tables: dict[str, dict[str, int]] = {}

if TYPE_CHECKING:
    CPU_FEATURES: dict[str, int]  # name -> LIBSHA_CPU_* bit, e.g. {"sse4.1": 1, ...}
    CPU_TUNING: dict[str, int]  # name -> LIBSHA_TUNE_* bit of the CPU model table's advice, e.g. {"wide-lanes": 1}


def _read_table(function: str) -> dict[str, int]:
    """name -> bit of every entry an enumerator of the library gives (libsha_cpu_feature_at, ...), read once."""
    table = _tables.get(function)
    if table is None:
        at = getattr(_native.loaded(), function)
        bit = ctypes.c_uint()
        table = {}
        index = 0
        while (name := at(index, ctypes.byref(bit))) is not None:
            table[name.decode()] = bit.value
            index += 1
        _tables[function] = table  # published whole: a reader in another thread never sees part of it
    return table


def _feature_table() -> dict[str, int]:
    return _read_table("libsha_cpu_feature_at")


def _tuning_table() -> dict[str, int]:
    return _read_table("libsha_cpu_tuning_at")


def __getattr__(name: str) -> object:
    # The tables come from the library, loaded on first use, not at import.
    if name == "CPU_FEATURES":
        return _feature_table()
    if name == "CPU_TUNING":
        return _tuning_table()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)  # the imports and helpers are not the module's API


def _names(bits: int, table: dict[str, int]) -> list[str]:
    return [name for name, bit in table.items() if bits & bit]


def _bits(names: Iterable[str], table: dict[str, int], argument: str, noun: str) -> int:
    if isinstance(names, (str, bytes)):
        raise TypeError(f"{argument} must be a list of names such as {list(table)[:2]}, not one {type(names).__name__}")
    bits = 0
    for name in names:
        if name not in table:
            raise ValueError(f"unknown {noun} {name!r}; libsha knows {', '.join(table) or 'none'}")
        bits |= table[name]
    return bits


class Implementation(tuple):  # type: ignore[type-arg]
    """(name, runnable): an implementation compiled in, and whether this CPU runs it; its needs as
    attributes (features, tuning, use) and whether the automatic choice may take it here."""

    __slots__ = ()

    def __new__(cls, name: str, runnable: bool) -> Implementation:
        return tuple.__new__(cls, (name, runnable))

    @property
    def name(self) -> str:
        return self[0]  # type: ignore[no-any-return]

    @property
    def runnable(self) -> bool:
        return self[1]  # type: ignore[no-any-return]

    @property
    def features(self) -> list[str]:
        """The CPU features it runs on (cpu_features() must have every one)."""
        return _names(_needs()[self.name][1], _feature_table())

    @property
    def tuning(self) -> list[str]:
        """The CPU model table's advice the automatic choice needs before it takes this row (select()
        takes it without)."""
        return _names(_needs()[self.name][2], _tuning_table())

    @property
    def use(self) -> int:
        """The USE_* bits an autodetect() mask (and LIBSHA_IMPL) must allow for this row."""
        return _needs()[self.name][0]

    @property
    def automatic(self) -> bool:
        """Whether the automatic choice may take it on this CPU: runnable, and the model table
        gives the advice it needs."""
        return self.runnable and set(self.tuning) <= set(cpu_tuning())

    def __repr__(self) -> str:
        return f"Implementation(name={self.name!r}, runnable={self.runnable!r})"


_needs_by_name: dict[str, tuple[int, int, int]] | None = None


def _needs() -> dict[str, tuple[int, int, int]]:
    """name -> (USE_* bits, LIBSHA_CPU_* features, LIBSHA_TUNE_* advice) of every row, read once."""
    global _needs_by_name
    if _needs_by_name is None:
        lib = _native.loaded()
        use, features, tuning = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
        table = {}
        index = 0
        while (name := lib.libsha_implementation_needs(index, ctypes.byref(use), ctypes.byref(features),
                                                        ctypes.byref(tuning))) is not None:
            table[name.decode()] = (use.value, features.value, tuning.value)
            index += 1
        _needs_by_name = table
    return _needs_by_name


def autodetect(use: int = USE_ALL) -> str:
    """Installs the fastest implementation that `use` (USE_* bits) allows; returns its name.
    Raises ConfigurationError while LIBSHA_IMPL is invalid: it restricts every automatic choice."""
    use = _use_bits(use)
    problem = _native.configuration_problem()
    if problem is not None:
        raise ConfigurationError(f"{problem}: autodetect() cannot choose until it is fixed or unset "
                                 f"(select() picks an implementation by name)")
    name: bytes = _native.loaded().libsha_autodetect(use)
    _native.allow_hashing()
    return name.decode()


def implementation() -> str:
    """The active implementation's name, as Bitcoin Core prints it. Raises ConfigurationError while an
    invalid LIBSHA_IMPL stands and none was selected by name: there is none to name."""
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
    code = _native.loaded().libsha_select(name.encode())
    if code == _errors.OK:
        _native.allow_hashing()  # a choice by name needs no automatic one, whatever LIBSHA_IMPL says
        return
    if code == _errors.ERR_UNKNOWN_IMPL:
        known = ", ".join(repr(i.name) for i in implementations())
        raise ValueError(f"unknown implementation {name!r}; this build has {known}")
    if code == _errors.ERR_NOT_RUNNABLE:
        raise ValueError(f"implementation {name!r} needs CPU features this machine lacks (it has: "
                         f"{', '.join(cpu_features()) or 'none that libsha uses'})")
    _check(code, f"select({name!r})")


class using:
    """with libsha.using(name): ... runs with that implementation, then restores the previous one."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._previous: list[str | None] = []  # a stack, so one object may be entered again

    def __enter__(self) -> str:
        # None: no implementation yet, an invalid LIBSHA_IMPL refusing the automatic choice.
        previous = implementation() if _native.hashing_allowed() else None
        select(self._name)
        self._previous.append(previous)
        return self._name

    def __exit__(self, *exc: object) -> None:
        previous = self._previous.pop()
        if previous is None:
            _native.refuse_hashing_again()
        else:
            select(previous)


def cpu_features() -> list[str]:
    """The CPU features libsha detected and uses, e.g. ['sse4.1', 'avx', 'avx2', 'sha']."""
    return _names(_native.loaded().libsha_cpu_features(), _feature_table())


def cpu_tuning() -> list[str]:
    """The CPU model table's advice for this CPU, e.g. ['wide-lanes'] ([] where no entry names it)."""
    return _names(_native.loaded().libsha_cpu_tuning(), _tuning_table())


def cpu_model() -> str | None:
    """The name of the CPU model table's entry for this CPU, e.g. 'Intel family 6'; None where no
    entry names it (and on every CPU but x86's)."""
    name: bytes | None = _native.loaded().libsha_cpu_model()
    return None if name is None else name.decode()


def cpu_models() -> list[tuple[str, list[str]]]:
    """The CPU model table, first match first: (entry name, its advice) of every entry."""
    lib = _native.loaded()
    tuning = ctypes.c_uint()
    entries = []
    index = 0
    while (name := lib.libsha_cpu_model_at(index, ctypes.byref(tuning))) is not None:
        entries.append((name.decode(), _names(tuning.value, _tuning_table())))
        index += 1
    return entries


def _use_bits(use: int) -> int:
    use = operator.index(use)
    if use & ~USE_ALL or use < 0:
        raise ValueError(f"use must combine the USE_* bits (0..{USE_ALL}), not {use}")
    return use


def implementation_for(features: Iterable[str], tuning: Iterable[str] = (), use: int = USE_ALL) -> str:
    """The implementation the automatic choice takes on a CPU with these features and model-table
    advice (names as cpu_features() and cpu_tuning() give them), where `use` allows it: the first
    one compiled in that `use` allows and whose needs the CPU meets (LIBSHA_IMPL and the self-test
    aside). With cpu_features() and cpu_tuning() it is what autodetect(use) installs here."""
    use = _use_bits(use)
    feature_bits = _bits(features, _feature_table(), "features", "feature")
    tuning_bits = _bits(tuning, _tuning_table(), "tuning", "tuning advice")
    name: bytes = _native.loaded().libsha_implementation_for(use, feature_bits, tuning_bits)
    return name.decode()


class Decision(tuple):  # type: ignore[type-arg]
    """(features, tuning, model, implementation): what libsha decides on a CPU. The features it uses,
    the model table's advice and entry (None: no entry names the CPU), and the implementation the
    automatic choice takes there (USE_ALL; LIBSHA_IMPL and the self-test aside)."""

    __slots__ = ()

    def __new__(cls, features: list[str], tuning: list[str], model: str | None, implementation: str) -> Decision:
        return tuple.__new__(cls, (features, tuning, model, implementation))

    @property
    def features(self) -> list[str]:
        return self[0]  # type: ignore[no-any-return]

    @property
    def tuning(self) -> list[str]:
        return self[1]  # type: ignore[no-any-return]

    @property
    def model(self) -> str | None:
        return self[2]  # type: ignore[no-any-return]

    @property
    def implementation(self) -> str:
        return self[3]  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return (f"Decision(features={self.features!r}, tuning={self.tuning!r}, model={self.model!r}, "
                f"implementation={self.implementation!r})")


def _register(value: object, what: str, limit: int) -> int:
    value = operator.index(value)  # type: ignore[arg-type]
    if not 0 <= value < limit:
        raise ValueError(f"{what} must be in 0..{limit - 1:#x}, not {value:#x}")
    return value


def _registers(values: Sequence[int], what: str) -> list[int]:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{what} must be its four registers (EAX, EBX, ECX, EDX) as integers, not a "
                        f"{type(values).__name__}")
    if len(values) != 4:
        raise ValueError(f"{what} must be its four registers (EAX, EBX, ECX, EDX), not {len(values)} values")
    return [_register(v, f"{what}[{i}]", 1 << 32) for i, v in enumerate(values)]


def decide_x86(vendor: str, leaf1: Sequence[int], leaf7: Sequence[int] = (0, 0, 0, 0), xcr0: int = 0,
               max_leaf: int = 7) -> Decision:
    """What libsha decides on an x86 CPU that gives these readings, without reading this one (on any
    machine): vendor is CPUID leaf 0's 12 characters ("GenuineIntel", "AuthenticAMD"), leaf1 and leaf7
    the four registers of leaves 1 and 7 (subleaf 0), xcr0 what XGETBV(0) reads, max_leaf leaf 0's EAX.
    Detection runs the same decision on this CPU's own readings."""
    if not isinstance(vendor, str):
        raise TypeError(f"vendor must be a str, such as 'GenuineIntel', not {type(vendor).__name__}")
    if len(vendor) != 12 or not vendor.isascii():
        raise ValueError(f"vendor must be CPUID's 12 ASCII characters, such as 'GenuineIntel', not {vendor!r}")
    id_ = X86Cpuid()
    id_.max_leaf = _register(max_leaf, "max_leaf", 1 << 32)
    id_.vendor = vendor.encode()
    id_.leaf1[:] = _registers(leaf1, "leaf1")
    id_.leaf7[:] = _registers(leaf7, "leaf7")
    id_.xcr0 = _register(xcr0, "xcr0", 1 << 64)
    features, tuning, model = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_char_p()
    _check(_native.loaded().libsha_x86_decide(ctypes.byref(id_), ctypes.byref(features), ctypes.byref(tuning),
                                          ctypes.byref(model)), "decide_x86")
    feature_names, tuning_names = _names(features.value, _feature_table()), _names(tuning.value, _tuning_table())
    return Decision(feature_names, tuning_names, None if model.value is None else model.value.decode(),
                    implementation_for(feature_names, tuning_names))


def _each_implementation() -> Iterator[Implementation]:
    lib = _native.loaded()
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


def binding(build: bool = False) -> str:
    """The path the Python calls take: 'accelerated' (the C methods of libsha._accel, CPython 3.11+
    where the wheel built them) or 'ctypes' (everywhere else, and with LIBSHA_BINDING=ctypes).

    With build=True, which build of the accelerator runs, as its wheel's ABI tag says it:
    'accelerated (abi3)' for CPython with the GIL, 'accelerated (cp313t)' or 'accelerated (cp314t)'
    on free-threaded CPython; 'ctypes' stays 'ctypes'."""
    return _binding.binding(build)


def build_type() -> str:
    """The native library's build configuration, e.g. 'Release'."""
    kind: bytes = _native.loaded().libsha_build_type()
    return kind.decode()
