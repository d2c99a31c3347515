"""libsha.dmverity against cryptsetup's `veritysetup format` (its root hash and hash file, byte for
byte: superblock, --no-superblock, --hash-offset, --data-blocks, both formats) and the reference
over hashlib: one level and two for the smallest blocks, every salt length that matters, every
lane row, a file and its bytes, threads, out=, bad input."""

import os
import uuid

import pytest

from libsha import dmverity
from libsha.reference import dmverity as reference
from support import verity
from support.trees import sha256

pytestmark = pytest.mark.core

SALTS = [b"", b"\x01", bytes(range(31)), bytes(range(32)), bytes(range(33)), bytes(range(64)), bytes(range(65)),
         bytes(range(256))]
UUID = "12345678-9abc-def0-1234-56789abcdef0"


def block_counts(hash_block):
    per = hash_block // 32
    return [1, 2, per, per + 1, per * per, per * per + 1]


def check(data, dbs, hbs, salt, fmt, **options):
    got = dmverity.tree(data, data_block_size=dbs, hash_block_size=hbs, salt=salt, format=fmt, **options)
    root, tree = reference.tree(data, dbs, hbs, salt, fmt, sha256)
    assert got == (root, tree, len(data) // dbs), (len(data), dbs, hbs, len(salt), fmt)
    return got


@pytest.mark.parametrize("fmt", [0, 1])
def test_levels_and_salts_against_the_reference(lanes_row, rng, fmt):
    data = rng.randbytes(512 * (16 * 16 + 1) + 100)
    for blocks in block_counts(512):
        for salt in SALTS:
            check(data[: 512 * blocks + 100], 512, 512, salt, fmt)
    check(data, 512, 1024, SALTS[3], fmt, threads=2)


def test_block_sizes_and_random_sizes(rng):
    for _ in range(12):
        dbs, hbs = 1 << rng.randrange(9, 17), 1 << rng.randrange(9, 17)
        data = rng.randbytes(dbs * rng.randrange(1, (8 << 20) // dbs) + rng.randrange(dbs))  # up to 8 MiB
        check(data, dbs, hbs, rng.randbytes(rng.randrange(257)), rng.randrange(2), threads=rng.choice([1, 2]))


def test_the_pure_python_reference_agrees():
    data = bytes(range(251)) * 60
    assert dmverity.tree(data, data_block_size=512, hash_block_size=512, salt=b"s")[:2] == \
        reference.tree(data, 512, 512, b"s")


def test_files_against_veritysetup(tmp_path, rng):
    why = verity.veritysetup_unavailable()
    if why:
        pytest.skip(why)
    data_path = tmp_path / "data"
    cases = [(blocks, dbs, hbs, salt, fmt) for fmt in (0, 1) for salt in SALTS for (dbs, hbs) in ((512, 512),)
             for blocks in block_counts(512)]
    cases += [(rng.randrange(1, 5000), 4096, 4096, rng.randbytes(32), 1), (300, 1024, 4096, b"", 0),
              (1000, 4096, 1024, SALTS[2], 1), (70, 65536, 65536, SALTS[7], 1)]
    for blocks, dbs, hbs, salt, fmt in cases:
        data_path.write_bytes(rng.randbytes(blocks * dbs + rng.choice([0, 100])))
        options = dict(salt=salt, data_block_size=dbs, hash_block_size=hbs, format=fmt)
        for layout in (dict(uuid=UUID), dict(superblock=False), dict(uuid=UUID, hash_offset=1536),
                       dict(superblock=False, hash_offset=2 * hbs, data_blocks=max(1, blocks - 1))):
            theirs, ours = tmp_path / "theirs", tmp_path / "ours"
            for path in (theirs, ours):
                path.write_bytes(b"\xaa" * 3000)  # an existing file: its other bytes stay
            root, _ = verity.veritysetup_format(data_path, theirs, **options, **layout)
            made = dmverity.format(data_path, ours, **options, **layout)
            assert made.root == root and ours.read_bytes() == theirs.read_bytes(), (blocks, dbs, hbs, salt, layout)
        assert dmverity.file_tree(data_path, **options, threads=2) == dmverity.tree(data_path.read_bytes(), **options)


def test_new_and_short_hash_files_against_veritysetup(tmp_path, rng):
    """A hash file that does not exist yet, or is shorter than what is written to it: veritysetup's,
    byte for byte, down to one data block (no hash block: the superblock's page is the whole file)."""
    why = verity.veritysetup_unavailable()
    if why:
        pytest.skip(why)
    data_path = tmp_path / "data"
    for blocks, dbs, hbs in ((1, 4096, 4096), (1, 512, 1024), (2, 4096, 4096), (1, 4096, 65536), (129, 4096, 4096),
                             (rng.randrange(2, 600), 1024, 2048)):
        data_path.write_bytes(rng.randbytes(blocks * dbs))
        options = dict(salt=SALTS[3], data_block_size=dbs, hash_block_size=hbs)
        for layout in (dict(uuid=UUID), dict(superblock=False), dict(uuid=UUID, hash_offset=1536),
                       dict(superblock=False, hash_offset=2 * hbs)):
            offset = layout.get("hash_offset", 0)
            # no file (veritysetup refuses a header past a new file's end); a file shorter than the device
            for before in ((None,) if offset == 0 else ()) + (b"\xaa" * (offset + 700),):
                theirs, ours = tmp_path / "theirs", tmp_path / "ours"
                for path in (theirs, ours):
                    path.unlink(missing_ok=True)
                    if before is not None:
                        path.write_bytes(before)
                root, _ = verity.veritysetup_format(data_path, theirs, **options, **layout)
                made = dmverity.format(data_path, ours, **options, **layout)
                assert made.root == root and ours.read_bytes() == theirs.read_bytes(), (blocks, dbs, hbs, layout, before)


def test_format_makes_a_new_file_and_a_uuid(tmp_path, rng):
    (tmp_path / "data").write_bytes(rng.randbytes(4096 * 10))
    made = dmverity.format(tmp_path / "data", tmp_path / "hash", salt=b"s")
    head = (tmp_path / "hash").read_bytes()[:512]
    assert made.uuid.version == 4 and head == dmverity.superblock(made.uuid, 10, salt=b"s")
    assert head == reference.superblock(made.uuid.bytes, 10, salt=b"s")
    assert os.stat(tmp_path / "hash").st_mode & 0o777 == 0o600
    assert made.hash_device_size == os.path.getsize(tmp_path / "hash") == 4096 * 2


def test_out_takes_the_tree(tmp_path, rng):
    data = rng.randbytes(4096 * 300)
    want = dmverity.tree(data)
    room = bytearray(dmverity.tree_size(300))
    assert dmverity.tree(data, out=room) == (want.root, None, 300) and room == want.tree
    (tmp_path / "data").write_bytes(data)
    assert dmverity.file_tree(tmp_path / "data", out=tmp_path / "tree").tree is None
    assert (tmp_path / "tree").read_bytes() == want.tree


def test_an_error_leaves_nothing_written(tmp_path):
    out = tmp_path / "hash"
    out.write_bytes(b"old")
    for bad in (tmp_path, tmp_path / "missing"):
        with pytest.raises(OSError) as caught:
            dmverity.format(bad, out)
        assert caught.value.filename == str(bad)
    (tmp_path / "small").write_bytes(b"x" * 5000)
    with pytest.raises(ValueError, match="data_blocks is 3, but .* has 1 whole blocks"):
        dmverity.format(tmp_path / "small", out, data_blocks=3)
    (tmp_path / "tiny").write_bytes(b"x" * 100)
    with pytest.raises(ValueError, match="no whole data block of 4096 bytes"):
        dmverity.format(tmp_path / "tiny", out)
    assert out.read_bytes() == b"old" and sorted(os.listdir(tmp_path)) == ["hash", "small", "tiny"]


def test_bad_arguments():
    data = b"x" * 8192
    for name in ("data_block_size", "hash_block_size"):
        for size in (256, 3000, 131072):
            with pytest.raises(ValueError, match=f"{name} must be a power of two from 512 to 65536"):
                dmverity.tree(data, **{name: size})
    with pytest.raises(ValueError, match="dm-verity's salt is at most 256 bytes, not 257"):
        dmverity.tree(data, salt=bytes(257))
    with pytest.raises(ValueError, match="format is 1 .* or 0"):
        dmverity.tree(data, format=2)
    with pytest.raises(ValueError, match="no whole data block"):
        dmverity.tree(b"x" * 100)
    with pytest.raises(ValueError, match="hash_offset must be a multiple of 512"):
        dmverity.format("/nonexistent", "/nonexistent2", hash_offset=1000)
    with pytest.raises(ValueError, match="badly formed hexadecimal UUID"):  # before the data is looked for
        dmverity.format("/nonexistent", "/nonexistent2", uuid="bad")
    with pytest.raises(ValueError, match="a UUID is 16 bytes"):
        dmverity.superblock(b"short", 1)
