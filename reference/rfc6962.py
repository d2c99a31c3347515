"""Certificate Transparency's Merkle tree (RFC 6962 §2.1, RFC 9162 §2.1) on the pure-Python
SHA-256, each function written as the RFC defines it: MTH, PATH, PROOF/SUBPROOF, and the two
verification algorithms of RFC 9162 §2.1.3.2 and §2.1.4.2."""

from __future__ import annotations

import json
from pathlib import Path

from .sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

    Hash = Callable[[bytes], bytes]


def leaf_hash(data: bytes, sha256: Hash = sha256) -> bytes:
    """A leaf's hash: SHA-256 of 0x00 || the leaf's data."""
    return sha256(b"\x00" + bytes(data))


def node_hash(left: bytes, right: bytes, sha256: Hash = sha256) -> bytes:
    """An interior node's hash: SHA-256 of 0x01 || left || right. (Every function here takes the
    SHA-256 to use: the pure-Python one by default, a faster one (hashlib's) for large trees.)"""
    return sha256(b"\x01" + bytes(left) + bytes(right))


def _split(n: int) -> int:
    """k, the largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def mth(hashes: Sequence[bytes], sha256: Hash = sha256) -> bytes:
    """MTH over leaf hashes: the empty tree hashes nothing; one leaf is its own hash."""
    n = len(hashes)
    if n == 0:
        return sha256(b"")
    if n == 1:
        return bytes(hashes[0])
    k = _split(n)
    return node_hash(mth(hashes[:k], sha256), mth(hashes[k:], sha256), sha256)


def root(leaves: Sequence[bytes]) -> bytes:
    """The root of the tree over the leaves' data."""
    return mth([leaf_hash(d) for d in leaves])


def inclusion_proof(hashes: Sequence[bytes], m: int, sha256: Hash = sha256) -> list[bytes]:
    """PATH(m, D[n]): the audit path of leaf m in the tree over the leaf hashes."""
    n = len(hashes)
    if not 0 <= m < n:
        raise ValueError(f"leaf {m} is not in a tree of {n}")
    if n == 1:
        return []
    k = _split(n)
    if m < k:
        return inclusion_proof(hashes[:k], m, sha256) + [mth(hashes[k:], sha256)]
    return inclusion_proof(hashes[k:], m - k, sha256) + [mth(hashes[:k], sha256)]


def consistency_proof(hashes: Sequence[bytes], m: int, sha256: Hash = sha256) -> list[bytes]:
    """PROOF(m, D[n]) = SUBPROOF(m, D[n], true); empty for m = 0 and m = n."""
    n = len(hashes)
    if not 0 <= m <= n:
        raise ValueError(f"a tree of {m} is not the start of one of {n}")
    return [] if m in (0, n) else _subproof(hashes, m, True, sha256)


def _subproof(hashes: Sequence[bytes], m: int, b: bool, sha256: Hash) -> list[bytes]:
    n = len(hashes)
    if m == n:
        return [] if b else [mth(hashes, sha256)]
    k = _split(n)
    if m <= k:
        return _subproof(hashes[:k], m, b, sha256) + [mth(hashes[k:], sha256)]
    return _subproof(hashes[k:], m - k, False, sha256) + [mth(hashes[:k], sha256)]


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], root_hash: bytes) -> bool:
    """RFC 9162 §2.1.3.2 (hashes that are not 32 bytes never verify)."""
    if index >= size or not _hashes(leaf, root_hash, *proof):
        return False
    fn, sn, r = index, size - 1, bytes(leaf)
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == bytes(root_hash)


def verify_consistency(first: int, second: int, proof: Sequence[bytes], first_hash: bytes, second_hash: bytes) -> bool:
    """RFC 9162 §2.1.4.2 (0 < first <= second), with transparency-dev/merkle's rules where the RFC
    is silent: equal sizes need an empty proof and equal roots; nothing is consistent with the
    empty tree (such a proof is meaningless); hashes that are not 32 bytes never verify."""
    if not 0 < first <= second or not _hashes(first_hash, second_hash, *proof):
        return False
    if first == second:
        return not proof and bytes(first_hash) == bytes(second_hash)
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:  # an exact power of two
        path.insert(0, bytes(first_hash))
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == bytes(first_hash) and sr == bytes(second_hash)


def _hashes(*hashes: bytes) -> bool:
    return all(len(h) == 32 for h in hashes)


def vectors() -> dict[str, Any]:
    """transparency-dev/merkle's published vectors (vectors/RFC6962_transparency-dev.json), hex."""
    result: dict[str, Any] = json.loads((Path(__file__).with_name("vectors") / "RFC6962_transparency-dev.json").read_text())
    return result
