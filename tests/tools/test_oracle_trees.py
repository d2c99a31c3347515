"""python -m libsha.oracle --tree: fs-verity's and dm-verity's tools pass it, libsha's own calls and
commands pass it, and a tree with a bug in its padding fails it, on the sizes that show the bug."""

import sys

import pytest

from libsha.oracle import cli
from support import verity

pytestmark = pytest.mark.core

BUGGY = '''
import hashlib
from libsha.reference import fsverity

def unpadded_salt(data):  # the salt put before each block as it is, not zero-padded to 64 bytes
    sha = lambda b: hashlib.sha256(b).digest()
    root, _ = fsverity.tree(data, 4096, b"", lambda b: sha(b"\\x0a\\x0b" + b))
    return sha(fsverity.descriptor(root, len(data), 4096, b"\\x0a\\x0b"))

def last_block_short(data):  # the last block hashed as it is, not zero-filled
    import libsha
    return libsha.fsverity.digest(data) if len(data) % 4096 == 0 else libsha.sha256_digest(data)
'''


def oracle(capsys, *argv):
    code = cli.main(["--tree", *argv, "--seed", "7"])
    return code, capsys.readouterr()


def test_the_tools_pass(capsys):
    for why in (verity.fsverity_unavailable(), verity.veritysetup_unavailable()):
        if why:
            pytest.skip(why)
    code, out = oracle(capsys, "fsverity", "--block-size", "1024", "--salt", "0a0b", "--quick", "--command",
                       f"{verity.fsverity_command()} digest --block-size=1024 --salt=0a0b {{file}}")
    assert code == 0 and "cases passed" in out.out and "FAIL" not in out.out
    for fmt in ("0", "1"):
        code, out = oracle(capsys, "dmverity", "--block-size", "512", "--hash-block-size", "1024", "--salt", "ff",
                           "--format", fmt, "--quick", "--command",
                           f"{verity.veritysetup_command()} format {{file}} {{hash}} --data-block-size=512 "
                           f"--hash-block-size=1024 --salt=ff --format={fmt} --no-superblock")
        assert code == 0 and "FAIL" not in out.out, out.out


def test_libsha_passes(capsys):
    code, out = oracle(capsys, "fsverity", "--callable", "libsha.fsverity:digest")  # the full run: three levels
    assert code == 0 and "FAIL" not in out.out
    code, out = oracle(capsys, "dmverity", "--quick", "--command",
                       f"{sys.executable} -m libsha verity format {{file}} {{hash}} --salt=-")
    assert code == 0 and "FAIL" not in out.out, out.out + out.err


def test_glacier_libsha_passes_and_a_duplicated_odd_hash_fails(capsys, tmp_path, monkeypatch):
    code, out = oracle(capsys, "glacier", "--quick", "--callable", "libsha.glacier:tree_hash")
    assert code == 0 and "FAIL" not in out.out and "glacier (1 MiB leaves)" in out.out, out.out
    (tmp_path / "bitcoin_like.py").write_text(BITCOIN_LIKE)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = oracle(capsys, "glacier", "--quick", "--callable", "bitcoin_like:tree_hash")
    fails = [line.split()[1] for line in out.out.splitlines() if line.startswith("FAIL")]
    # Two leaves or fewer, and four, pair without an odd one; three and five carry one up.
    assert code == 1 and str(3 << 20) in fails and str(4 << 20) not in fails and str(2 << 20) not in fails


BITCOIN_LIKE = """
import hashlib
from libsha.reference import glacier

def tree_hash(data):  # an odd last hash paired with itself, as Bitcoin's tree does, not carried up
    sha = lambda b: hashlib.sha256(b).digest()
    level = glacier.leaves(data, sha)
    while len(level) > 1:
        level = level + level[-1:] if len(level) % 2 else level
        level = [sha(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]
"""


