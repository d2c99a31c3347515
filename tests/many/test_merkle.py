"""The Bitcoin Merkle root: against Core's algorithm, at chunk borders, mutation, a real block, bad input."""

import ctypes

import pytest

import libsha
from support.bitcoin import BLOCK, block_transactions
from support.data import merkle_root_by_hashlib, pattern251, sha256d
from libsha import _errors, _native
from libsha.reference import merkle_root as reference_merkle_root

pytestmark = pytest.mark.core

lib = _native.lib()


def leaves_for(n, rng):
    return [rng.randbytes(32) for _ in range(n)]


def test_counts_around_the_chunks_against_core_s_algorithm(lanes_row, rng):
    # Around the C code's 256-leaf chunks and the lanes; every count 0..1,100 is the C test's sweep.
    for n in sorted({*range(34), 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 1100}):
        leaves = leaves_for(n, rng)
        assert libsha.merkle_root(leaves) == merkle_root_by_hashlib(leaves), n


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 64, 257])
def test_the_pure_python_reference_agrees(n, rng):
    # The reference on its own pure-Python SHA-256, against libsha.
    leaves = leaves_for(n, rng)
    assert reference_merkle_root(leaves) == libsha.merkle_root(leaves)


def test_large_and_random_trees(lanes_row, rng):
    for n in [2**12 - 1, 2**12, 2**12 + 1, 9001] + [rng.randrange(1, 20000) for _ in range(4)]:
        leaves = leaves_for(n, rng)
        assert libsha.merkle_root(b"".join(leaves)) == merkle_root_by_hashlib(leaves), n


def test_cve_2012_2459_duplicated_tail_is_flagged(lanes_row, rng):
    # An odd level duplicates its last node, so a list with its last leaves
    # repeated has the same root: only `mutated` tells them apart.
    for n in (3, 5, 257, 1001, 9001):
        leaves = leaves_for(n, rng)
        root, mutated = libsha.merkle_root(leaves)
        assert not mutated
        assert libsha.merkle_root(leaves + leaves[-1:]) == (root, True), n
    leaves = leaves_for(6, rng)
    leaves[3] = leaves[2]  # an equal pair at level 0, not at the tail
    assert libsha.merkle_root(leaves) == merkle_root_by_hashlib(leaves) and libsha.merkle_root(leaves)[1]
    leaves = leaves_for(6, rng)
    leaves[2] = leaves[1]  # equal, but not a pair: (0,1), (2,3) ...
    assert not libsha.merkle_root(leaves)[1]


@pytest.mark.skipif(not BLOCK.exists(), reason="needs tests/data/block413567.raw from the source checkout")
def test_a_real_block_s_merkle_root():
    block = BLOCK.read_bytes()
    txids = [sha256d(tx) for tx in block_transactions(block)]
    assert len(txids) == 1557
    header_root = block[36:68]  # after version (4) and the previous block's hash (32)
    assert libsha.merkle_root(txids) == (header_root, False)
    # CVE-2012-2459: 1,557 is odd, so the last txid pairs with itself; a list
    # whose last two leaves are that txid twice has the same root, flagged.
    assert libsha.merkle_root(txids + txids[-1:]) == (header_root, True)
    # The same one level up: the first 1,554 txids make 777 pairs, an odd
    # count whose last node covers the last two leaves; repeating those two
    # gives the same root, flagged.
    root_1554 = merkle_root_by_hashlib(txids[:1554])[0]
    assert libsha.merkle_root(txids[:1554])[0] == root_1554
    assert libsha.merkle_root(txids[:1554] + txids[1552:1554]) == (root_1554, True)


def test_buffer_forms_agree():
    leaves = [pattern251(32, 7 * i) for i in range(9)]
    data = b"".join(leaves)
    expected = merkle_root_by_hashlib(leaves)
    for form in (leaves, tuple(leaves), iter(leaves), data, bytearray(data), memoryview(data),
                 [bytearray(x) for x in leaves], [memoryview(x) for x in leaves]):
        assert libsha.merkle_root(form) == expected


def test_an_arrow_array_of_leaves():
    pa = pytest.importorskip("pyarrow")
    leaves = [pattern251(32, 11 * i) for i in range(9)]
    array = pa.array(leaves, type=pa.binary(32))
    assert libsha.merkle_root(array) == merkle_root_by_hashlib(leaves)
    assert libsha.merkle_root(array.slice(2, 5)) == merkle_root_by_hashlib(leaves[2:7])  # an offset into its buffer


@pytest.mark.parametrize("bad, kind, words", [
    ("abc", TypeError, "str"),
    ([b"x" * 32, "y" * 32], TypeError, "leaf 1"),
    ([b"x" * 32, 5], TypeError, "leaf 1"),
    ([b"x" * 32, b"y" * 31], ValueError, "leaf 1 has 31 bytes"),
    (b"x" * 33, ValueError, "multiple of 32"),
    (5, TypeError, None),
    (None, TypeError, None),
])
def test_bad_input(bad, kind, words):
    with pytest.raises(kind, match=words):
        libsha.merkle_root(bad)


def test_c_contracts():
    out = ctypes.create_string_buffer(b"\x5a" * 32, 32)
    mutated = ctypes.c_int(7)
    assert lib.libsha_merkle_root(None, b"x" * 32, 1, ctypes.byref(mutated)) == _errors.ERR_NULL
    assert lib.libsha_merkle_root(out, None, 1, ctypes.byref(mutated)) == _errors.ERR_NULL
    assert lib.libsha_merkle_root(out, b"x" * 32, (1 << 64) // 32 + 1, ctypes.byref(mutated)) == _errors.ERR_ARGUMENT
    assert out.raw == b"\x5a" * 32 and mutated.value == 7  # nothing written on error
    assert lib.libsha_merkle_root(out, None, 0, ctypes.byref(mutated)) == _errors.OK
    assert out.raw == bytes(32) and mutated.value == 0
    assert lib.libsha_merkle_root(out, b"y" * 32, 1, None) == _errors.OK and out.raw == b"y" * 32
