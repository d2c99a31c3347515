"""tools/kernel_cycles.py and shabench.model: a kernel's block loop read from its machine code (natural
loops, the rounds a stretch does per lane, nested passes written out), and the tool's table under
llvm-mca's models, with libsha's kernels built as the library builds them."""

import math
import os
import subprocess
import sys

import pytest

from shabench.model import disasm, mca, regions, rounds
from shabench.model.disasm import Instruction
from support.paths import ROOT

TOOL = ROOT / "tools" / "kernel_cycles.py"


def code(*lines):
    """Instructions at addresses 0, 4, 8, ...: "jne @K" branches to instruction K."""
    out = []
    for n, line in enumerate(lines):
        mnemonic, _, operands = line.partition(" ")
        if operands.startswith("@"):
            operands = f"0x{4 * int(operands[1:]):x} <f+0x{4 * int(operands[1:]):x}>"
        out.append(Instruction(4 * n, mnemonic, operands))
    return out


def function(name, instructions):
    return disasm.Function(name, "x86", instructions)


RNDS2 = "sha256rnds2 %xmm0, %xmm1, %xmm2"


def test_natural_loops_nest_and_skip_forward_jumps_back_into_shared_code():
    f = code("movl $1, %eax",            # 0
             "addl $1, %eax",            # 1  outer header
             "addl $2, %ebx",            # 2  inner header
             "jne @2",                   # 3  inner back edge
             "jmp @7",                   # 4  out of line ...
             "movl $3, %ecx",            # 5
             "ret",                      # 6
             "cmpl $9, %eax",            # 7
             "jne @1",                   # 8  outer back edge
             "jmp @5")                   # 9  ... and back to shared code: no loop
    loops = disasm.natural_loops(f)
    assert loops == [[1, 2, 3, 4, 7, 8], [2, 3]]
    # a one-block loop (a branch to its own block) is that block alone
    assert disasm.natural_loops(code("movl $1, %eax", "addl $1, %eax", "jne @1", "ret")) == [[1, 2]]


def test_a_block_nobody_reaches_does_not_hide_a_loop():
    f = code("addl $1, %eax", "jne @3", "jmp @0", "nop", "ret")  # 3 is padding after a jump
    assert disasm.natural_loops(f) == [[0, 1, 2]]


@pytest.mark.parametrize("name, lanes", [("libsha_avx512_many_16way", 16), ("libsha_x86_shani_many_2way", 2),
                                         ("libsha_x86_shani_transform", 1), ("isa-l:sha256_mb_x16_avx512", 16),
                                         ("hashtree:hashtree_sha256_shani_x2", 2), ("libsha_arm_shani_d64_2way", 2)])
def test_lanes_come_from_the_naming_rule(name, lanes):
    assert regions.lanes_of(name) == lanes


def test_rounds_of_each_family():
    assert rounds.lane_rounds(rounds.counts(code(*[RNDS2] * 32))) == 64
    assert rounds.lane_rounds(rounds.counts(code(*["sha256h q0, q1, v2.4s"] * 16))) == 64
    # 16 lanes of AVX-512: a round's six rotates; a schedule word's four and two shifts.
    round_ = ["vprord $0x2, %zmm0, %zmm1"] * 6
    schedule = ["vprord $0x7, %zmm3, %zmm4"] * 4 + ["vpsrld $0x3, %zmm3, %zmm5"] * 2
    assert rounds.lane_rounds(rounds.counts(code(*(round_ * 16 + schedule * 16)))) == 16 * 16
    # AVX2 lanes rotate with two shifts: a round six left and six right, a schedule word four and six.
    avx2 = (["vpslld $0x1e, %ymm0, %ymm1", "vpsrld $0x2, %ymm0, %ymm2"] * 6
            + ["vpslld $0x19, %ymm3, %ymm4"] * 4 + ["vpsrld $0x7, %ymm3, %ymm5"] * 6)
    assert rounds.lane_rounds(rounds.counts(code(*avx2))) == 8
    # A one-stream schedule in vectors counts nothing; its scalar rounds count one lane each.
    one = ["psrld $0x3, %xmm0"] * 6 + ["pslld $0xe, %xmm0"] * 2 + ["rorl $0x6, %eax"] * 6
    assert rounds.lane_rounds(rounds.counts(code(*one))) == 1
    assert rounds.lane_rounds(rounds.counts(code(*["vprord $0x2, %zmm0, %zmm1"] * 5))) is None


