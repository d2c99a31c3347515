"""The examples under examples/, built and run against a standalone install and the wheel's library."""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.processes import run_command as run
from support.builds import shared_tests_tree
from support.paths import ROOT

EXAMPLES = ROOT / "examples"
ABC = hashlib.sha256(b"abc").hexdigest()

pytestmark = [
    pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout"),
    pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("cc") is None or not sys.platform.startswith("linux"),
                       reason="needs cmake and cc on Linux"),
    pytest.mark.build,
]




@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """`cmake --install` of this checkout, as a C user would do it (from the tests' shared tree)."""
    tmp = tmp_path_factory.mktemp("install")
    run("cmake", "--install", shared_tests_tree(tmp_path_factory), "--prefix", tmp / "prefix")
    return tmp / "prefix"


def libdir(prefix):
    return next(p.parent for p in prefix.rglob("libsha.so"))


def test_install_tree(prefix):
    lib = libdir(prefix)
    assert (prefix / "include" / "libsha.h").is_file()
    assert (lib / "libsha.so").is_symlink()  # the SONAME chain, by version: tests/packaging/test_version.py
    assert (lib / "pkgconfig" / "libsha.pc").is_file()
    assert (lib / "cmake" / "libsha" / "libshaConfig.cmake").is_file()


def test_the_ten_line_c_program(prefix, tmp_path):
    lib = libdir(prefix)
    exe = tmp_path / "abc"
    run("cc", "-std=c11", "-Wall", "-Werror", EXAMPLES / "c" / "abc.c", f"-I{prefix / 'include'}", f"-L{lib}", "-lsha",
        f"-Wl,-rpath,{lib}", "-o", exe)
    assert run(exe).split()[0] == ABC


@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="needs pkg-config")
def test_c_program_via_pkg_config(prefix, tmp_path, rng):
    env = dict(os.environ, PKG_CONFIG_PATH=str(libdir(prefix) / "pkgconfig"))
    flags = run("pkg-config", "--cflags", "--libs", "libsha", env=env).split()
    exe = tmp_path / "sha256sum"
    run("cc", "-std=c11", "-Wall", "-Werror", EXAMPLES / "c" / "sha256sum.c", *flags, f"-Wl,-rpath,{libdir(prefix)}", "-o", exe)
    data = rng.randbytes(200_000)
    result = subprocess.run([exe], input=data, capture_output=True)
    assert result.returncode == 0 and result.stdout.decode().split()[0] == hashlib.sha256(data).hexdigest()


@pytest.mark.skipif(shutil.which("pkg-config") is None, reason="needs pkg-config")
@pytest.mark.parametrize("libdir_layout", ["lib64", "lib/x86_64-linux-gnu", "absolute"])
def test_pkg_config_finds_the_tree_whatever_the_libdir(tmp_path, libdir_layout):
    # GNUInstallDirs gives lib64 on Fedora and lib/<multiarch> for /usr on Debian: the .pc file's
    # relative prefix must climb as many levels as its libdir has. Kernels left out: the layout is the test.
    prefix = tmp_path / "prefix"
    libdir = str(tmp_path / "elsewhere" / "lib") if libdir_layout == "absolute" else libdir_layout
    no_kernels = [f"-DLIBSHA_NO_{family}=ON" for family in ("SSE41", "SHANI", "AVX", "AVX2", "BMI2", "AVX512", "ARM_SHA2")]
    run("cmake", "-S", ROOT, "-B", tmp_path / "b", f"-DCMAKE_INSTALL_LIBDIR={libdir}", f"-DCMAKE_INSTALL_PREFIX={prefix}",
        *no_kernels)
    run("cmake", "--build", tmp_path / "b")
    run("cmake", "--install", tmp_path / "b")
    (pc,) = [f for f in tmp_path.rglob("libsha.pc") if (tmp_path / "b") not in f.parents]  # the installed one
    env = dict(os.environ, PKG_CONFIG_PATH=str(pc.parent))
    assert (Path(run("pkg-config", "--variable=libdir", "libsha", env=env).strip()) / "libsha.so").exists()
    assert (Path(run("pkg-config", "--variable=includedir", "libsha", env=env).strip()) / "libsha.h").exists()
    flags = run("pkg-config", "--cflags", "--libs", "libsha", env=env).split()
    exe = tmp_path / "abc"
    lib = run("pkg-config", "--variable=libdir", "libsha", env=env).strip()
    run("cc", "-std=c11", EXAMPLES / "c" / "abc.c", *flags, f"-Wl,-rpath,{lib}", "-o", exe)
    assert run(exe).split()[0] == ABC


def test_cmake_find_package(prefix, tmp_path):
    run("cmake", "-S", EXAMPLES / "cmake", "-B", tmp_path / "b", f"-DCMAKE_PREFIX_PATH={prefix}")
    run("cmake", "--build", tmp_path / "b")
    assert run(tmp_path / "b" / "abc").split()[0] == ABC


@pytest.mark.skipif(shutil.which("rustc") is None, reason="needs rustc")
def test_rust_with_plain_rustc(prefix, tmp_path):
    lib = libdir(prefix)
    exe = tmp_path / "main"
    run("rustc", "-O", EXAMPLES / "rust" / "main.rs", "-o", exe, "-L", lib, "-l", "sha", "-C", f"link-arg=-Wl,-rpath,{lib}")
    for message in ("abc", "", "x" * 1000):
        assert run(exe, message).split()[0] == hashlib.sha256(message.encode()).hexdigest()


def java_with_foreign_api():
    java = shutil.which("java")
    if java is None:
        return None
    modules = subprocess.run([java, "--list-modules"], capture_output=True, text=True).stdout
    return java if "jdk.incubator.foreign" in modules else None


@pytest.mark.skipif(java_with_foreign_api() is None, reason="needs Java 17 with jdk.incubator.foreign")
def test_java_loads_the_library_at_run_time(prefix):
    library = libdir(prefix) / "libsha.so"
    out = run(java_with_foreign_api(), "--add-modules", "jdk.incubator.foreign", "--enable-native-access=ALL-UNNAMED",
              EXAMPLES / "java" / "Sha256.java", library, "abc")
    assert out.strip() == ABC


def test_building_against_the_wheels_library(tmp_path):
    flags = run(sys.executable, "-m", "libsha", "--cflags", "--libs", cwd=tmp_path).split()
    header = run(sys.executable, "-m", "libsha", "--include-dir", cwd=tmp_path).strip()
    library = run(sys.executable, "-m", "libsha", "--library", cwd=tmp_path).strip()
    assert Path(header, "libsha.h").is_file() and Path(library).is_file()
    exe = tmp_path / "abc"
    run("cc", "-std=c11", EXAMPLES / "c" / "abc.c", *flags, "-o", exe)
    assert run(exe).split()[0] == ABC


def test_python_m_libsha_without_flags_prints_help(tmp_path):
    result = subprocess.run([sys.executable, "-m", "libsha"], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 2 and "--cflags" in result.stdout
