"""llvm-mca's cycle models: a region's cycles a trip, and the bound its essential instructions set.

llvm-mca (Debian llvm-19) simulates a CPU's scheduling model over a loop body run again and again:
its "Total Cycles" over its iterations is the region's cycles a trip in steady state; its "Block
RThroughput" is the bound from the execution ports alone, dependencies aside. A model is only as
right as its tables: compare two kernels under one model, never a model with a clock.
"""

import re
import shutil
import subprocess

MCA_NAMES = ("llvm-mca-19",)  # an older one lacks znver4's model and would fall back to a generic one, silently
ITERATIONS = 30
# The families a kernel runs on, by llvm-mca's -mcpu name: x86-64 ones and ARM's (neoverse-*).
X86_MODELS = ("znver3", "znver4", "sapphirerapids", "skylake-avx512", "icelake-server")
ARM_MODELS = ("neoverse-n1", "neoverse-v1", "neoverse-v2")
_SHA = {"sha256rnds2", "sha256msg1", "sha256msg2", "sha256h", "sha256h2", "sha256su0", "sha256su1"}
# The vector arithmetic of SHA-256's rounds and schedule: what is left when moves, loads, stores and
# spills are taken away.
_VECTOR_ARITHMETIC = re.compile(r"^v?p(add|xor|and|andn|or|ternlog|ro[lr]|sr[la]|sll)[dq]?$|^v?p(xor|and|andn|or)$")
_MEMORY = re.compile(r"-?(0x[0-9a-f]+|\d+)?\((%[a-z0-9]+)?(,\s*%[a-z0-9]+)?(,\s*\d+)?\)(\{1to\d+\})?")


def tool():
    return next((path for path in map(shutil.which, MCA_NAMES) if path), None)


def host_model():
    """llvm-mca's name for the CPU this runs on (what -mcpu=native takes), or None."""
    if tool() is None:
        return None
    text = subprocess.run([tool(), "--version"], capture_output=True, text=True).stdout
    match = re.search(r"Host CPU:\s*(\S+)", text)
    return match.group(1) if match else None


def arch_of(model):
    return "arm" if model in ARM_MODELS or model.startswith(("neoverse", "cortex", "apple")) else "x86"


class NotOnThisCPU(Exception):
    """The model's CPU lacks an instruction of the region (AVX-512 on Zen 3): no figure to give."""


def _run(lines, model, iterations=ITERATIONS):
    mca = tool()
    if mca is None:
        raise FileNotFoundError("llvm-mca (Debian llvm-19) is not installed")
    args = [mca, f"-mcpu={model}", f"-iterations={iterations}", "-summary-view", "-instruction-info=false",
            "-resource-pressure=false"]
    if arch_of(model) == "arm":
        args[1:1] = ["-mtriple=aarch64", "-mattr=+sha2,+neon"]
    else:
        args[1:1] = ["-mtriple=x86_64"]
    result = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True)
    if result.returncode != 0 and "unsupported instruction" in result.stderr:
        raise NotOnThisCPU(model)
    if result.returncode != 0:
        raise RuntimeError(f"llvm-mca -mcpu={model}: {result.stderr.strip().splitlines()[:3]}")
    cycles = re.search(r"Total Cycles:\s+(\d+)", result.stdout)
    bound = re.search(r"Block RThroughput:\s+([\d.]+)", result.stdout)
    return int(cycles.group(1)) / iterations, float(bound.group(1))


def assembly(instructions):
    """The region as assembly llvm-mca reads: branches, calls and nops left out (a trip runs straight)."""
    from .disasm import is_branch, is_call, is_return
    return [ins.text() for ins in instructions
            if not (is_branch(ins) or is_call(ins) or is_return(ins) or ins.mnemonic.startswith("nop"))]


def essential(instructions, lanes):
    """The instructions a region cannot do without: its SHA instructions where it has them, else (lanes in
    vectors) its vector arithmetic, each memory operand taken as a register (the bound counts work, not
    where it is kept); a one-stream kernel of scalar rounds has no such bound here (empty)."""
    sha = [ins for ins in instructions if ins.mnemonic in _SHA]
    if sha:
        return [ins.text() for ins in sha]
    if lanes == 1:
        return []
    lines = []
    for ins in instructions:
        if _VECTOR_ARITHMETIC.match(ins.mnemonic):
            text = ins.text()
            reg = re.search(r"%([xyz])mm\d+", text)
            lines.append(_MEMORY.sub(f"%{reg.group(1)}mm31" if reg and reg.group(1) == "z" else
                                     f"%{reg.group(1) if reg else 'x'}mm15", text))
    return lines


def cycles(instructions, model, lanes):
    """(cycles a trip, the bound of its essential instructions) under the model."""
    trip, _ = _run(assembly(instructions), model)
    need = essential(instructions, lanes)
    bound = _run(need, model, iterations=2)[1] if need else float("nan")
    return trip, bound
