"""The 16-lane body and the scheduler's 16-lane paths on every CPU, AVX-512 or not.

No emulator here runs AVX-512. The lane-generic body (body_lanes.h) is the same for the AVX-512
kernels and for tests/c/sha256_portable_lanes.c, which builds it a second time on generic vectors
(16 lanes, as the AVX-512 rows have them), in the tests' shared tree
(-DLIBSHA_TEST_PORTABLE_LANES=ON, support/builds.py). There the C test and the guard-page test
sweep it as they sweep every row (test_build.py's ctest), and this module runs the binding's
many-message, D64 and Merkle suites on it: random batches with DOUBLE on and off, runs of one
length, the offsets and views forms, Merkle roots around the chunks. Its lane-swap mutant is
test_selftest_mutants.py's. The real AVX-512 kernels run the same suites natively where the CPU
has AVX-512 (they are rows of the normal build).
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

from support.data import WIDEST_LANES
from support.builds import shared_tests_tree
from support.rows import PORTABLE
from support.paths import ROOT

SUITES = ["many/test_many.py", "many/test_sha256d64.py", "many/test_merkle.py"]

pytestmark = [
    pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake"),
    pytest.mark.skipif(sys.platform != "linux", reason="builds and loads a Linux shared library"),
    pytest.mark.build,
]


@pytest.fixture(scope="module")
def portable_library(tmp_path_factory):
    return shared_tests_tree(tmp_path_factory) / "libsha.so"


def with_library(path):
    return dict({k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"}, LIBSHA_LIBRARY=str(path))


def test_widest_lanes_mirror_the_library():
    impl_h = (ROOT / "libsha" / "src" / "sha256_impl.h").read_text()
    assert int(re.search(r"#define LIBSHA_MAX_LANES (\d+)", impl_h).group(1)) == WIDEST_LANES


def test_the_portable_row_passes_its_self_test(portable_library):
    code = f"import libsha; libsha.dispatch.select({PORTABLE!r}); print(libsha.dispatch.implementation())"
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
