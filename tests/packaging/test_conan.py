"""The Conan 2 recipe (packaging/conan): `conan create` builds the library from the files the recipe exports,
packages it, and builds and runs its test_package against it, offline (no remote is asked)."""

import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys

import pytest
from support.paths import ROOT
from support.version import project_version

pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec("conans") is None, reason="needs conan (pip install 'libsha[packagers]', in the test extras)"),
    pytest.mark.skipif(not (ROOT / "packaging" / "conan").is_dir(), reason="needs the source checkout"),
    pytest.mark.skipif(shutil.which("cmake") is None or shutil.which("cc") is None, reason="needs cmake and a C compiler"),
    pytest.mark.build,
    pytest.mark.tooling,
]


def conan(*args, cwd, home):
    result = subprocess.run([sys.executable, "-m", "conans.conan", *args], cwd=cwd, capture_output=True, text=True,
                            env=dict(os.environ, CONAN_HOME=str(home)))
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return result.stdout + result.stderr


def test_conan_create_builds_packages_and_tests_the_library(tmp_path):
    # A copy of what the recipe reads (its sources, and test_package's example), so that the build
    # folders Conan leaves beside test_package stay out of the checkout.
    source = tmp_path / "src"
    for part in ("CMakeLists.txt", "LICENSE", "cmake", "libsha/include", "libsha/src", "packaging", "examples/c"):
        (source / part).parent.mkdir(parents=True, exist_ok=True)
        copy = shutil.copytree if (ROOT / part).is_dir() else shutil.copy2
        copy(ROOT / part, source / part)
    home = tmp_path / "conan-home"
    conan("profile", "detect", cwd=tmp_path, home=home)
    out = conan("create", str(source / "packaging" / "conan"), "--build=missing", "--no-remote",
                "-s", "build_type=Release", cwd=tmp_path, home=home)
    # The version the recipe read from CMakeLists.txt, the test program's digest and the library it named.
    version = project_version()
    assert f"libsha/{version}" in out
    assert re.search(rf"^{hashlib.sha256(b'abc').hexdigest()}  \(\S+, libsha {re.escape(version)}\)$", out, re.M), out[-3000:]
    # The package: the shared library, every public header and the licence.
    (package,) = {p.parents[1] for p in home.rglob("licenses/LICENSE")}
    assert sorted(p.name for p in (package / "include").iterdir()) == sorted(p.name for p in (ROOT / "libsha" / "include").iterdir())
    assert list((package / "lib").glob("libsha.so*")) or list((package / "bin").glob("*sha*.dll")), sorted(package.rglob("*"))
