"""libsha.bep52 against the reference (over hashlib) and libtorrent 2's create_torrent: block
counts around the C slices, every piece level, a file and its bytes, bad input."""

import pytest

from libsha import bep52
from libsha.reference import bep52 as reference
from support import libtorrent
from support.data import pattern251
from support.trees import sha256

pytestmark = pytest.mark.core

B = bep52.BLOCK_SIZE


def test_block_counts_and_piece_levels_against_the_reference(lanes_row, rng):
    data = rng.randbytes(B * 1100 + 77)
    for blocks in (0, 1, 2, 3, 4, 5, 8, 9, 17, 511, 512, 513, 1025):
        for extra in (0, 1, -1, 5000):
            if blocks * B + extra < 0:
                continue
            piece = data[: blocks * B + extra]
            for piece_length in (B, 2 * B, 4 * B, 64 * B, 1024 * B):
                want = reference.tree(piece, piece_length, sha256)
                assert bep52.tree(piece, piece_length) == want, (blocks, extra)
                # From 1 MiB the blocks go to threads in parts and the tree is made from their leaves.
                assert bep52.tree(piece, piece_length, threads=2) == want, (blocks, extra)


def test_the_pure_python_reference_agrees():
    data = pattern251(5 * B + 100)
    assert reference.tree(data, 2 * B) == bep52.tree(data, 2 * B)


def test_a_file_against_libtorrent(tmp_path, rng):
    why = libtorrent.unavailable()
    if why:
        pytest.skip(why)
    # (libtorrent makes no torrent of an empty file: that case is test_an_empty_file's.)
    for size, piece_length in ((100, B), (B, B), (3 * B, 64 * B), (5 * B + 100, B), (5 * B + 100, 4 * B),
                               (600 * B + 1, 16 * B), (1025 * B, 1024 * B)):
        path = tmp_path / f"f{size}"
        path.write_bytes(rng.randbytes(size))
        assert bep52.file_tree(path, piece_length) == libtorrent.tree(path, piece_length), (size, piece_length)
        assert bep52.file_tree(path, piece_length, threads=0) == bep52.file_tree(path, piece_length)
        assert bep52.tree(path.read_bytes(), piece_length) == bep52.file_tree(str(path), piece_length)


def test_an_empty_file_has_no_pieces_root(tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    assert bep52.file_tree(tmp_path / "empty", B) == (None, b"") == bep52.tree(b"", 4 * B)


def test_bad_input(tmp_path):
    for bad in (0, 1, B - 1, B + 1, 3 * B):
        with pytest.raises(ValueError, match="power of two of at least 16 KiB"):
            bep52.tree(b"x", bad)
    with pytest.raises(TypeError, match="piece_length must be an int"):
        bep52.tree(b"x", "16384")
    with pytest.raises(TypeError, match="str"):
        bep52.tree("text", B)
    with pytest.raises(FileNotFoundError):
        bep52.file_tree(tmp_path / "missing", B)
    with pytest.raises(ValueError, match="threads must be 0"):
        bep52.tree(b"x", B, threads=-1)
    with pytest.raises(TypeError, match="threads must be an int"):
        bep52.file_tree(tmp_path / "missing", B, threads=2.0)
    with pytest.raises(IsADirectoryError):
        bep52.file_tree(tmp_path, B)
