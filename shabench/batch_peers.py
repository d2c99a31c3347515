"""Batch peer rows: isa-l_crypto's and Intel IPsec-MB's multi-buffer managers, and OffchainLabs/hashtree's
kernels, each by name, on the batches of libsha's SHA256_MANY_* rows (hashtree: those of 64-byte
messages, the only call it has), timed in libsha's C loop (libsha_internal_bench_peer_many) in this
process, every digest checked against libsha first.

None of them is part of libsha. batch_peers.c, their call-shape adapter, is compiled here on first
use against the peer's own headers (cc, or $CC), into a cache directory:
- IPsec-MB from the system (Debian: libipsec-mb-dev);
- isa-l_crypto from the prefix $SHABENCH_ISAL_CRYPTO names (tools/build_isal_crypto.sh makes one);
- hashtree from the prefix $SHABENCH_HASHTREE names (tools/build_hashtree.sh makes one).
A peer that is absent, or a manager this CPU cannot run, is a row left out with the reason.
"""

import ctypes
import functools
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import libsha
from libsha import _errors

from . import internal
from .rows import Benchmark

ADAPTER = Path(__file__).with_name("batch_peers.c")
ISAL_ENV = "SHABENCH_ISAL_CRYPTO"
HASHTREE_ENV = "SHABENCH_HASHTREE"
POOL = 64  # batch_peers.c's jobs in flight

# manager -> the libsha.dispatch.cpu_features() it needs
ISAL_MANAGERS = {"sse_ni": {"sse4.1", "sha"}, "avx2": {"avx2"}, "avx512": {"avx512"}, "avx512_ni": {"avx512", "sha"}}
IPSEC_MANAGERS = {"sse": {"sse4.1"}, "avx2": {"avx2"}, "avx512": {"avx512"}}
HASHTREE_KERNELS = {"shani_x2": {"sha"}, "avx512_x16": {"avx512"}, "avx2_x8": {"avx2"}, "avx_x4": {"avx"}}
IPSEC_HOW = {"sse": "SHA-NI where the CPU has it", "avx2": "IMB_FLAG_SHANI_OFF: its 8 lanes",
             "avx512": "IMB_FLAG_SHANI_OFF: its 16 lanes"}


class PeerUnavailable(Exception):
    """Why a peer's rows are left out here."""


def _on_x86_64():
    """The managers named here are x86-64 code (each library has its own elsewhere, or none)."""
    return platform.machine().lower() in ("x86_64", "amd64")


def _cache_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = Path(base) / "shabench"
    try:
        path.mkdir(parents=True, exist_ok=True)
        return path
    except OSError:
        return Path(tempfile.mkdtemp(prefix="shabench-"))


def _compile(define, cflags, libs):
    """The adapter built with -D<define> against one peer; a cached build is reused while the
    source and flags are the same."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise PeerUnavailable("no C compiler (cc or $CC) to build its adapter")
    flags = ["-O2", "-std=c11", "-shared", "-fPIC", f"-D{define}", *cflags]
    # The machine is in the key: a cache shared with another architecture's Python (an emulated one)
    # must not hand it this one's build.
    key = hashlib.sha256("\0".join([ADAPTER.read_text(), cc, *flags, *libs, sys.platform, platform.machine()])
                         .encode()).hexdigest()[:16]
    target = _cache_dir() / f"batch_peers_{define.lower()}_{key}.so"
    if not target.exists():
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        result = subprocess.run([cc, *flags, str(ADAPTER), "-o", str(partial), *libs], capture_output=True, text=True)
        if result.returncode != 0:
            raise PeerUnavailable(f"its adapter did not build: {(result.stderr.strip().splitlines() or ['?'])[-1]}")
        os.replace(partial, target)  # whole, or not at all, for a process racing this one
    try:
        lib = ctypes.CDLL(str(target))
    except OSError as why:
        raise PeerUnavailable(f"its adapter did not load: {why}") from None
    lib.peer_many.restype = ctypes.c_int
    lib.peer_free.argtypes = [ctypes.c_void_p]
    return lib


@functools.cache
def _ipsec():
    if not _on_x86_64():
        raise PeerUnavailable(f"its managers named here are x86-64 code; this is {platform.machine()}")
    if not any(Path(d, "intel-ipsec-mb.h").exists() for d in ("/usr/include", "/usr/local/include")):
        raise PeerUnavailable("Intel IPsec-MB not found (Debian: apt-get install libipsec-mb-dev)")
    lib = _compile("WITH_IPSEC_MB", [], ["-lIPSec_MB"])
    lib.ipsec_peer.restype = ctypes.c_void_p
    lib.ipsec_peer.argtypes = [ctypes.c_char_p]
    lib.ipsec_version.restype = ctypes.c_char_p
    return lib, f"IPsec-MB {lib.ipsec_version().decode()}", lib.ipsec_peer


def _built_peer(name, env, script, header, define, library, entry):
    """A peer built into the prefix $env names (by tools/<script>): the adapter compiled against its
    header and linked to its library, and the adapter's function that sets up one of its kernels by name."""
    if not _on_x86_64():
        raise PeerUnavailable(f"its kernels named here are x86-64 code; this is {platform.machine()}")
    prefix = os.environ.get(env)
    if not prefix:
        raise PeerUnavailable(f"{name} not built: tools/{script} SOURCE PREFIX, then {env}=PREFIX")
    prefix = Path(prefix)
    if not (prefix / "include" / header).exists():
        raise PeerUnavailable(f"{env}={prefix} has no include/{header}")
    lib = _compile(define, [f"-I{prefix / 'include'}"], [f"-L{prefix / 'lib'}", f"-Wl,-rpath,{prefix / 'lib'}", f"-l{library}"])
    new_peer = getattr(lib, entry)
    new_peer.restype = ctypes.c_void_p
    new_peer.argtypes = [ctypes.c_char_p]
    return lib, prefix, new_peer


