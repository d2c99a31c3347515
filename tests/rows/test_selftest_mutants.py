"""The install-time self-test refuses a kernel that mixes up its lanes: one mutant per multi-lane kernel.

Each mutant is the source with two lanes swapped in one kernel, built into its own library; selecting
the row that uses it must fail with LIBSHA_ERR_SELFTEST (the row is never installed), while the rows
that do not use it still pass. With test data that repeats every 256 bytes, a swap between lanes
0-3 and 4-7 of an 8-way kernel would pass; the self-test data is on a 251-byte cycle.
"""

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import libsha
from support.bochs import runs_here as bochs_runs_here
from support.builds import locked, run, session_folder
from support.rows import ARM, AVX2, AVX2_1WAY, AVX512, PORTABLE, SHANI, SHANI_4WAY, SHANI_AVX512, SSE4
from support.paths import ROOT


# (kernel, file, text, its lane-swapped replacement, rows that must refuse it)
MUTANTS = [
    # The lane-generic body's D64 (4, 8 and 16 lanes): two blobs' places swapped.
    ("multiway d64", "libsha/src/kernels/body_lanes.h", "p[lane] = in + 64 * lane,", "p[lane] = in + 64 * (lane ^ 1),",
     [SSE4, AVX2, AVX2_1WAY, AVX512, SHANI_AVX512]),
    # The 4x4 transpose sse41(4way) and avx512(4way) share.
    ("sse41/avx512 4-way transpose", "libsha/src/kernels/body_transpose_4x4.h", "(p[1] + off)", "(p[2] + off)", [SSE4, AVX2, AVX2_1WAY, AVX512]),
    # The 8x8 transpose avx2(8way) and avx512(8way) share.
    ("avx2/avx512 8-way transpose", "libsha/src/kernels/body_transpose_8x8.h", "_mm256_loadu_si256((const __m256i *)(p[i] + off))",
     "_mm256_loadu_si256((const __m256i *)(p[i ^ 4] + off))", [AVX2, AVX2_1WAY, AVX512, SHANI_AVX512, SHANI_4WAY]),
    ("avx512 16-way transpose", "libsha/src/kernels/avx512_4way_8way_16way.c", "__m512i x0 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0x44)",
     "__m512i x0 = _mm512_shuffle_i32x4(u[4 + m], u[m], 0x44)", [AVX512, SHANI_AVX512, SHANI_4WAY]),
    ("avx512 16-way state transpose", "libsha/src/kernels/avx512_4way_8way_16way.c", "w[i] = _mm512_permutex2var_epi64(u[i], halves, u[i + 4]);",
     "w[i] = _mm512_permutex2var_epi64(u[i + 4], halves, u[i]);", [AVX512, SHANI_AVX512, SHANI_4WAY]),
    ("avx512 many 16-way", "libsha/src/kernels/avx512_4way_8way_16way.c", "_mm512_loadu_si512((const void *)(p[i] + at))",
     "_mm512_loadu_si512((const void *)(p[i ^ 8] + at))", [AVX512, SHANI_AVX512, SHANI_4WAY]),
    ("avx512 last block 16-way", "libsha/src/kernels/avx512_4way_8way_16way.c", "size_t len = tails[i].len;",
     "size_t len = tails[i ^ 1].len;", [AVX512, SHANI_AVX512, SHANI_4WAY]),
    # The body's last-block kernel with its tails padded in memory (sse41's 4 lanes, avx2's 8, avx512's 8).
    ("multiway last block", "libsha/src/kernels/body_lanes.h", "p[lane] = padded[lane];", "p[lane] = padded[lane ^ 1];",
     [SSE4, AVX2, AVX2_1WAY, AVX512, SHANI_AVX512, SHANI_4WAY]),
    ("multiway whole messages", "libsha/src/kernels/body_lanes.h", "p[lane] = msgs[lane] + at;",
     "p[lane] = msgs[lane ^ 1] + at;",
     [SSE4, AVX2, AVX2_1WAY, AVX512, SHANI_AVX512, SHANI_4WAY]),
    # The two-block schedule with block n's and block n + 1's W halves swapped.
    ("avx2 1-way two blocks", "libsha/src/kernels/avx2_1way.c", "#define LOAD_W2(p, q, i)", "#define LOAD_W2(q, p, i)",
     [AVX2_1WAY, AVX512]),
    # The SHA-NI lane body of any width (2 and 4 lanes): one mutant per kernel. The pipeline of
    # 64-byte pairs (2 lanes): a pair's second lane reading its first's message.
    ("x86_shani 64-byte pipeline", "libsha/src/kernels/body_x86_shani_lanes.h",
     "p[0] = msgs[0] + k * step, p[1] = msgs[1] + k * step;",
     "p[0] = msgs[0] + k * step, p[1] = msgs[0] + k * step;", [SHANI, SHANI_4WAY]),
    ("x86_shani lanes whole messages", "libsha/src/kernels/body_x86_shani_lanes.h", "p[lane] = msgs[lane];",
     "p[lane] = msgs[lane ^ 1];", [SHANI, SHANI_4WAY]),
    ("x86_shani lanes tails", "libsha/src/kernels/body_x86_shani_lanes.h", "LIBSHA_X86_TAIL_BLOCK((tails)[l],",
     "LIBSHA_X86_TAIL_BLOCK((tails)[l ^ 1],", [SHANI, SHANI_4WAY, SHANI_AVX512]),
    ("x86_shani lanes d64", "libsha/src/kernels/body_x86_shani_lanes.h", "p[lane] = in + 64 * lane,",
     "p[lane] = in + 64 * (lane ^ 1),", [SHANI, SHANI_4WAY, SHANI_AVX512]),
    ("x86_shani lanes many", "libsha/src/kernels/body_x86_shani_lanes.h", "p[lane] = blocks[lane];",
     "p[lane] = blocks[lane ^ 1];", [SHANI, SHANI_4WAY, SHANI_AVX512]),
    ("x86_shani lanes chains", "libsha/src/kernels/body_x86_shani_lanes.h", "LOAD_STATE(chains[l]->inner, in0_",
     "LOAD_STATE(chains[l ^ 1]->inner, in0_", [SHANI, SHANI_4WAY, SHANI_AVX512]),
    # The four SHA-NI lanes' asm loops (GCC and Clang): two lanes' blocks, or chains, swapped.
    ("x86_shani 4-lane asm blocks", "libsha/src/kernels/body_x86_shani_4lanes_asm.h", "*p0 = p[0], *p1 = p[1]",
     "*p0 = p[1], *p1 = p[0]", [SHANI_4WAY]),
    ("x86_shani 4-lane asm chains", "libsha/src/kernels/body_x86_shani_lanes.h",
     "LOAD_STATE(chains[l]->inner, ch[8 * l]", "LOAD_STATE(chains[l ^ 1]->inner, ch[8 * l]", [SHANI_4WAY]),
    # PBKDF2's chain kernels: one lane's inner state given to its neighbour.
    ("multiway chains", "libsha/src/kernels/body_lanes.h", "field[lane] = (uint32_t *)((unsigned char *)chains[lane] + at);",
     "field[lane] = (uint32_t *)((unsigned char *)chains[at == 0 ? lane ^ 1 : lane] + at);",
     [SSE4, AVX2, AVX2_1WAY, AVX512, SHANI_AVX512]),
    # The tests' portable 16 lanes (the same body on generic vectors): lanes 0-7 and 8-15 swapped.
    ("portable 16-way loads", "tests/c/sha256_portable_lanes.c", "libsha_load_be32(p[lane] + at + 4 * i)",
     "libsha_load_be32(p[lane ^ 8] + at + 4 * i)", [PORTABLE]),
]

