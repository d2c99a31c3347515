"""The 16-lane body and the scheduler's 16-lane paths on every CPU, AVX-512 or not.

No emulator here runs AVX-512. The lane-generic body (sha256_multiway.h) is the same for the AVX-512
kernels and for tests/c/sha256_portable_lanes.c, which builds it a second time on generic vectors
(16 lanes, as the AVX-512 rows have them). This module builds the library with that row
(-DLIBSHA_TEST_PORTABLE_LANES=ON) and runs on it: the many-message, D64 and Merkle suites (every
length 0..300 in each of 17 positions, random batches with DOUBLE on and off, the offsets and views
forms, Merkle roots for n = 0..1,100), the guard-page test in every lane position, and a lane-swap
mutant the self-test must refuse. The real AVX-512 kernels run the same suites natively where the CPU
has AVX-512 (they are rows of the normal build).
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import WIDEST_LANES

ROOT = Path(__file__).resolve().parent.parent
PORTABLE = "standard(1way),portable(16way)"
SUITES = ["test_many.py", "test_sha256d64.py", "test_merkle.py"]

pytestmark = [
    pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake"),
    pytest.mark.skipif(sys.platform != "linux", reason="builds and loads a Linux shared library"),
]


def build(source, build_dir):
    for cmd in (["cmake", "-S", str(source), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                 "-DLIBSHA_TEST_PORTABLE_LANES=ON", "-DLIBSHA_BUILD_TESTS=ON"],
                ["cmake", "--build", str(build_dir), "--target", "sha", "test_guard_pages", "-j2"]):
        result = subprocess.run(cmd, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    return build_dir / "libsha.so"


@pytest.fixture(scope="module")
def portable_library(tmp_path_factory):
    return build(ROOT, tmp_path_factory.mktemp("portable"))


def with_library(path):
    return dict({k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"}, LIBSHA_LIBRARY=str(path))


def test_widest_lanes_mirror_the_library():
    impl_h = (ROOT / "libsha" / "src" / "sha256_impl.h").read_text()
    assert int(re.search(r"#define LIBSHA_MAX_LANES (\d+)", impl_h).group(1)) == WIDEST_LANES


def test_the_portable_row_passes_its_self_test(portable_library):
    code = f"import libsha; libsha.select({PORTABLE!r}); print(libsha.implementation())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=with_library(portable_library), cwd=ROOT / "tests")
    assert result.stdout.strip() == PORTABLE, result.stderr


def test_the_python_suites_on_the_portable_row(portable_library):
    # The suites' `implementation` fixture runs each test on every row; -k keeps the portable row's.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "portable", *SUITES],
        capture_output=True, text=True, env=with_library(portable_library), cwd=ROOT / "tests")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", result.stdout).group(1))
    assert passed >= 10 and "failed" not in result.stdout, result.stdout[-2000:]
    print(result.stdout.strip().splitlines()[-1])


def test_guard_pages_in_every_lane_position(portable_library):
    result = subprocess.run([str(portable_library.parent / "test_guard_pages"), PORTABLE], capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr
    assert f"{PORTABLE}: " in result.stdout


def test_a_lane_swap_in_the_portable_body_is_refused(tmp_path):
    tree = tmp_path / "src"
    shutil.copytree(ROOT / "libsha", tree / "libsha", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    shutil.copytree(ROOT / "cmake", tree / "cmake")
    shutil.copy(ROOT / "CMakeLists.txt", tree / "CMakeLists.txt")
    shutil.copytree(ROOT / "tests" / "c", tree / "tests" / "c")
    kernel = tree / "tests" / "c" / "sha256_portable_lanes.c"  # lanes 0-7 and 8-15 swapped
    text, mutant = "libsha_load_be32(p[lane] + 4 * i)", "libsha_load_be32(p[lane ^ 8] + 4 * i)"
    code = kernel.read_text()
    assert code.count(text) == 1, "the mutation site moved: update this test"
    kernel.write_text(code.replace(text, mutant))
    library = build(tree, tmp_path / "build")
    check = f"import libsha\ntry:\n    libsha.select({PORTABLE!r})\nexcept Exception as e:\n    print(e)"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                            env=with_library(library), cwd=tmp_path)
    assert "self-test" in result.stdout, result.stdout + result.stderr
