"""The Python calls with no GIL: tests/one_message/free_threads_check.py under this interpreter, in a
process of its own per binding path (the accelerator's free-threaded build, and ctypes).

It runs where this interpreter is a free-threaded CPython with the GIL off: CI's free-threaded step
(tools/free_threaded_tests.sh, on the 3.13t that tools/free_threaded_python.sh builds) runs it there.
Elsewhere it skips, saying so.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.binding import LOADED

pytestmark = [pytest.mark.core, pytest.mark.free_threaded]

FREE_THREADED = hasattr(sys, "_is_gil_enabled") and not sys._is_gil_enabled()
SECONDS = "10"
# Both paths wherever the accelerator loads, whatever LIBSHA_TEST_PATHS keeps for the other tests:
# free-threaded, ctypes is what an interpreter without the cp313t wheel runs.
PATHS = ["accelerated", "ctypes"] if LOADED == "accelerated" else ["ctypes"]


@pytest.mark.skipif(not FREE_THREADED, reason="this interpreter runs with the GIL: the free-threaded stress runs "
                    "under tools/free_threaded_tests.sh (a python3.13t with the GIL off)")
@pytest.mark.parametrize("path", PATHS)
def test_threads_share_objects_and_batches_without_the_gil(path, tmp_path):
    env = {**os.environ, "LIBSHA_BINDING": path, "PYTHON_GIL": "0", "LIBSHA_STRESS_SECONDS": SECONDS}
    script = Path(__file__).with_name("free_threads_check.py")
    result = subprocess.run([sys.executable, "-X", "dev", str(script)], capture_output=True, text=True, env=env,
                            cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "every digest right" in result.stdout
    assert f"on {path}" in result.stdout, result.stdout  # the path asked for is the one that ran
    assert result.stderr == "", f"printed at exit or during the run:\n{result.stderr}"
