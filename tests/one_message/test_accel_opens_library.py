"""The accelerator opens the library itself (libsha/_accel_library.c): a command that only hashes
starts without importing ctypes, it refuses what is not this libsha, and its file calls
(FilesControl, sha256_files) hold the ctypes path's contract."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import libsha
from libsha import _errors, _header
from libsha.cli import library_path
from support.binding import accelerator_internals

pytestmark = [pytest.mark.binding, accelerator_internals]  # (binding: the sanitizers run it)


def started(*args, cwd, env=None):
    """`python -X importtime -m libsha ARGS`: its result, and the modules it imported."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "libsha", *args], capture_output=True,
                            text=True, cwd=cwd, env=env, timeout=120)
    imported = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    return result, imported


@pytest.mark.parametrize("check", [False, True])
def test_libsha_sum_starts_without_ctypes(tmp_path, check):
    data = bytes(i % 251 for i in range(100_000))
    (tmp_path / "a").write_bytes(data)
    (tmp_path / "b").write_bytes(b"")
    args = ["sum", "a", "b"]
    if check:
        (tmp_path / "SUMS").write_text(f"{libsha.sha256_hexdigest(data)}  a\n{libsha.sha256_hexdigest(b'')}  b\n")
        args = ["sum", "-c", "SUMS"]
    result, imported = started(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    expected = ["a: OK", "b: OK"] if check else [f"{libsha.sha256_hexdigest(data)}  a",
                                                  f"{libsha.sha256_hexdigest(b'')}  b"]
    assert result.stdout.splitlines() == expected
    assert "libsha._accel" in imported and "libsha._files" in imported  # (the listing is read right)
    assert not {"ctypes", "_ctypes", "libsha._native"} & imported


def test_an_invalid_libsha_impl_is_said_without_ctypes_and_impl_still_serves(tmp_path):
    env = dict(os.environ, LIBSHA_IMPL="nonsense")
    (tmp_path / "a").write_bytes(b"abc")
    result, imported = started("sum", "a", cwd=tmp_path, env=env)
    assert result.returncode == 2 and "LIBSHA_IMPL='nonsense'" in result.stderr and "--impl" in result.stderr
    assert "ctypes" not in imported
    result, _ = started("sum", "--impl", "standard", "a", cwd=tmp_path, env=env)
    assert result.returncode == 0 and result.stdout == f"{libsha.sha256_hexdigest(b'abc')}  a\n"


def test_the_accelerator_opens_only_the_library_it_is_bound_to(tmp_path):
    from libsha import _accel

    libsha.sha256_digest(b"")  # opened and bound
    with pytest.raises(OSError, match="no-such-libsha"):
        _accel.open(str(tmp_path / "no-such-libsha.so"))
    with pytest.raises(OSError, match="not a libsha library of this version \\(no libsha_sha256\\)"):
        _accel.open(_accel.__file__)  # a shared library, but not libsha
    copy = tmp_path / Path(library_path()).name
    shutil.copy(library_path(), copy)
    with pytest.raises(ValueError, match="bound to another library already"):
        _accel.open(str(copy))  # another copy in the process: its state (select()) would not be this one's
    _accel.open(library_path())  # the one it has: nothing changes
    assert libsha.sha256_digest(b"abc") == bytes.fromhex(
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")


def test_files_control_and_sha256_files_as_the_ctypes_path_has_them(tmp_path):
    from libsha import _accel

    control = _accel.FilesControl(read_ahead=True)
    assert (control.read_ahead, control.bytes, control.gathered, control.cancel) == (1, 0, 0, 0)
    assert _accel.FilesControl().read_ahead == 0
    with pytest.raises(TypeError):
        _accel.FilesControl(True)  # keyword only, as the binding calls it
    with pytest.raises(AttributeError):
        control.bytes = 5  # the library's to count
    path = tmp_path / "f"
    path.write_bytes(b"x" * 70_000)
    code, digests, errors = _accel.sha256_files([bytes(path), bytes(tmp_path / "missing")], control)
    assert code == _errors.ERR_IO  # one file could not be read; the other was hashed
    assert digests == libsha.sha256_digest(b"x" * 70_000) + bytes(32) and errors[0] == 0 and errors[1] > 0
    assert control.bytes == 70_000
    assert _accel.sha256_files([], control) == (0, b"", [])
    control.cancel = True
    assert control.cancel == 1
    code, digests, errors = _accel.sha256_files([bytes(path)], control)
    assert (code, digests, errors) == (_errors.ERR_CANCELLED, bytes(32), [_header.FILE_CANCELLED])
    for bad_paths, bad_control in (([str(path)], control), ([None], control), (bytes(path), control),
                                   ([bytes(path)], object())):
        with pytest.raises(TypeError):
            _accel.sha256_files(bad_paths, bad_control)


def test_sha256_files_holds_no_memory(tmp_path):
    from libsha import _accel

    (tmp_path / "f").write_bytes(b"y" * 1000)
    paths = [bytes(tmp_path / "f"), bytes(tmp_path / "missing")]
    control = _accel.FilesControl()
    for _ in range(1000):
        _accel.sha256_files(paths, control)
    before = sys.getallocatedblocks()
    for _ in range(20_000):
        _accel.sha256_files(paths, control)
        try:
            _accel.sha256_files([1], control)
        except TypeError:
            pass
    assert sys.getallocatedblocks() - before < 100
