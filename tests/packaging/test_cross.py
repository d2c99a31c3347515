"""The C tests cross-built for aarch64 and s390x (big endian) Linux (run under qemu) and
64-bit Windows (run under wine), and the ARM SHA-2 probe: each compiler finds its spelling of the flag, and a wheel build without it fails."""

import os
import re
import shutil
import subprocess
import sys

import pytest
from support.processes import run_command
from support.rows import ARM, STANDARD
from support.paths import ROOT

TOOLCHAINS = ROOT / "cmake" / "toolchains"

pytestmark = [pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout"),
              pytest.mark.build]


def wine():
    return shutil.which("wine") or shutil.which("wine64") or next(
        (p for p in ("/usr/lib/wine/wine64", "/usr/lib/wine/wine") if os.access(p, os.X_OK)), None)


def boot_wine_prefix(env):
    """Made once, before ctest: two wine programs that both find the prefix new race to make it and to
    start its wineserver, and the loser fails before running (seen in CI). ctest then runs them one at
    a time, since a server kept alive (-p) keeps wine's helper processes, and so ctest's pipes, open."""
    subprocess.run([wine(), "wineboot", "--init"], env=env, capture_output=True, timeout=300)
    subprocess.run([shutil.which("wineserver") or "wineserver", "-w"], env=env, capture_output=True, timeout=300)


def build_and_ctest(tmp_path, toolchain, env=None):
    build = tmp_path / "build"
    for cmd in (
        ["cmake", "-S", ROOT, "-B", build, f"-DCMAKE_TOOLCHAIN_FILE={TOOLCHAINS / toolchain}",
         "-DLIBSHA_BUILD_TESTS=ON", "-DLIBSHA_WARNINGS_AS_ERRORS=ON"],
        ["cmake", "--build", build, "-j2"],
    ):
        run_command(*cmd)
    env = dict(os.environ, **(env or {}))
    under_wine = "WINEPREFIX" in env
    if under_wine:
        boot_wine_prefix(env)
    # An emulated test's limit: guard_pages (the ARM kernels') takes 2 minutes under qemu-aarch64 on an idle core,
    # and CI shares its two cores with the suite's other workers and the cross builds.
    result = subprocess.run(["ctest", "--test-dir", str(build), "-V", "-j1" if under_wine else "-j2", "--timeout", "900"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def by_test(output):
    """ctest -V output: each test's own lines, by test name."""
    names = dict(re.findall(r"Test\s+#(\d+): (\S+)", output))
    lines = {}
    for number, text in re.findall(r"^(\d+): (.*)$", output, re.M):
        lines.setdefault(names.get(number, number), []).append(text)
    return {name: "\n".join(text) for name, text in lines.items()}


def per_implementation(output):
    """Each row's count (a --detection-only run says its rows ran NIST's short messages alone)."""
    return dict(re.findall(r"^(\S+): (\d+) passed, 0 failed(?: \(NIST's short messages alone\))?$", output, re.M))


@pytest.mark.emulated
@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None, reason="needs gcc-aarch64-linux-gnu (.ci/run installs it)")
@pytest.mark.skipif(shutil.which("qemu-aarch64") is None, reason="needs qemu-user (.ci/run installs it)")
def test_aarch64_under_qemu_with_and_without_sha2(tmp_path):
    out = build_and_ctest(tmp_path, "aarch64-linux-gnu.cmake")
    tests = by_test(out)
    with_sha2, without_sha2 = tests["libsha"], tests["libsha_without_sha2"]
    assert f"detected: {ARM}" in with_sha2
    assert per_implementation(with_sha2).keys() == {ARM, STANDARD}
    assert f"detected: {STANDARD}" in without_sha2
    assert f"{ARM}: not runnable on this CPU (select refused it)" in without_sha2
    assert per_implementation(without_sha2).keys() == {STANDARD}
    assert "short messages alone" in without_sha2  # its rows are the first run's, swept there
    assert "100% tests passed" in out


# The wheels' other Linux CPUs run the standard kernel alone: on s390x every C entry point against the
# vectors and the reference in big-endian memory. ppc64le and riscv64 are little-endian, where the
# standard kernel is the portable C every native build sweeps (gcc and clang, the sanitizers); what is
# their own, the library built for them under Python, is their wheel's test (tools/foreign_wheels.sh).
@pytest.mark.emulated
@pytest.mark.parametrize("triple, qemu", [("s390x-linux-gnu", "qemu-s390x")])
def test_the_standard_kernel_alone_under_qemu(tmp_path, triple, qemu):
    if shutil.which(f"{triple}-gcc") is None or shutil.which(qemu) is None:
        pytest.skip(f"needs gcc-{triple} and qemu-user (.ci/run installs them)")
    out = build_and_ctest(tmp_path, f"{triple}.cmake")
    libsha = by_test(out)["libsha"]
    assert f"detected: {STANDARD}" in libsha
    assert per_implementation(libsha).keys() == {STANDARD}
    assert "100% tests passed" in out


@pytest.mark.emulated
@pytest.mark.skipif(shutil.which("x86_64-w64-mingw32-gcc") is None, reason="needs gcc-mingw-w64-x86-64 (.ci/run installs it)")
@pytest.mark.skipif(wine() is None, reason="needs wine64 (.ci/run installs it)")
def test_windows_under_wine_every_x86_implementation(tmp_path):
    out = build_and_ctest(tmp_path, "x86_64-w64-mingw32.cmake",
                          env={"WINEPREFIX": str(tmp_path / "wine"), "WINEDEBUG": "-all"})
    runnable = per_implementation(by_test(out)["libsha"])
    assert "standard" in runnable
    # Under wine the host CPU runs the code: every x86 implementation it supports is tested.
    import libsha

    native = {i.name for i in libsha.dispatch.implementations() if i.runnable}
    assert set(runnable) == native
    assert "100% tests passed" in out



@pytest.mark.parametrize("target", ["windows", "macos"])
def test_the_accelerators_library_opening_compiles_for_windows_and_macos(tmp_path, target):
    # Nothing here builds the accelerator for them (it needs their own Python; the workflow builds it),
    # so its one platform file is compiled here: LoadLibraryExW on Windows, dlopen on macOS.
    if target == "windows":
        if shutil.which("x86_64-w64-mingw32-gcc") is None:
            pytest.skip("needs gcc-mingw-w64-x86-64 (.ci/run installs it)")
        compiler = ["x86_64-w64-mingw32-gcc"]
    else:
        if subprocess.run([sys.executable, "-m", "ziglang", "version"], capture_output=True).returncode != 0:
            pytest.skip("needs the ziglang wheel (the test extra)")
        compiler = [sys.executable, "-m", "ziglang", "cc", "-target", "aarch64-macos.11.0"]
    run_command(*compiler, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", ROOT / "libsha" / "src", "-c",
                ROOT / "libsha" / "_accel_library.c", "-o", tmp_path / "opening.o")


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None, reason="needs gcc-aarch64-linux-gnu (.ci/run installs it)")
def test_a_wheel_build_whose_arm_flag_is_removed_fails_loudly(tmp_path):
    # As if a compiler took none of the spellings of the ARM SHA-2 flag: 'none' alone leaves the
    # probe without +crypto. A release wheel build (LIBSHA_REQUIRE_ALL_KERNELS=ON) must stop there.
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "wheels"), str(ROOT),
         "-C", f"cmake.define.CMAKE_TOOLCHAIN_FILE={TOOLCHAINS / 'aarch64-linux-gnu.cmake'}",
         "-C", "cmake.define.LIBSHA_REQUIRE_ALL_KERNELS=ON", "-C", "cmake.define.LIBSHA_ARM_SHA2_FLAGS=none"],
        capture_output=True, text=True, env=dict(os.environ, _PYTHON_HOST_PLATFORM="linux-aarch64"))
    out = " ".join((result.stdout + result.stderr).split())  # CMake wraps its messages
    assert result.returncode != 0, out
    assert "LIBSHA_REQUIRE_ALL_KERNELS is on, and kernel families of this target are left out" in out, out
    assert "ARM_SHA2 (the compiler took none of 'none')" in out, out
    assert not list((tmp_path / "wheels").glob("*.whl"))


