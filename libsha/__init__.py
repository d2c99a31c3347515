"""libsha: fast SHA-256 with run-time CPU dispatch, through ctypes.

    import libsha
    libsha.sha256(b"abc").hex()
    h = libsha.new(); h.update(b"a"); h.hexdigest()
    libsha.hmac_sha256(b"key", b"message")
    libsha.sha256d64(blobs)           # double SHA-256 of each 64-byte blob
    libsha.merkle_root(txids)         # (root, mutated), as Bitcoin Core computes it
    libsha.sha256_many(messages)      # a list, numpy rows or an Arrow column, at once
    libsha.sha256_file(path)          # a file, read and hashed in overlapping chunks

The pure-Python oracle is libsha.reference (it never loads the native library).
"""

import os as _os  # already loaded by Python's startup

if _os.path.isdir(_os.path.join(_os.path.dirname(__file__), "src")):  # a source tree: one stat elsewhere
    from ._checkout import refuse_a_shadowing_checkout

    refuse_a_shadowing_checkout(__file__)

# Each name is imported from its module when first used, so that `libsha sum`
# and `python -m libsha` load only what they run (startup is most of the cost
# of hashing one small file). Type checkers read the imports below.
import sys as _sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._buffers import NonContiguousError
    from ._dispatch import (
        CPU_FEATURES,
        USE_ALL,
        USE_AVX2,
        USE_AVX512,
        USE_SHANI,
        USE_SSE4,
        USE_STANDARD,
        Implementation,
        autodetect,
        build_type,
        cpu_features,
        implementation,
        implementations,
        library_version,
        select,
        using,
    )
    from ._files import sha256_file, sha256_files
    from ._hash import SHA256
    from ._hmac import HMAC, hmac_new, hmac_sha256
    from ._many import sha256_many
    from ._merkle import merkle_root
    from ._native import ConfigurationError, LibraryLoadError
    from ._oneshot import sha256, sha256d64

    # hashlib's constructor: new(data=b"", *, usedforsecurity=True).
    new = SHA256

# name: (module, its name there). hashlib's new() is the class itself, so that
# creating an object costs one call, not two.
_HOMES = {
    "NonContiguousError": ("_buffers", "NonContiguousError"),
    **{name: ("_dispatch", name) for name in (
        "CPU_FEATURES", "USE_ALL", "USE_AVX2", "USE_AVX512", "USE_SHANI", "USE_SSE4", "USE_STANDARD", "Implementation",
        "autodetect", "build_type", "cpu_features", "implementation", "implementations", "library_version",
        "select", "using")},
    "sha256_file": ("_files", "sha256_file"),
    "sha256_files": ("_files", "sha256_files"),
    "SHA256": ("_hash", "SHA256"),
    "new": ("_hash", "SHA256"),
    "HMAC": ("_hmac", "HMAC"),
    "hmac_new": ("_hmac", "hmac_new"),
    "hmac_sha256": ("_hmac", "hmac_sha256"),
    "sha256_many": ("_many", "sha256_many"),
    "merkle_root": ("_merkle", "merkle_root"),
    "ConfigurationError": ("_native", "ConfigurationError"),
    "LibraryLoadError": ("_native", "LibraryLoadError"),
    "sha256": ("_oneshot", "sha256"),
    "sha256d64": ("_oneshot", "sha256d64"),
}

__all__ = [
    "CPU_FEATURES",
    "HMAC",
    "SHA256",
    "USE_ALL",
    "USE_AVX2",
    "USE_AVX512",
    "USE_SHANI",
    "USE_SSE4",
    "USE_STANDARD",
    "ConfigurationError",
    "Implementation",
    "LibraryLoadError",
    "NonContiguousError",
    "autodetect",
    "build_type",
    "cpu_features",
    "hmac_new",
    "hmac_sha256",
    "implementation",
    "implementations",
    "library_version",
    "merkle_root",
    "new",
    "select",
    "sha256",
    "sha256_file",
    "sha256_files",
    "sha256_many",
    "sha256d64",
    "using",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is not None:
        module = f"{__name__}.{home[0]}"
        __import__(module)  # not importlib.import_module: importing importlib costs 0.4 ms
        value = getattr(_sys.modules[module], home[1])
        globals()[name] = value  # looked up here only once
        return value
    # __version__ on demand: importlib.metadata costs more to import than the rest of libsha.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("libsha")
        except PackageNotFoundError:  # imported from a source tree
            return "0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
