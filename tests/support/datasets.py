"""Parquet datasets for the examples' tests (examples/arrow, dask, spark): files of rows with an id
in order, binary payloads and text, what each row should hash to, and the examples' runs."""

import hashlib
import os
import subprocess
import sys


def write_parquet_files(folder, file_rows, rng, max_length, null_share=0.0, row_group_size=None):
    """Files part-0.parquet, part-1.parquet, ... of `file_rows` rows each: `id` (0, 1, ... across
    the files), `payload` (random bytes of 0..max_length-1, null at `null_share`), `label` (text,
    not ASCII). Returns the payloads and labels in row order."""
    import pyarrow
    import pyarrow.parquet

    folder.mkdir(parents=True)
    payloads, labels = [], []
    start = 0
    for f, rows in enumerate(file_rows):
        values = [None if null_share and rng.random() < null_share else rng.randbytes(rng.randrange(max_length))
                  for _ in range(rows)]
        texts = [f"é{start + i}∑" for i in range(rows)]
        payloads += values
        labels += texts
        table = pyarrow.table({
            "id": pyarrow.array(range(start, start + rows), pyarrow.int64()),
            "payload": pyarrow.array(values, pyarrow.binary()),
            "label": pyarrow.array(texts, pyarrow.string()),
        })
        pyarrow.parquet.write_table(table, folder / f"part-{f}.parquet", row_group_size=row_group_size)
        start += rows
    return payloads, labels


def sha256(value):
    """hashlib's digest, None for a null."""
    return None if value is None else hashlib.sha256(value).digest()


def staging_left(folder):
    """The examples' staging directories (.hash_parquet-*) left in folder."""
    return [p.name for p in folder.iterdir() if p.name.startswith(".hash_parquet-")]


def run_example(script, *args, cwd, timeout=600):
    """One run of an example script in this Python, from cwd (not the checkout, whose libsha/ would shadow)."""
    return subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def check_an_existing_output_is_kept(script, folder, root, *args):
    """Every example refuses an OUTPUT_DIR that exists and leaves its files as they were."""
    out = root / "exists"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    result = run_example(script, folder, "payload", out, *args, cwd=root)
    assert result.returncode != 0 and "exists; choose a new output directory" in result.stderr
    assert os.listdir(out) == ["keep.txt"]
