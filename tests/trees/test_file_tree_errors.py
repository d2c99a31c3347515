"""The errors every tree over a buffer or a file shares, each tree asked the same way: a str is no
buffer, a missing file and a directory are OSErrors naming them, threads= is checked first."""

import pytest

from libsha import bep52, dmverity, filecoin, fsverity, glacier, ipfs

pytestmark = pytest.mark.core

B = bep52.BLOCK_SIZE
TREES = {  # (of a buffer, of a file)
    "bep52": (lambda data, **kw: bep52.tree(data, B, **kw), lambda path, **kw: bep52.file_tree(path, B, **kw)),
    "glacier": (glacier.tree_hash, glacier.file_tree_hash),
    "ipfs": (ipfs.cid, ipfs.file_cid),
    "filecoin": (filecoin.piece_commitment, filecoin.file_piece_commitment),
    "fsverity": (fsverity.tree, fsverity.file_tree),
    "dmverity": (dmverity.tree, dmverity.file_tree),
}


@pytest.mark.parametrize("tree", TREES)
def test_the_shared_errors(tmp_path, tree):
    of_buffer, of_file = TREES[tree]
    with pytest.raises(TypeError, match="str"):
        of_buffer("text")
    with pytest.raises(FileNotFoundError) as missing:
        of_file(tmp_path / "missing")
    assert missing.value.filename == str(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        of_file(tmp_path)
    with pytest.raises(ValueError, match="threads must be 0"):
        of_buffer(b"x" * 4096, threads=-1)
    with pytest.raises(TypeError, match="threads must be an int"):
        of_file(tmp_path / "missing", threads=2.0)
