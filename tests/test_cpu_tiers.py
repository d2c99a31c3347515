"""The fallback tiers on CPUs this machine is not, under qemu-x86_64 (user mode)."""

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

QEMU = shutil.which("qemu-x86_64")
SCRIPT = Path(__file__).with_name("tier_check.py")

pytestmark = [
    pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 tiers need an x86-64 Python"),
    pytest.mark.skipif(QEMU is None, reason="qemu-x86_64 is not installed (Debian package qemu-user; .ci/run installs it)"),
]


@pytest.mark.parametrize(
    "cpu, expected, refused",
    [
        ("qemu64", "standard", ["x86_shani(1way,2way)", "sse4(1way),sse41(4way),avx2(8way)", "sse4(1way),sse41(4way)"]),
        ("Nehalem", "sse4(1way),sse41(4way)", ["x86_shani(1way,2way)", "sse4(1way),sse41(4way),avx2(8way)"]),
        ("Haswell", "sse4(1way),sse41(4way),avx2(8way)", ["x86_shani(1way,2way)"]),
    ],
)
def test_tier_under_emulation(tmp_path, cpu, expected, refused):
    env = {k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"}
    result = subprocess.run([QEMU, "-cpu", cpu, sys.executable, str(SCRIPT)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["detected"] == expected
    assert report["refused"] == refused  # asked for, refused with ValueError: no SIGILL
    assert report["failures"] == []
    assert report["checks"] > 400
