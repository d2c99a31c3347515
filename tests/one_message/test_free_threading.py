"""The Python objects with no GIL: tests/one_message/free_threads_check.py under a free-threaded CPython.

The interpreter is LIBSHA_FREE_THREADED_PYTHON, else python3.14t or python3.13t on PATH. None of
them is packaged for Debian 12 or 13, so CI skips this test, saying so; build one with
`./configure --disable-gil` to run it (docs/python.md says what is guaranteed).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import libsha

pytestmark = [pytest.mark.core, pytest.mark.free_threaded]

ENV = "LIBSHA_FREE_THREADED_PYTHON"


def free_threaded_python():
    return os.environ.get(ENV) or shutil.which("python3.14t") or shutil.which("python3.13t")


@pytest.mark.skipif(free_threaded_python() is None,
                    reason=f"no free-threaded CPython here (set {ENV}, or put python3.13t/3.14t on PATH)")
def test_objects_shared_by_threads_without_the_gil(tmp_path):
    python = free_threaded_python()
    # The installed package alone, copied: not the rest of this interpreter's site-packages.
    shutil.copytree(Path(libsha.__file__).parent, tmp_path / "libsha")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHON_GIL": "0"}
    script = Path(__file__).with_name("free_threads_check.py")
    result = subprocess.run([python, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every digest right" in result.stdout
