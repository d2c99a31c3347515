"""wheels.toml gives cibuildwheel exactly the intended build identifiers (printing them needs no containers)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = ["cp39", "cp310", "cp311", "cp312", "cp313", "cp314"]
INTENDED = {
    "linux": [f"{py}-{libc}_{arch}" for libc in ("manylinux", "musllinux") for arch in ("x86_64", "aarch64") for py in PYTHONS],
    "macos": [f"{py}-macosx_{arch}" for arch in ("x86_64", "arm64") for py in PYTHONS],
    "windows": [f"{py}-win_{arch}" for arch in ("amd64", "arm64") for py in PYTHONS],
}

pytestmark = pytest.mark.skipif(not (ROOT / "wheels.toml").exists(), reason="needs the source checkout")


@pytest.mark.parametrize("platform", sorted(INTENDED))
def test_build_identifiers(platform, tmp_path):
    pytest.importorskip("cibuildwheel", reason="cibuildwheel is in the test extras")
    result = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", platform,
                             "--config-file", str(ROOT / "wheels.toml"), str(ROOT)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(result.stdout.split()) == sorted(INTENDED[platform])
