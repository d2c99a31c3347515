"""Every x86 row, the AVX-512 ones included, on an emulated CPU that has AVX-512 and SHA-NI (Bochs,
tests/support/bochs.py), whatever this machine's CPU lacks: each row's self-test and what reaches
each of its kernels (emulated_rows_check.py), against hashlib."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import bochs, rows

from libsha import _loader

SCRIPT = Path(__file__).with_name("emulated_rows_check.py")

pytestmark = [
    pytest.mark.emulated,
    pytest.mark.skipif(not bochs.runs_here(), reason="needs x86-64 Linux and bochscpu-python (pip install '.[test]')"),
]


def emulated_report(library):
    result = subprocess.run([sys.executable, str(SCRIPT), str(library)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_x86_row_is_right_on_an_emulated_avx512_cpu():
    report = emulated_report(_loader.path())
    assert report["failures"] == [], f"seed {report['seed']}"
    built = set(report["rows"])
    x86 = [name for name in rows.names() if name in built and name != rows.ARM]
    assert {rows.AVX512, rows.SHANI_AVX512} <= set(x86), "the library was built without its AVX-512 rows"
    for name in x86:  # the emulated CPU has every x86 feature a row can ask for
        assert report["rows"][name]["runnable"], name
        assert report["rows"][name]["checks"] >= 100, name  # 53 a window, two windows


@pytest.mark.skipif(not rows.old_names(), reason="no row has an old name (or registry.c is not here to say)")
def test_an_old_name_selects_its_row_on_an_emulated_avx512_cpu():
    names = [n for pair in rows.old_names() for n in pair]
    result = subprocess.run([sys.executable, str(SCRIPT), str(_loader.path()), "--select", *names],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == dict.fromkeys(names, 0)
