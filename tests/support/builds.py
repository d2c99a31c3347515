"""CMake trees the tests share: one configured and built tree per configuration, made once a
session however many tests and pytest-xdist workers ask for it (the first builds it under a file
lock, the others wait and reuse it), so no test depends on another having run first."""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path
from support.paths import ROOT


# The tree the C tests, the portable lanes' suites and the examples' install share: the tests'
# portable 16-lane row included (after standard, never chosen automatically), so ctest sweeps it too.
TESTS_TREE = ("tests", ["-DCMAKE_BUILD_TYPE=Release", "-DLIBSHA_BUILD_TESTS=ON", "-DLIBSHA_WARNINGS_AS_ERRORS=ON",
                        "-DLIBSHA_TEST_PORTABLE_LANES=ON"])


def session_folder(tmp_path_factory) -> Path:
    """A folder every worker of this pytest session sees (xdist gives each worker its own basetemp,
    inside one shared folder)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextlib.contextmanager
def locked(path: Path):
    """An exclusive lock on path (created), across processes."""
    import fcntl  # the trees are built on POSIX hosts only; Windows never reaches here

    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run(cmd: list, **kw) -> None:
    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))}\n{result.stdout[-6000:]}\n{result.stderr[-6000:]}")


def cmake_tree(tmp_path_factory, name: str, options: list, source: Path = ROOT, targets: tuple = ()) -> Path:
    """The build folder of `source` configured with `options` and built (all targets, or `targets`),
    once a session per name; a failed build fails every test that asks for it, with its output."""
    folder = session_folder(tmp_path_factory) / f"cmake-{name}"
    folder.mkdir(parents=True, exist_ok=True)
    build, done, failed = folder / "build", folder / "built", folder / "failed"
    with locked(folder / "lock"):
        if not done.exists() and not failed.exists():
            try:
                run(["cmake", "-S", source, "-B", build, *options])
                run(["cmake", "--build", build, "-j2", *[a for t in targets for a in ("--target", t)]])
                done.touch()
            except AssertionError as exc:
                failed.write_text(str(exc))
        if failed.exists():
            raise AssertionError(f"the shared tree {name} did not build:\n{failed.read_text()}")
    return build


def shared_tests_tree(tmp_path_factory) -> Path:
    """TESTS_TREE built: libsha.so, test_libsha, test_guard_pages and the other C tests."""
    return cmake_tree(tmp_path_factory, *TESTS_TREE)
