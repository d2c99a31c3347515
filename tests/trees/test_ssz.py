"""libsha.ssz against the reference (over hashlib) and the consensus specs' remerkleable: every
chunk count 0..300 and around the C slices, limits, packed basic values, bad input."""

import pytest

from libsha import ssz
from libsha.reference import ssz as reference
from support.trees import sha256

pytestmark = pytest.mark.core

COUNTS = sorted({*range(0, 301), *(p + d for p in (1024, 2048, 4096) for d in (-1, 0, 1)), 5000})


def test_every_count_and_limit_against_the_reference(lanes_row, rng):
    for n in COUNTS:
        chunks = [rng.randbytes(32) for _ in range(n)]
        joined = b"".join(chunks)
        for limit in {None, n, n + 1, 2 * n + 3, 2**40, 2**64 - 2}:
            if limit is not None and limit < n:
                continue
            assert ssz.merkleize(joined, limit) == reference.merkleize(chunks, limit, sha256), (n, limit)
        assert ssz.merkleize(chunks) == ssz.merkleize(joined), n


def test_the_pure_python_reference_agrees(rng):
    for n in (0, 1, 2, 3, 5, 33):
        chunks = [rng.randbytes(32) for _ in range(n)]
        assert reference.merkleize(chunks, 100) == ssz.merkleize(chunks, 100)
    assert reference.zero_hashes(3)[1].hex() == "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b"


def test_packed_values_and_mix_in_length(lanes_row, rng):
    for length in (0, 1, 31, 32, 33, 100, 32 * 1025 + 7):
        data = rng.randbytes(length)
        chunks = reference.pack(data)
        for limit in (None, len(chunks) + 5):
            assert ssz.merkleize_packed(data, limit) == reference.merkleize(chunks, limit, sha256), length
    root = rng.randbytes(32)
    for n in (0, 1, 2**32, 2**64 - 1):
        assert ssz.mix_in_length(root, n) == reference.mix_in_length(root, n)


def test_lists_against_remerkleable(rng):
    remerkleable = pytest.importorskip("remerkleable", reason="remerkleable (pip install 'libsha[trees]')")
    from remerkleable.basic import uint8, uint16, uint64, uint256
    from remerkleable.byte_arrays import Bytes32
    from remerkleable.complex import Container, List, Vector

    del remerkleable
    for kind, size in ((uint8, 1), (uint16, 2), (uint64, 8), (uint256, 32)):
        for n in (0, 1, 3, 4, 5, 31, 33, 300):
            values = [rng.randrange(1 << (8 * size)) for _ in range(n)]
            theirs = List[kind, 1000](*values).hash_tree_root()
            data = b"".join(v.to_bytes(size, "little") for v in values)
            assert ssz.basic_list_root(data, size, 1000) == bytes(theirs), (size, n)
            vector = Vector[kind, 300](*(values + [0] * (300 - n)))  # a vector: no length mixed in
            assert ssz.merkleize_packed(b"".join(v.to_bytes(size, "little") for v in vector)) == bytes(
                vector.hash_tree_root())

    class Pair(Container):
        a: uint64
        b: Bytes32

    for n in (0, 1, 2, 7, 100):
        items = [Pair(a=rng.randrange(1 << 64), b=rng.randbytes(32)) for _ in range(n)]
        roots = [bytes(i.hash_tree_root()) for i in items]
        assert ssz.composite_list_root(roots, 2**40) == bytes(List[Pair, 2**40](*items).hash_tree_root()), n


def test_bad_input():
    with pytest.raises(ValueError, match="3 chunks exceed the limit of 2"):
        ssz.merkleize(bytes(96), 2)
    with pytest.raises(ValueError, match="multiple of 32"):
        ssz.merkleize(bytes(33))
    with pytest.raises(ValueError, match="limit must be 0"):
        ssz.merkleize(b"", -1)
    with pytest.raises(TypeError, match="limit must be an int"):
        ssz.merkleize(b"", 2.0)
    with pytest.raises(ValueError, match="root has 31 bytes"):
        ssz.mix_in_length(bytes(31), 1)
    with pytest.raises(ValueError, match="item_size"):
        ssz.basic_list_root(bytes(8), 3, 10)
    with pytest.raises(ValueError, match="whole 8-byte values"):
        ssz.basic_list_root(bytes(9), 8, 10)
    with pytest.raises(ValueError, match="11 values exceed"):
        ssz.basic_list_root(bytes(88), 8, 10)
    with pytest.raises(ValueError, match="2 roots exceed"):
        ssz.composite_list_root(bytes(64), 1)
