"""examples/arrow/hash_parquet.py: the same job in one process, against hashlib."""

import hashlib
import os
import random

import pytest

from support import datasets
from support.datasets import sha256, staging_left, write_parquet_files
from support.paths import ROOT

pyarrow = pytest.importorskip("pyarrow")
parquet = pytest.importorskip("pyarrow.parquet")

SCRIPT = ROOT / "examples" / "arrow" / "hash_parquet.py"
pytestmark = [pytest.mark.skipif(not SCRIPT.exists(), reason="needs the source checkout's examples/")]
FILE_ROWS = (3000, 5000, 2000)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("arrow")
    folder = root / "input"
    payloads, labels = write_parquet_files(folder, FILE_ROWS, random.Random(20261203), 300, null_share=0.03)
    return root, folder, payloads, labels


def run_example(*args, cwd):
    return datasets.run_example(SCRIPT, *args, cwd=cwd)


def read_output(folder):
    return pyarrow.concat_tables(parquet.read_table(f) for f in sorted(folder.glob("*.parquet")))


@pytest.mark.parametrize("threads", [1, 2])
def test_every_digest_and_the_row_order(dataset, threads):
    root, folder, payloads, _ = dataset
    out = root / f"hashed_{threads}"
    result = run_example(folder, "payload", out, "--threads", threads, cwd=root)
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(out)) == sorted(os.listdir(folder))  # one output file per input file
    table = read_output(out)
    assert table.column("id").to_pylist() == list(range(sum(FILE_ROWS)))
    assert table.schema.field("sha256").type == pyarrow.binary(32)
    assert table.column("sha256").to_pylist() == [sha256(p) for p in payloads]


def test_hex_of_a_text_column(dataset):
    root, folder, _, labels = dataset
    out = root / "hashed_hex"
    result = run_example(folder, "label", out, "--hex", cwd=root)
    assert result.returncode == 0, result.stderr
    assert read_output(out).column("sha256").to_pylist() == [hashlib.sha256(s.encode()).hexdigest() for s in labels]


@pytest.mark.parametrize("args, words, status", [  # docs/bad-input.md's statuses: 1 for the data, 2 for usage
    (("nope",), "no column 'nope' (the dataset has id, payload, label)", 1),
    (("id",), "column 'id' is int64, not binary or string", 1),
    (("payload", "--threads", "-1"), "--threads must be 0 or more", 2),
])
def test_bad_input_fails_clearly_and_writes_nothing(dataset, args, words, status):
    root, folder, _, _ = dataset
    out = root / "never"
    result = run_example(folder, args[0], out, *args[1:], cwd=root)
    assert result.returncode == status and words in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists() and not staging_left(root)


def test_an_existing_output_a_sha256_column_or_an_empty_input_is_refused(dataset, tmp_path):
    root, folder, _, _ = dataset
    datasets.check_an_existing_output_is_kept(SCRIPT, folder, root)
    with_digests = tmp_path / "with_digests"
    with_digests.mkdir()
    parquet.write_table(pyarrow.table({"payload": [b"abc"], "sha256": [b"x" * 32]}), with_digests / "a.parquet")
    result = run_example(with_digests, "payload", tmp_path / "out", cwd=tmp_path)
    assert result.returncode != 0 and "the dataset has a sha256 column already" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_example(empty, "payload", tmp_path / "out", cwd=tmp_path)
    assert result.returncode != 0 and "no .parquet files in" in result.stderr
    assert not (tmp_path / "out").exists()