def test_a_block_loop_writes_its_schedule_passes_out_as_often_as_they_run():
    """16 rounds of its own and a nested pass of 16: the pass runs three times in a 64-round block."""
    body = [RNDS2] * 8  # 16 rounds of one lane
    lines = ["movl $0, %eax"] + body + ["addl $1, %ecx"] + body + ["cmpl $3, %ecx", "jne @%d" % 10, "addq $64, %rsi",
                                                                  "jne @1", "ret"]
    f = function("libsha_x86_shani_transform", code(*lines))
    [region] = regions.block_regions(f)
    assert (region.lanes, region.blocks, region.label) == (1, 1, "loop")
    assert sum(1 for ins in region.instructions if ins.mnemonic == "sha256rnds2") == 32


def test_straight_line_code_is_its_whole_function():
    f = function("libsha_x86_shani_d64_2way", code(*([RNDS2] * 192 + ["ret"])))
    [region] = regions.block_regions(f)
    assert (region.lanes, region.blocks, region.label) == (2, 3, "function")


def test_what_the_bound_counts():
    sha = code("movdqa 0x10(%rsp), %xmm0", RNDS2, "paddd %xmm1, %xmm2")
    assert mca.essential(sha, 2) == ["sha256rnds2\t%xmm0, %xmm1, %xmm2"]
    lanes = code("vpaddd 0x40(%rsp), %zmm1, %zmm2", "vmovdqa64 %zmm1, %zmm3", "vprord $0x2, %zmm1, %zmm4")
    assert mca.essential(lanes, 16) == ["vpaddd\t%zmm31, %zmm1, %zmm2", "vprord\t$0x2, %zmm1, %zmm4"]
    assert mca.essential(code("rorl $0x6, %eax"), 1) == []


needs_llvm = pytest.mark.skipif(mca.tool() is None or disasm.objdump() is None,
                                reason="needs Debian's llvm-19 (llvm-mca-19, llvm-objdump-19)")