def test_ipfs_libsha_passes_and_a_missing_level_fails(capsys, tmp_path, monkeypatch):
    code, out = oracle(capsys, "ipfs", "--quick", "--callable", "libsha.ipfs:cid")
    assert code == 0 and "FAIL" not in out.out and "ipfs (unixfs-v0-2015)" in out.out, out.out
    code, out = oracle(capsys, "ipfs", "--quick", "--profile", "unixfs-v1-2025", "--command",
                       f"{sys.executable} -m libsha ipfs add -nQ --profile=unixfs-v1-2025 {{file}}")
    assert code == 0 and "FAIL" not in out.out, out.out + out.err
    (tmp_path / "flat_ipfs.py").write_text(FLAT_IPFS)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = oracle(capsys, "ipfs", "--callable", "flat_ipfs:cid")
    fails = [int(line.split()[1]) for line in out.out.splitlines() if line.startswith("FAIL")]
    # Up to a node's 174 links the flat DAG is Kubo's; one chunk more needs a second level.
    assert code == 1 and 174 * 262144 + 1 in fails and not [f for f in fails if f <= 174 * 262144], out.out


FLAT_IPFS = """
import hashlib
from libsha.reference import ipfs

def cid(data):  # every leaf linked from the root, however many: no second level
    return ipfs.cid(data, max_links=1 << 30, sha256=lambda b: hashlib.sha256(b).digest())
"""


def test_filecoin_libsha_passes_and_untruncated_nodes_fail(capsys, tmp_path, monkeypatch):
    code, out = oracle(capsys, "filecoin", "--quick", "--callable", "libsha.filecoin:piece_commitment")
    assert code == 0 and "FAIL" not in out.out and "filecoin (fr32" in out.out, out.out
    (tmp_path / "untruncated.py").write_text(UNTRUNCATED)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = oracle(capsys, "filecoin", "--quick", "--callable", "untruncated:commp")
    assert code == 1 and out.out.count("FAIL") >= 40, out.out  # every case: the root itself keeps 256 bits


UNTRUNCATED = """
import hashlib
from libsha.reference import filecoin

def commp(data):  # the nodes' 256 bits kept: SHA-256's own tree over the fr32 leaves
    sha = lambda b: hashlib.sha256(b).digest()
    data = bytes(data) + bytes(-len(data) % 127)
    size = filecoin.padded_size(len(data))
    leaves = b"".join(filecoin.fr32(data[i : i + 127]) for i in range(0, len(data), 127))
    level = [(leaves + bytes(size - len(leaves)))[i : i + 32] for i in range(0, size, 32)]
    while len(level) > 1:
        level = [sha(level[i] + level[i + 1]) for i in range(0, len(level), 2)]
    return level[0]
"""


def test_a_bug_is_found_at_the_sizes_that_show_it(capsys, tmp_path, monkeypatch):
    (tmp_path / "buggy_trees.py").write_text(BUGGY)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = oracle(capsys, "fsverity", "--salt", "0a0b", "--quick", "--callable", "buggy_trees:unpadded_salt")
    # Every case fails but the empty file's, whose root is zeros whatever the salt.
    assert code == 1 and " 1 of " in out.out and "seed 7" in out.out
    code, out = oracle(capsys, "fsverity", "--quick", "--callable", "buggy_trees:last_block_short")
    fails = [line for line in out.out.splitlines() if line.startswith("FAIL")]
    assert code == 1 and fails and all("bytes((" in line for line in fails)
    assert "FAIL 4096 bytes" not in out.out and "FAIL 4095 bytes" in out.out


def test_usage_errors(capsys):
    assert oracle(capsys, "fsverity", "--command", "fsverity digest")[0] == 2
    assert oracle(capsys, "dmverity", "--command", "veritysetup format {file} x")[0] == 2
    assert oracle(capsys, "fsverity", "--command", "/nonexistent/tool {file}")[0] == 2
    assert oracle(capsys, "fsverity", "--callable", "no_such_module:f")[0] == 2
    for bad in (["--block-size", "512"], ["--salt", "zz"], ["--salt", "00" * 33]):
        with pytest.raises(SystemExit) as exit_:
            oracle(capsys, "fsverity", *bad, "--callable", "libsha.fsverity:digest")
        assert exit_.value.code == 2
