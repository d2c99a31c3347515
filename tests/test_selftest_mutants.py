"""The install-time self-test refuses a kernel that mixes up its lanes: one mutant per multi-lane kernel.

Each mutant is the source with two lanes swapped in one kernel, built into its own library; selecting
the row that uses it must fail with LIBSHA_ERR_SELFTEST (the row is never installed), while the rows
that do not use it still pass. With test data that repeats every 256 bytes, a swap between lanes
0-3 and 4-7 of an 8-way kernel would pass; the self-test data is on a 251-byte cycle.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import libsha

ROOT = Path(__file__).resolve().parent.parent
SHANI_AVX512 = "x86_shani(1way,2way),avx512(8way,16way)"
SHANI = "x86_shani(1way,2way)"
AVX512 = "avx2(1way),avx512(4way,8way,16way)"
AVX2 = "sse4(1way),sse41(4way),avx2(8way)"
AVX2_1WAY = "avx2(1way),sse41(4way),avx2(8way)"
SSE4 = "sse4(1way),sse41(4way)"

# (kernel, file, text, its lane-swapped replacement, rows that must refuse it)
MUTANTS = [
    # The lane-generic body's D64 (4, 8 and 16 lanes): two blobs' places swapped.
    ("multiway d64", "sha256_multiway.h", "p[lane] = in + 64 * lane,", "p[lane] = in + 64 * (lane ^ 1),",
     [SSE4, AVX2, AVX2_1WAY, AVX512, SHANI_AVX512]),
    ("x86_shani d64 2-way", "sha256_x86_shani.c", "__m128i n0 = LOAD_W(in, 4, mask), n1 = LOAD_W(in, 5, mask);",
     "__m128i n0 = LOAD_W(in, 0, mask), n1 = LOAD_W(in, 5, mask);", [SHANI, SHANI_AVX512]),
    # The 4x4 transpose sse41(4way) and avx512(4way) share.
    ("sse41/avx512 4-way transpose", "sha256_gather_sse41.h", "(p[1] + off)", "(p[2] + off)", [SSE4, AVX2, AVX2_1WAY, AVX512]),
    # The 8x8 transpose avx2(8way) and avx512(8way) share.
    ("avx2/avx512 8-way transpose", "sha256_gather_avx2.h", "_mm256_loadu_si256((const __m256i *)(p[i] + off))",
     "_mm256_loadu_si256((const __m256i *)(p[i ^ 4] + off))", [AVX2, AVX2_1WAY, AVX512, SHANI_AVX512]),
    ("avx512 16-way transpose", "sha256_avx512.c", "__m512i x0 = _mm512_shuffle_i32x4(u[m], u[4 + m], 0x44)",
     "__m512i x0 = _mm512_shuffle_i32x4(u[4 + m], u[m], 0x44)", [AVX512, SHANI_AVX512]),
    ("avx512 16-way state transpose", "sha256_avx512.c", "w[i] = _mm512_permutex2var_epi64(u[i], halves, u[i + 4]);",
     "w[i] = _mm512_permutex2var_epi64(u[i + 4], halves, u[i]);", [AVX512, SHANI_AVX512]),
    ("avx512 many 16-way", "sha256_avx512.c", "_mm512_loadu_si512((const void *)p[i])",
     "_mm512_loadu_si512((const void *)p[i ^ 8])", [AVX512, SHANI_AVX512]),
    ("avx512 last block 16-way", "sha256_avx512.c", "size_t len = tails[i].len;",
     "size_t len = tails[i ^ 1].len;", [AVX512, SHANI_AVX512]),
    # The body's last-block kernel with its tails padded in memory (avx512's 8 lanes).
    ("multiway last block", "sha256_multiway.h", "p[lane] = padded[lane];", "p[lane] = padded[lane ^ 1];",
     [AVX512, SHANI_AVX512]),
    ("multiway whole messages", "sha256_multiway.h", "p[lane] = msgs[lane];", "p[lane] = msgs[lane ^ 1];",
     [AVX512, SHANI_AVX512]),
    ("x86_shani many 2-way", "sha256_x86_shani.c", "const unsigned char *p = blocks[0], *q = blocks[1];",
     "const unsigned char *p = blocks[1], *q = blocks[0];", [SHANI, SHANI_AVX512]),
    ("x86_shani last block 2-way", "sha256_x86_shani.c", "LIBSHA_X86_TAIL_BLOCK(tails[0], m0, m1, m2, m3);",
     "LIBSHA_X86_TAIL_BLOCK(tails[1], m0, m1, m2, m3);", [SHANI, SHANI_AVX512]),
    # The two-block schedule with block n's and block n + 1's W halves swapped.
    ("avx2 1-way two blocks", "sha256_avx2_1way.c", "#define LOAD_W2(p, q, i)", "#define LOAD_W2(q, p, i)",
     [AVX2_1WAY, AVX512]),
]

ARM = "arm_shani(1way,2way)"
ARM_MUTANTS = [
    ("arm_shani d64 2-way", "sha256_arm_shani.c", "uint32x4_t n0 = LOAD_W(in, 4), n1 = LOAD_W(in, 5)",
     "uint32x4_t n0 = LOAD_W(in, 0), n1 = LOAD_W(in, 5)"),
    ("arm_shani many 2-way", "sha256_arm_shani.c", "const unsigned char *p = blocks[0], *q = blocks[1];",
     "const unsigned char *p = blocks[1], *q = blocks[0];"),
    ("arm_shani last block 2-way", "sha256_arm_shani.c", "TAIL_BLOCK(tails[0], m0, m1, m2, m3);",
     "TAIL_BLOCK(tails[1], m0, m1, m2, m3);"),
]

pytestmark = [
    pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake"),
    pytest.mark.skipif(sys.platform != "linux", reason="builds a Linux shared library"),
]


def mutated_tree(tmp_path, source, text, mutant):
    """A copy of the sources with one kernel's lanes swapped (source None: unchanged)."""
    tree = tmp_path / "src"
    shutil.copytree(ROOT / "libsha", tree / "libsha", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("CMakeLists.txt", "cmake"):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, tree / name)
    if source is None:
        return tree
    path = tree / "libsha" / "src" / source
    code = path.read_text()
    assert code.count(text) == 1, f"the mutation site moved in {source}: update the mutants"
    path.write_text(code.replace(text, mutant))
    return tree


