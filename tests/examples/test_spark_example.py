"""examples/spark/hash_parquet.py on local[2], the driver on the loopback; and sha256_many's Arrow
types through Spark's mapInArrow. Needs pyspark (pip install 'libsha[spark]') and Java 17 or newer.

About 260 s of test time on this 2-core machine, shared between the xdist workers: each run of
the example starts its own JVM (10-15 s of it)."""

import hashlib
import os
import random
import re
import shutil
import subprocess
import sys

import pytest

from support import datasets
from support.datasets import sha256, staging_left, write_parquet_files
from support.paths import ROOT

pytest.importorskip("pyspark", reason="needs pyspark (pip install 'libsha[spark]')")
pyarrow = pytest.importorskip("pyarrow")
parquet = pytest.importorskip("pyarrow.parquet")

SCRIPT = ROOT / "examples" / "spark" / "hash_parquet.py"
# Rows of each file: unequal, so Spark (which reads the largest first) reorders them.
FILE_ROWS = (40_000, 70_000, 25_000)
# Small row groups and partitions: every file is read as several splits, in several tasks.
SPLITS = ("--conf", "spark.sql.files.maxPartitionBytes=2m")


def java_major():
    """The major version of the java that Spark would start (JAVA_HOME's, else PATH's), or None."""
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    if not java or not os.path.exists(java):
        return None
    try:
        banner = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60).stderr
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r'version "(\d+)(?:\.(\d+))?', banner)
    if not found:
        return None
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major  # "1.8.0" is Java 8


JAVA = java_major()
pytestmark = [
    pytest.mark.skipif(not SCRIPT.exists(), reason="needs the source checkout's examples/"),
    pytest.mark.skipif(JAVA is None or JAVA < 17,
                       reason=f"Spark 4 needs Java 17 or newer; found {'no java' if JAVA is None else f'Java {JAVA}'}"),
    pytest.mark.external,
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning"),
]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """3 Parquet files: an id in order, binary payloads of 0..299 bytes (some null), text."""
    root = tmp_path_factory.mktemp("spark")
    folder = root / "input"
    payloads, labels = write_parquet_files(folder, FILE_ROWS, random.Random(20261201), 300, null_share=0.03,
                                           row_group_size=5000)
    return root, folder, payloads, labels


def run_example(*args, cwd):
    return datasets.run_example(SCRIPT, *args, cwd=cwd)


def read_output(folder):
    """The output files in name order (part-00000-..., part-00001-...), concatenated."""
    return pyarrow.concat_tables(parquet.read_table(f) for f in sorted(folder.glob("part-*.parquet")))


def test_every_digest_and_the_row_order(dataset):
    root, folder, payloads, _ = dataset
    out = root / "hashed"
    result = run_example(folder, "payload", out, "--cores", 2, *SPLITS, cwd=root)
    assert result.returncode == 0, result.stderr
    assert "hashed into" in result.stderr
    table = read_output(out)
    assert table.column("id").to_pylist() == list(range(sum(FILE_ROWS)))  # the input's order
    assert table.schema.field("sha256").type == pyarrow.binary()
    assert table.column("sha256").to_pylist() == [sha256(p) for p in payloads]
    assert not staging_left(root)


def test_hex_of_a_text_column_in_any_order(dataset):
    root, folder, _, labels = dataset
    out = root / "hashed_hex"
    result = run_example(folder, "label", out, "--hex", "--any-order", *SPLITS, cwd=root)
    assert result.returncode == 0, result.stderr
    table = read_output(out)
    assert table.schema.field("sha256").type == pyarrow.string()
    ids = table.column("id").to_pylist()
    assert sorted(ids) == list(range(sum(FILE_ROWS)))  # every row once, in whatever order
    digests = table.column("sha256").to_pylist()
    assert digests == [hashlib.sha256(labels[i].encode()).hexdigest() for i in ids]


