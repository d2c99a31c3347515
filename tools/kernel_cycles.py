#!/usr/bin/env python3
"""Cycles per 64-byte block per lane of every kernel, under each CPU family's llvm-mca model.

    tools/kernel_cycles.py [--cpu NAME]... [--compiler gcc|clang]... [--kernel REGEX]
                           [--format text|tsv] [--no-peers] [--measure] [--build-dir DIR]

Builds libsha's kernels as the library builds them (gcc and clang; aarch64 by Debian's cross gcc),
finds each kernel's block loop in its machine code, and prints for each model the cycles a block
per lane, the bound its essential instructions set under that model (SHA instructions, or the
lanes' vector arithmetic), and the stack operands per block (spills and the memory a loop keeps its
words in). The peers' kernels (isa-l_crypto, hashtree) come from $SHABENCH_ISAL_CRYPTO and
$SHABENCH_HASHTREE (tools/build_isal_crypto.sh, tools/build_hashtree.sh), named isa-l:... and
hashtree:.... With --measure, each row's long-message kernel is also timed on this CPU, in cycles of
its core clock, beside the model llvm-mca takes for this CPU (-mcpu=native).

--format tsv prints one line a kernel and model:
    model<TAB>kernel<TAB>cycles per block per lane<TAB>the model's bound<TAB>stack operands per block
Needs Debian's llvm-19 (llvm-mca-19, llvm-objdump-19); exits 2 without it.
"""

import argparse
import math
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
try:
    import shabench.model  # noqa: F401 (shabench as installed with libsha, which --measure loads)
except ImportError:
    sys.path.insert(0, str(CHECKOUT))  # this checkout's, where libsha is not installed (no --measure then)

from shabench.model import builds, disasm, mca, table  # noqa: E402

builds.CHECKOUT = CHECKOUT  # the kernels built are this checkout's, whichever shabench reads them
DEFAULT_BUILD_DIR = CHECKOUT / "build" / "kernel-cycles"


def _fmt(x, digits=1):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", action="append", metavar="NAME",
                        help=f"an llvm-mca model (repeatable; default: {', '.join(mca.X86_MODELS + mca.ARM_MODELS)})")
    parser.add_argument("--compiler", action="append", choices=("gcc", "clang"), help="default: both")
    parser.add_argument("--kernel", metavar="REGEX", help="only kernels whose name matches")
    parser.add_argument("--format", choices=("text", "tsv"), default="text")
    parser.add_argument("--no-peers", action="store_true", help="leave isa-l_crypto's and hashtree's kernels out")
    parser.add_argument("--measure", action="store_true", help="time each row's long-message kernel on this CPU too")
    parser.add_argument("--build-dir", default=str(DEFAULT_BUILD_DIR))
    args = parser.parse_args(argv)

    if mca.tool() is None or disasm.objdump() is None:
        print("kernel_cycles: needs llvm-mca and llvm-objdump (Debian: apt-get install llvm-19)", file=sys.stderr)
        return 2
    models = args.cpu or list(mca.X86_MODELS + mca.ARM_MODELS)
    found, notes = table.collect(models, args.build_dir, compilers=tuple(args.compiler or ("gcc", "clang")),
                                 peers=() if args.no_peers else ("isa-l", "hashtree"), only=args.kernel)
    rows = table.rows(models, found)
    if args.format == "tsv":
        for row in rows:
            print(f"{row.model}\t{row.kernel}\t{_fmt(row.cycles, 2)}\t{_fmt(row.bound, 2)}\t{_fmt(row.stack, 1)}")
    else:
        for model in models:
            print(f"# {model}: cycles per 64-byte block per lane (bound: the model's for its SHA instructions or "
                  f"vector arithmetic), stack operands per block")
            print(f"{'kernel':58} {'cycles':>8} {'bound':>8} {'÷bound':>7} {'stack':>7}")
            for row in (r for r in rows if r.model == model):
                ratio = row.cycles / row.bound if row.bound and not math.isnan(row.bound) else float("nan")
                print(f"{row.kernel:58} {_fmt(row.cycles):>8} {_fmt(row.bound):>8} {_fmt(ratio, 2):>7} "
                      f"{_fmt(row.stack, 0):>7} {row.note}")
            print()
    if args.measure:
        _print_measured(rows, found, args.format, args.build_dir)
    for note in notes:
        print(f"kernel_cycles: left out: {note}", file=sys.stderr)
    return 0


def _print_measured(rows, found, fmt, build_dir):
    try:
        from shabench.model import measured
    except ImportError as why:
        print(f"kernel_cycles: --measure needs libsha installed (pip install .): {why}", file=sys.stderr)
        return
    host = mca.host_model()
    shown = {prefix + region.name for prefix, region in found.get("x86", []) if not prefix}
    try:  # which kernel a row runs is chosen among all the build has, then shown if --kernel took it
        every = set(builds.kernels("x86", "gcc", build_dir))
    except builds.Unavailable as why:
        print(f"kernel_cycles: --measure needs the gcc build: {why}", file=sys.stderr)
        return
    figures, hz = measured.measured(every)
    figures = {kernel: figure for kernel, figure in figures.items() if kernel in shown}
    if hz is None:
        print("kernel_cycles: no core clock on this CPU (libsha_internal_bench_clock)", file=sys.stderr)
        return
    modelled = {row.kernel: row.cycles for row in rows if row.model == host}
    if fmt == "tsv":
        for kernel, (row, cycles) in figures.items():
            print(f"measured:{host}\t{kernel}\t{cycles:.2f}\t-\t-")
        return
    print(f"# measured on this CPU (llvm-mca calls it {host}; core clock {hz / 1e9:.2f} GHz): each row's batch of "
          f"{measured.KERNEL_BATCH.count:,} x {measured.KERNEL_BATCH.length // 1024} KiB")
    print(f"{'kernel':40} {'row':44} {'measured':>9} {'model':>7} {'model ÷ measured':>17}")
    for kernel, (row, cycles) in figures.items():
        model = modelled.get(kernel)
        print(f"{kernel:40} {row:44} {cycles:9.1f} {_fmt(model):>7} "
              f"{_fmt(model / cycles if model else None, 2):>17}")


if __name__ == "__main__":
    sys.exit(main())
