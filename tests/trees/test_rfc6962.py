"""libsha.rfc6962 against transparency-dev/merkle's published vectors and the reference: roots at
every count 0..300 and around the C slices, every proof of small trees and of older sizes, the
append-only log in random batches, wrong proofs (False, never an exception), bad input."""

import pytest

from libsha import rfc6962
from libsha.reference import rfc6962 as reference
from support.trees import sha256

pytestmark = pytest.mark.core

VECTORS = reference.vectors()
# transparency-dev takes roots of any length; here a hash that is not 32 bytes never verifies.
SHORT_ROOTS = {"testdata/consistency/additional/sizes-are-equal-one-and-proof-is-empty.json"}


def test_published_roots_and_proofs():
    leaves = [bytes.fromhex(x) for x in VECTORS["leaves"]]
    hashes = rfc6962.leaf_hashes(leaves)
    assert hashes == [reference.leaf_hash(d) for d in leaves]
    for n, want in enumerate(VECTORS["roots"]):
        assert rfc6962.root(hashes[:n]).hex() == want, n
    tree = rfc6962.Tree(hashes)
    for probe in VECTORS["inclusion"]:
        proof = [bytes.fromhex(p) for p in probe["proof"]]
        ok = rfc6962.verify_inclusion(bytes.fromhex(probe["leafHash"] or ""), probe["leafIdx"], probe["treeSize"],
                                      proof, bytes.fromhex(probe["root"] or ""))
        assert ok is not probe["wantErr"], probe["file"]
        if not probe["wantErr"] and probe["treeSize"] <= len(tree):
            assert tree.inclusion_proof(probe["leafIdx"], probe["treeSize"]) == proof, probe["file"]
    for probe in VECTORS["consistency"]:
        proof = [bytes.fromhex(p) for p in probe["proof"]]
        ok = rfc6962.verify_consistency(probe["size1"], probe["size2"], proof, bytes.fromhex(probe["root1"] or ""),
                                        bytes.fromhex(probe["root2"] or ""))
        assert ok is (not probe["wantErr"] and probe["file"] not in SHORT_ROOTS), probe["file"]
        if not probe["wantErr"] and probe["size2"] <= len(tree) and probe["file"] not in SHORT_ROOTS:
            assert tree.consistency_proof(probe["size1"], probe["size2"]) == proof, probe["file"]


def test_roots_at_every_count(lanes_row, rng):
    hashes = [rng.randbytes(32) for _ in range(1100)]
    for n in sorted({*range(0, 301), 511, 512, 513, 1023, 1024, 1025, 1100}):
        want = reference.mth(hashes[:n], sha256)
        assert rfc6962.root(hashes[:n]) == want, n
        assert rfc6962.root(b"".join(hashes[:n])) == want, n
        assert rfc6962.Tree(hashes[:n]).root() == want, n


@pytest.mark.binding
def test_the_root_of_entries(lanes_row, rng):
    # Entries of every length 0..99 and of one length (the uniform slices), across the binding's
    # 4096-entry slices; bytes-like objects that are not bytes take the binding's Python path.
    varied, uniform = [rng.randbytes(rng.randrange(100)) for _ in range(9000)], [rng.randbytes(32) for _ in range(4097)]
    for entries in (varied, uniform):
        for n in (0, 1, 2, 3, 255, 4095, 4096, 4097, len(entries)):
            want = reference.mth([reference.leaf_hash(e, sha256) for e in entries[:n]], sha256)
            assert rfc6962.entries_root(entries[:n]) == want, n
            assert rfc6962.entries_root(tuple(entries[:n])) == want, n
        mixed = [bytearray(e) if i % 3 == 1 else memoryview(e) if i % 3 == 2 else e
                 for i, e in enumerate(entries[:300])]
        assert rfc6962.entries_root(mixed) == rfc6962.root(rfc6962.leaf_hashes(entries[:300]))
    with pytest.raises(TypeError, match="message 2"):
        rfc6962.entries_root([b"a", b"b", "c"])


def test_the_root_of_entries_in_columns(rng):
    numpy = pytest.importorskip("numpy")
    pa = pytest.importorskip("pyarrow")
    entries = [rng.randbytes(rng.randrange(1, 60)) for _ in range(700)]
    want = reference.mth([reference.leaf_hash(e, sha256) for e in entries], sha256)
    assert rfc6962.entries_root(pa.array(entries, pa.binary())) == want
    assert rfc6962.entries_root(pa.chunked_array([entries[:300], entries[300:]], pa.binary())) == want
    rows = [rng.randbytes(40) for _ in range(513)]
    want = reference.mth([reference.leaf_hash(e, sha256) for e in rows], sha256)
    assert rfc6962.entries_root(numpy.frombuffer(b"".join(rows), numpy.uint8).reshape(513, 40)) == want


