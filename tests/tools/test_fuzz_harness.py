"""The atheris harness runs its seed corpus plus a short burst of mutations cleanly.

Keeps tests/fuzz/fuzz_python.py from rotting between CI fuzzing runs (tools/fuzz.sh
runs it for real, against an ASan-instrumented library). A mismatch with hashlib
or an unexpected exception makes the harness exit non-zero, and this test fail.
"""

import re
import shutil
import subprocess
import sys

import pytest

from support.paths import TESTS

pytestmark = [pytest.mark.tooling]

pytest.importorskip("atheris", reason="atheris is not installed (test extra: x86-64 Linux, CPython 3.11-3.13)")

FUZZ = TESTS / "fuzz"


def test_python_harness_runs_clean(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(FUZZ / "corpus_python", corpus)
    seeds = len(list(corpus.iterdir()))
    run = subprocess.run(
        [sys.executable, str(FUZZ / "fuzz_python.py"), "-runs=3000", "-seed=1", str(corpus)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    done = re.search(r"^Done (\d+) runs", run.stderr, re.M)  # libFuzzer may overshoot -runs a little
    assert done and int(done.group(1)) >= 3000, run.stderr[-3000:]
    assert seeds >= 20, "the seed corpus went missing"
