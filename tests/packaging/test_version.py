"""One version: written once, in CMakeLists.txt's project(), and read by the Python package's metadata, the
library (libsha_version()), its SONAME, the pkg-config file and the CMake package; CHANGELOG.md has its
section. The SONAME rule is docs/c-api.md's: libsha.so.0.MINOR before 1.0, libsha.so.MAJOR from 1.0."""

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys

import pytest
from support.builds import shared_tests_tree
from support.paths import ROOT
from support.processes import run_command as run
from support.version import project_version

import libsha

pytestmark = pytest.mark.skipif(not (ROOT / "CMakeLists.txt").exists(), reason="needs the source checkout")


def soversion(version):
    major, minor, _ = version.split(".")
    return f"0.{minor}" if major == "0" else major


def test_the_python_package_and_its_library_carry_the_project_version():
    version = project_version()
    assert importlib.metadata.version("libsha") == libsha.__version__ == libsha.library_version() == version


def test_the_changelog_has_the_project_versions_section():
    text = (ROOT / "CHANGELOG.md").read_text()
    sections = re.findall(r"^## \[([^\]]+)\](?: - (\S+))?$", text, re.M)
    names = [name for name, _ in sections]
    assert names and names[0] in ("Unreleased", project_version()), names
    assert project_version() in names, f"CHANGELOG.md has no section for {project_version()}"
    for name, date in sections:
        assert name == "Unreleased" or re.fullmatch(r"\d{4}-\d{2}-\d{2}|Unreleased", date or ""), (name, date)
    # Each version's changes under Keep a Changelog's headings alone.
    kinds = set(re.findall(r"^### (.+)$", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds


@pytest.mark.build
@pytest.mark.skipif(shutil.which("cmake") is None or not sys.platform.startswith("linux"), reason="needs cmake on Linux")
def test_the_install_tree_carries_the_project_version(tmp_path_factory, tmp_path):
    version = project_version()
    prefix = tmp_path / "prefix"
    run("cmake", "--install", shared_tests_tree(tmp_path_factory), "--prefix", prefix)
    lib = next(p.parent for p in prefix.rglob("libsha.so"))
    # The SONAME chain: the link name, the SONAME, the file.
    assert os.readlink(lib / "libsha.so") == f"libsha.so.{soversion(version)}"
    assert os.readlink(lib / f"libsha.so.{soversion(version)}") == f"libsha.so.{version}"
    if shutil.which("readelf"):
        dynamic = run("readelf", "-d", lib / f"libsha.so.{version}")
        assert f"Library soname: [libsha.so.{soversion(version)}]" in dynamic
    if shutil.which("pkg-config"):
        env = dict(os.environ, PKG_CONFIG_PATH=str(lib / "pkgconfig"))
        assert run("pkg-config", "--modversion", "libsha", env=env).strip() == version
    # The CMake package's version file, as find_package(libsha X.Y.Z) asks it: this version, and which others it
    # answers for (the same minor before 1.0, the same major after).
    major, minor, patch = map(int, version.split("."))
    asked = {version: True, f"{major}.{minor}.{patch + 1}": False, f"{major + 1}.0.0": False}
    if major == 0 and minor > 0:
        asked[f"0.{minor - 1}.0"] = False  # before 1.0 another minor is another ABI
    if major > 0 and minor > 0:
        asked[f"{major}.0.0"] = True
    for wanted, compatible in asked.items():
        script = tmp_path / "ask.cmake"
        script.write_text(f'set(PACKAGE_FIND_VERSION "{wanted}")\n'
                          f'string(REPLACE "." ";" parts "{wanted}")\n'
                          'list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)\nlist(GET parts 1 PACKAGE_FIND_VERSION_MINOR)\n'
                          'list(GET parts 2 PACKAGE_FIND_VERSION_PATCH)\n'
                          f'include("{lib / "cmake" / "libsha" / "libshaConfigVersion.cmake"}")\n'
                          'message("${PACKAGE_VERSION} ${PACKAGE_VERSION_COMPATIBLE}")\n')
        out = subprocess.run(["cmake", "-P", str(script)], capture_output=True, text=True, check=True).stderr.split()
        assert out[0] == version and (out[1] == "TRUE") == compatible, (wanted, out)
