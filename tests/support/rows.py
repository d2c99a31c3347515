"""The library's rows, found by the kernels they hold, never by a name typed in a test.

A row's name lists its kernels as Bitcoin Core prints them, `isa(1way,2way),isa(8way)`, so the set
of instruction sets it names tells the rows apart: `having("x86_shani", "avx512")` is the row whose
kernels are SHA-NI's and AVX-512's, whatever its name says beyond that. The names come from the
library's C (libsha/src/dispatch/registry.c, every row of every architecture, with the kernel families its
#if needs) where the source is here, else from the loaded library.
"""

from __future__ import annotations

import re
from support.paths import ROOT

REGISTRY = ROOT / "libsha" / "src" / "dispatch" / "registry.c"


def isas(name: str) -> frozenset[str]:
    """The instruction sets a row's name lists: 'standard' for the portable row."""
    return frozenset(re.findall(r"(\w+)\(", name)) or frozenset([name])


def kernels(name: str) -> frozenset[tuple[str, int]]:
    """(instruction set, lanes) of every kernel a row's name lists: ('standard', 1) alone for standard."""
    found = {(isa, int(w)) for isa, widths in re.findall(r"(\w+)\(([^)]*)\)", name)
             for w in re.findall(r"(\d+)way", widths)}
    return frozenset(found or {(name, 1)})


def registry_rows() -> list[tuple[str, frozenset[str]]]:
    """(name, the LIBSHA_HAVE_* families its #if needs) of each row in registry.c, best first; the
    tests-only rows (LIBSHA_TEST_*) have their macro among the families."""
    if not REGISTRY.exists():
        import libsha

        return [(impl.name, frozenset()) for impl in libsha.dispatch.implementations()]
    rows, needs = [], frozenset()
    table = REGISTRY.read_text().split("libsha_registry[] = {", 1)[1]
    for line in table.splitlines():
        if line.startswith("#if"):
            needs = frozenset(m.removeprefix("HAVE_") for m in re.findall(r"defined\(LIBSHA_(\w+)\)", line))
        elif line.startswith("#endif"):
            needs = frozenset()
        elif (name := re.search(r'\.name = "([^"]+)"', line)) is not None:
            rows.append((name.group(1), needs))
    return rows


def old_names() -> list[tuple[str, str]]:
    """(a row's name, the old name that still selects it) of every row in registry.c that has one."""
    if not REGISTRY.exists():
        return []
    table = REGISTRY.read_text().split("libsha_registry[] = {", 1)[1]
    return re.findall(r'\.name = "([^"]+)",\s*\.old_name = "([^"]+)"', table)


def names() -> list[str]:
    """Every row's name, best first (tests-only rows included)."""
    return [name for name, _ in registry_rows()]


def having(*wanted: str, widest: int | None = None, shani_lanes: int | None = None) -> str:
    """The name of the row whose kernels are of exactly these instruction sets (and, where two rows
    have the same ones, whose widest kernel has that many lanes, or whose widest x86 SHA-NI one)."""
    found = [n for n in names() if isas(n) == frozenset(wanted)
             and (widest is None or max(lanes for _, lanes in kernels(n)) == widest)
             and (shani_lanes is None or max(l for isa, l in kernels(n) if isa == "x86_shani") == shani_lanes)]
    assert len(found) == 1, f"registry.c has {len(found)} rows of exactly {wanted} (widest {widest}): {names()}"
    return found[0]


# The rows the tests speak of, read once: a change of a row's name changes nothing here.
SHANI_AVX512 = having("x86_shani", "avx512", shani_lanes=2)  # chosen only where the CPU model table says so
SHANI = having("x86_shani", widest=2)
# Four SHA-NI lanes and AVX-512's, the batch split by the CPU model table's wide window; chosen only
# where the table says so.
SHANI_4WAY = having("x86_shani", "avx512", shani_lanes=4)
AVX512 = having("avx2", "avx512")
AVX2_1WAY = having("avx2", "sse41")  # AVX2 + BMI2: the two-block single stream
AVX2 = having("sse4", "sse41", "avx2")
SSE4 = having("sse4", "sse41")
ARM = having("arm_shani")
PORTABLE = having("standard", "portable")  # tests only: -DLIBSHA_TEST_PORTABLE_LANES
STANDARD = "standard"


def widest_lanes() -> int:
    """The most lanes of any kernel any row lists (tests-only rows included)."""
    return max(lanes for name in names() for _, lanes in kernels(name))


def one_way(name: str) -> str:
    """The instruction set of a row's one-stream kernel (its 1way)."""
    return next(isa for isa, lanes in kernels(name) if lanes == 1)


def lane_kernels(name: str) -> frozenset[tuple[str, int]]:
    """A row's kernels of two lanes or more: what its many-message, D64 and Merkle paths run."""
    return frozenset(k for k in kernels(name) if k[1] > 1)


def first_per(names: list[str], key) -> list[str]:
    """The first of `names` (best first) for each value of key(name): one row per kernel set,
    as tests/c/test_libsha.c sweeps them."""
    seen, rows = set(), []
    for name in names:
        if key(name) not in seen:
            seen.add(key(name))
            rows.append(name)
    return rows
