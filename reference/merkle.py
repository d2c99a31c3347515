"""The Bitcoin Merkle root, as Bitcoin Core's ComputeMerkleRoot computes it, on the pure-Python SHA-256."""

from __future__ import annotations

from .sha256 import sha256d

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterable


def merkle_root(leaves: Iterable[bytes], hash_pair: Callable[[bytes], bytes] = sha256d) -> tuple[bytes, bool]:
    """(root, mutated) of 32-byte leaves.

    Each level pairs adjacent nodes; an odd level pairs its last node with
    itself; a parent is the double SHA-256 of left || right. One leaf is its
    own root; no leaves give 32 zero bytes. `mutated` is True when some level
    holds two equal nodes at a pair position (CVE-2012-2459), before the odd
    node is duplicated. `hash_pair` hashes a parent's 64 bytes: the pure-Python
    double SHA-256 by default; a faster one (hashlib's) keeps the tree's logic.
    """
    level = [bytes(leaf) for leaf in leaves]
    if any(len(node) != 32 for node in level):
        raise ValueError("every leaf is 32 bytes")
    mutated = False
    while len(level) > 1:
        mutated = mutated or any(level[i] == level[i + 1] for i in range(0, len(level) - 1, 2))
        if len(level) % 2:
            level.append(level[-1])
        level = [hash_pair(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return (level[0] if level else bytes(32)), mutated
