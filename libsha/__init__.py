"""libsha: fast SHA-256 with run-time CPU dispatch, through ctypes.

    import libsha
    libsha.sha256(b"abc").hexdigest()   # hashlib's object: update, digest, copy
    libsha.sha256_digest(b"abc")        # the same as one call, faster; sha256_hexdigest too
    libsha.hmac_sha256(b"key", b"message")
    libsha.sha256d64(blobs)             # double SHA-256 of each 64-byte blob
    libsha.merkle_root(txids)           # (root, mutated), as Bitcoin Core computes it
    libsha.sha256_64(nodes)             # a Merkle level: SHA-256 of each 64-byte node (hashtree's call)
    libsha.ssz, libsha.rfc6962, libsha.bep52  # Ethereum's SSZ, Certificate Transparency, BitTorrent v2 trees
    libsha.sha256_many(messages)        # a list, numpy rows or an Arrow column, at once
    libsha.sha256_many(messages, prefix=p)   # each after one prefix, hashed once
    libsha.hmac_sha256_many(key, messages)   # HMAC of each under one key, in the lanes
    libsha.tagged_hash("BIP0340/challenge", m)  # BIP-340; tagged_hash_many for a batch
    h.state(); libsha.sha256.from_state(s)  # a saved state, resumed anywhere (pickle too)
    libsha.sha256_file(path)            # a file, read and hashed in overlapping chunks
    libsha.pbkdf2_hmac("sha256", pw, salt, 600_000)   # hashlib's call; pbkdf2_hmac_many for a batch
    libsha.hkdf(key_material, 32, salt, info)         # HKDF-SHA256 (hkdf_extract, hkdf_expand, HKDF)

Which implementation runs is libsha.dispatch's (select, using, implementations, ...).
The pure-Python oracle is libsha.reference (it never loads the native library).
"""

import os as _os  # already loaded by Python's startup

if _os.path.isdir(_os.path.join(_os.path.dirname(__file__), "src")):  # a source tree: one stat elsewhere
    from ._checkout import refuse_a_shadowing_checkout

    refuse_a_shadowing_checkout(__file__)

# Each name is imported from its module when first used, so that `libsha sum`
# and `python -m libsha` load only what they run (startup is most of the cost
# of hashing one small file).
import sys as _sys

# The one list of public names: name -> the module that defines it (None: a
# submodule of that name). __all__ and __dir__ read it; the imports type
# checkers see below are checked against it by tests/packaging/test_package_layout.py.
_HOMES = {
    "sha256": "_one.sha256",
    "new": "_one.sha256",
    "sha256_digest": "_one.oneshot",
    "sha256_hexdigest": "_one.oneshot",
    "sha256d64": "_one.oneshot",
    "HMAC": "_one.hmac",
    "hmac_new": "_one.hmac",
    "hmac_sha256": "_one.hmac",
    "sha256_many": "_many.messages",
    "hmac_sha256_many": "_many.messages",
    "tagged_hash": "_many.tagged",
    "tagged_hash_many": "_many.tagged",
    "merkle_root": "_trees.bitcoin",
    "sha256_64": "_trees.level",
    "pbkdf2_hmac": "_kdf.pbkdf2",
    "pbkdf2_hmac_many": "_kdf.pbkdf2",
    "hkdf": "_kdf.hkdf",
    "hkdf_extract": "_kdf.hkdf",
    "hkdf_expand": "_kdf.hkdf",
    "HKDF": "_kdf.hkdf",
    "HKDFExpand": "_kdf.hkdf",
    "AlreadyFinalized": "_errors",
    "InvalidKey": "_errors",
    "sha256_file": "_files",
    "sha256_files": "_files",
    "update_many": "_many.streams",
    "library_version": "_native",
    "ConfigurationError": "_errors",
    "LibraryLoadError": "_errors",
    "NonContiguousError": "_errors",
    "dispatch": None,
    "reference": None,
    "ssz": None,
    "rfc6962": None,
    "bep52": None,
    "fsverity": None,
    "dmverity": None,
    "glacier": None,
    "ipfs": None,
    "filecoin": None,
}

__all__ = sorted(_HOMES)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import bep52 as bep52
    from . import dispatch as dispatch
    from . import dmverity as dmverity
    from . import filecoin as filecoin
    from . import fsverity as fsverity
    from . import glacier as glacier
    from . import ipfs as ipfs
    from . import reference as reference
    from . import rfc6962 as rfc6962
    from . import ssz as ssz
    from ._errors import AlreadyFinalized as AlreadyFinalized
    from ._errors import ConfigurationError as ConfigurationError
    from ._errors import InvalidKey as InvalidKey
    from ._errors import LibraryLoadError as LibraryLoadError
    from ._errors import NonContiguousError as NonContiguousError
    from ._files import sha256_file as sha256_file
    from ._files import sha256_files as sha256_files
    from ._one.sha256 import new as new
    from ._one.sha256 import sha256 as sha256
    from ._kdf.hkdf import HKDF as HKDF
    from ._kdf.hkdf import HKDFExpand as HKDFExpand
    from ._kdf.hkdf import hkdf as hkdf
    from ._kdf.hkdf import hkdf_expand as hkdf_expand
    from ._kdf.hkdf import hkdf_extract as hkdf_extract
    from ._one.hmac import HMAC as HMAC
    from ._one.hmac import hmac_new as hmac_new
    from ._one.hmac import hmac_sha256 as hmac_sha256
    from ._many.messages import hmac_sha256_many as hmac_sha256_many
    from ._many.messages import sha256_many as sha256_many
    from ._trees.bitcoin import merkle_root as merkle_root
    from ._trees.level import sha256_64 as sha256_64
    from ._native import library_version as library_version
    from ._one.oneshot import sha256_digest as sha256_digest
    from ._kdf.pbkdf2 import pbkdf2_hmac as pbkdf2_hmac
    from ._kdf.pbkdf2 import pbkdf2_hmac_many as pbkdf2_hmac_many
    from ._one.oneshot import sha256_hexdigest as sha256_hexdigest
    from ._one.oneshot import sha256d64 as sha256d64
    from ._many.tagged import tagged_hash as tagged_hash
    from ._many.tagged import tagged_hash_many as tagged_hash_many
    from ._many.streams import update_many as update_many
del TYPE_CHECKING  # not a public name


def __getattr__(name: str) -> object:
    if name in _HOMES:
        home = _HOMES[name]
        module = f"{__name__}.{home or name}"
        __import__(module)  # not importlib.import_module: importing importlib costs 0.4 ms
        value = _sys.modules[module] if home is None else getattr(_sys.modules[module], name)
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
