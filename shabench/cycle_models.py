"""The model group: each implementation's long-message kernel measured on this CPU, in cycles per 64-byte
block per lane (its KERNEL_1000x16KiB row, the many group's SHA256_MANY_1000x16KiB batch, its median over
the core clock), beside llvm-mca's figure for the same kernel under this CPU's family model and under each
family --model-cpu names.

The modelled figures need what tools/kernel_cycles.py needs (shabench.model): libsha's source tree, as an
editable install has it, a C compiler and Debian's llvm-19. Without them the rows are still timed, and
the table says what is missing.
"""

import math
import platform

from .many import native_many
from .model.measured import KERNEL_BATCH
from .rows import Benchmark

BATCH = KERNEL_BATCH.name


def model_benchmarks(implementations):
    """The timed rows the table reads: each implementation's batch of long messages."""
    return [Benchmark(BATCH, impl, KERNEL_BATCH.count * KERNEL_BATCH.length, native_many(impl, KERNEL_BATCH))
            for impl in implementations]


def _target():
    return "arm" if platform.machine().lower() in ("aarch64", "arm64") else "x86"


def model_table(rows, cpus=()):
    """The text beneath the table: (implementation, kernel, measured, modelled...) for every timed row of BATCH."""
    from .model import builds, mca, measured, regions, table

    timed = {b.runner: m.median for b, m in rows if b.name == BATCH and not b.peer}
    if not timed:
        return ""
    lines = [f"Cycle models: cycles per 64-byte block per lane of each row's long-message kernel, {BATCH} "
             "measured over this CPU's core clock, beside llvm-mca's models (tools/kernel_cycles.py; docs/shabench.md)"]
    hz = measured.clock_hz()
    if hz is None:
        return "\n".join(lines + ["  left out: no core-clock chain for this CPU (libsha_internal_bench_clock)"])
    host = mca.host_model()
    if host is None:
        return "\n".join(lines + ["  left out: the models need Debian's llvm-19 (llvm-mca-19, llvm-objdump-19)"])
    try:
        kernels = builds.kernels(_target(), "gcc", builds.CHECKOUT / "build" / "kernel-cycles")
    except builds.Unavailable as why:
        return "\n".join(lines + [f"  left out: {why}"])
    models = [host] + [cpu for cpu in cpus if cpu != host]
    runs = {impl: measured.many_kernel(impl, kernels) for impl in timed}
    used = sorted({kernel for kernel in runs.values() if kernel})
    found = {_target(): [("", region) for kernel in used for region in regions.block_regions(kernels[kernel])[:1]]}
    modelled = {(row.model, row.kernel.split("#")[0]): row.cycles for row in table.rows(models, found)
                if not math.isnan(row.cycles)}
    lines.append(f"core clock {hz / 1e9:.2f} GHz; this CPU's model is {host}")
    head = ["implementation", "kernel", "measured"] + models + [f"{host} ÷ measured"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for impl, ns_per_byte in timed.items():
        kernel = runs[impl]
        if kernel is None:
            continue
        real = measured.cycles_per_block(ns_per_byte, hz)
        figures = [modelled.get((model, kernel)) for model in models]
        cells = [f"`{impl}`", f"`{kernel}`", f"{real:,.1f}"] + ["-" if f is None else f"{f:,.1f}" for f in figures]
        cells.append("-" if figures[0] is None else f"{figures[0] / real:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
