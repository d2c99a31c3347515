"""The trees' roots of a long list of nodes, read a slice at a time and never joined
(libsha/_trees/nodes.py's node_slices): ssz.merkleize and composite_list_root, merkle_root,
rfc6962.root and Log.append, the level call sha256_64, at counts around the slices, against the reference over hashlib and
against the same nodes as one buffer; nodes of other kinds and bad nodes in a later slice, on both
binding paths."""

import hashlib

import pytest

import libsha
from libsha import rfc6962, ssz
from libsha._trees.nodes import SLICE
from libsha.reference import rfc6962 as reference_rfc6962
from libsha.reference import ssz as reference_ssz
from support.data import merkle_root_by_hashlib
from support.trees import sha256

pytestmark = [pytest.mark.core, pytest.mark.binding]

# The last slice whole, one node, a few, and one short; a list of exactly one slice takes the
# whole-buffer path, the one below the slices.
COUNTS = [SLICE, SLICE + 1, 2 * SLICE, 2 * SLICE + 3, 3 * SLICE - 1, 4 * SLICE + SLICE // 2 + 1]


@pytest.fixture(scope="module")
def nodes():
    import random

    seed = random.randrange(1 << 32)
    print(f"nodes: seed {seed}")
    rng = random.Random(seed)
    return [rng.randbytes(32) for _ in range(COUNTS[-1])]


@pytest.mark.parametrize("n", COUNTS)
def test_ssz_roots_of_a_list(n, nodes):
    chunks = nodes[:n]
    joined = b"".join(chunks)
    for limit in (None, n, n + 1, 2**40):
        assert ssz.merkleize(chunks, limit) == reference_ssz.merkleize(chunks, limit, sha256), (n, limit)
        assert ssz.merkleize(tuple(chunks), limit) == ssz.merkleize(joined, limit)
    assert ssz.composite_list_root(chunks, 2**30) == ssz.composite_list_root(joined, 2**30)
    with pytest.raises(ValueError, match=f"{n} chunks exceed the limit of {n - 1}"):
        ssz.merkleize(chunks, n - 1)
    with pytest.raises(ValueError, match=f"{n} roots exceed the limit of {n - 1}"):
        ssz.composite_list_root(chunks, n - 1)


@pytest.mark.parametrize("n", COUNTS)
def test_merkle_roots_of_a_list(n, nodes):
    leaves = nodes[:n]
    assert libsha.merkle_root(leaves) == merkle_root_by_hashlib(leaves) == libsha.merkle_root(b"".join(leaves))
    assert not libsha.merkle_root(leaves)[1]


def test_merkle_root_mutations_in_any_slice(nodes):
    """Two equal nodes at a pair position are found in a full slice, in the last partial one, and
    above the slices (two equal slices); an equal pair across a slice boundary is no mutation."""
    n = 3 * SLICE + 7
    cases = {
        "full slice": (5 * 2, True),
        "partial slice": (3 * SLICE + 4, True),
        "pair across slices": (SLICE - 1, False),
    }
    for name, (at, mutated) in cases.items():
        leaves = nodes[:n]
        leaves[at + 1] = leaves[at]
        assert libsha.merkle_root(leaves) == merkle_root_by_hashlib(leaves), name
        assert libsha.merkle_root(leaves)[1] is mutated, name
    leaves = nodes[:SLICE] * 2 + nodes[: SLICE + 3]  # slices 0 and 1 equal: their roots pair above
    assert libsha.merkle_root(leaves) == merkle_root_by_hashlib(leaves)
    assert libsha.merkle_root(leaves)[1] is True
    # CVE-2012-2459: an odd count and the same list with its last leaf repeated share a root
    odd = nodes[: 2 * SLICE + 3]
    assert libsha.merkle_root(odd + odd[-1:]) == (libsha.merkle_root(odd)[0], True)


@pytest.mark.parametrize("n", COUNTS)
def test_rfc6962_roots_of_a_list(n, nodes):
    hashes = nodes[:n]
    assert rfc6962.root(hashes) == reference_rfc6962.mth(hashes, sha256) == rfc6962.root(b"".join(hashes))
    log = rfc6962.Log()
    log.append(hashes[:3])
    log.append(hashes[3:])
    assert (len(log), log.root()) == (n, rfc6962.root(hashes))


def test_other_kinds_of_node_in_a_later_slice(nodes):
    """A bytes-like node of another kind anywhere: the whole list as node_buffer takes it."""
    n = 2 * SLICE + 3
    base = nodes[:n]
    for kind in (bytearray, memoryview):
        mixed = list(base)
        mixed[SLICE + 5] = kind(mixed[SLICE + 5])
        assert ssz.merkleize(mixed) == ssz.merkleize(base)
        assert libsha.merkle_root(mixed) == libsha.merkle_root(base)
        assert rfc6962.root(mixed) == rfc6962.root(base)
        log = rfc6962.Log()
        log.append(mixed)
        assert log.root() == rfc6962.root(base)


@pytest.mark.parametrize("bad, error, words", [
    (b"x" * 31, ValueError, "has 31 bytes"),
    ("y" * 32, TypeError, "str"),
    (None, TypeError, "NoneType"),
])
def test_a_bad_node_in_a_later_slice_is_named(nodes, bad, error, words):
    n = 2 * SLICE + 3
    at = 2 * SLICE + 1
    leaves = list(nodes[:n])
    leaves[at] = bad
    for call, noun in ((ssz.merkleize, "chunk"), (libsha.merkle_root, "leaf"), (rfc6962.root, "hash")):
        with pytest.raises(error, match=words) as raised:
            call(leaves)
        assert f"{noun} {at}" in str(raised.value), (call, str(raised.value))
    log = rfc6962.Log()
    log.append(nodes[:5])
    before = log.root()
    with pytest.raises(error, match=words):
        log.append(leaves)
    assert (len(log), log.root()) == (5, before)  # nothing of the list went in


@pytest.mark.parametrize("n", COUNTS[:4])
def test_level_of_a_list(n, nodes):
    blocks = [a + b for a, b in zip(nodes[:n], nodes[1 : n + 1])]
    expected = b"".join(hashlib.sha256(x).digest() for x in blocks)
    assert libsha.sha256_64(blocks) == expected == libsha.sha256_64(tuple(blocks))
    out = bytearray(32 * n)
    assert libsha.sha256_64(blocks, out=out) is out and out == expected
    mixed = list(blocks)
    mixed[-1] = bytearray(mixed[-1])  # another bytes-like kind: the whole list as node_buffer takes it
    assert libsha.sha256_64(mixed) == expected


def test_a_bad_block_in_a_later_slice_writes_nothing(nodes):
    n = 2 * SLICE + 3
    blocks = [a + b for a, b in zip(nodes[:n], nodes[1 : n + 1])]
    blocks[2 * SLICE + 1] = blocks[2 * SLICE + 1][:63]
    out = bytearray(b"\x5a" * (32 * n))
    with pytest.raises(ValueError, match=f"block {2 * SLICE + 1} has 63 bytes"):
        libsha.sha256_64(blocks, out=out)
    assert out == b"\x5a" * (32 * n)  # not a digest of the slices before it
    blocks[2 * SLICE + 1] += b"z"
    with pytest.raises(ValueError, match="out has 31 bytes"):  # a plain list, a bad out: checked before hashing
        libsha.sha256_64(blocks, out=bytearray(31))