ARM_MUTANTS = [
    ("arm_shani d64 2-way", "libsha/src/kernels/arm_shani_1way_2way.c", "uint32x4_t n0 = LOAD_W(in, 4), n1 = LOAD_W(in, 5)",
     "uint32x4_t n0 = LOAD_W(in, 0), n1 = LOAD_W(in, 5)"),
    ("arm_shani many 2-way", "libsha/src/kernels/arm_shani_1way_2way.c", "const unsigned char *p = blocks[0], *q = blocks[1];",
     "const unsigned char *p = blocks[1], *q = blocks[0];"),
    ("arm_shani chains 2-way", "libsha/src/kernels/arm_shani_1way_2way.c",
     "struct libsha_chain *c = chains[0], *d = chains[1];", "struct libsha_chain *c = chains[0], *d = chains[0];"),
    ("arm_shani last block 2-way", "libsha/src/kernels/arm_shani_1way_2way.c", "TAIL_BLOCK(tails[0], m0, m1, m2, m3);",
     "TAIL_BLOCK(tails[1], m0, m1, m2, m3);"),
]

MUTANT_ROWS = {m[0]: m[4] for m in MUTANTS}

pytestmark = [
    pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake"),
    pytest.mark.skipif(sys.platform != "linux", reason="builds a Linux shared library"),
    pytest.mark.build,
]

# Debug (-O0): the self-test's verdict does not depend on the optimiser, and it compiles the
# unrolled kernels in a fraction of the time. The tests' portable row has a tree of its own: its
# file compiles at -O1 and slowly, and every mutant of the body it includes would rebuild it.
X86_OPTIONS = ["-DCMAKE_BUILD_TYPE=Debug"]
PORTABLE_OPTIONS = ["-DCMAKE_BUILD_TYPE=Debug", "-DLIBSHA_TEST_PORTABLE_LANES=ON"]
ARM_OPTIONS = ["-DCMAKE_BUILD_TYPE=Debug", f"-DCMAKE_TOOLCHAIN_FILE={ROOT / 'cmake' / 'toolchains' / 'aarch64-linux-gnu.cmake'}"]


