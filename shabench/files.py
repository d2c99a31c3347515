"""The FILE and SUM rows: files hashed as Python callers and shell users hash them.

FILE rows time one Python call on a page-cached file: libsha.sha256_file beside
hashlib.file_digest. SUM rows time whole commands by the wall clock, process
start included: `libsha sum` beside GNU sha256sum and `openssl dgst -sha256`
on the same files. The entries of a row run in turn, epoch after epoch
(interleaved), so a busy neighbour slows them alike; each one's digests are
checked against libsha's before anything is timed.

SHABENCH_SUM_MIB sets the large file's size (256 MiB; the issue's figure is 1024).
The FILES_16x64MiB and SUM_16x64MiB rows hash 16 files of SHABENCH_FILES_MIB (64) MiB each.
"""

import atexit
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import libsha
from libsha._cpus import usable_cpus

from .measure import Interleaved
from .rows import Benchmark

SMALL_FILES = (10_000, 4096)
EMPTY_RUNS = 10  # runs of each command per epoch: one alone lasts milliseconds


def _large_mib():
    return int(os.environ.get("SHABENCH_SUM_MIB", "256"))


_workdir = None


def _dir():
    global _workdir
    if _workdir is None:
        _workdir = tempfile.mkdtemp(prefix="shabench-files-")
        atexit.register(shutil.rmtree, _workdir, True)
    return _workdir


def random_file(name, mib):
    """A file of mib MiB of random bytes in the run's folder, made the first time it is asked for."""
    path = os.path.join(_dir(), name)
    if not os.path.exists(path):
        with open(path, "wb") as f:
            for _ in range(mib):
                f.write(os.urandom(1 << 20))
    return path


def _large_file():
    return random_file(f"large-{_large_mib()}MiB.bin", _large_mib())


LARGE_FILES = 16


def _files_mib():
    return int(os.environ.get("SHABENCH_FILES_MIB", "64"))


def _many_large_files():
    """LARGE_FILES files of _files_mib() MiB, each of other bytes (made once)."""
    folder = os.path.join(_dir(), f"large-{LARGE_FILES}x{_files_mib()}MiB")
    names = [f"f{i:02d}" for i in range(LARGE_FILES)]
    if not os.path.isdir(folder):
        os.mkdir(folder)
        for name in names:
            with open(os.path.join(folder, name), "wb") as f:
                for _ in range(_files_mib()):
                    f.write(os.urandom(1 << 20))
    return folder, names


def _small_files():
    folder = os.path.join(_dir(), "small")
    count, size = SMALL_FILES
    names = [f"f{i:05d}" for i in range(count)]
    if not os.path.isdir(folder):
        os.mkdir(folder)
        data = os.urandom(count * size)
        for i, name in enumerate(names):
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data[i * size : (i + 1) * size])
    return folder, names


def _empty_file():
    path = os.path.join(_dir(), "empty")
    open(path, "wb").close()
    return path


def gnu_sha256sum():
    """GNU coreutils' sha256sum on PATH, or None (another sha256sum answers differently)."""
    path = shutil.which("sha256sum")
    if path is None:
        return None
    out = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    return path if "GNU coreutils" in out else None


def _libsha_command():
    """The console script a user runs; `python -m libsha` where it is not installed."""
    script = shutil.which("libsha", path=sysconfig.get_path("scripts"))
    return [script] if script else [sys.executable, "-m", "libsha"]


def _command_run(argv, cwd, expected):
    """make() for a command whose stdout's first words must be `expected` (hex digests, in order).
    It runs in our own folder at least: `python -m` in a source checkout would import the checkout."""
    cwd = cwd or _dir()

    def make():
        out = subprocess.run(argv, cwd=cwd, capture_output=True, check=True).stdout.decode()
        got = [line.split()[-1] if line.startswith("SHA2-256(") or line.startswith("SHA256(") else line.split()[0]
               for line in out.splitlines()]
        if expected is not None and got != expected:
            raise RuntimeError(f"{argv[0]} disagrees with libsha")

        def run():
            subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, check=True)

        return run

    return make


def _wall(name):
    return f"{name} (command, wall time)"


def _command_rows(row, unit_bytes, ours, command):
    """A row's commands: `libsha sum` (titled `ours`), GNU sha256sum and openssl dgst, each
    command(argv) giving its make(); a peer not on PATH is listed as left out."""
    entries = {_wall(ours): command(_libsha_command() + ["sum"])}
    gnu, openssl = gnu_sha256sum(), shutil.which("openssl")
    if gnu:
        entries[_wall("GNU sha256sum")] = command([gnu])
    if openssl:
        entries[_wall("openssl dgst -sha256")] = command([openssl, "dgst", "-sha256"])
    group = Interleaved(entries)
    rows = [Benchmark(row, name, unit_bytes, None, True, interleaved=group) for name in entries]
    return rows + _left_out(row, [("GNU sha256sum", gnu), ("openssl dgst -sha256", openssl)])


