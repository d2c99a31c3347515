import array
import hashlib
from pathlib import Path

import pytest

import libsha


def runnable_implementations():
    return [impl.name for impl in libsha.implementations() if impl.runnable]


@pytest.fixture(params=runnable_implementations())
def implementation(request):
    """Runs the test once per implementation this CPU can run, with it active."""
    previous = libsha.implementation()
    with libsha.using(request.param):
        assert libsha.implementation() == request.param
        yield request.param
    assert libsha.implementation() == previous


# LIBSHA_MAX_LANES in libsha/src/sha256_impl.h: the widest many-message kernel any row may have
# (test_portable_lanes.py checks the two agree).
WIDEST_LANES = 16


def pattern251(n, start=0):
    """n bytes of a 251-byte cycle: no power-of-two period for a lane or block bug to hide in."""
    return bytes((start + i) % 251 for i in range(n))


@pytest.fixture
def rng(request):
    """A seeded random.Random; the seed is printed so a failure can be replayed (LIBSHA_TEST_SEED)."""
    import os
    import random

    seed = int(os.environ.get("LIBSHA_TEST_SEED", random.randrange(1 << 32)))
    print(f"{request.node.name}: seed {seed} (LIBSHA_TEST_SEED={seed} replays it)")
    return random.Random(seed)


def _numpy_uint8(data):
    import numpy

    return numpy.frombuffer(data, dtype=numpy.uint8)  # read-only


# Every kind of buffer the API takes, each holding exactly the given bytes: (name, make(bytes)).
BUFFER_KINDS = [
    ("bytes", bytes),
    ("bytearray", bytearray),
    ("memoryview", memoryview),
    ("mv-writable", lambda b: memoryview(bytearray(b))),
    ("mv-readonly", lambda b: memoryview(bytearray(b)).toreadonly()),
    ("mv-offset", lambda b: memoryview(b"xy" + b)[2:]),  # an unaligned start
    ("array-B", lambda b: array.array("B", b)),
    ("numpy-ro", _numpy_uint8),
]


def buffer_kinds():
    """BUFFER_KINDS without numpy's where numpy is not installed."""
    import importlib.util

    have_numpy = importlib.util.find_spec("numpy") is not None
    return [(name, make) for name, make in BUFFER_KINDS if have_numpy or not name.startswith("numpy")]


def run_threads(*targets):
    """Starts a thread per target, all at once, and waits for them."""
    import threading

    threads = [threading.Thread(target=t) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def sha256d(data):
    """Double SHA-256 by hashlib: the independent check for libsha's double hashes."""
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def run_command(*cmd, check=True, **kw):
    """A command's stdout (text), asserting it succeeded and showing its output when not; with
    check=False, the CompletedProcess."""
    import subprocess

    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if check:
        assert result.returncode == 0, f"{cmd}\n{result.stdout}\n{result.stderr}"
    return result.stdout if check else result


def gnu_sha256sum():
    """GNU coreutils' sha256sum on PATH, or None (another sha256sum answers differently)."""
    import shutil
    import subprocess

    path = shutil.which("sha256sum")
    if path is None:
        return None
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    return path if "GNU coreutils" in out else None


def sha256d64_by_hashlib(data):
    """Double SHA-256 of each 64-byte blob by hashlib, concatenated."""
    return b"".join(sha256d(data[i : i + 64]) for i in range(0, len(data), 64))


def merkle_root_by_hashlib(leaves):
    """Bitcoin Core's ComputeMerkleRoot, as libsha.reference writes it, over hashlib: (root, mutated)."""
    from libsha.reference import merkle_root

    return merkle_root(leaves, sha256d)


# A real Bitcoin block (see tests/data/README.md): 1,557 transactions, none with witnesses.
BLOCK = Path(__file__).parent / "data" / "block413567.raw"


def _read_varint(data, pos):
    first = data[pos]
    if first < 0xFD:
        return first, pos + 1
    size = {0xFD: 2, 0xFE: 4, 0xFF: 8}[first]
    return int.from_bytes(data[pos + 1 : pos + 1 + size], "little"), pos + 1 + size


def block_transactions(block):
    """The serialized transactions of a block without witnesses."""
    count, pos = _read_varint(block, 80)
    for _ in range(count):
        start = pos
        pos += 4  # version
        assert block[pos] != 0, "segwit marker: this parser reads blocks without witnesses"
        n_in, pos = _read_varint(block, pos)
        for _ in range(n_in):
            pos += 36  # previous output
            script, pos = _read_varint(block, pos)
            pos += script + 4  # script, sequence
        n_out, pos = _read_varint(block, pos)
        for _ in range(n_out):
            pos += 8  # value
            script, pos = _read_varint(block, pos)
            pos += script
        pos += 4  # lock time
        yield block[start:pos]
    assert pos == len(block), "the block holds exactly its transactions"


# The oracle's gallery (tests/data/oracle_gallery.c): one build per -D flag set, made once a session.
ORACLE_GALLERY = Path(__file__).parent / "data" / "oracle_gallery.c"
_gallery_builds = {}


def oracle_gallery_build(*flags):
    """The path of the gallery library built with these -D flags (e.g. "BUG_PAD55", "PACE_MBPS=50");
    skips without a C compiler on Linux."""
    import shutil
    import subprocess
    import sys
    import tempfile

    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or sys.platform != "linux":
        pytest.skip("the oracle's gallery needs a C compiler on Linux")
    if flags not in _gallery_builds:
        folder = Path(tempfile.mkdtemp(prefix="oracle-gallery-"))
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


def pytest_configure(config):
    config.addinivalue_line("markers", "background(run): the selected test's BackgroundRun starts when "
                            "collection ends, so its long, mostly idle work overlaps the rest of the session")


def pytest_collection_finish(session):
    for item in session.items:
        marker = item.get_closest_marker("background")
        if marker is not None:
            marker.args[0].start()  # once: a started run does nothing more


class BackgroundRun:
    """A command started when collection ends (mark its test `@pytest.mark.background(run)`) and
    awaited by that test; started by the test itself when run alone. `make_argv` may skip."""

    def __init__(self, make_argv):
        self.make_argv = make_argv
        self.process = None
        self.skipped = None

    def start(self):
        import atexit
        import subprocess
        import tempfile

        if self.process is not None or self.skipped is not None:
            return
        try:
            argv = self.make_argv()
        except pytest.skip.Exception as exc:
            self.skipped = str(exc)
            return
        self.folder = Path(tempfile.mkdtemp(prefix="background-"))
        with open(self.folder / "stdout", "wb") as out, open(self.folder / "stderr", "wb") as err:
            self.process = subprocess.Popen(argv, stdout=out, stderr=err, cwd=self.folder)
        atexit.register(self.process.kill)

    def wait(self, timeout):
        """(exit status, stdout, stderr, the folder it ran in)."""
        self.start()
        if self.skipped is not None:
            pytest.skip(self.skipped)
        self.process.wait(timeout)
        read = lambda name: (self.folder / name).read_text(errors="replace")  # noqa: E731
        return self.process.returncode, read("stdout"), read("stderr"), self.folder
