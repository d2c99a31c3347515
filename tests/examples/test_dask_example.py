"""examples/dask/hash_parquet.py on a LocalCluster of 2 workers: 1,000,000 rows in 4 files."""

import hashlib
import random
import re

import pytest

from support import datasets
from support.datasets import sha256, staging_left, write_parquet_files
from support.paths import ROOT

pytest.importorskip("dask.dataframe", reason="needs dask (pip install 'libsha[dask]')")
pytest.importorskip("distributed", reason="needs distributed (pip install 'libsha[dask]')")
pyarrow = pytest.importorskip("pyarrow")
parquet = pytest.importorskip("pyarrow.parquet")

SCRIPT = ROOT / "examples" / "dask" / "hash_parquet.py"
pytestmark = [pytest.mark.skipif(not SCRIPT.exists(), reason="needs the source checkout's examples/"), pytest.mark.external]

ROWS_PER_FILE = 250_000
FILES = 4


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """4 Parquet files, 1,000,000 rows: an id in order, binary payloads of 0..99 bytes, text."""
    root = tmp_path_factory.mktemp("dask")
    folder = root / "input"
    payloads, _ = write_parquet_files(folder, [ROWS_PER_FILE] * FILES, random.Random(20261130), 100)
    return root, folder, payloads


def run_example(*args, cwd):
    return datasets.run_example(SCRIPT, *args, cwd=cwd)


def read_output(folder):
    """The output files in their partition order (part.0, part.1, ..., part.10), concatenated."""
    files = sorted(folder.glob("*.parquet"), key=lambda p: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", p.name)])
    return pyarrow.concat_tables(parquet.read_table(f) for f in files)


def test_every_digest_and_the_row_order(dataset):
    root, folder, payloads = dataset
    out = root / "hashed"
    result = run_example(folder, "payload", out, "--workers", 2, cwd=root)
    assert result.returncode == 0, result.stderr
    table = read_output(out)
    assert table.column("id").to_pylist() == list(range(FILES * ROWS_PER_FILE))  # the input's order
    assert table.schema.field("sha256").type == pyarrow.binary(32)
    assert table.column("sha256").to_pylist() == [sha256(p) for p in payloads]


def test_hex_of_a_text_column(dataset):
    root, folder, _ = dataset
    out = root / "hashed_hex"
    result = run_example(folder, "label", out, "--workers", 2, "--hex", cwd=root)
    assert result.returncode == 0, result.stderr
    table = read_output(out)
    labels = table.column("label").to_pylist()
    assert table.column("sha256").to_pylist() == [hashlib.sha256(s.encode()).hexdigest() for s in labels]


@pytest.mark.parametrize("column, words", [("nope", "no column 'nope'"), ("id", "column 'id' is int64")])
def test_bad_columns_fail_clearly_and_write_nothing(dataset, column, words):
    root, folder, _ = dataset
    out = root / f"never_{column}"
    result = run_example(folder, column, out, "--workers", 1, cwd=root)
    assert result.returncode != 0 and words in result.stderr
    assert not out.exists()
    assert not staging_left(root)


def test_an_existing_output_is_refused(dataset):
    root, folder, _ = dataset
    datasets.check_an_existing_output_is_kept(SCRIPT, folder, root)
