"""What a test needs, by marker (pyproject.toml registers them): `build` (builds libsha from source),
`emulated` (runs code under qemu or wine), `external` (calls other libraries or tools), `slow`,
`tooling`. The release, sanitizer and aarch64 runs select with `-m`, so a test that builds from
source without its marker would build where no compiler or checkout is meant to be: this plugin
fails such a test the moment it starts the build (or the emulator), wherever it runs."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from support.paths import ROOT

SOURCE = (ROOT / "libsha" / "src").resolve()
COMPILER = re.compile(r"^([\w.-]+-)?(cc|gcc|clang)(-\d+)?$")


def _resolved(arg: str) -> Path | None:
    try:
        return Path(arg).resolve()
    except (OSError, ValueError):
        return None


def _under(arg: str, folder: Path) -> bool:
    path = _resolved(arg)
    return path is not None and (path == folder or folder in path.parents)


def _is(arg: str, folder: Path) -> bool:
    return _resolved(arg) == folder


def needs(argv: list[str]) -> str | None:
    """The marker a command needs, or None: `build` for CMake, pip or the build frontend on the
    checkout, and a compiler given one of its C sources; `emulated` for qemu and wine."""
    exe = os.path.basename(argv[0]) if argv else ""
    if exe in ("cmake", "ctest"):
        return "build"
    if COMPILER.match(exe) or "ziglang" in argv:
        if any(_under(a, SOURCE) for a in argv[1:]):
            return "build"
    if "-m" in argv and {"pip", "build"} & set(argv) and any(_is(a, ROOT) for a in argv):
        return "build"
    if exe.startswith(("qemu-", "wine")):
        return "emulated"
    return None


class UnmarkedBuild(Exception):
    pass


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    # Setup included: a module's build fixture runs in its first test's setup.
    marks = {m.name for m in item.iter_markers()}
    original = subprocess.Popen.__init__

    def guarded(self, args, *rest, **kw):
        argv = [str(a) for a in ([args] if isinstance(args, (str, bytes, os.PathLike)) else args)]
        if kw.get("shell") and argv:
            argv = argv[0].split()
        wanted = needs(argv)
        if wanted is not None and wanted not in marks:
            raise UnmarkedBuild(f"{item.nodeid} runs {' '.join(argv)[:200]!r} without the "
                                f"@pytest.mark.{wanted} marker (tests/support/markers.py)")
        original(self, args, *rest, **kw)

    subprocess.Popen.__init__ = guarded
    try:
        yield
    finally:
        subprocess.Popen.__init__ = original
