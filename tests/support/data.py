"""Test data and independent answers: inputs with no period a lane bug could hide in, every kind of
buffer the API takes, and hashlib's double hashes."""

import array
import hashlib

from support import rows

# The widest many-message kernel of any row, read from the rows' names (test_portable_lanes.py
# holds it against LIBSHA_MAX_LANES, the bound the C code sizes its arrays with).
WIDEST_LANES = rows.widest_lanes()


_CYCLE = bytes(range(251))


def pattern251(n, start=0):
    """n bytes of a 251-byte cycle: no power-of-two period for a lane or block bug to hide in.
    Byte i is (start + i) % 251, built at C speed (megabytes are common here)."""
    at = start % 251
    return (_CYCLE * ((at + n) // 251 + 1))[at : at + n]


def _numpy_uint8(data):
    import numpy

    return numpy.frombuffer(data, dtype=numpy.uint8)  # read-only


# Every kind of buffer the API takes, each holding exactly the given bytes: (name, make(bytes)).
BUFFER_KINDS = [
    ("bytes", bytes),
    ("bytearray", bytearray),
    ("memoryview", memoryview),
    ("mv-writable", lambda b: memoryview(bytearray(b))),
    ("mv-readonly", lambda b: memoryview(bytearray(b)).toreadonly()),
    ("mv-offset", lambda b: memoryview(b"xy" + b)[2:]),  # an unaligned start
    ("array-B", lambda b: array.array("B", b)),
    ("numpy-ro", _numpy_uint8),
]


def buffer_kinds():
    """BUFFER_KINDS without numpy's where numpy is not installed."""
    import importlib.util

    have_numpy = importlib.util.find_spec("numpy") is not None
    return [(name, make) for name, make in BUFFER_KINDS if have_numpy or not name.startswith("numpy")]


def sha256d(data):
    """Double SHA-256 by hashlib: the independent check for libsha's double hashes."""
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def sha256d64_by_hashlib(data):
    """Double SHA-256 of each 64-byte blob by hashlib, concatenated."""
    return b"".join(sha256d(data[i : i + 64]) for i in range(0, len(data), 64))


def merkle_root_by_hashlib(leaves):
    """Bitcoin Core's ComputeMerkleRoot, as libsha.reference writes it, over hashlib: (root, mutated)."""
    from libsha.reference import merkle_root

    return merkle_root(leaves, sha256d)
