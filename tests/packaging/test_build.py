"""The standalone CMake install, used from C, and the wheel's shape. (Slow: they build.)"""

import os
import platform
import re
import shutil
import sys
import sysconfig
import zipfile

import pytest
from support.processes import run_command as run
from support import rows
from support.builds import shared_tests_tree
from support.paths import ROOT

ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

needs_source = pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout")
pytestmark = pytest.mark.build




@needs_source
@pytest.mark.parametrize("kind", ["own", "abi3", "py3"])
def test_the_wheel_is_the_versions_own_or_abi3_with_the_accelerator_or_py3_none_without(tmp_path, kind):
    # CPython 3.11+: cp3XY-cp3XY[t] with libsha._accel built for it (pyproject.toml's override); with
    # LIBSHA_ABI3=1 and the GIL, cp311-abi3; elsewhere, or asked with -C wheel.py-api=py3 and
    # LIBSHA_NO_PYTHON_ACCEL (tools/cross_wheels.sh), py3-none with the library alone.
    settings = ["-C", "wheel.py-api=py3", "-C", "cmake.define.LIBSHA_NO_PYTHON_ACCEL=ON"] if kind == "py3" else []
    env = {**os.environ, "CMAKE_BUILD_PARALLEL_LEVEL": "2", "LIBSHA_ABI3": "1" if kind == "abi3" else ""}
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", tmp_path, ROOT, *settings, env=env)
    (wheel,) = tmp_path.glob("libsha-*.whl")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    cpython = sys.implementation.name == "cpython" and sys.version_info >= (3, 11) and kind != "py3"
    version = f"3{sys.version_info[1]}" + ("t" if free_threaded else "")
    if cpython and kind == "abi3" and not free_threaded:
        tag, accelerator = "cp311-abi3", "libsha/_accel.abi3.so"
    elif cpython:
        tag, accelerator = f"cp{version[:3]}-cp{version}", f"libsha/_accel{sysconfig.get_config_var('EXT_SUFFIX')}"
    else:
        tag, accelerator = "py3-none", None
    assert wheel.name.endswith(f"-{tag}-{platform}.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert [n for n in names if n.startswith("libsha/_accel")] == ([accelerator] if accelerator else [])  # no sources
    assert "libsha/libsha.so" in names
    headers = {f"libsha/include/{path.name}" for path in (ROOT / "libsha" / "include").glob("*.h")}
    assert "libsha/include/libsha.h" in headers and headers <= set(names), sorted(headers - set(names))
    assert "libsha/reference/sha256.py" in names and "shabench/cli.py" in names
    assert "libsha/reference/vectors/SHA256ShortMsg.rsp" in names
    assert not [n for n in names if n.startswith("libsha/src/")]
    assert not [n for n in names if n.startswith(("reference/", "tests/"))]  # no generic top-level names


@needs_source
@pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("ctest") is None or not sys.platform.startswith("linux"),
                    reason="needs cmake and ctest on Linux")
def test_c_tests_under_ctest(tmp_path_factory):
    # The shared tests tree: its C test sweeps every row, the tests' portable 16-lane row included.
    out = run("ctest", "--test-dir", shared_tests_tree(tmp_path_factory), "--output-on-failure", "-j2")
    assert "100% tests passed" in out


NO_SHA_COMPILER = """#!/bin/sh
# A C compiler that does not know -msha, as an old or minimal toolchain would not.
for a in "$@"; do [ "$a" = "-msha" ] && { echo "cc: error: unrecognized command-line option '-msha'" >&2; exit 1; }; done
exec gcc "$@"
"""


@needs_source
@pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("gcc") is None or not sys.platform.startswith("linux")
                    or platform.machine() not in ("x86_64", "AMD64"), reason="needs cmake and gcc on x86-64 Linux")
@pytest.mark.parametrize("how", ["options", "compiler"])
def test_kernels_left_out_by_option_or_by_compiler(tmp_path, how):
    # LIBSHA_NO_<ISA> leaves kernels out; a compiler without an ISA's flag drops
    # them by itself (a compile probe) with a warning instead of failing the build,
    # unless LIBSHA_REQUIRE_ALL_KERNELS asks for every family (as wheel builds do).
    env, args = dict(os.environ), []
    if how == "options":
        args = ["-DLIBSHA_NO_SHANI=ON", "-DLIBSHA_NO_AVX2=ON"]
        gone = {"x86_shani", "avx2", "avx512"}  # AVX2 gone, so the families that build on it
        kept = [rows.SSE4, rows.STANDARD]
        said = ["SHANI kernels left out (LIBSHA_NO_SHANI)", "AVX2 kernels left out (LIBSHA_NO_AVX2)"]
        refused = ["SHANI (LIBSHA_NO_SHANI=ON)", "AVX2 (LIBSHA_NO_AVX2=ON)"]
    else:
        cc = tmp_path / "cc"
        cc.write_text(NO_SHA_COMPILER)
        cc.chmod(0o755)
        env["CC"] = str(cc)
        gone = {"x86_shani"}
        kept = [rows.AVX512, rows.AVX2_1WAY, rows.AVX2, rows.SSE4, rows.STANDARD]
        said = ["the compiler cannot build SHANI (tried '-msse4.1 -msha')"]
        refused = ["SHANI (the compiler took none of '-msse4.1 -msha')"]
    build = tmp_path / "build"
    # Debug: which rows are built and pass their self-tests does not depend on the optimiser.
    configure = run("cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Debug", "-DLIBSHA_WARNINGS_AS_ERRORS=ON", *args,
                    env=env, check=False)
    assert configure.returncode == 0, configure.stdout + configure.stderr
    assert all(s in configure.stdout + configure.stderr for s in said), configure.stdout + configure.stderr
    strict = run("cmake", "-S", ROOT, "-B", tmp_path / "strict", "-DLIBSHA_REQUIRE_ALL_KERNELS=ON", *args, env=env, check=False)
    assert strict.returncode != 0 and "LIBSHA_REQUIRE_ALL_KERNELS is on" in strict.stderr, strict.stdout + strict.stderr
    assert all(r in strict.stderr for r in refused), strict.stderr
    run("cmake", "--build", build, "-j2", env=env)
    (library,) = [p for p in build.glob("libsha.so*") if not p.is_symlink()]
    check = ("import libsha; names = [i.name for i in libsha.dispatch.implementations()]; print(names); "
             "assert libsha.sha256_digest(b'abc').hex() == '" + ABC + "'; "
             "[libsha.dispatch.select(i.name) for i in libsha.dispatch.implementations() if i.runnable]; print('ok')")
    out = run(sys.executable, "-c", check, env={**os.environ, "LIBSHA_LIBRARY": str(library)}, cwd=tmp_path)
    # Exactly the rows of registry.c whose #if the families CMake built satisfy, none with a kernel
    # of a family left out.
    built = set(re.findall(r"libsha: (\w+) kernels built with", configure.stdout))
    expected = [name for name, needs in rows.registry_rows() if needs <= built]
    assert set(kept) <= set(expected) and not [n for n in expected if rows.isas(n) & gone], expected
    assert out.splitlines() == [repr(expected), "ok"]
