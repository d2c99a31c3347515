"""The fallback tiers on CPUs this machine is not, under qemu-x86_64 (user mode)."""

import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support.rows import AVX2, AVX2_1WAY, AVX512, SHANI, SHANI_4WAY, SHANI_AVX512, SSE4

QEMU = shutil.which("qemu-x86_64")
SCRIPT = Path(__file__).with_name("tier_check.py")

pytestmark = [
    pytest.mark.emulated,
    pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="x86-64 tiers need an x86-64 Python"),
    pytest.mark.skipif(QEMU is None, reason="qemu-x86_64 is not installed (Debian package qemu-user; .ci/run installs it)"),
]


@pytest.mark.parametrize(
    "cpu, expected, refused",
    [
        # qemu runs no AVX-512: its models with AVX-512 (Skylake-Server) lose those bits, as they must.
        ("qemu64", "standard", [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY, AVX2, SSE4]),
        ("Nehalem", SSE4, [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY, AVX2]),
        ("Haswell", AVX2_1WAY, [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512]),
        ("Skylake-Server", AVX2_1WAY, [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512]),
        # AVX2 without BMI2 (no such Intel part, but a VM can hide it): the AVX2 row without the single stream.
        # (BMI2 without BMI1 is left to tests/c/test_x86_decide.c: under qemu, glibc's own string code faults.)
        ("Haswell,-bmi2", AVX2, [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY]),
        # BMI2 but no OS-saved YMM state (XSAVE off): no AVX row may run.
        ("Haswell,-xsave", SSE4, [SHANI_AVX512, SHANI_4WAY, SHANI, AVX512, AVX2_1WAY, AVX2]),
    ],
)
def test_tier_under_emulation(tmp_path, cpu, expected, refused):
    env = {k: v for k, v in os.environ.items() if k != "LIBSHA_IMPL"}
    result = subprocess.run([QEMU, "-cpu", cpu, sys.executable, str(SCRIPT)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["detected"] == expected == report["decided"]
    assert report["refused"] == refused  # asked for, refused with ValueError: no SIGILL
    assert report["failures"] == []
    assert report["checks"] > 400
