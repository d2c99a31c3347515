"""Add a SHA-256 column to a Parquet dataset in one process: pyarrow and libsha, no cluster.

    python examples/arrow/hash_parquet.py INPUT_DIR COLUMN OUTPUT_DIR [--hex] [--threads N]

Reads INPUT_DIR (its .parquet files by name), adds `sha256` (the digest of COLUMN's bytes,
strings as UTF-8: FixedSizeBinary(32), or lowercase hex with --hex) with libsha.sha256_many,
and writes one Parquet file per input file to OUTPUT_DIR, rows in input order. OUTPUT_DIR must
not exist; the output is written beside it and moved into place only when complete. The same
job as examples/dask/ and examples/spark/, for comparison: on one machine, this is the fastest.

Needs `pip install 'libsha[columns]'`.
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
    parser.add_argument("--hex", action="store_true", help="hex digests (string) instead of 32 bytes")
    parser.add_argument("--threads", type=int, default=0, help="hashing threads (0: one per CPU, the default)")
    args = parser.parse_args(argv)
    if args.threads < 0:
        parser.error("--threads must be 0 or more")
    return args


def input_files(folder):
    names = sorted(n for n in os.listdir(folder) if n.endswith(".parquet") and not n.startswith((".", "_")))
    if not names:
        raise SystemExit(f"hash_parquet: no .parquet files in {folder}")
    return names


def check_column(schema, column):
    """The column must exist and hold bytes or text; a clear error before any work."""
    import pyarrow

    if column not in schema.names:
        raise SystemExit(f"hash_parquet: no column {column!r} (the dataset has {', '.join(schema.names)})")
    kind = schema.field(column).type
    if not any(test(kind) for test in (pyarrow.types.is_binary, pyarrow.types.is_large_binary,
                                       pyarrow.types.is_string, pyarrow.types.is_large_string)):
        raise SystemExit(f"hash_parquet: column {column!r} is {kind}, not binary or string")
    if "sha256" in schema.names:
        raise SystemExit("hash_parquet: the dataset has a sha256 column already")


def main(argv=None):
    args = parse_args(argv)
    if os.path.lexists(args.output_dir):
        raise SystemExit(f"hash_parquet: {args.output_dir} exists; choose a new output directory")
    import libsha
    import pyarrow.parquet

    names = input_files(args.input_dir)
    check_column(pyarrow.parquet.read_schema(os.path.join(args.input_dir, names[0])), args.column)
    start = time.perf_counter()
    parent = os.path.dirname(os.path.abspath(args.output_dir))
    staging = tempfile.mkdtemp(prefix=".hash_parquet-", dir=parent)
    try:
        for name in names:
            table = pyarrow.parquet.read_table(os.path.join(args.input_dir, name))
            check_column(table.schema, args.column)  # each file, before its rows are hashed
            digests = libsha.sha256_many(table.column(args.column), hex=args.hex, threads=args.threads)
            pyarrow.parquet.write_table(table.append_column("sha256", digests), os.path.join(staging, name))
        os.rename(staging, args.output_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    print(f"hash_parquet: {len(names)} files hashed into {args.output_dir} in {time.perf_counter() - start:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
