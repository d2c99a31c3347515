"""What the Python side mirrors of libsha.h: its constants and the layouts of the structures it
passes (each checked against the header by tests/library/test_native_api.py). The return codes are
_errors'."""

from __future__ import annotations

import ctypes
from ctypes import c_int, c_size_t, c_uint32, c_uint64, c_void_p

# os_errors[i] of libsha_sha256_files that are not errno values.
FILE_CANCELLED = -1

# sha256_many's flags: SHA256(SHA256(m)); the digests as hex, made in the same call.
DOUBLE = 1
HEX = 2

DIGEST_SIZE = 32
# A saved state's size (libsha_sha256_export), and an HMAC context's (libsha_hmac_sha256_export).
STATE_SIZE = 120
HMAC_STATE_SIZE = 152
BLOCK_SIZE = 64

class X86Cpuid(ctypes.Structure):
    """libsha_x86_cpuid: the CPUID and XGETBV readings libsha_x86_decide decides on."""

    _fields_ = [("max_leaf", c_uint32), ("vendor", ctypes.c_char * 16), ("leaf1", c_uint32 * 4),
                ("leaf7", c_uint32 * 4), ("xcr0", c_uint64)]


# libsha_batch's layouts.
POINTERS, OFFSETS32, OFFSETS64, ROWS, VIEWS = range(5)


class Batch(ctypes.Structure):
    """libsha_batch: where a batch's n messages lie, in one of the layouts above (libsha.h)."""

    _fields_ = [("layout", c_int), ("n", c_size_t), ("msgs", c_void_p), ("lens", c_void_p), ("data", c_void_p),
                ("offsets32", c_void_p), ("offsets64", c_void_p), ("stride", c_size_t), ("len", c_size_t),
                ("views", c_void_p), ("buffers", c_void_p), ("buffer_sizes", c_void_p), ("nbuffers", c_size_t)]


class Rfc6962Log(ctypes.Structure):
    """libsha_rfc6962_log: an append-only log's size and the roots of its perfect subtrees."""

    _fields_ = [("size", c_uint64), ("nodes", (ctypes.c_ubyte * 32) * 64)]


# The longest RFC 6962 proof of any tree, in nodes (LIBSHA_RFC6962_MAX_PROOF).
RFC6962_MAX_PROOF = 65


class FilesControl(ctypes.Structure):
    """libsha_files_control: bytes read so far, a flag that stops libsha_sha256_files, small files
    gathered, and whether a second thread reads large files ahead of the hash."""

    _fields_ = [("bytes", c_uint64), ("cancel", c_uint32), ("gathered", c_uint32), ("read_ahead", c_uint64)]