def cmake_build(tree, build, *options):
    # Debug (-O0): the self-test's verdict does not depend on the optimiser, and it compiles the
    # unrolled kernels in a fraction of the time.
    for cmd in (["cmake", "-S", str(tree), "-B", str(build), "-DCMAKE_BUILD_TYPE=Debug", *options],
                ["cmake", "--build", str(build), "--target", "sha", "-j2"]):
        result = subprocess.run(cmd, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr

CHECK = """
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.libsha_select.argtypes = [ctypes.c_char_p]
print(" ".join(str(lib.libsha_select(name.encode())) for name in sys.argv[2:]))
"""


@pytest.fixture(scope="module")
def one_build(tmp_path_factory):
    """One copy of the sources and one build directory for every x86 mutant: each rebuilds only
    the files its mutation touches (a full build per mutant took minutes of CI)."""
    root = tmp_path_factory.mktemp("mutants")
    tree = mutated_tree(root, None, None, None)
    return tree, root / "build"


@pytest.mark.parametrize("kernel, source, text, mutant, refused", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_lane_swap_is_refused_by_the_self_test(tmp_path, one_build, kernel, source, text, mutant, refused):
    runnable = {i.name for i in libsha.implementations() if i.runnable}
    refused = set(refused) & runnable  # e.g. the AVX-512 rows, where the CPU has no AVX-512
    if not refused:
        pytest.skip(f"this CPU runs none of the rows that use the {kernel} kernel")
    tree, build = one_build
    path = tree / "libsha" / "src" / source
    original = path.read_text()
    assert original.count(text) == 1, f"the mutation site moved in {source}: update the mutants"
    try:
        path.write_text(original.replace(text, mutant))
        cmake_build(tree, build)
    finally:
        path.write_text(original)
    library = tmp_path / "libsha.so"
    shutil.copy(build / "libsha.so", library)
    names = sorted(runnable)
    out = subprocess.run([sys.executable, "-c", CHECK, str(library), *names], capture_output=True,
                         text=True, check=True, env={k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"})
    codes = dict(zip(names, map(int, out.stdout.split())))
    selftest_failed = -7  # LIBSHA_ERR_SELFTEST
    assert {n for n, c in codes.items() if c == selftest_failed} == refused, codes
    assert all(codes[n] == 0 for n in names if n not in refused), codes


ARM_CHECK = r"""
#include <stdio.h>
#include "libsha.h"
int main(void) { printf("%d %d\n", libsha_select("arm_shani(1way,2way)"), libsha_select("standard")); return 0; }
"""


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None or shutil.which("qemu-aarch64") is None,
                    reason="needs gcc-aarch64-linux-gnu and qemu-user (.ci/run installs them)")
@pytest.mark.parametrize("kernel, source, text, mutant", ARM_MUTANTS, ids=[m[0] for m in ARM_MUTANTS])
def test_an_arm_lane_swap_is_refused_under_qemu(tmp_path, kernel, source, text, mutant):
    tree = mutated_tree(tmp_path, source, text, mutant)
    build = tmp_path / "build"
    cmake_build(tree, build, f"-DCMAKE_TOOLCHAIN_FILE={ROOT / 'cmake' / 'toolchains' / 'aarch64-linux-gnu.cmake'}")
    check = tmp_path / "check.c"
    check.write_text(ARM_CHECK)
    subprocess.run(["aarch64-linux-gnu-gcc", str(check), f"-I{tree / 'libsha' / 'include'}", f"-L{build}", "-lsha",
                    f"-Wl,-rpath,{build}", "-o", str(tmp_path / "check")], check=True)
    out = subprocess.run(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-cpu", "max", str(tmp_path / "check")],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    assert out.split() == ["-7", "0"]  # the mutated row refused by its self-test, standard still installed