def test_a_csv_file_read_with_its_reader_options(tmp_path):
    """--format csv --option header=true: text columns of another source, in Spark's order."""
    texts = [f"row {i}, é∑ \"quoted\"" for i in range(500)]
    folder = tmp_path / "input"
    folder.mkdir()
    lines = ["id,label"] + [f'{i},"{t.replace(chr(34), chr(34) * 2)}"' for i, t in enumerate(texts)]
    (folder / "rows.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "hashed"
    result = run_example(folder, "label", out, "--format", "csv", "--option", "header=true", "--option", "escape=\"",
                         "--hex", "--cores", 1, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    table = read_output(out)
    assert table.column_names == ["id", "label", "sha256"]  # the header is names, not a row
    ids = [int(i) for i in table.column("id").to_pylist()]
    assert sorted(ids) == list(range(len(texts)))
    assert table.column("sha256").to_pylist() == [hashlib.sha256(texts[i].encode()).hexdigest() for i in ids]


def test_a_table_by_name(dataset):
    """--table: what spark.table() finds, here Spark SQL's name for a Parquet directory (a metastore's
    table goes the same way); a table stored as Parquet files is put back in their order too."""
    root, folder, payloads, _ = dataset
    out = root / "hashed_table"
    result = run_example(f"parquet.`{folder}`", "payload", out, "--table", *SPLITS, cwd=root)
    assert result.returncode == 0, result.stderr
    table = read_output(out)
    assert table.column("id").to_pylist() == list(range(sum(FILE_ROWS)))
    assert table.column("sha256").to_pylist() == [sha256(p) for p in payloads]


@pytest.mark.parametrize("args, words", [
    (("--table", "--option", "header=true"), "--option sets the --format reader; a --table has its own"),
    (("--option", "header"), "--option takes KEY=VALUE, not 'header'"),
    (("--conf", "spark.x"), "--conf takes KEY=VALUE, not 'spark.x'"),
])
def test_bad_options_are_refused_before_spark_starts(tmp_path, args, words):
    result = run_example("input", "payload", tmp_path / "out", *args, cwd=tmp_path)
    assert result.returncode == 2 and words in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("column, words", [
    ("nope", "no column 'nope' (the dataset has id, payload, label)"),
    ("id", "column 'id' is bigint, not binary or string"),
])
def test_bad_columns_fail_clearly_and_write_nothing(dataset, column, words):
    root, folder, _, _ = dataset
    out = root / f"never_{column}"
    result = run_example(folder, column, out, "--cores", 1, cwd=root)
    assert result.returncode != 0 and words in result.stderr
    assert "Traceback" not in result.stderr
    assert not out.exists()
    assert not staging_left(root)


def test_a_dataset_with_a_sha256_column_is_refused(tmp_path):
    folder = tmp_path / "input"
    folder.mkdir()
    parquet.write_table(pyarrow.table({"payload": [b"abc"], "sha256": [b"x" * 32]}), folder / "part-0.parquet")
    result = run_example(folder, "payload", tmp_path / "out", "--cores", 1, cwd=tmp_path)
    assert result.returncode != 0 and "the dataset has a sha256 column already" in result.stderr
    assert not (tmp_path / "out").exists() and not staging_left(tmp_path)


def test_an_existing_output_is_refused(dataset):
    root, folder, _, _ = dataset
    datasets.check_an_existing_output_is_kept(SCRIPT, folder, root, "--cores", 1)


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # The JVM, and the Python workers it starts, run where it started: not in the checkout,
    # whose libsha/ folder would shadow the installed package.
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("spark_session"))
    try:
        session = (SparkSession.builder.master("local[2]").appName("test_spark_example")
                   .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                   .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                   .getOrCreate())
    finally:
        os.chdir(here)
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_takes_the_arrow_types_sha256_many_makes(spark):
    """Every arrow_type= a digest column can be made as comes through mapInArrow intact (one
    test, not four: one session, on one xdist worker)."""
    rng = random.Random(20261202)
    values = [None if rng.random() < 0.05 else rng.randbytes(rng.randrange(200)) for _ in range(3000)]
    frame = spark.createDataFrame([(i, v) for i, v in enumerate(values)], "id long, payload binary").repartition(3)
    for type_name, hex in (("binary", False), ("large_binary", False), ("string", True), ("large_string", True)):
        arrow_type = getattr(pyarrow, type_name)()

        def hash_batches(batches, arrow_type=arrow_type, hex=hex):
            import libsha

            for batch in batches:
                digests = libsha.sha256_many(batch.column("payload"), hex=hex, arrow_type=arrow_type)
                yield batch.append_column("sha256", digests)

        schema = f"id long, payload binary, sha256 {'string' if hex else 'binary'}"
        rows = frame.mapInArrow(hash_batches, schema).collect()
        assert len(rows) == len(values), type_name
        for row in rows:
            want = sha256(values[row.id])
            assert row.sha256 == (want.hex() if hex and want is not None else want), type_name


TIME_JOBS = SCRIPT.parent / "time_jobs.py"


def test_time_jobs_runs_and_checks_its_jobs(tmp_path):
    """The README's figures come from time_jobs.py: on a small dataset, every job runs and passes its check."""
    pytest.importorskip("dask.dataframe", reason="time_jobs.py runs the Dask example too (pip install 'libsha[dask]')")
    # One job of each kind: a plain process, a cluster, a Spark job through time_jobs' own baseline
    # (the example's Spark runs are the tests above; each costs a JVM).
    result = subprocess.run([sys.executable, str(TIME_JOBS), "--rows", "3000", "--files", "3", "--rounds", "1",
                             "--jobs", "arrow,dask,spark-pass"], capture_output=True, text=True, cwd=tmp_path,
                            timeout=900)
    assert result.returncode == 0, result.stderr
    assert "every digest checked against hashlib" in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ") and "job |" not in line]
    assert [row.split(" | ")[0][2:] for row in rows] == [
        "pyarrow, one process", "Dask, 2 workers", "Spark local[2], no hashing: batches through Python unchanged"]
    assert "nan" not in result.stdout  # every job reported its own time
