"""The kernel's block trees in the merkle group: fs-verity's file digest and dm-verity's hash file of
a page-cached file (1 GiB, SHABENCH_VERITY_MIB), from Python in one call (one thread and two),
beside the tools that make them (`fsverity digest`, `veritysetup format`) and `libsha`'s own
commands, whole commands by the wall clock, and beside a hashlib loop making the same tree in
Python; and both trees of a buffer per implementation, one C call through ctypes each. Every
answer is checked against libsha's before anything is timed."""

from __future__ import annotations

import functools
import hashlib
import os
import subprocess

import libsha
from libsha import dmverity, fsverity
from libsha._cpus import usable_cpus

from .files import _dir, _libsha_command, _wall
from .measure import Interleaved
from .rows import Benchmark, timed_on
from .verity_peers import (fsverity_command, fsverity_digest, fsverity_digest_argv, veritysetup_command,
                           veritysetup_format, veritysetup_format_argv)

BLOCK = 4096
SALT = bytes(range(32))
BUFFER_MIB = 256


def _mib():
    return int(os.environ.get("SHABENCH_VERITY_MIB", "1024"))


def _sha(data):
    return hashlib.sha256(data).digest()


def _tree_by_hashlib(path, salt_before, salt_after=b""):
    """The root of the kernel's tree as Python code makes it: a hashlib call a block, the digests
    packed into 4 KiB blocks, a level at a time."""
    level = []
    with open(path, "rb") as f:
        while block := f.read(BLOCK):
            level.append(_sha(salt_before + block.ljust(BLOCK, b"\0") + salt_after))
    while len(level) > 1:
        packed = b"".join(level)
        packed += bytes(-len(packed) % BLOCK)
        level = [_sha(salt_before + packed[i : i + BLOCK] + salt_after) for i in range(0, len(packed), BLOCK)]
    return level[0]


@functools.lru_cache(maxsize=None)
def _file():
    """The file (made, and every peer's answer checked, when a row first runs)."""
    mib = _mib()
    path = os.path.join(_dir(), f"verity-{mib}MiB.bin")
    if not os.path.exists(path) or os.path.getsize(path) != mib << 20:
        with open(path, "wb") as f:
            for _ in range(mib):
                f.write(os.urandom(1 << 20))
    made = fsverity.file_tree(path, salt=SALT)
    if _tree_by_hashlib(path, SALT + bytes(32)) != made.root:
        raise RuntimeError("the hashlib fs-verity loop disagrees with libsha.fsverity")
    if fsverity_command() and fsverity_digest(path, salt=SALT) != made.digest:
        raise RuntimeError("fsverity digest disagrees with libsha.fsverity")
    root = dmverity.file_tree(path, salt=SALT).root
    if veritysetup_command() and veritysetup_format(path, _hash_file("check"), salt=SALT)[0] != root:
        raise RuntimeError("veritysetup format disagrees with libsha.dmverity")
    return path


def _hash_file(who):
    return os.path.join(_dir(), f"verity-{who}.hash")


def _command(argv):
    def make():
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)  # its answer was checked by _file()
        return lambda: subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)

    return make


def _fsverity_rows():
    impl = libsha.dispatch.implementation()
    name = f"FSVERITY_DIGEST_{_mib()}MiB_file"
    entries = {f"libsha.fsverity.file_digest(path) ('{impl}', one Python call)":
               lambda: functools.partial(fsverity.file_digest, _file(), salt=SALT)}
    if usable_cpus() >= 2:
        entries[f"libsha.fsverity.file_digest(path, threads=2) ('{impl}', one Python call, 2 threads)"] = \
            lambda: functools.partial(fsverity.file_digest, _file(), salt=SALT, threads=2)
    entries["hashlib, a call a 4 KiB block, level by level (a Python loop)"] = \
        lambda: functools.partial(_tree_by_hashlib, _file(), SALT + bytes(32))
    commands = {_wall("libsha fsverity digest"): lambda: _command(
        _libsha_command() + ["fsverity"] + fsverity_digest_argv(_file(), salt=SALT)[1:])()}
    if fsverity_command():
        commands[_wall("fsverity digest (fsverity-utils)")] = lambda: _command(fsverity_digest_argv(_file(), salt=SALT))()
    return _rows(name, entries, commands, [("fsverity digest (fsverity-utils)", fsverity_command(),
                                            "fsverity-utils' fsverity is not installed (Debian: fsverity)")])


def _dmverity_rows():
    impl = libsha.dispatch.implementation()
    name = f"DMVERITY_FORMAT_{_mib()}MiB_file"
    entries = {f"libsha.dmverity.format(data, hash) ('{impl}', one Python call)":
               lambda: functools.partial(dmverity.format, _file(), _hash_file("python"), salt=SALT)}
    if usable_cpus() >= 2:
        entries[f"libsha.dmverity.format(data, hash, threads=2) ('{impl}', one Python call, 2 threads)"] = \
            lambda: functools.partial(dmverity.format, _file(), _hash_file("python"), salt=SALT, threads=2)
    entries["hashlib, a call a 4 KiB block, level by level (a Python loop)"] = \
        lambda: functools.partial(_tree_by_hashlib, _file(), SALT)
    ours = _libsha_command() + ["verity"] + veritysetup_format_argv(_file(), _hash_file("ours"), salt=SALT)[1:]
    commands = {_wall("libsha verity format"): lambda: _command(ours)()}
    if veritysetup_command():
        commands[_wall("veritysetup format (cryptsetup)")] = lambda: _command(
            veritysetup_format_argv(_file(), _hash_file("theirs"), salt=SALT))()
    return _rows(name, entries, commands, [("veritysetup format (cryptsetup)", veritysetup_command(),
                                            "cryptsetup's veritysetup is not installed (Debian: cryptsetup-bin)")])


def _rows(name, entries, commands, peers):
    every = {**entries, **commands}
    group = Interleaved(every)
    rows = [Benchmark(name, runner, _mib() << 20, None, True, max_epochs=5, interleaved=group) for runner in every]
    return rows + [Benchmark(name, _wall(title), _mib() << 20, None, True, left_out=why)
                   for title, found, why in peers if not found]


@functools.lru_cache(maxsize=None)
def _buffer():
    return os.urandom(BUFFER_MIB << 20)


def _per_implementation(implementation):
    """Both trees of a buffer on one implementation: one C call through ctypes an iteration."""
    on = functools.partial(timed_on, implementation)
    return [Benchmark(f"FSVERITY_TREE_{BUFFER_MIB}MiB_buffer", implementation, BUFFER_MIB << 20,
                      on(lambda: fsverity.tree(_buffer(), salt=SALT)), max_epochs=5),
            Benchmark(f"DMVERITY_TREE_{BUFFER_MIB}MiB_buffer", implementation, BUFFER_MIB << 20,
                      on(lambda: dmverity.tree(_buffer(), salt=SALT)), max_epochs=5)]


def verity_benchmarks(implementations):
    return ([row for impl in implementations for row in _per_implementation(impl)] + _fsverity_rows()
            + _dmverity_rows())