def test_every_proof_of_small_trees_and_their_older_sizes(lanes_row, rng):
    hashes = [rng.randbytes(32) for _ in range(33)]
    tree = rfc6962.Tree(hashes)
    for size in range(1, 34):
        root = reference.mth(hashes[:size], sha256)
        assert tree.root(size) == root
        for index in range(size):
            proof = tree.inclusion_proof(index, size)
            assert proof == reference.inclusion_proof(hashes[:size], index, sha256), (index, size)
            assert rfc6962.verify_inclusion(hashes[index], index, size, proof, root)
        for old in range(0, size + 1):
            proof = tree.consistency_proof(old, size)
            assert proof == reference.consistency_proof(hashes[:size], old, sha256), (old, size)
            assert rfc6962.verify_consistency(old, size, proof, reference.mth(hashes[:old], sha256), root) is (old > 0)
    # The reference's own verification, on its pure-Python SHA-256: a few of each.
    for index, size in ((0, 1), (5, 8), (12, 33), (32, 33)):
        assert reference.verify_inclusion(hashes[index], index, size, tree.inclusion_proof(index, size), tree.root(size))
    for old, size in ((1, 2), (6, 8), (13, 33)):
        assert reference.verify_consistency(old, size, tree.consistency_proof(old, size), tree.root(old),
                                            tree.root(size))


def test_proofs_of_a_larger_tree(lanes_row, rng):
    hashes = [rng.randbytes(32) for _ in range(1500)]
    tree = rfc6962.Tree(hashes)
    for _ in range(12):
        size = rng.randrange(1, 1501)
        index, old = rng.randrange(size), rng.randrange(1, size + 1)
        root = tree.root(size)
        proof = tree.inclusion_proof(index, size)
        assert rfc6962.verify_inclusion(hashes[index], index, size, proof, root), (index, size)
        assert proof == reference.inclusion_proof(hashes[:size], index, sha256)
        proof = tree.consistency_proof(old, size)
        assert rfc6962.verify_consistency(old, size, proof, tree.root(old), root), (old, size)
        assert proof == reference.consistency_proof(hashes[:size], old, sha256)


def test_wrong_proofs_are_false(rng):
    hashes = [rng.randbytes(32) for _ in range(21)]
    tree = rfc6962.Tree(hashes)
    root, proof = tree.root(), tree.inclusion_proof(6)
    flipped = [proof[0][:5] + bytes([proof[0][5] ^ 1]) + proof[0][6:], *proof[1:]]
    for args in [(hashes[7], 6, 21, proof, root), (hashes[6], 7, 21, proof, root), (hashes[6], 6, 8, proof, root),
                 (hashes[6], 6, 21, flipped, root), (hashes[6], 6, 21, proof[:-1], root),
                 (hashes[6], 6, 21, proof + [root], root), (hashes[6], 21, 21, proof, root),
                 (hashes[6], 6, 0, [], root), (hashes[6][:31], 6, 21, proof, root), (hashes[6], 6, 21, proof, b""),
                 (hashes[6], 6, 21, [p[:16] for p in proof], root), (hashes[6], 2**64 - 1, 2**64 - 1, proof, root)]:
        assert rfc6962.verify_inclusion(*args) is False
        assert reference.verify_inclusion(*args) is False
    old = tree.root(13)
    proof = tree.consistency_proof(13)
    for args in [(13, 21, proof, old, hashes[0]), (12, 21, proof, old, root), (13, 40, proof, old, root),
                 (13, 21, proof[:-1], old, root), (13, 21, [], old, root), (21, 13, proof, root, old),
                 (0, 21, [], bytes(32), root), (13, 13, [], old, root), (13, 21, proof + proof[:1], old, root)]:
        assert rfc6962.verify_consistency(*args) is False
        assert reference.verify_consistency(*args) is False


def test_the_log_in_random_batches(lanes_row, rng):
    hashes = [rng.randbytes(32) for _ in range(3000)]
    log, done = rfc6962.Log(), 0
    assert log.root() == reference.mth([])
    while done < len(hashes):
        step = rng.choice([1, 2, 3, 7, 64, 511, 512, 513, 1000])
        log.append(b"".join(hashes[done : done + step]))
        done = min(done + step, len(hashes))
        assert len(log) == done and log.root() == rfc6962.root(hashes[:done]), done
        again = rfc6962.Log.from_state(log.state())
        assert again.root() == log.root() and again.nodes() == log.nodes()
    assert log.root() == reference.mth(hashes, sha256)


def test_bad_input(rng):
    tree = rfc6962.Tree([rng.randbytes(32) for _ in range(5)])
    with pytest.raises(IndexError, match="leaf 5 is not in a tree of 5"):
        tree.inclusion_proof(5)
    with pytest.raises(ValueError, match="size 6 is past"):
        tree.inclusion_proof(0, 6)
    with pytest.raises(ValueError, match="old_size 4 is past size 3"):
        tree.consistency_proof(4, 3)
    with pytest.raises(ValueError, match="index must be 0"):
        tree.inclusion_proof(-1)
    with pytest.raises(TypeError, match="index must be an int"):
        tree.inclusion_proof("1")
    with pytest.raises(ValueError, match="multiple of 32"):
        rfc6962.root(bytes(33))
    with pytest.raises(ValueError, match="hash 1 has 31 bytes"):
        rfc6962.Tree([bytes(32), bytes(31)])
    with pytest.raises(TypeError, match="sequence of 32-byte hashes"):
        rfc6962.verify_inclusion(bytes(32), 0, 1, bytes(32), bytes(32))
    with pytest.raises(ValueError, match="has 7 nodes"):
        rfc6962.Log.from_state((2**7 - 1).to_bytes(8, "big"))
    log = rfc6962.Log()
    log.append(bytes(64))
    with pytest.raises(ValueError, match="multiple of 32"):
        log.append(bytes(31))
    assert len(log) == 2
