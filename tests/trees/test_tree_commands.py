"""`libsha fsverity digest` and `libsha verity format` beside the tools they stand in for, run on
the same files: the same stdout, the same files byte for byte, the same exit status (and the
refusals where libsha takes less: other hash algorithms, block sizes the kernel cannot use)."""

import os
import subprocess

import pytest

from libsha import cli
from support import verity

pytestmark = pytest.mark.core


@pytest.fixture
def files(tmp_path, rng):
    for name, size in (("empty", 0), ("one", 1), ("block", 4096), ("odd", 10000), ("big", 4096 * 300 + 5)):
        (tmp_path / name).write_bytes(rng.randbytes(size))
    return tmp_path


def ours(capsys, argv):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


FSVERITY_CASES = [
    ["empty", "one", "block", "odd", "big"],
    ["big", "--block-size=1024", "--salt=00ff"],
    ["odd", "--block-size", "65536", "--salt", "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"],
    ["one", "big", "--compact"],
    ["big", "--for-builtin-sig"],
    ["one", "--compact", "--for-builtin-sig"],
    ["big", "--hash-alg=sha256", "--salt="],
    ["big", "odd", "one", "--out-merkle-tree=T", "--out-descriptor=D"],
    ["odd", "--out-merkle-tree", "T", "--block-size=1024"],
    [],
    ["one", "--block-size=3000"],
    ["one", "--block-size=x"],
    ["one", "--salt=zz"],
    ["one", "--salt=abc"],
    ["one", "--salt=" + "ab" * 33],
    ["missing"],
    ["."],
    ["one", "missing", "big"],
    ["one", "--bogus"],
    ["one", "--block-size=4096", "--block-size=1024"],
    ["--help"],
]


@pytest.mark.parametrize("args", FSVERITY_CASES, ids=" ".join)
def test_fsverity_digest_as_fsverity_utils(files, capsys, monkeypatch, args):
    why = verity.fsverity_unavailable()
    if why:
        pytest.skip(why)
    monkeypatch.chdir(files)
    theirs = subprocess.run([verity.fsverity_command(), "digest", *args], capture_output=True, text=True)
    their_files = {name: (files / name).read_bytes() for name in ("T", "D") if (files / name).exists()}
    for name in their_files:
        os.unlink(files / name)
    code, out, err = ours(capsys, ["fsverity", "digest", *args])
    assert (code, out) == (theirs.returncode, theirs.stdout.replace("fsverity digest", "libsha fsverity digest"))
    assert {name: (files / name).read_bytes() for name in ("T", "D") if (files / name).exists()} == their_files
    assert err.splitlines()[:1] == theirs.stderr.splitlines()[:1] or "--help" in args


@pytest.mark.parametrize("args", [["--hash-alg=sha512"], ["--hash-alg=md5"], ["--block-size=512"],
                                  ["--block-size=131072"]])
def test_fsverity_digest_refuses_what_libsha_does_not_compute(files, capsys, monkeypatch, args):
    monkeypatch.chdir(files)
    code, out, err = ours(capsys, ["fsverity", "digest", "one", *args])
    assert code == 2 and out == "" and err.startswith("ERROR: ")


UUID = "--uuid=12345678-1234-1234-1234-123456789abc"
VERITY_CASES = [
    ["big", "H", "--salt=00ff", UUID],
    ["big", "H", "--salt=-", "--no-superblock"],
    ["big", "H", "--salt", "0a" * 256, "--format=0", "--data-block-size=1024", "--hash-block-size=512", UUID],
    ["big", "H", "--salt=-", "--hash-offset=8192", "--data-blocks=100", UUID],
    ["odd", "H", "--salt=-", "--no-superblock", "--hash-offset=4096"],
    ["block", "H", "--salt=-", UUID],
    ["big", "H", "--data-block-size=65536", "--salt=-", UUID],
    ["empty", "H", "--salt=-"],
    ["missing", "H"],
    ["big", "H", "--data-block-size=3000"],
    ["big", "H", "--format=2"],
    ["big", "H", "--uuid=bad"],
    ["big", "H", "--salt=zz"],
    ["big", "H", "--salt=" + "ab" * 257],
    ["big", "H", "--hash-offset=1000"],
    ["big", "H", "--data-blocks=400", "--salt=-"],
]


@pytest.mark.parametrize("args", VERITY_CASES, ids=" ".join)
def test_verity_format_as_veritysetup(files, capsys, monkeypatch, args):
    why = verity.veritysetup_unavailable()
    if why:
        pytest.skip(why)
    monkeypatch.chdir(files)
    (files / "H").write_bytes(b"\xaa" * 10000)  # an existing file: what is not the tree's stays
    theirs = subprocess.run([verity.veritysetup_command(), "format", *args], capture_output=True, text=True)
    their_hash = (files / "H").read_bytes()
    (files / "H").write_bytes(b"\xaa" * 10000)
    code, out, err = ours(capsys, ["verity", "format", *args])
    assert (code, out) == (theirs.returncode, theirs.stdout)
    # On a refusal libsha writes nothing; veritysetup may have written its tree already (a bad --uuid, too
    # few blocks for --data-blocks).
    assert (files / "H").read_bytes() == (their_hash if code == 0 else b"\xaa" * 10000)
    assert err.splitlines()[:1] == theirs.stderr.splitlines()[:1] or code != 0 or theirs.stderr.startswith("WARN")


def test_verity_format_refuses_other_hashes(files, capsys, monkeypatch):
    monkeypatch.chdir(files)
    code, out, err = ours(capsys, ["verity", "format", "big", "H", "--hash=sha1"])
    assert code == 1 and out == "" and "SHA-256 only" in err and not (files / "H").exists()