@functools.cache
def _isal():
    lib, prefix, new_peer = _built_peer("isa-l_crypto", ISAL_ENV, "build_isal_crypto.sh", "isa-l_crypto/sha256_mb.h",
                                        "WITH_ISAL_CRYPTO", "isal_crypto", "isal_peer")
    version = next((line.split(":", 1)[1].strip() for line in _read(prefix / "lib" / "pkgconfig" / "libisal_crypto.pc")
                    if line.startswith("Version:")), "")
    return lib, f"isa-l_crypto {version}".strip(), new_peer


@functools.cache
def _hashtree():
    lib, prefix, new_peer = _built_peer("hashtree", HASHTREE_ENV, "build_hashtree.sh", "hashtree.h", "WITH_HASHTREE",
                                        "hashtree", "hashtree_peer")
    version = next(iter(_read(prefix / "VERSION")), "").strip()
    return lib, f"hashtree {version}".strip(), new_peer


def _read(path):
    try:
        return path.read_text().splitlines()
    except OSError:
        return []


def _any_batch(batch):
    return True


def _blocks_end_to_end(batch):
    """hashtree's call: 64-byte messages lying end to end (each batch's data is one buffer)."""
    return batch.length == 64


# name -> (loader, its managers, a row's label for one, the batches it can hash)
PEERS = {"isa-l_crypto": (_isal, ISAL_MANAGERS, lambda m: f"{m} manager, ISAL_HASH_ENTIRE jobs, {POOL} contexts",
                          _any_batch),
         "IPsec-MB": (_ipsec, IPSEC_MANAGERS, lambda m: f"{m} manager, IMB_AUTH_SHA_256 jobs, {IPSEC_HOW[m]}",
                      _any_batch),
         "hashtree": (_hashtree, HASHTREE_KERNELS, lambda m: f"{m} kernel, hashtree_sha256_{m}(out, blocks, count)",
                      _blocks_end_to_end)}


def _make_run(lib, new_peer, manager, batch):
    def make():
        peer = new_peer(manager.encode())
        if not peer:
            raise RuntimeError(f"the peer's {manager} manager could not be set up")
        data, offsets, count = batch.buffer(), batch.offsets, batch.count
        out = ctypes.create_string_buffer(32 * count)
        fn = ctypes.cast(lib.peer_many, ctypes.c_void_p)
        native = internal.lib()
        address = offsets.buffer_info()[0]
        # Checked first, on the batch it will time: every digest, against libsha.
        if lib.peer_many(ctypes.c_void_p(peer), out, data, ctypes.c_void_p(address), ctypes.c_size_t(count)) != 0:
            raise RuntimeError(f"the peer's {manager} manager failed on the batch")
        if out.raw != b"".join(libsha.sha256_many(batch.messages())):
            raise RuntimeError(f"the peer's {manager} manager disagrees with libsha on the batch")

        def run(iterations):
            code = native.libsha_internal_bench_peer_many(fn, peer, out, data, address, count, iterations)
            if code != _errors.OK:
                raise RuntimeError(f"libsha_internal_bench_peer_many over the peer's {manager} manager failed with {code}")

        run.keep = (peer, offsets)  # alive with the run (address is offsets' memory); the process frees peer at exit
        return run

    return make


def batch_peer_benchmarks(batches, features):
    """Every peer manager's row for each Batch, or its rows left out with why."""
    rows = []
    for peer_name, (load, managers, how, fits) in PEERS.items():
        try:
            lib, version, new_peer = load()
            absent = None
        except PeerUnavailable as why:
            lib, version, new_peer, absent = None, peer_name, None, str(why)
        for manager, needs in managers.items():
            missing = needs - set(features)
            for batch in filter(fits, batches):
                row = Benchmark(batch.name, f"{version} {how(manager)} (C loop)", batch.total,
                                None if absent or missing else _make_run(lib, new_peer, manager, batch), peer=True)
                if absent:
                    row.left_out = absent
                elif missing:
                    row.left_out = f"this CPU lacks {', '.join(sorted(missing))}"
                rows.append(row)
    return rows
