"""Finding the native library, and the error when it cannot be found."""

import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import libsha
from libsha import _elf, _loader, _native

from support.paths import ROOT

pytestmark = pytest.mark.core

SNIPPET = "import libsha; print(libsha.sha256_digest(b'abc').hex())"


def run_python(code, env, cwd):
    # Not from the checkout's root, where the source tree would shadow the installed package.
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True)


def run_with_library(path, cwd):
    return run_python(SNIPPET, dict(os.environ, LIBSHA_LIBRARY=path), cwd)


def test_override_pointing_at_nothing_is_a_clear_error(tmp_path):
    missing = str(tmp_path / "nowhere" / "libsha.so")
    result = run_with_library(missing, tmp_path)
    assert result.returncode != 0
    assert "LibraryLoadError" in result.stderr
    assert missing in result.stderr and "no such file" in result.stderr
    assert "LIBSHA_LIBRARY" in result.stderr  # says how to fix it


def test_override_pointing_at_another_library_is_a_clear_error(tmp_path):
    # A shared library of this process's own architecture that is not libsha: one of Python's extension
    # modules (PyPy's _ctypes, _hashlib and _ssl are Python files; its _sqlite3_cffi is a shared library).
    import importlib
    import importlib.util
    from importlib.machinery import EXTENSION_SUFFIXES

    names = ("_ctypes", "_hashlib", "_ssl", "_sqlite3", "_sqlite3_cffi")
    files = (getattr(importlib.import_module(name), "__file__", None) for name in names
             if importlib.util.find_spec(name) is not None)
    other = next((f for f in files if f and f.endswith(tuple(EXTENSION_SUFFIXES))), None)
    if other is None:
        pytest.skip("this Python has no extension module in a file to point at")
    result = run_with_library(other, tmp_path)
    assert result.returncode != 0
    assert "not a libsha library" in result.stderr


def test_override_pointing_at_a_non_library_file(tmp_path):
    junk = tmp_path / "lib" / "libsha.so"  # not in the cwd, where Python would import it
    junk.parent.mkdir()
    junk.write_bytes(b"not an ELF file")
    result = run_with_library(str(junk), tmp_path)
    assert result.returncode != 0
    assert "LibraryLoadError" in result.stderr and str(junk) in result.stderr


