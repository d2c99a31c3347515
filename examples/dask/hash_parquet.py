"""Add a SHA-256 column to a Parquet dataset on a Dask cluster, partition by partition.

    python examples/dask/hash_parquet.py INPUT_DIR COLUMN OUTPUT_DIR [--workers N] [--scheduler ADDRESS] [--hex]

Reads INPUT_DIR with dask.dataframe (Arrow-backed columns), adds `sha256` (the digest of
COLUMN's bytes, strings as UTF-8: FixedSizeBinary(32), or lowercase hex with --hex) with
libsha.sha256_many on each partition, and writes Parquet to OUTPUT_DIR, rows in input order.
It starts a distributed.LocalCluster of N worker processes (one thread each), or uses the
scheduler at ADDRESS. OUTPUT_DIR must not exist; the output is written beside it and moved
into place only when complete, so a failure leaves nothing partial there.

Needs `pip install 'libsha[dask]'` wherever it runs: on this machine, and on every worker.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input_dir", help="a Parquet dataset (a directory of .parquet files)")
    parser.add_argument("column", help="the binary or string column to hash")
    parser.add_argument("output_dir", help="where the dataset with its sha256 column goes (must not exist)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the LocalCluster (2)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="use this Dask scheduler instead of a LocalCluster")
    parser.add_argument("--hex", action="store_true", help="hex digests (string) instead of 32 bytes")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    return args


def hash_partition(frame, column, hex):
    """One partition (a pandas DataFrame) with its sha256 column. Runs on the workers."""
    import libsha

    # threads=1: the worker processes already use the cores, one partition each.
    return frame.assign(sha256=libsha.sha256_many(frame[column], hex=hex, threads=1))


def check_column(frame, column):
    """The column must exist and hold bytes or text; a clear error before any work."""
    import pandas
    import pyarrow

    if column not in frame.columns:
        raise SystemExit(f"hash_parquet: no column {column!r} (the dataset has {', '.join(map(str, frame.columns))})")
    dtype = frame.dtypes[column]
    if isinstance(dtype, pandas.StringDtype):  # text, as Dask reads Parquet strings
        return
    arrow_type = dtype.pyarrow_dtype if isinstance(dtype, pandas.ArrowDtype) else None
    if arrow_type is None or not (pyarrow.types.is_binary(arrow_type) or pyarrow.types.is_large_binary(arrow_type)
                                  or pyarrow.types.is_string(arrow_type) or pyarrow.types.is_large_string(arrow_type)):
        raise SystemExit(f"hash_parquet: column {column!r} is {dtype}, not binary or string")


def run(args, client):
    """Hashes the dataset on the client's cluster: (partitions, seconds from read to rename)."""
    import dask.dataframe
    import pandas
    import pyarrow

    start = time.perf_counter()
    frame = dask.dataframe.read_parquet(args.input_dir, dtype_backend="pyarrow")
    check_column(frame, args.column)
    digest_type = pyarrow.string() if args.hex else pyarrow.binary(32)
    meta = {**frame.dtypes.to_dict(), "sha256": pandas.ArrowDtype(digest_type)}
    hashed = frame.map_partitions(hash_partition, args.column, args.hex, meta=meta)

    # Written beside the output directory, moved into place when every partition is done.
    parent = os.path.dirname(os.path.abspath(args.output_dir))
    staging = tempfile.mkdtemp(prefix=".hash_parquet-", dir=parent)
    try:
        hashed.to_parquet(staging, write_index=False)
        os.rename(staging, args.output_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return hashed.npartitions, time.perf_counter() - start


def main(argv=None):
    args = parse_args(argv)
    if os.path.exists(args.output_dir):
        raise SystemExit(f"hash_parquet: {args.output_dir} exists; choose a new output directory")
    from distributed import Client, LocalCluster

    if args.scheduler:
        with Client(args.scheduler) as client:
            partitions, seconds = run(args, client)
    else:
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            partitions, seconds = run(args, client)
    print(f"hash_parquet: {partitions} partitions hashed into {args.output_dir} in {seconds:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
