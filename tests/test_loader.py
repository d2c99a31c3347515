"""Finding the native library, and the error when it cannot be found."""

import os
import subprocess
import sys

import pytest

from libsha import _native

SNIPPET = "import libsha; print(libsha.sha256(b'abc').hex())"


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
    # A shared library of this process's own architecture that is not libsha: one of Python's extension modules.
    import importlib

    other = next((m.__file__ for m in map(importlib.import_module, ("_ctypes", "_hashlib", "_ssl", "_sqlite3"))
                  if getattr(m, "__file__", None)), None)
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
    names = _native.library_filenames(platform)
    assert names[0] == first and sorted(names) == ["libsha.dll", "libsha.dylib", "libsha.so"]


def test_reference_imports_without_the_native_library(tmp_path):
    code = "import libsha.reference as r; print(r.sha256(b'abc').hex())"
    env = dict(os.environ, LIBSHA_LIBRARY=str(tmp_path / "missing.so"))
    result = run_python(code, env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ba7816bf")
