"""Runs started when collection ends, so their long, mostly idle minutes overlap the rest of the
session: mark the test that awaits one `@pytest.mark.background(run)`. Under pytest-xdist every
worker collects every test, so the first worker to reach a run starts it in a folder all of them
see, and the test awaits it there in whichever worker it lands (run alone, the test starts it)."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import pytest

# The run's own keeper: the command's output to files, its status written last (atomically), and
# the command killed at its limit, so no run outlives its session for long whoever started it.
KEEPER = r"""
import os, signal, subprocess, sys
folder, limit, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
with open(os.path.join(folder, "stdout"), "wb") as out, open(os.path.join(folder, "stderr"), "wb") as err:
    child = subprocess.Popen(argv, stdout=out, stderr=err, cwd=folder, start_new_session=True)
    try:
        code = child.wait(limit)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        code = "killed at its limit of %s s" % limit
with open(os.path.join(folder, "status.part"), "w") as f:
    f.write(str(code))
os.replace(os.path.join(folder, "status.part"), os.path.join(folder, "status"))
"""


_ROOT_VARIABLE = "LIBSHA_TESTS_BACKGROUND_ROOT"


def pytest_configure(config):
    # The session's folder for every run, made by the process that starts the xdist workers (they
    # inherit the variable) or by a plain run, and removed by it when the session ends.
    if not hasattr(config, "workerinput"):
        os.environ[_ROOT_VARIABLE] = tempfile.mkdtemp(prefix="libsha-background-")


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        import shutil

        shutil.rmtree(os.environ.pop(_ROOT_VARIABLE, ""), ignore_errors=True)


def _session_root() -> Path:
    return Path(os.environ[_ROOT_VARIABLE])


class BackgroundRun:
    """A command (from `make_argv`, which may skip) run in the background under its name, within
    `limit` seconds."""

    root: Path | None = None

    def __init__(self, name: str, make_argv, limit: float = 1800):
        self.name, self.make_argv, self.limit = name, make_argv, limit

    @property
    def folder(self) -> Path:
        if BackgroundRun.root is None:
            BackgroundRun.root = _session_root()
        return BackgroundRun.root / self.name

    def start(self) -> None:
        import subprocess

        self.folder.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.folder.mkdir()  # the one starter: whoever creates the folder
        except FileExistsError:
            return
        try:
            argv = self.make_argv()
        except pytest.skip.Exception as exc:
            (self.folder / "skipped").write_text(str(exc))
            return
        subprocess.Popen([sys.executable, "-c", KEEPER, str(self.folder), str(self.limit), *map(str, argv)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def wait(self, timeout: float):
        """(exit status, stdout, stderr, the folder it ran in); skips where make_argv skipped."""
        self.start()
        deadline = time.monotonic() + timeout
        status = self.folder / "status"
        while not status.exists() and not (self.folder / "skipped").exists():
            assert time.monotonic() < deadline, f"the background run {self.name} took over {timeout} s"
            time.sleep(0.2)
        if (self.folder / "skipped").exists():
            pytest.skip((self.folder / "skipped").read_text())
        text = status.read_text()
        assert text.lstrip("-").isdigit(), f"the background run {self.name}: {text}"
        read = lambda name: (self.folder / name).read_text(errors="replace")  # noqa: E731
        return int(text), read("stdout"), read("stderr"), self.folder


def pytest_collection_modifyitems(items):
    # Longest first, awaited last: the tests that build or emulate (minutes each) start at once on
    # every worker, the rest fill in around them, and a test awaiting a background run comes when
    # its run has had the whole session to finish, so no worker sits waiting on it.
    def order(item):
        if item.get_closest_marker("background") is not None:
            return 2
        return 0 if item.get_closest_marker("build") or item.get_closest_marker("emulated") else 1

    items.sort(key=order)  # stable: file order within each


def pytest_collection_finish(session):
    for item in session.items:
        marker = item.get_closest_marker("background")
        if marker is not None:
            marker.args[0].start()  # once: a started run does nothing more
