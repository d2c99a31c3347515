"""The rows of the model's table: for each model and kernel, the cycles per 64-byte block per lane,
the bound, and the stack operands per block; built once for the tool and for shabench."""

import re
from dataclasses import dataclass

from . import builds, mca, regions

_STACK = {"x86": re.compile(r"\(%rsp[,)]"), "arm": re.compile(r"\[sp[,\]]")}


@dataclass
class Row:
    model: str
    kernel: str
    cycles: float  # per 64-byte block per lane (nan: the model failed on it)
    bound: float
    stack: float  # stack operands per block (every lane's)
    note: str = ""


def stack_operands(instructions, arch):
    pattern = _STACK[arch]
    return sum(1 for ins in instructions if pattern.search(ins.operands))


def collect(models, where, compilers=("gcc", "clang"), peers=("isa-l", "hashtree"), only=None, notes=None):
    """Every kernel's (and peer's) block loops for the models' targets, built under `where`: ({target: [(prefix,
    Region)]}, notes), a prefix naming a compiler other than gcc ("clang:"), the notes saying what is left out."""
    notes = notes if notes is not None else []
    targets = sorted({mca.arch_of(m) for m in models})
    found = {}
    for target in targets:
        for compiler in builds.TARGETS[target][1]:
            if compiler not in compilers:
                continue
            try:
                functions = builds.kernels(target, compiler, where)
            except builds.Unavailable as why:
                notes.append(f"{target} {compiler}: {why}")
                continue
            prefix = "" if compiler == "gcc" else f"{compiler}:"
            unread = []
            for name, function in functions.items():
                if only and not re.search(only, name):
                    continue
                found_here = regions.block_regions(function)
                if not found_here and name.startswith("libsha_") and not name.endswith("_finalize"):
                    unread.append(name)
                for region in found_here:
                    found.setdefault(target, []).append((prefix, region))
            if unread:  # every kernel is modelled or named here
                notes.append(f"{target} {compiler}: no whole block loop read (nested loops of different trip counts, "
                             f"or rounds in a helper): {', '.join(sorted(unread))}")
    if "x86" in targets:
        for peer in peers:
            try:
                functions = builds.peer_kernels(peer)
            except builds.Unavailable as why:
                notes.append(f"{peer}: {why}")
                continue
            for name, function in functions.items():
                if only and not re.search(only, name):
                    continue
                for region in regions.block_regions(function):
                    found.setdefault("x86", []).append(("", region))
    return found, notes


def rows(models, found):
    out = []
    for model in models:
        arch = mca.arch_of(model)
        for prefix, region in found.get(arch, []):
            lane_blocks = region.blocks * region.lanes
            stack = stack_operands(region.instructions, arch) / region.blocks
            try:
                trip, bound = mca.cycles(region.instructions, model, region.lanes)
                out.append(Row(model, prefix + region.name, trip / lane_blocks, bound / lane_blocks, stack))
            except mca.NotOnThisCPU:
                continue
            except RuntimeError as why:
                out.append(Row(model, prefix + region.name, float("nan"), float("nan"), stack,
                               f"llvm-mca failed: {str(why)[:80]}"))
    return out
