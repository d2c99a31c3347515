"""OpenSSL's SHA256() as a peer of libsha's rows without SHA-NI: C loop against C loop.

OpenSSL reads OPENSSL_ia32cap once, when libcrypto loads, and this process
loaded it with hashlib. So each mask runs in a child process
(`python -m shabench.openssl MASK SIZE EPOCHS MIN_TIME_MS`) that loads
libcrypto under that mask, checks its digest against libsha's, and times its
SHA256() in libsha's own C benchmark loop (libsha_internal_bench_peer: the same
feedback as LIBSHA_INTERNAL_BENCH_HASH), one indirect call per message.
"""

import ctypes
import ctypes.util
import json
import os
import subprocess
import sys
import tempfile

from .rows import MESSAGE_1M, Benchmark
from .measure import Measurement, measure

# The path of OpenSSL's that each libsha row without SHA-NI is set against:
# (mask, what it leaves OpenSSL, the CPU features it needs to mean that).
MASKS = {
    "avx2": (":~0x20000000", "SHA-NI masked: its AVX2+BMI2 path", {"avx2", "bmi2"}),
    "sse4": ("~0x1000000000000000:~0x20000128", "AVX, AVX2, BMI and SHA-NI masked: its SSSE3 path", {"sse4.1"}),
}
SIZES = (("SHA256", MESSAGE_1M), ("SHA256_1K", 1024), ("SHA256_64b", 64))


def mask_for(implementation):
    """The MASKS key of a libsha row without SHA-NI, or None."""
    if "shani" in implementation or not implementation.startswith(("sse4", "avx2")):
        return None
    return "avx2" if "avx2" in implementation else "sse4"


def _libcrypto():
    name = ctypes.util.find_library("crypto")
    return ctypes.CDLL(name) if name else None


def _openssl_version(lib):
    """e.g. "OpenSSL 3.0.19"; None for a libcrypto that is not OpenSSL 1.1 or later (LibreSSL,
    or too old to name itself so), which OPENSSL_ia32cap may not steer."""
    version = getattr(lib, "OpenSSL_version", None)
    if version is None:
        return None
    version.restype = ctypes.c_char_p
    version.argtypes = [ctypes.c_int]
    words = version(0).decode().split()
    return " ".join(words[:2]) if words[:1] == ["OpenSSL"] else None


def masks_of(implementations):
    """The MASKS keys the listed rows without SHA-NI are set against, in order, each once."""
    keys = []
    for impl in implementations:
        key = mask_for(impl)
        if key is not None and key not in keys:
            keys.append(key)
    return keys


def missing_for(key, features):
    """Why a mask would not mean its path on this CPU (the features it lacks), or None."""
    needs = MASKS[key][2]
    if needs <= set(features):
        return None
    return f"this CPU lacks {', '.join(sorted(needs - set(features)))}: the mask would not mean that path"


class PeerProcess:
    """Runs the child for one (mask, size) and hands its measurement to the row."""

    def __init__(self, mask, size, module="shabench.openssl"):
        self.mask, self.size, self.module = mask, size, module  # the child: `python -m module MASK SIZE ...`
        self._result = None

    def measurement(self, row, epochs, min_time_ms, iterations=None, foresee=None):
        if self._result is None:
            argv = [sys.executable, "-m", self.module, self.mask, str(self.size), str(epochs), str(min_time_ms),
                    str(iterations or 0)]
            data = _child_answer(argv, dict(os.environ, OPENSSL_ia32cap=self.mask), foresee,
                                 f"OpenSSL peer (OPENSSL_ia32cap={self.mask})")
            self._result = Measurement(per_unit_ns=data["per_unit_ns"], iterations=data["iterations"],
                                       total_s=data["total_s"])
        return self._result


def _child_answer(argv, env, foresee, who):
    """Runs a PeerProcess child and returns its answer, handing its foresight to foresee as it comes."""
    # From a neutral directory: `python -m` puts the working directory first on sys.path, and in a
    # checkout its libsha/ (no library built in it) would shadow the installed package. stderr goes
    # to a file, so that a child which writes much there cannot block while stdout is read.
    with tempfile.TemporaryFile("w+") as errors, \
            subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=errors, text=True,
                             cwd=tempfile.gettempdir()) as child:
        answers = []
        try:
            for data in filter(None, map(_json_object, child.stdout)):
                if "foresee_s" not in data:
                    answers.append(data)
                elif foresee is not None:
                    foresee(data["foresee_s"])
        except BaseException:  # Ctrl-C: the child stops too, as subprocess.run would stop it
            child.kill()
            raise
        if child.wait() != 0 or not answers:
            errors.seek(0)
            raise RuntimeError(f"{who} failed: {errors.read().strip()}")
        return answers[-1]


def openssl_benchmarks(implementations, features):
    """One peer row per size for each mask some listed row is set against."""
    masks = masks_of(implementations)
    if not masks:
        return []
    lib = _libcrypto()
    version = _openssl_version(lib) if lib is not None else None
    rows = []
    for key in masks:
        mask, path, _ = MASKS[key]
        for name, size in SIZES:
            runner = f'{version or "OpenSSL"} SHA256() with OPENSSL_ia32cap="{mask}" ({path}; C loop)'
            row = Benchmark(name, runner, size, None, peer=True, interleaved=PeerProcess(mask, size))
            if lib is None:
                row.left_out = "libcrypto not found (Debian: libssl3)"
            elif version is None:
                row.left_out = "the libcrypto found is not OpenSSL 1.1 or later: OPENSSL_ia32cap may not steer it"
            else:
                row.left_out = missing_for(key, features)
            rows.append(row)
    return rows


def child_arguments(argv):
    """A PeerProcess child's arguments: mask, size, epochs, min_time_ms, iterations (None: calibrated)."""
    mask, size, epochs, min_time_ms, iterations = argv
    return mask, int(size), int(epochs), float(min_time_ms), int(iterations) or None


def print_measurement(m):
    """A PeerProcess child's answer, on stdout."""
    print(json.dumps({"per_unit_ns": m.per_unit_ns, "iterations": m.iterations, "total_s": m.total_s}))


def _json_object(line):
    """A line the child printed as a JSON object, or None for a line some library printed."""
    try:
        data = json.loads(line)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def print_foresight(seconds):
    """measure's foresee in a PeerProcess child: the time its counted epochs will take, told at once."""
    print(json.dumps({"foresee_s": seconds}), flush=True)


def _child(mask, size, epochs, min_time_ms, iterations):
    """Times OpenSSL's SHA256() under the mask this process was started with."""
    from libsha import _errors

    from . import internal

    lib = _libcrypto()
    assert os.environ.get("OPENSSL_ia32cap") == mask, "the mask must be set before libcrypto loads"
    sha256 = ctypes.cast(lib.SHA256, ctypes.c_void_p).value
    native = internal.lib()
    buf = ctypes.create_string_buffer(bytes(i % 251 for i in range(size)), size)
    theirs = ctypes.create_string_buffer(32)
    lib.SHA256.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    lib.SHA256(buf, size, theirs)
    import libsha

    if theirs.raw != libsha.sha256_digest(buf.raw):
        raise SystemExit(f"OpenSSL's SHA256() under OPENSSL_ia32cap={mask} disagrees with libsha")

    def run(iterations):
        if native.libsha_internal_bench_peer(sha256, buf, size, iterations) != _errors.OK:
            raise RuntimeError("libsha_internal_bench_peer failed")

    print_measurement(measure(run, size, epochs, min_time_ms * 1e6, iterations, print_foresight))


if __name__ == "__main__":
    _child(*child_arguments(sys.argv[1:]))
