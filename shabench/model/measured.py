"""The figure measured on the running CPU beside the modelled ones: a kernel's cycles per 64-byte
block per lane, timed through the library on the batch that runs it (shabench's own loop and timing),
over the core clock
(libsha_internal_bench_clock: eight dependent adds an iteration, one a cycle).

Which kernel a batch runs is read from the row's name, the rule the kernels are named by: a row's
widest `<N>way` of an instruction set runs its messages on `libsha_<isa>_many_<N>way` (where the
build has no kernel of that width, the next narrower one: SHA-NI's messages use two lanes in the
four-lane row), so 1,000 messages of 16 KiB (256 blocks each) time that kernel's block loop.
"""

import re
import time

import libsha

from .. import internal
from ..batches import Batch
from ..many import native_many
from ..measure import measure

# The batch whose time gives a kernel's figure: the many group's SHA256_MANY_1000x16KiB, under a name of
# its own (shabench's model group times it as a row of that name).
KERNEL_BATCH = Batch("KERNEL_1000x16KiB", 1000, 16384)
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


def cycles_per_block(ns_per_byte, hz):
    """A batch's ns a byte as cycles per 64-byte block per lane (every lane's blocks count)."""
    return ns_per_byte * 64 * hz / 1e9


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


def measured(kernels):
    """{kernel: (row, cycles per block per lane)} for every runnable row whose batch runs a kernel of kernels."""
    hz = clock_hz()
    if hz is None:
        return {}, None
    found = {}
    for impl in libsha.dispatch.implementations():
        kernel = many_kernel(impl.name, kernels) if impl.runnable else None
        if kernel and kernel not in found:
            run = native_many(impl.name, KERNEL_BATCH)()
            timing = measure(run, KERNEL_BATCH.count * KERNEL_BATCH.length, epochs=5, min_epoch_ns=50e6)
            # the clock beside each row, before and after: a VM's core clock moves with the host's load
            row_hz = (hz + clock_hz(0.1)) / 2
            found[kernel] = (impl.name, cycles_per_block(timing.median, row_hz))
            hz = clock_hz(0.1)
    return found, hz
