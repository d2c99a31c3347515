"""Pure-Python SHA-256 (FIPS 180-4) and SHA256D64: libsha's oracle.

Installed as ``libsha.reference``; it never loads the native library, so it
can check any SHA-256 implementation, ours included::

    from libsha.reference import sha256, sha256d64, Sha256, hmac_sha256, merkle_root
    from libsha.reference import pbkdf2_hmac_sha256, hkdf   # and hkdf_extract, hkdf_expand
    from libsha.reference import ssz, rfc6962, bep52       # the Merkle trees of SSZ, CT, BitTorrent v2
    from libsha.reference import fsverity, dmverity, glacier  # the kernel's verity trees, Glacier's tree hash
    from libsha.reference import ipfs                      # a file's IPFS CID (UnixFS)
"""

from .hmac import hmac_sha256
from .kdf import hkdf, hkdf_expand, hkdf_extract, pbkdf2_hmac_sha256
from .merkle import merkle_root
from .sha256 import (
    BLOCK_SIZE,
    DIGEST_SIZE,
    H0,
    K,
    Sha256,
    compress,
    padding,
    sha256,
    sha256d,
    sha256d64,
)

__all__ = [
    "BLOCK_SIZE",
    "DIGEST_SIZE",
    "H0",
    "K",
    "Sha256",
    "compress",
    "hkdf",
    "hkdf_expand",
    "hkdf_extract",
    "hmac_sha256",
    "merkle_root",
    "padding",
    "pbkdf2_hmac_sha256",
    "sha256",
    "sha256d",
    "sha256d64",
]
