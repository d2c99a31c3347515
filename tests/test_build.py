"""The standalone CMake install, used from C, and the wheel's shape. (Slow: they build.)"""

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

needs_source = pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout")


def run(*cmd, **kw):
    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert result.returncode == 0, f"{cmd}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@needs_source
def test_wheel_is_py3_none_platform_and_carries_the_library(tmp_path):
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", tmp_path, ROOT)
    (wheel,) = tmp_path.glob("libsha-*.whl")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name.endswith(f"-py3-none-{platform}.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "libsha/libsha.so" in names
    assert "libsha/include/libsha.h" in names
    assert "libsha/reference/sha256.py" in names and "shabench/cli.py" in names
    assert "libsha/reference/vectors/SHA256ShortMsg.rsp" in names
    assert not [n for n in names if n.startswith("libsha/src/")]
    assert not [n for n in names if n.startswith(("reference/", "tests/"))]  # no generic top-level names


@needs_source
@pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ctest") is None, reason="needs cmake and ctest")
def test_c_tests_under_ctest(tmp_path):
    build = tmp_path / "build"
    run("cmake", "-S", ROOT, "-B", build, "-DLIBSHA_BUILD_TESTS=ON", "-DLIBSHA_WARNINGS_AS_ERRORS=ON")
    run("cmake", "--build", build)
    out = run("ctest", "--test-dir", build, "--output-on-failure")
    assert "tests passed" in out