@pytest.mark.build
@pytest.mark.tooling
@needs_llvm
def test_the_tool_models_libsha_kernels_built_as_the_library_builds_them():
    """In the build folder shabench's model group uses too (ROOT/build/kernel-cycles): built once for both."""
    env = dict(os.environ, SHABENCH_ISAL_CRYPTO="", SHABENCH_HASHTREE="")
    result = subprocess.run([sys.executable, str(TOOL), "--format", "tsv", "--cpu", "znver3", "--cpu", "znver4",
                             "--compiler", "gcc", "--kernel", "x86_shani|avx512_many_16way"],
                            capture_output=True, text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert rows and all(len(row) == 5 for row in rows)
    table = {(model, kernel): (float(c), float(b), float(s)) for model, kernel, c, b, s in rows}
    for model in ("znver3", "znver4"):
        for kernel in ("libsha_x86_shani_many_2way", "libsha_x86_shani_d64_2way", "libsha_x86_shani_transform"):
            cycles, bound, stack = table[(model, kernel)]
            # A SHA-NI block is 32 sha256rnds2, one per two cycles on these models at best.
            assert bound >= 60 and cycles >= bound * 0.99, (model, kernel, cycles, bound)
    # AVX-512 is no Zen 3 instruction: its kernels have no figure there, and one on Zen 4.
    assert ("znver3", "libsha_avx512_many_16way") not in table
    cycles, bound, stack = table[("znver4", "libsha_avx512_many_16way")]
    assert not math.isnan(cycles) and cycles >= bound and stack >= 0
    assert "isa-l: $SHABENCH_ISAL_CRYPTO is not set" in result.stderr


def test_the_tool_says_what_it_needs_where_llvm_19_is_absent():
    result = subprocess.run([sys.executable, str(TOOL), "--cpu", "znver3"], capture_output=True, text=True,
                            env=dict(os.environ, PATH="/nonexistent"))
    assert result.returncode == 2 and "apt-get install llvm-19" in result.stderr


@pytest.mark.skipif(__import__("platform").machine().lower() not in ("x86_64", "amd64", "aarch64", "arm64"),
                    reason="the clock's add chain is x86-64 and ARM64 code")
def test_the_core_clock_chain_runs_where_it_is_built():
    from shabench import internal
    assert internal.lib().libsha_internal_bench_clock(1000) == 0
    assert internal.lib().libsha_internal_bench_clock(0) == 0


def test_a_row_names_the_kernel_its_long_messages_run_on():
    """The widest <N>way of a row's name whose many kernel the build has: SHA-NI's four-lane row, which has no
    four-lane many kernel, runs its messages on two lanes."""
    import re

    import libsha
    from shabench.model import measured
    for impl in libsha.dispatch.implementations():
        widths = [(isa, int(w)) for isa, ws in re.findall(r"([a-z0-9_]+)\(([^)]*)\)", impl.name)
                  for w in re.findall(r"(\d+)way", ws) if int(w) > 1]
        if not widths:
            assert measured.many_kernel(impl.name, {"libsha_standard_many_2way"}) is None
            continue
        isa, widest = max(widths, key=lambda x: x[1])
        every = {f"libsha_{i}_many_{w}way" for i, w in widths}
        assert measured.many_kernel(impl.name, every) == f"libsha_{isa}_many_{widest}way"
        if len(widths) > 1:
            rest = every - {f"libsha_{isa}_many_{widest}way"}
            i, w = max((x for x in widths if f"libsha_{x[0]}_many_{x[1]}way" in rest), key=lambda x: x[1])
            assert measured.many_kernel(impl.name, rest) == f"libsha_{i}_many_{w}way"


def test_the_model_table_says_what_is_missing(monkeypatch):
    """Without llvm-19, shabench's model group is still timed, and its table says why no model is there."""
    from shabench import cycle_models
    from shabench.measure import Measurement
    from shabench.model import mca as mca_module
    rows = [(b, Measurement([0.5], 1, 0.1)) for b in cycle_models.model_benchmarks(
        [impl.name for impl in __import__("libsha").dispatch.implementations() if impl.runnable][:1])]
    assert rows and all(b.name == cycle_models.BATCH for b, _ in rows)
    monkeypatch.setattr(mca_module, "tool", lambda: None)
    text = cycle_models.model_table(rows)
    assert text.startswith("Cycle models:") and "llvm-19" in text.splitlines()[-1]


@pytest.mark.build
@pytest.mark.tooling
@needs_llvm
def test_shabench_model_group_prints_each_kernel_measured_beside_its_models(tmp_path):
    import libsha
    lanes = [impl.name for impl in libsha.dispatch.implementations() if impl.runnable and "way" in impl.name]
    if not lanes:
        pytest.skip("no implementation with lanes runs on this CPU")
    result = subprocess.run([sys.executable, "-m", "shabench", "--group", "model", "--impl", lanes[0], "--epochs",
                             "1", "--min-time", "1", "--model-cpu", "znver4"], capture_output=True, text=True,
                            timeout=600, env=dict(os.environ, SHABENCH_SOURCE=str(ROOT)), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    table = result.stdout.split("Cycle models:")[1].splitlines()
    header = next(line for line in table if line.startswith("| implementation"))
    assert "| znver4 |" in header
    [row] = [line for line in table if line.startswith(f"| `{lanes[0]}`")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1].startswith("`libsha_") and float(cells[2].replace(",", "")) > 0