def copied_sources(folder):
    """A copy of what the library builds from, to mutate."""
    tree = folder / "src"
    if not tree.exists():
        shutil.copytree(ROOT / "libsha", tree / "libsha", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
        shutil.copytree(ROOT / "cmake", tree / "cmake")
        shutil.copytree(ROOT / "tests" / "c", tree / "tests" / "c")
        shutil.copy(ROOT / "CMakeLists.txt", tree / "CMakeLists.txt")
    return tree


@contextlib.contextmanager
def mutant_library(tmp_path_factory, name, options, source, text, mutant):
    """The library built with one mutation, in a tree shared by every mutant of its kind that this
    pytest-xdist worker runs (each rebuild recompiles only the files the mutation touches; a full
    build each took minutes of CI), held for this test alone, with the source restored afterwards."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    folder = session_folder(tmp_path_factory) / f"mutants-{name}-{worker}"
    folder.mkdir(exist_ok=True)
    with locked(folder / "lock"):
        tree, build = copied_sources(folder), folder / "build"
        path = tree / source
        original = path.read_text()
        assert original.count(text) == 1, f"the mutation site moved in {source}: update the mutants"
        try:
            path.write_text(original.replace(text, mutant))
            if not (build / "CMakeCache.txt").exists():
                run(["cmake", "-S", tree, "-B", build, *options])
            run(["cmake", "--build", build, "--target", "sha", "-j2"])
        finally:
            path.write_text(original)
        yield tree, build


CHECK = """
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.libsha_select.argtypes = [ctypes.c_char_p]
print(" ".join(str(lib.libsha_select(name.encode())) for name in sys.argv[2:]))
"""


def emulated_codes(library, names):
    """libsha_select's codes for these rows on Bochs's emulated AVX-512 CPU (test_rows_emulated.py)."""
    script = Path(__file__).with_name("emulated_rows_check.py")
    out = subprocess.run([sys.executable, str(script), str(library), "--select", *names], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


# The rows this CPU cannot run whose self-test the emulator runs instead, where it can.
EMULABLE = {AVX512, SHANI_AVX512, SHANI_4WAY} if bochs_runs_here() else set()


@pytest.mark.parametrize("kernel, source, text, mutant, refused", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_lane_swap_is_refused_by_the_self_test(tmp_path, tmp_path_factory, kernel, source, text, mutant, refused):
    portable = source.startswith("tests/")
    runnable = {i.name for i in libsha.dispatch.implementations() if i.runnable} | ({PORTABLE} if portable else set())
    emulated = set(refused) & EMULABLE - runnable  # the rows that need AVX-512, where the CPU has none
    refused = set(refused) & runnable
    if not refused and not emulated:
        pytest.skip(f"this CPU runs none of the rows that use the {kernel} kernel, nor does the emulator")
    library = tmp_path / "libsha.so"
    kind, options = ("portable", PORTABLE_OPTIONS) if portable else ("x86", X86_OPTIONS)
    with mutant_library(tmp_path_factory, kind, options, source, text, mutant) as (_, build):
        shutil.copy(build / "libsha.so", library)
    names = sorted(runnable)
    out = subprocess.run([sys.executable, "-c", CHECK, str(library), *names], capture_output=True,
                         text=True, check=True, env={k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"})
    codes = dict(zip(names, map(int, out.stdout.split())))
    selftest_failed = -7  # LIBSHA_ERR_SELFTEST
    assert {n for n, c in codes.items() if c == selftest_failed} == refused, codes
    assert all(codes[n] == 0 for n in names if n not in refused), codes
    if emulated:  # and the untouched x86 rows still pass there, as here
        codes = emulated_codes(library, sorted(emulated | (EMULABLE - set(MUTANT_ROWS[kernel]))))
        assert {n for n, c in codes.items() if c == selftest_failed} == emulated, codes
        assert all(c == 0 for n, c in codes.items() if n not in emulated), codes


ARM_CHECK = r"""
#include <stdio.h>
#include "libsha.h"
int main(void) { printf("%d %d\n", libsha_select(ARM_ROW), libsha_select("standard")); return 0; }
"""


@pytest.mark.emulated
@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None or shutil.which("qemu-aarch64") is None,
                    reason="needs gcc-aarch64-linux-gnu and qemu-user (.ci/run installs them)")
@pytest.mark.parametrize("kernel, source, text, mutant", ARM_MUTANTS, ids=[m[0] for m in ARM_MUTANTS])
def test_an_arm_lane_swap_is_refused_under_qemu(tmp_path, tmp_path_factory, kernel, source, text, mutant):
    check = tmp_path / "check.c"
    check.write_text(ARM_CHECK.replace("ARM_ROW", f"\"{ARM}\""))
    library = tmp_path / "lib" / "libsha.so"
    library.parent.mkdir()
    with mutant_library(tmp_path_factory, "arm64", ARM_OPTIONS, source, text, mutant) as (tree, build):
        for name in build.glob("libsha.so*"):  # the versioned SONAME the program will look for too
            shutil.copy(name, library.parent / name.name)
        subprocess.run(["aarch64-linux-gnu-gcc", str(check), f"-I{tree / 'libsha' / 'include'}", f"-L{library.parent}",
                        "-lsha", f"-Wl,-rpath,{library.parent}", "-o", str(tmp_path / "check")], check=True)
    out = subprocess.run(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-cpu", "max", str(tmp_path / "check")],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    assert out.split() == ["-7", "0"]  # the mutated row refused by its self-test, standard still installed
