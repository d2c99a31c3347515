"""`libsha commp`: stream-commp's report of libsha.filecoin's commitments (held to data-segment in
test_filecoin.py), --json, standard input, and the refusals (exit 1 for a file, 2 for usage)."""

import json
import subprocess
import sys

import pytest

from libsha import cli, filecoin

pytestmark = pytest.mark.core


def run(capsys, *argv):
    code = cli.main(["commp", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_report_and_json(tmp_path, rng, capsys):
    path = tmp_path / "payload"
    path.write_bytes(rng.randbytes(300_000))
    made = filecoin.file_piece_commitment(path)
    code, out, err = run(capsys, str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == [str(path), f"  CommPCid:       {made.cid_v1}", f"  PieceCid (v2):  {made.cid_v2}",
                                "  Payload:              300000 bytes", "  Unpadded piece:       520192 bytes",
                                "  Padded piece:         524288 bytes"]
    code, out, _ = run(capsys, "--json", "--threads=2", str(path), str(path))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(lines) == 2 and lines[0] == {
        "file": str(path), "commp": made.commp.hex(), "cid_v1": made.cid_v1, "cid_v2": made.cid_v2,
        "payload_size": 300000, "padded_size": 524288}


def test_standard_input(tmp_path, rng):
    data = rng.randbytes(5000)
    done = subprocess.run([sys.executable, "-m", "libsha", "commp", "--json"], input=data, capture_output=True,
                          cwd=tmp_path)
    assert done.returncode == 0 and json.loads(done.stdout)["cid_v1"] == filecoin.piece_commitment(data).cid_v1


def test_refusals(tmp_path, capsys):
    (tmp_path / "short").write_bytes(bytes(64))
    (tmp_path / "ok").write_bytes(bytes(65))
    code, out, err = run(capsys, str(tmp_path / "missing"), str(tmp_path / "short"), str(tmp_path / "ok"))
    assert code == 1 and "missing: No such file or directory" in err and "not 64" in err
    assert out.startswith(f"{tmp_path / 'ok'}\n")  # the others still reported
    assert run(capsys, "--threads=x")[0] == 2
    assert run(capsys, "--bogus")[0] == 2
    assert run(capsys, "-h")[:2] == (0, run(capsys, "--help")[1])
