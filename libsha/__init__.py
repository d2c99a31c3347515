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

from ._buffers import NonContiguousError
from ._dispatch import (
    CPU_FEATURES,
    USE_ALL,
    USE_AVX2,
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

# hashlib's constructor: new(data=b"", *, usedforsecurity=True). The class itself,
# so that creating an object costs one call, not two.
new = SHA256

__all__ = [
    "CPU_FEATURES",
    "HMAC",
    "SHA256",
    "USE_ALL",
    "USE_AVX2",
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


def __getattr__(name: str) -> str:
    # __version__ on demand: importlib.metadata costs more to import than the rest of libsha.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("libsha")
        except PackageNotFoundError:  # imported from a source tree
            return "0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
