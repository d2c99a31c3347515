"""libsha.glacier against the reference (over hashlib) and botocore's calculate_tree_hash: leaf
counts around every level's odd carry, parts of a multipart upload, a file and its bytes, bad input
(a file that changes while read: test_changing_files.py)."""

import io

import pytest

from libsha import glacier
from libsha.reference import glacier as reference
from support.data import pattern251
from support.trees import sha256

pytestmark = pytest.mark.core

MIB = glacier.LEAF_SIZE


def sizes(rng):
    """Around each leaf count where a level's last hash is carried up or paired, and random ones."""
    counts = (0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17)
    return sorted({max(0, c * MIB + d) for c in counts for d in (-1, 0, 1)} | {rng.randrange(40 * MIB)})


def test_leaf_counts_against_the_reference(lanes_row, rng):
    data = rng.randbytes(40 * MIB)
    for size in sizes(rng):
        want = reference.tree_hash(data[:size], sha256)
        assert glacier.tree_hash(data[:size]) == want, size
        assert glacier.tree_hash(memoryview(data)[:size], threads=2) == want, size


def test_parts_of_a_multipart_upload(rng):
    data = rng.randbytes(13 * MIB + 5)
    for part_size in (MIB, 2 * MIB, 4 * MIB, 8 * MIB, 16 * MIB):
        parts = glacier.part_hashes(data, part_size)
        assert parts == reference.part_hashes(data, part_size, sha256), part_size
        assert len(parts) == -(-len(data) // part_size)
        # Parts of 1 MiB times a power of two are subtrees: the archive's hash is their tree's.
        assert reference.root_of(parts, sha256) == glacier.tree_hash(data)
    assert glacier.part_hashes(b"") == [sha256(b"")] == [glacier.tree_hash(b"")]


def test_the_pure_python_reference_agrees():
    data = pattern251(2 * MIB + 100)
    assert reference.tree_hash(data) == glacier.tree_hash(data)
    assert reference.tree_hash(b"") == sha256(b"")


def test_against_botocore(tmp_path, rng):
    utils = pytest.importorskip("botocore.utils", reason="needs botocore (the trees extra)")
    for size in (0, 1, MIB, MIB + 1, 3 * MIB, 5 * MIB + 77, rng.randrange(12 * MIB)):
        data = rng.randbytes(size)
        want = utils.calculate_tree_hash(io.BytesIO(data))
        assert glacier.tree_hash(data).hex() == want, size
        path = tmp_path / "archive"
        path.write_bytes(data)
        assert glacier.file_tree_hash(path).hex() == want == glacier.file_tree_hash(str(path), threads=2).hex()


def test_files_and_their_parts(tmp_path, rng):
    data = rng.randbytes(9 * MIB + 3)
    path = tmp_path / "f"
    path.write_bytes(data)
    assert glacier.file_tree_hash(path, threads=0) == glacier.tree_hash(data)
    assert glacier.file_part_hashes(path, 2 * MIB, threads=2) == glacier.part_hashes(data, 2 * MIB)
    (tmp_path / "empty").write_bytes(b"")
    assert glacier.file_tree_hash(tmp_path / "empty") == sha256(b"")


def test_bad_input():  # (the errors every tree shares: test_file_tree_errors.py)
    for bad in (0, 1, MIB - 1, MIB + 1, 3 * MIB, 8 << 30):
        with pytest.raises(ValueError, match="part_size must be 1 MiB times a power of two"):
            glacier.part_hashes(b"x", bad)
    with pytest.raises(TypeError, match="part_size must be an int"):
        glacier.part_hashes(b"x", "1048576")
