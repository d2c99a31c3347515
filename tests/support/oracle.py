"""The oracle's tests' helpers: the gallery of wrong builds, a run of the oracle, system libraries."""

from pathlib import Path

import pytest
from support.paths import TESTS

# The oracle's gallery (tests/data/oracle_gallery.c): one build per -D flag set, made once a session.
ORACLE_GALLERY = TESTS / "data" / "oracle_gallery.c"
_gallery_builds = {}


def oracle_gallery_build(*flags):
    """The path of the gallery library built with these -D flags (e.g. "BUG_PAD55", "PACE_MBPS=50");
    skips without a C compiler on Linux."""
    import atexit
    import shutil
    import subprocess
    import sys
    import tempfile

    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or sys.platform != "linux":
        pytest.skip("the oracle's gallery needs a C compiler on Linux")
    if flags not in _gallery_builds:
        folder = Path(tempfile.mkdtemp(prefix="oracle-gallery-"))
        atexit.register(shutil.rmtree, folder, True)
        library = folder / "libgallery.so"
        subprocess.run([cc, "-O2", "-shared", "-fPIC", *(f"-D{f}" for f in flags), str(ORACLE_GALLERY), "-o",
                        str(library), "-ldl"], check=True)
        _gallery_builds[flags] = str(library)
    return _gallery_builds[flags]


def run_oracle(tmp_path, *args, seconds="0.3"):
    """python -m libsha.oracle in this process with a fixed seed and a short random phase: (exit status,
    the JSON report or None when it ended before one, as on bad usage)."""
    import json

    from libsha.oracle.cli import main

    report = tmp_path / "report.json"
    code = main([*map(str, args), "--json", str(report), "--seed", "7", "--seconds", seconds])
    return code, json.loads(report.read_text()) if report.exists() else None


def oracle_smallest_failure(report, suite):
    """The smallest failing case the oracle's JSON report gives for one suite."""
    (result,) = [s for s in report["suites"] if s["name"] == suite]
    return result["smallest_failure"]


def system_library(name):
    """The system's lib<name> as ctypes finds it; skips, saying so, where it is not installed."""
    import ctypes.util

    path = ctypes.util.find_library(name)
    if path is None:
        pytest.skip(f"lib{name} is not installed (Debian: .ci/run installs it)")
    return path