ARM_COMPILERS = {
    "gcc": (["-DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc"], "-march=armv8-a+crypto"),
    "clang": (["-DCMAKE_C_COMPILER=clang-14", "-DCMAKE_C_COMPILER_TARGET=aarch64-linux-gnu"], "-march=armv8-a+crypto"),
}


@pytest.mark.skipif(shutil.which("aarch64-linux-gnu-gcc") is None, reason="needs gcc-aarch64-linux-gnu (.ci/run installs it)")
@pytest.mark.parametrize("compiler", sorted(ARM_COMPILERS))
def test_each_compiler_finds_its_spelling_of_the_arm_sha2_flag(tmp_path, compiler):
    # zig's spelling (-mcpu=generic+sha2) is shown by tools/cross_wheels.sh, which builds its
    # ARM64 targets with LIBSHA_REQUIRE_ALL_KERNELS=ON.
    args, spelling = ARM_COMPILERS[compiler]
    if shutil.which(args[0].split("=", 1)[1]) is None:
        pytest.skip(f"needs {args[0].split('=', 1)[1]} (.ci/run installs it)")
    result = subprocess.run(["cmake", "-S", str(ROOT), "-B", str(tmp_path / "build"), "-DCMAKE_SYSTEM_NAME=Linux",
                             "-DCMAKE_SYSTEM_PROCESSOR=aarch64", "-DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY",
                             "-DLIBSHA_REQUIRE_ALL_KERNELS=ON", *args], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"libsha: ARM_SHA2 kernels built with '{spelling}'" in result.stdout
    assert "every kernel family of the target is built: ARM_SHA2" in result.stdout
