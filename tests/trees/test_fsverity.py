"""libsha.fsverity against fsverity-utils' `fsverity digest` (its digest, --out-merkle-tree and
--out-descriptor, byte for byte) and the reference over hashlib: every size around one block, one
and two levels for the smallest block sizes, every salt length that matters, random sizes, every
lane row, a file and its bytes, threads, out=, bad input."""

import os

import pytest

from libsha import fsverity
from libsha.reference import fsverity as reference
from support import verity
from support.trees import sha256

pytestmark = pytest.mark.core

SALTS = [b"", b"\x01", bytes(range(31)), bytes(range(32))]


def sizes(block):
    """Sizes that cross a block, fill one level (block / 32 digests a block) and spill into a second."""
    per = block // 32
    return [0, 1, block - 1, block, block + 1, 2 * block, per * block - 1, per * block, per * block + 1,
            (per + 1) * block + 7]


def check(data, block, salt, **options):
    got = fsverity.tree(data, block_size=block, salt=salt, **options)
    root, tree = reference.tree(data, block, salt, sha256)
    descriptor = reference.descriptor(root, len(data), block, salt)
    assert got == (sha256(descriptor), root, tree, descriptor, len(data)), (len(data), block, salt)
    return got


@pytest.mark.parametrize("block", [1024, 4096])
def test_sizes_and_salts_against_the_reference(lanes_row, rng, block):
    data = rng.randbytes(sizes(block)[-1])
    for size in sizes(block):
        for salt in SALTS:
            check(data[:size], block, salt)
    check(data, block, SALTS[2], threads=2)


def test_every_block_size_and_random_sizes(rng):
    for shift in range(10, 17):
        block = 1 << shift
        for _ in range(3):
            size = rng.randrange(0, 3 * block * block // 32 if shift < 13 else 40 * block)
            check(rng.randbytes(size), block, rng.randbytes(rng.randrange(33)), threads=rng.choice([1, 2]))


def test_the_pure_python_reference_agrees():
    data = bytes(range(251)) * 60
    root, tree = reference.tree(data, 1024, b"salt")
    assert fsverity.tree(data, block_size=1024, salt=b"salt")[1:3] == (root, tree)


@pytest.mark.parametrize("block", [1024, 4096, 65536])
def test_files_against_fsverity_digest(tmp_path, rng, block):
    why = verity.fsverity_unavailable()
    if why:
        pytest.skip(why)
    cases = [(size, salt) for size in sizes(block) for salt in SALTS] if block < 65536 else \
        [(0, b""), (1, b"\x01"), (block + 1, SALTS[3]), (rng.randrange(1 << 22), SALTS[2])]
    for size, salt in cases:
        path = tmp_path / "f"
        path.write_bytes(rng.randbytes(size))
        tree_file, descriptor_file = tmp_path / "tree", tmp_path / "descriptor"
        want = verity.fsverity_digest(path, block_size=block, salt=salt, tree=tree_file, descriptor=descriptor_file)
        got = fsverity.file_tree(path, block_size=block, salt=salt)
        assert got.digest == want, (size, salt)
        assert got.tree == tree_file.read_bytes() and got.descriptor == descriptor_file.read_bytes(), (size, salt)
        assert fsverity.file_tree(path, block_size=block, salt=salt, threads=2) == got
        assert fsverity.tree(path.read_bytes(), block_size=block, salt=salt) == got


def test_out_takes_the_tree(tmp_path, rng):
    data = rng.randbytes(300 * 1024 + 5)
    want = fsverity.tree(data, block_size=1024)
    room = bytearray(fsverity.tree_size(len(data), 1024))
    assert fsverity.tree(data, block_size=1024, out=room) == want._replace(tree=None) and room == want.tree
    path = tmp_path / "data"
    path.write_bytes(data)
    assert fsverity.file_tree(path, block_size=1024, out=tmp_path / "tree").tree is None
    assert (tmp_path / "tree").read_bytes() == want.tree
    with open(tmp_path / "tree2", "wb") as f:
        f.write(b"head")
        fsverity.file_tree(path, block_size=1024, out=f)
    assert (tmp_path / "tree2").read_bytes() == b"head" + want.tree
    room = bytearray(fsverity.tree_size(len(data), 1024))
    assert fsverity.file_tree(path, block_size=1024, out=room).tree is None and room == want.tree
    with pytest.raises(ValueError, match="out has 10 bytes"):
        fsverity.tree(data, block_size=1024, out=bytearray(10))
    with pytest.raises(ValueError, match="out has 10 bytes"):
        fsverity.file_tree(path, block_size=1024, out=bytearray(10))


def test_an_error_leaves_nothing_where_the_tree_was_to_go(tmp_path):
    out = tmp_path / "tree"
    out.write_bytes(b"the old tree")
    for bad in (tmp_path, tmp_path / "missing"):
        with pytest.raises(OSError) as caught:
            fsverity.file_tree(bad, out=out)
        assert caught.value.filename == str(bad)
    assert out.read_bytes() == b"the old tree" and os.listdir(tmp_path) == ["tree"]


@pytest.mark.parametrize("call", ["tree", "file_tree"])
def test_bad_arguments(tmp_path, call):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 5000)
    run = (lambda **kw: fsverity.tree(b"x" * 5000, **kw)) if call == "tree" else \
        (lambda **kw: fsverity.file_tree(path, **kw))
    for size in (512, 3000, 131072, 0):
        with pytest.raises(ValueError, match="block_size must be a power of two from 1024 to 65536"):
            run(block_size=size)
    with pytest.raises(TypeError):
        run(block_size="4096")
    with pytest.raises(ValueError, match="fs-verity's salt is at most 32 bytes, not 33"):
        run(salt=bytes(33))
    with pytest.raises(TypeError):
        run(salt="text")
    with pytest.raises(ValueError):
        run(threads=-1)
    with pytest.raises(TypeError):
        run(out=42)


def test_a_bad_out_is_refused_before_the_file_is_read(tmp_path, monkeypatch):
    (tmp_path / "f").write_bytes(b"x" * 5000)
    monkeypatch.setattr(fsverity, "file_leaves", lambda *a, **k: pytest.fail("the file was read"))
    for bad in (42, object(), memoryview(bytes(32))):  # not a path, a file or a writable buffer
        with pytest.raises(TypeError):
            fsverity.file_tree(tmp_path / "f", out=bad)
