"""The figure measured on the running CPU beside the modelled ones: a kernel's cycles per 64-byte
block per lane, timed through the library on the batch that runs it, over the core clock
(libsha_internal_bench_clock: eight dependent adds an iteration, one a cycle).

Which kernel a batch runs is read from the row's name, the rule the kernels are named by: a row's
widest `<N>way` of an instruction set runs its messages on `libsha_<isa>_many_<N>way` (where the
build has no kernel of that width, the next narrower one: SHA-NI's messages use two lanes in the
four-lane row), so 1,000 messages of 16 KiB (256 blocks each) time that kernel's block loop.
"""

import ctypes
import re
import time
from array import array

import libsha

from .. import internal

MESSAGES, MESSAGE_BYTES = 1000, 16384
_PART = re.compile(r"([a-z0-9_]+)\(([^)]*)\)")


def clock_hz(seconds=0.2):
    lib = internal.lib()
    n = 1 << 20
    while True:
        start = time.perf_counter()
        if lib.libsha_internal_bench_clock(n) != 0:
            return None
        took = time.perf_counter() - start
        if took >= seconds:
            return 8 * n / took
        n *= 2


def many_kernel(row, kernels):
    """The kernel a row's long-message batch runs (of the names in kernels), or None."""
    best = None
    for isa, widths in _PART.findall(row):
        for width in sorted((int(w[:-3]) for w in widths.split(",") if w.endswith("way")), reverse=True):
            name = f"libsha_{isa}_many_{width}way"
            if name in kernels and (best is None or width > best[1]):
                best = (name, width)
                break
    return best[0] if best else None


def ns_per_byte(row, seconds=0.3):
    """The row's batch of MESSAGES x MESSAGE_BYTES, best of a few runs, in ns a byte."""
    lib = internal.lib()
    data = bytearray((i * 7 + i // 251) & 0xFF for i in range(MESSAGES * MESSAGE_BYTES))
    offsets = array("q", range(0, (MESSAGES + 1) * MESSAGE_BYTES, MESSAGE_BYTES))
    out = bytearray(32 * MESSAGES)
    data_p = (ctypes.c_char * len(data)).from_buffer(data)
    out_p = (ctypes.c_char * len(out)).from_buffer(out)
    best, spent = float("inf"), 0.0
    while spent < seconds or best == float("inf"):
        start = time.perf_counter()
        code = lib.libsha_internal_bench_many(row.encode(), out_p, data_p, offsets.buffer_info()[0], MESSAGES, 0,
                                              internal.FROM_NOTHING, None, 0, 1)
        took = time.perf_counter() - start
        if code != 0:
            raise RuntimeError(f"libsha_internal_bench_many({row!r}) failed with {code}")
        best, spent = min(best, took), spent + took
    return best * 1e9 / (MESSAGES * MESSAGE_BYTES)


def measured(kernels):
    """{kernel: (row, cycles per block per lane)} for every runnable row whose batch runs a kernel of kernels."""
    hz = clock_hz()
    if hz is None:
        return {}, None
    found = {}
    for impl in libsha.dispatch.implementations():
        if not impl.runnable:
            continue
        kernel = many_kernel(impl.name, kernels)
        if kernel and kernel not in found:
            found[kernel] = (impl.name, ns_per_byte(impl.name) * 64 * hz / 1e9)
    return found, hz
