"""`libsha ipfs add -n`: Kubo's lines from libsha.ipfs's CIDs (held to the JS importer in
test_ipfs.py and test_ipfs_add.py), Kubo's spellings and defaults (CIDv1's raw leaves), standard
input, and the refusals: without -n, a directory without -r, what libsha does not build."""

import subprocess
import sys

import pytest

from libsha import cli, ipfs
from libsha.tree_commands.ipfs_add import escaped

pytestmark = pytest.mark.core


@pytest.fixture
def tree(tmp_path, rng):
    (tmp_path / "d" / "sub").mkdir(parents=True)
    for name, size in (("d/a", 5), ("d/sub/b", 300_000), ("loose", 70_000), ("d/.h", 1)):
        (tmp_path / name).write_bytes(rng.randbytes(size))
    return tmp_path


def run(capsys, monkeypatch, where, *argv):
    monkeypatch.chdir(where)
    code = cli.main(["ipfs", "add", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_lines_as_kubo_prints_them(tree, capsys, monkeypatch):
    monkeypatch.chdir(tree)
    added = ipfs.add(["loose", "d"], wrap=True)
    code, out, err = run(capsys, monkeypatch, tree, "-n", "-r", "-w", "loose", "d")
    assert (code, err) == (0, "")
    assert out == "".join(f"added {a.cid} {a.name}\n" for a in added)
    assert out.endswith(f"added {added[-1].cid} \n")  # the wrapping directory: Kubo's empty name
    assert run(capsys, monkeypatch, tree, "-nrwQ", "d", "loose")[1] == f"{added[-1].cid}\n"
    assert run(capsys, monkeypatch, tree, "--only-hash", "--quiet", "-rw", "d", "loose")[1] == "".join(
        f"{a.cid}\n" for a in added)
    assert run(capsys, monkeypatch, tree, "-n", "--silent", "-r", "d")[1:] == ("", "")
    single = run(capsys, monkeypatch, tree, "-n", str(tree / "loose"))[1]
    assert single == f"added {ipfs.file_cid(tree / 'loose')} loose\n"  # the base name, as Kubo's


def test_kubos_options(tree, capsys, monkeypatch):
    path = str(tree / "loose")
    v1 = run(capsys, monkeypatch, tree, "-nq", "--cid-version=1", path)[1].strip()
    assert v1 == ipfs.file_cid(path, cid_version=1, raw_leaves=True)  # CIDv1 defaults to raw leaves
    assert run(capsys, monkeypatch, tree, "-nq", "--cid-version", "1", "--raw-leaves=false", path)[1].strip() == (
        ipfs.file_cid(path, cid_version=1, raw_leaves=False))
    assert run(capsys, monkeypatch, tree, "-nq", "-s", "size-1000", "--max-file-links=3", path)[1].strip() == (
        ipfs.file_cid(path, chunk_size=1000, max_links=3))
    assert run(capsys, monkeypatch, tree, "-nqssize-1000", path)[1].strip() == ipfs.file_cid(path, chunk_size=1000)
    assert run(capsys, monkeypatch, tree, "-nq", "--profile=unixfs-v1-2025", path)[1].strip() == (
        ipfs.file_cid(path, profile="unixfs-v1-2025"))
    hidden = run(capsys, monkeypatch, tree, "-nrH", "d")[1]
    assert "d/.h" in hidden and "d/.h" not in run(capsys, monkeypatch, tree, "-nr", "d")[1]
    code, _, err = run(capsys, monkeypatch, tree, "-nrp", "--threads=2", "d")
    assert code == 0 and "of" in err  # the progress line's totals


def test_standard_input(tree):
    data = (tree / "loose").read_bytes()
    made = ipfs.cid(data)

    def add(*argv):
        done = subprocess.run([sys.executable, "-m", "libsha", "ipfs", "add", *argv], input=data,
                              capture_output=True, cwd=tree)
        return done.returncode, done.stdout.decode()

    assert add("-n") == (0, f"added {made} {made}\n")  # Kubo names it by its CID
    code, out = add("-n", "-w", "--stdin-name=x.bin")
    assert code == 0 and out.splitlines()[0] == f"added {made} x.bin"
    (tree / "x.bin").write_bytes(data)
    assert out.splitlines()[1] == f"added {ipfs.add(str(tree / 'x.bin'), wrap=True)[-1].cid} "


@pytest.mark.parametrize("argv, code, message", [
    (["d"], 2, "libsha only hashes"),
    (["-n", "d"], 1, "Error: 'd' is a directory, use the '-r' flag to specify directories"),
    (["-n", "missing"], 1, "Error: missing: No such file or directory"),
    (["-n", "-t", "loose"], 2, "balanced layout only"),
    (["-n", "--chunker=rabin-1-2-3", "loose"], 2, "chunks by size only"),
    (["-n", "--hash=blake3", "loose"], 2, "sha2-256 only"),
    (["-n", "--cid-version=x", "loose"], 2, "takes a number"),
    (["-n", "--cid-version=2", "loose"], 1, "cid_version must be 0 or 1"),
    (["-n", "--raw-leaves=maybe", "loose"], 2, "invalid boolean value"),
    (["-n", "-s", "size-0", "loose"], 1, "chunk_size must be 1..1048576"),
    (["-n", "--profile=unixfs-v9", "loose"], 1, "profile must be one of"),
    (["-n", "--bogus", "loose"], 2, "unrecognized option '--bogus'"),
    (["-nZ", "loose"], 2, "unrecognized option '-Z'"),
])
def test_refusals(tree, capsys, monkeypatch, argv, code, message):
    got, out, err = run(capsys, monkeypatch, tree, *argv)
    assert (got, out) == (code, "") and message in err


def test_names_kubo_escapes():
    assert escaped("plain name.txt") == "plain name.txt"
    assert escaped("tab\there") == "tab\\there"
    assert escaped("bell\a\\") == "bell\\a\\\\"
    assert escaped("bad\udcffbyte") == "bad\\xffbyte"
    assert escaped("\x7f") == "\\x7f"
