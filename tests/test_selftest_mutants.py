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
SHANI = "x86_shani(1way,2way)"
AVX2 = "sse4(1way),sse41(4way),avx2(8way)"
SSE4 = "sse4(1way),sse41(4way)"

# (kernel, file, text, its lane-swapped replacement, rows that must refuse it)
MUTANTS = [
    ("sse41 d64 4-way", "sha256_sse41.c", "BE((in) + 192 + 4 * (i)), BE((in) + 128 + 4 * (i))",
     "BE((in) + 128 + 4 * (i)), BE((in) + 192 + 4 * (i))", [SSE4, AVX2]),
    ("avx2 d64 8-way", "sha256_avx2.c", "BE(in, 4, i), BE(in, 3, i)", "BE(in, 3, i), BE(in, 4, i)", [AVX2]),
    ("x86_shani d64 2-way", "sha256_x86_shani.c", "__m128i n0 = LOAD_W(in, 4, mask), n1 = LOAD_W(in, 5, mask);",
     "__m128i n0 = LOAD_W(in, 0, mask), n1 = LOAD_W(in, 5, mask);", [SHANI]),
    ("sse41 many 4-way", "sha256_sse41.c", "(p[1] + off)", "(p[2] + off)", [SSE4, AVX2]),
    ("avx2 many 8-way", "sha256_avx2.c", "_mm256_loadu_si256((const __m256i *)(p[i] + off))",
     "_mm256_loadu_si256((const __m256i *)(p[i ^ 4] + off))", [AVX2]),
    ("x86_shani many 2-way", "sha256_x86_shani.c", "const unsigned char *p = blocks[0], *q = blocks[1];",
     "const unsigned char *p = blocks[1], *q = blocks[0];", [SHANI]),
    ("x86_shani last block 2-way", "sha256_x86_shani.c", "LIBSHA_X86_TAIL_BLOCK(tails[0], m0, m1, m2, m3);",
     "LIBSHA_X86_TAIL_BLOCK(tails[1], m0, m1, m2, m3);", [SHANI]),
]

pytestmark = [
    pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake"),
    pytest.mark.skipif(sys.platform != "linux", reason="builds a Linux shared library"),
]

CHECK = """
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.libsha_select.argtypes = [ctypes.c_char_p]
print(" ".join(str(lib.libsha_select(name.encode())) for name in sys.argv[2:]))
"""


@pytest.mark.parametrize("kernel, source, text, mutant, refused", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_a_lane_swap_is_refused_by_the_self_test(tmp_path, kernel, source, text, mutant, refused):
    runnable = {i.name for i in libsha.implementations() if i.runnable}
    if not set(refused) <= runnable:
        pytest.skip(f"this CPU does not run {', '.join(sorted(set(refused) - runnable))}")
    tree = tmp_path / "src"
    shutil.copytree(ROOT / "libsha", tree / "libsha", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("CMakeLists.txt", "cmake"):
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(ROOT / name, tree / name)
    path = tree / "libsha" / "src" / source
    code = path.read_text()
    assert code.count(text) == 1, f"the mutation site moved in {source}: update MUTANTS"
    path.write_text(code.replace(text, mutant))
    build = tmp_path / "build"
    for cmd in (["cmake", "-S", str(tree), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release"],
                ["cmake", "--build", str(build), "--target", "sha", "-j2"]):
        result = subprocess.run(cmd, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    names = sorted(runnable)
    out = subprocess.run([sys.executable, "-c", CHECK, str(build / "libsha.so"), *names], capture_output=True,
                         text=True, check=True, env={k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"})
    codes = dict(zip(names, map(int, out.stdout.split())))
    selftest_failed = -7  # LIBSHA_ERR_SELFTEST
    assert {n for n, c in codes.items() if c == selftest_failed} == set(refused), codes
    assert all(codes[n] == 0 for n in names if n not in refused), codes
