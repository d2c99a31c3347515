"""Add a SHA-256 column to a Parquet dataset, or any table Spark reads, with mapInArrow.

    python examples/spark/hash_parquet.py INPUT COLUMN OUTPUT_DIR [--cores N | --master URL]
        [--format FORMAT [--option KEY=VALUE ...] | --table] [--hex] [--any-order] [--conf KEY=VALUE ...]

Reads INPUT (a Parquet dataset; a path in another --format, read with the reader's --option
settings; or with --table a catalog table),
adds `sha256` (the digest of COLUMN's bytes, strings as UTF-8: binary, or lowercase hex with
--hex) with libsha.sha256_many on each Arrow record batch, and writes Parquet to OUTPUT_DIR.
Parquet files, and tables stored as Parquet, keep their rows in the input's order (files by
name, rows as stored: Spark reads the largest first, so the rows are sorted back, which costs a
shuffle; --any-order skips it); other sources keep the order Spark reads them in. It runs on local[N] (N cores, the driver on
the loopback) or on the cluster at URL. OUTPUT_DIR must not exist; the output is written beside it
and moved into place only when complete, so a failure leaves nothing partial there.

Needs `pip install 'libsha[spark]'` (Java 17 or newer) here, and libsha with pyarrow in the
Python of every executor.
"""

import argparse
import os
import sys
import time
import uuid
import warnings

# Hidden columns that carry each row's place in the input through the job.
FILE_KEY = "__hash_parquet_file"
ROW_KEY = "__hash_parquet_row"
EXISTS = "hash_parquet: {} exists; choose a new output directory"


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="a Parquet dataset (a file or directory), or a table's name with --table")
    parser.add_argument("column", help="the binary or string column to hash")
    parser.add_argument("output_dir", help="where the dataset with its sha256 column goes (must not exist)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--cores", type=int, default=2, help="run on local[N]: N cores on this machine (2)")
    where.add_argument("--master", metavar="URL", help="run on the cluster at this master URL instead")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--format", default="parquet", help="the input's data source (parquet; orc, json, ...)")
    source.add_argument("--table", action="store_true", help="INPUT is a table in Spark's catalog")
    parser.add_argument("--hex", action="store_true", help="hex digests (string) instead of 32 bytes")
    parser.add_argument("--any-order", action="store_true", help="keep the order Spark reads in (no sort)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting of the --format reader, such as header=true for csv (repeatable)")
    parser.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE", help="a Spark setting (repeatable)")
    args = parser.parse_args(argv)
    if args.cores < 1:
        parser.error("--cores must be at least 1")
    if args.table and args.option:
        parser.error("--option sets the --format reader; a --table has its own")
    for flag, settings in (("--conf", args.conf), ("--option", args.option)):
        for setting in settings:
            if "=" not in setting:
                parser.error(f"{flag} takes KEY=VALUE, not {setting!r}")
    return args


def pairs(settings):
    return dict(setting.split("=", 1) for setting in settings)


def hash_batches(batches, column, hex):
    """Each Arrow record batch with its sha256 column appended. Runs in the executors' Python."""
    import libsha
    import pyarrow

    # Spark's Arrow bridge takes binary and string, not sha256_many's default FixedSizeBinary(32).
    digest_type = pyarrow.string() if hex else pyarrow.binary()
    for batch in batches:
        # threads=1: Spark runs one task per core already, each in its own Python worker.
        digests = libsha.sha256_many(batch.column(column), hex=hex, threads=1, arrow_type=digest_type)
        yield batch.append_column("sha256", digests)


def start_spark(args):
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("hash_parquet")
    if args.master:
        builder = builder.master(args.master)
    else:
        # The executors' Python is this one, which has libsha; the driver on the loopback,
        # where a sandbox or a laptop off the network still reaches it.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = (builder.master(f"local[{args.cores}]")
                   .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1"))
    builder = builder.config("spark.ui.showConsoleProgress", "false")
    for key, value in pairs(args.conf).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def read_input(spark, args):
    """The input DataFrame, and whether each row knows its place in the files (Parquet's row index)."""
    if args.table:
        frame = spark.table(args.input)
    else:
        frame = spark.read.format(args.format).options(**pairs(args.option)).load(args.input)
    try:
        places = frame.select("_metadata").schema["_metadata"].dataType.fieldNames()
    except Exception:  # a source that is not files has no _metadata
        places = []
    return frame, "file_path" in places and "row_index" in places


def check_column(schema, column):
    """The column must exist and hold bytes or text; a clear error before any work."""
    from pyspark.sql.types import BinaryType, StringType

    if column not in schema.fieldNames():
        raise SystemExit(f"hash_parquet: no column {column!r} (the dataset has {', '.join(schema.fieldNames())})")
    kind = schema[column].dataType
    if not isinstance(kind, (BinaryType, StringType)):
        raise SystemExit(f"hash_parquet: column {column!r} is {kind.simpleString()}, not binary or string")
    if "sha256" in schema.fieldNames():
        raise SystemExit("hash_parquet: the dataset has a sha256 column already")


def hashed_frame(frame, in_order, args):
    from pyspark.sql import functions
    from pyspark.sql.types import BinaryType, StringType, StructField, StructType

    if in_order:
        # Spark reads a dataset's files largest first; their names and row numbers put it back.
        # Sorted before hashing, so the keys never go through Python; mapInArrow keeps the order.
        frame = (frame.select("*", functions.col("_metadata.file_path").alias(FILE_KEY),
                              functions.col("_metadata.row_index").alias(ROW_KEY))
                 .orderBy(FILE_KEY, ROW_KEY).drop(FILE_KEY, ROW_KEY))
    digest = StringType() if args.hex else BinaryType()
    schema = StructType(frame.schema.fields + [StructField("sha256", digest, nullable=True)])
    column, hex = args.column, args.hex
    return frame.mapInArrow(lambda batches: hash_batches(batches, column, hex), schema)


def write_in_place(spark, hashed, output_dir):
    """Written beside OUTPUT_DIR, renamed to it when every task is done (Hadoop's file system
    API, so an hdfs:// or s3a:// output works as a local one does)."""
    jvm = spark.sparkContext._jvm
    output = jvm.org.apache.hadoop.fs.Path(output_dir)
    files = output.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration())
    output = files.makeQualified(output)
    if files.exists(output):
        raise SystemExit(EXISTS.format(output_dir))
    staging = jvm.org.apache.hadoop.fs.Path(output.getParent(), f".hash_parquet-{uuid.uuid4().hex}")
    try:
        hashed.write.parquet(staging.toString())
        if not files.rename(staging, output):
            raise SystemExit(f"hash_parquet: could not move the output into {output_dir}")
    except BaseException:
        files.delete(staging, True)
        raise


def main(argv=None):
    args = parse_args(argv)
    if "://" not in args.output_dir and os.path.lexists(args.output_dir):  # refused before a JVM starts
        raise SystemExit(EXISTS.format(args.output_dir))
    # pyspark warns of pandas versions on import; this job never goes through pandas.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    spark = start_spark(args)
    try:
        frame, has_places = read_input(spark, args)
        check_column(frame.schema, args.column)
        start = time.perf_counter()
        write_in_place(spark, hashed_frame(frame, has_places and not args.any_order, args), args.output_dir)
        seconds = time.perf_counter() - start
    finally:
        spark.stop()
    print(f"hash_parquet: {args.input} hashed into {args.output_dir} in {seconds:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