def test_override_pointing_at_the_real_library_works(tmp_path):
    path = _native.lib()._name
    result = run_with_library(path, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


@pytest.mark.parametrize(
    "platform, first", [("linux", "libsha.so"), ("darwin", "libsha.dylib"), ("win32", "libsha.dll")]
)
def test_platform_file_names(platform, first):
    names = _loader.library_filenames(platform)
    assert names[0] == first and sorted(names) == ["libsha.dll", "libsha.dylib", "libsha.so"]


def test_reference_imports_without_the_native_library(tmp_path):
    code = "import libsha.reference as r; print(r.sha256(b'abc').hex())"
    env = dict(os.environ, LIBSHA_LIBRARY=str(tmp_path / "missing.so"))
    result = run_python(code, env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ba7816bf")


def test_truncated_library(tmp_path):
    real = Path(_native.lib()._name).read_bytes()
    cut = tmp_path / "lib" / "libsha.so"
    cut.parent.mkdir()
    cut.write_bytes(real[: len(real) // 2])
    result = run_with_library(str(cut), tmp_path)
    assert result.returncode == 1  # an exception, not a crash (dlopen would die of SIGBUS)
    assert "LibraryLoadError" in result.stderr and str(cut) in result.stderr
    assert "truncated ELF file" in result.stderr


OTHER_ARCH_CC = {"x86_64": "aarch64-linux-gnu-gcc", "aarch64": "x86_64-linux-gnu-gcc"}.get(platform.machine())


@pytest.mark.parametrize("keep", [16, 60, 64, 1000, 4096, 12000])
def test_every_truncation_point_is_refused_before_dlopen(tmp_path, keep):
    real = Path(_native.lib()._name).read_bytes()
    cut = tmp_path / "libsha.so"
    cut.write_bytes(real[:keep])
    assert _elf.problem(str(cut)) is not None


def test_the_real_library_passes_the_elf_check():
    assert _elf.problem(_native.lib()._name) is None


@pytest.mark.build
@pytest.mark.skipif(not sys.platform.startswith("linux") or OTHER_ARCH_CC is None or shutil.which(OTHER_ARCH_CC) is None,
                    reason="needs a cross compiler for another CPU (gcc-aarch64-linux-gnu; .ci/run installs it)")
def test_library_for_another_architecture(tmp_path):
    src = ROOT / "libsha"
    if not (src / "src").is_dir():
        pytest.skip("needs the source checkout")
    foreign = tmp_path / "lib" / "libsha.so"
    foreign.parent.mkdir()
    # The library's portable sources, as CMakeLists.txt lists them for every target.
    listed = re.search(r"add_library\(sha SHARED\n(.*?)\)", (src.parent / "CMakeLists.txt").read_text(), re.S)
    sources = [src / "src" / f for f in re.findall(r"\$\{LIBSHA_SRC\}/(\S+\.c)", listed.group(1))]
    assert sources and all(f.exists() for f in sources), sources
    subprocess.run([OTHER_ARCH_CC, "-shared", "-fPIC", "-std=c11", "-O1", f"-I{src / 'include'}", f"-I{src / 'src'}",
                    "-DLIBSHA_BUILD",
                    '-DLIBSHA_VERSION_STRING="0.1.0"', *map(str, sources), "-o", str(foreign)], check=True)
    result = run_with_library(str(foreign), tmp_path)
    assert result.returncode != 0
    assert "LibraryLoadError" in result.stderr and str(foreign) in result.stderr
    assert f"built for aarch64; this process runs on {platform.machine()}" in result.stderr or "built for x86_64" in result.stderr


def test_missing_bundled_library(tmp_path):
    package = Path(libsha.__file__).parent
    copy = tmp_path / "site" / "libsha"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("*.so", "*.dylib", "*.dll", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "LIBSHA_LIBRARY"}
    env["PYTHONPATH"] = str(tmp_path / "site")
    result = run_python(SNIPPET, env, tmp_path)
    assert result.returncode != 0
    for name in ("libsha.so", "libsha.dylib", "libsha.dll"):
        assert str(copy / name) in result.stderr
    assert "pip install --force-reinstall libsha" in result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("objdump") is None,
                    reason="reads the library's glibc symbol versions with objdump (binutils), on Linux")
def test_the_library_needs_no_newer_glibc_than_manylinux2014():
    # A symbol from a newer glibc (fstat became GLIBC_2.33) raises the oldest system a wheel runs on.
    symbols = subprocess.run(["objdump", "-T", _native.lib()._name], capture_output=True, text=True, check=True).stdout
    versions = {tuple(int(p) for p in v.split(".")) for v in re.findall(r"GLIBC_(\d+(?:\.\d+)+)", symbols)}
    if not versions:
        pytest.skip("not linked against glibc (musl)")
    assert max(versions) <= (2, 17), sorted(versions)


def test_a_relative_override_is_the_file_in_the_working_folder(tmp_path):
    # Both paths open that one file (dlopen would look for a bare name in the system's folders instead).
    from libsha.cli import library_path

    shutil.copy(library_path(), tmp_path / "mine.so")
    code = SNIPPET + "; from libsha.cli import library_path; print(library_path())"
    for binding in ("ctypes", "accelerated") if libsha.dispatch.binding() == "accelerated" else ("ctypes",):
        env = dict(os.environ, LIBSHA_LIBRARY="mine.so", LIBSHA_BINDING=binding)
        result = run_python(code, env, tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == [hashlib.sha256(b"abc").hexdigest(), str(tmp_path / "mine.so")]
