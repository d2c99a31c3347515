"""The code the models read: libsha's kernels built as the library builds them, and the peers' kernels.

libsha's are compiled by its own CMake (the family flags, -O3, every option as a wheel has them) with
the compiler named (gcc, clang; for ARM, Debian's aarch64 cross gcc through the project's toolchain
file), into a folder of their own; every function of an object in src/kernels/ is a kernel. The
peers' are read from the prefixes shabench's peer rows use ($SHABENCH_ISAL_CRYPTO,
$SHABENCH_HASHTREE: tools/build_isal_crypto.sh and tools/build_hashtree.sh make them).
"""

import os
import shutil
import subprocess
from pathlib import Path

from . import disasm

# The source tree the kernels are built from: $SHABENCH_SOURCE, or the one this file lies in (an editable
# install's; a wheel's is no source tree, and tools/kernel_cycles.py sets its own checkout).
CHECKOUT = Path(os.environ.get("SHABENCH_SOURCE") or Path(__file__).resolve().parents[2])
# A peer: (environment variable, library under its prefix, its name's prefix in our tables, its kernels).
PEERS = {
    "isa-l": ("SHABENCH_ISAL_CRYPTO", "lib/libisal_crypto.so", lambda n: n.startswith(("sha256_mb_x", "sha256_ni_x"))),
    "hashtree": ("SHABENCH_HASHTREE", "lib/libhashtree.so",
                 lambda n: n.startswith("hashtree_sha256_") and not n.endswith(("generic", "_x1"))),
}
# Where each target's compilers come from: (CMake toolchain file or None, compilers to try).
TARGETS = {"x86": (None, ("gcc", "clang")), "arm": ("cmake/toolchains/aarch64-linux-gnu.cmake", ("gcc",))}


class Unavailable(Exception):
    """Why a build or a peer is left out here."""


def have_source():
    return (CHECKOUT / "CMakeLists.txt").is_file() and (CHECKOUT / "libsha" / "src" / "kernels").is_dir()


def _compiler(name):
    for candidate in (name, f"{name}-19", f"{name}-14"):
        if shutil.which(candidate):
            return candidate
    return None


def _lock(f):
    try:
        import fcntl
    except ImportError:  # Windows: builds are not shared there
        return
    fcntl.flock(f, fcntl.LOCK_EX)


def build(target, compiler, where):
    """libsha's kernel objects for target ('x86', 'arm') built by compiler ('gcc', 'clang') under where."""
    if not have_source():
        raise Unavailable(f"needs libsha's source tree: {CHECKOUT} is none (an installed wheel); "
                          "SHABENCH_SOURCE=CHECKOUT names one")
    toolchain, _ = TARGETS[target]
    out = Path(where) / f"{target}-{compiler}"
    args = ["cmake", "-S", str(CHECKOUT), "-B", str(out), "-DCMAKE_BUILD_TYPE=Release", "-DLIBSHA_NO_PYTHON_ACCEL=ON"]
    if toolchain is not None:
        if compiler != "gcc" or not shutil.which("aarch64-linux-gnu-gcc"):
            raise Unavailable("the aarch64 build needs Debian's gcc-aarch64-linux-gnu")
        args.append(f"-DCMAKE_TOOLCHAIN_FILE={CHECKOUT / toolchain}")
    else:
        cc = _compiler(compiler)
        if cc is None:
            raise Unavailable(f"no {compiler} on PATH")
        args.append(f"-DCMAKE_C_COMPILER={cc}")
    env = dict(os.environ)
    env.pop("CMAKE_C_COMPILER_LAUNCHER", None)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / ".lock", "w") as lock:
        _lock(lock)  # one build of a folder at a time (the tool and shabench, or two test workers)
        for step in (args, ["cmake", "--build", str(out), "--target", "sha", "-j", str(os.cpu_count() or 2)]):
            result = subprocess.run(step, capture_output=True, text=True, env=env)
            if result.returncode != 0:
                raise Unavailable(f"{' '.join(step[:2])} failed: {(result.stderr or result.stdout).strip()[-400:]}")
    objects = sorted(p for suffix in ("o", "obj") for p in out.glob(f"CMakeFiles/sha.dir/**/kernels/*.{suffix}"))
    if not objects:
        raise Unavailable(f"no kernel objects under {out}")
    return objects


def kernels(target, compiler, where):
    """{name: Function} of every kernel libsha's build has for target; a file's own helpers as FILE:NAME."""
    found = {}
    for obj in build(target, compiler, where):
        stem = obj.name.split(".")[0]
        for name, function in disasm.read_functions(obj, lambda n: True, target).items():
            if not function.instructions:
                continue
            function.name = name if name.startswith("libsha_") else f"{stem}:{name}"
            found[function.name] = function
    return found


def peer_kernels(peer):
    """{name: Function} of a peer's kernels, named PEER:FUNCTION, from the prefix its variable names."""
    env, library, wanted = PEERS[peer]
    prefix = os.environ.get(env)
    if not prefix:
        script = "build_isal_crypto.sh" if peer == "isa-l" else "build_hashtree.sh"
        raise Unavailable(f"${env} is not set (tools/{script} makes a prefix)")
    path = Path(prefix) / library
    if not path.is_file():
        raise Unavailable(f"no {library} under ${env}={prefix}")
    found = {}
    for name, function in disasm.read_functions(path, wanted, "x86").items():
        function.name = f"{peer}:{name}"
        found[function.name] = function
    return found