def _large_rows():
    mib = _large_mib()
    expected = []

    def command(argv):
        def make():
            path = _large_file()
            if not expected:
                expected.append(libsha.sha256_file(path).hex())
            return _command_run(argv + [path], None, expected)()

        return make

    return _command_rows(f"SUM_{mib}MiB", mib << 20, "libsha sum", command)


def _small_rows():
    count, size = SMALL_FILES
    expected = []

    def command(argv):
        def make():
            folder, names = _small_files()
            if not expected:
                expected.extend(d.hex() for d in libsha.sha256_files([os.path.join(folder, n) for n in names]))
            return _command_run(argv + names, folder, expected)()

        return make

    return _command_rows(f"SUM_{count}x{size // 1024}KiB", count * size, f"libsha sum, {usable_cpus()} jobs", command)


def _empty_rows():
    row = "SUM_EMPTY_FILE"
    empty_hex = hashlib.sha256(b"").hexdigest()

    def command(argv, check=True):
        def make():
            path = _empty_file()
            return _command_run(argv + ([path] if check else []), None, [empty_hex] if check else None)()

        return make

    per_run = "; ns/byte here is ns per run"
    entries = {_wall("libsha sum") + per_run: command(_libsha_command() + ["sum"]),
               _wall("python -m libsha sum") + per_run: command([sys.executable, "-m", "libsha", "sum"]),
               _wall("python -c pass, the same Python") + per_run: command([sys.executable, "-c", "pass"], False)}
    gnu = gnu_sha256sum()
    if gnu:
        entries[_wall("GNU sha256sum") + per_run] = command([gnu])
    group = Interleaved(entries, runs=EMPTY_RUNS)
    rows = [Benchmark(row, name, 1, None, True, interleaved=group) for name in entries]
    return rows + _left_out(row, [("GNU sha256sum", gnu)])


def _python_rows():
    mib = _large_mib()
    row = f"FILE_{mib}MiB"

    def libsha_call():
        path = _large_file()
        return lambda: libsha.sha256_file(path)

    def hashlib_call():
        path = _large_file()
        with open(path, "rb") as f:
            if hashlib.file_digest(f, "sha256").digest() != libsha.sha256_file(path):
                raise RuntimeError("hashlib.file_digest disagrees with libsha")

        def run():
            with open(path, "rb") as f:
                hashlib.file_digest(f, "sha256")

        return run

    entries = {f"libsha.sha256_file(path) ('{libsha.dispatch.implementation()}', one Python call)": libsha_call}
    if hasattr(hashlib, "file_digest"):  # Python 3.11+
        entries["hashlib.file_digest(f, 'sha256') (one Python call)"] = hashlib_call
    group = Interleaved(entries)
    return [Benchmark(row, name, mib << 20, None, True, interleaved=group) for name in entries]


def _many_large_rows():
    """sha256_files on LARGE_FILES large files, one worker: through the lanes (k files at a time)
    against a sha256_file loop (each file read and hashed alone); and with the default workers."""
    row = f"FILES_{LARGE_FILES}x{_files_mib()}MiB"
    impl = libsha.dispatch.implementation()

    def paths():
        folder, names = _many_large_files()
        return [os.path.join(folder, n) for n in names]

    def lanes_call():
        files = paths()
        return lambda: libsha.sha256_files(files, jobs=1)

    def one_stream_call():
        files = paths()
        expected = libsha.sha256_files(files, jobs=1)

        def run():
            if [libsha.sha256_file(p) for p in files] != expected:
                raise RuntimeError("sha256_file disagrees with sha256_files")

        return run

    def default_call():
        files = paths()
        return lambda: libsha.sha256_files(files)

    entries = {f"libsha.sha256_files(paths, jobs=1) ('{impl}', {libsha.dispatch.lanes()} files at a time)": lanes_call,
               f"libsha.sha256_file(path) for each path ('{impl}', one file at a time)": one_stream_call,
               f"libsha.sha256_files(paths) ('{impl}', {usable_cpus()} jobs)": default_call}
    group = Interleaved(entries)
    return [Benchmark(row, name, LARGE_FILES * _files_mib() << 20, None, True, max_epochs=5, interleaved=group)
            for name in entries]


def _many_large_sum_rows():
    expected = []

    def command(argv):
        def make():
            folder, names = _many_large_files()
            if not expected:
                expected.extend(d.hex() for d in libsha.sha256_files([os.path.join(folder, n) for n in names]))
            return _command_run(argv + names, folder, expected)()

        return make

    return _command_rows(f"SUM_{LARGE_FILES}x{_files_mib()}MiB", LARGE_FILES * _files_mib() << 20,
                         f"libsha sum, {usable_cpus()} jobs", command)


def _left_out(row, peers):
    return [Benchmark(row, _wall(name), 1, None, True, left_out=f"{name.split()[0]} not found on PATH")
            for name, found in peers if not found]


def file_benchmarks():
    """The FILE rows: one Python call per file, or per set of files (made when the first of them runs)."""
    return _python_rows() + _many_large_rows()


def sum_benchmarks():
    """The SUM rows: whole commands, `libsha sum` beside its peers (their files are made when run)."""
    return _large_rows() + _many_large_sum_rows() + _small_rows() + _empty_rows()
