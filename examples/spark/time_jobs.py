"""Time the same job, a sha256 column added to a Parquet dataset, three ways on this machine:
one plain pyarrow process (examples/arrow), Dask (examples/dask) and Spark (examples/spark).

    python examples/spark/time_jobs.py [--rows 2000000] [--files 8] [--rounds 3] [--cores 2]

Makes the dataset (seeded; payloads of 6..211 bytes), runs each job in turn, round after round
(the machine may be shared: the jobs see the same noise), checks every digest of every output
against hashlib, and prints each job's wall time (the whole command: Python, JVM or cluster
start included) and the time the job reports for its own read-hash-write. Two more Spark jobs
show where Spark's time goes: the same read and write with no Python (a copy), and with the
batches sent through Python and back unchanged. Needs
`pip install 'libsha[dask,spark]'` and Java 17 or newer.
"""

import argparse
import hashlib
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent
SEED = 20261201


def cpu_name():
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def make_dataset(folder, rows, files):
    import pyarrow
    import pyarrow.parquet

    folder.mkdir()
    rng = random.Random(SEED)
    for f in range(files):
        start, stop = f * rows // files, (f + 1) * rows // files
        payloads = [rng.randbytes(rng.randrange(6, 212)) for _ in range(start, stop)]
        table = pyarrow.table({"id": pyarrow.array(range(start, stop), pyarrow.int64()),
                               "payload": pyarrow.array(payloads, pyarrow.binary())})
        pyarrow.parquet.write_table(table, folder / f"part-{f}.parquet")


def jobs(cores):
    """Each job by its key (--jobs): its name in the table and its command."""
    python = sys.executable
    spark = EXAMPLES / "spark" / "hash_parquet.py"
    here = Path(__file__).resolve()
    return {
        "arrow": ("pyarrow, one process", [python, EXAMPLES / "arrow" / "hash_parquet.py", "--threads", str(cores)]),
        "dask": (f"Dask, {cores} workers", [python, EXAMPLES / "dask" / "hash_parquet.py", "--workers", str(cores)]),
        "spark": (f"Spark local[{cores}], input order", [python, spark, "--cores", str(cores)]),
        "spark-any-order": (f"Spark local[{cores}], --any-order", [python, spark, "--cores", str(cores), "--any-order"]),
        "spark-pass": (f"Spark local[{cores}], no hashing: batches through Python unchanged",
                       [python, here, "--cores", str(cores), "--any-order", "--baseline", "pass"]),
        "spark-copy": (f"Spark local[{cores}], no Python: a Parquet copy",
                       [python, here, "--cores", str(cores), "--any-order", "--baseline", "copy"]),
    }


def hashing_alone(data, cores):
    """What the hashing itself costs: sha256_many over the whole column, read beforehand."""
    import libsha
    import pyarrow.dataset

    column = pyarrow.dataset.dataset(data, format="parquet").to_table(columns=["payload"]).column("payload")
    seconds = []
    for _ in range(5):
        start = time.perf_counter()
        libsha.sha256_many(column, threads=cores)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def run(command, data, out):
    """(wall seconds, the job's own seconds) of one run; its stderr if it failed."""
    argv = [str(command[0]), str(command[1]), str(data), "payload", str(out), *command[2:]]
    start = time.perf_counter()
    result = subprocess.run(argv, capture_output=True, text=True, cwd=out.parent)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"time_jobs: {' '.join(argv)} failed:\n{result.stderr}")
    own = re.search(r" into .* in ([\d.]+) s", result.stderr)
    return wall, float(own.group(1)) if own else float("nan")


def check_output(out, rows, ordered, hashed):
    """Every row once, every digest hashlib's; in the input's order where the job keeps it."""
    import pyarrow.parquet

    names = sorted((p for p in out.glob("*.parquet")), key=lambda p: [int(x) if x.isdigit() else x
                                                                     for x in re.split(r"(\d+)", p.name)])
    ids, wrong = [], 0
    for name in names:
        table = pyarrow.parquet.read_table(name)
        ids += table.column("id").to_pylist()
        if hashed:
            wrong += sum(hashlib.sha256(p).digest() != d for p, d in zip(table.column("payload").to_pylist(),
                                                                         table.column("sha256").to_pylist()))
    if wrong or sorted(ids) != list(range(rows)) or (ordered and ids != list(range(rows))):
        raise SystemExit(f"time_jobs: {out}: {wrong} wrong digests, {len(ids)} rows of {rows}, "
                         f"{'in' if ids == list(range(rows)) else 'not in'} order")


def pass_through(batches):
    """mapInArrow's function with nothing done: what sending the batches to Python and back costs."""
    yield from batches


def spark_baseline(kind, argv):
    """The Spark example's job without the hashing: `copy` reads and writes, `pass` also sends
    every batch through Python. Run as: time_jobs.py INPUT COLUMN OUTPUT [options] --baseline KIND."""
    sys.path.insert(0, str(EXAMPLES / "spark"))
    import hash_parquet

    args = hash_parquet.parse_args(argv)
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    spark = hash_parquet.start_spark(args)
    try:
        frame, _ = hash_parquet.read_input(spark, args)
        start = time.perf_counter()
        if kind == "pass":
            frame = frame.mapInArrow(pass_through, frame.schema)
        hash_parquet.write_in_place(spark, frame, args.output_dir)
        seconds = time.perf_counter() - start
    finally:
        spark.stop()
    print(f"time_jobs: {kind} of {args.input} into {args.output_dir} in {seconds:.1f} s", file=sys.stderr)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--baseline" in argv:
        at = argv.index("--baseline")
        if at + 1 >= len(argv) or argv[at + 1] not in ("copy", "pass"):
            raise SystemExit("time_jobs: --baseline takes copy or pass")
        return spark_baseline(argv[at + 1], argv[:at] + argv[at + 2:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--jobs", default=",".join(jobs(2)), help="which jobs, by key (all: %(default)s)")
    args = parser.parse_args(argv)
    if min(args.rows, args.files, args.rounds, args.cores) < 1:
        parser.error("--rows, --files, --rounds and --cores must be at least 1")
    known = jobs(args.cores)
    chosen = list(dict.fromkeys(key.strip() for key in args.jobs.split(",")))
    unknown = [key for key in chosen if key not in known]
    if unknown or not chosen:
        parser.error(f"--jobs takes keys among {', '.join(known)}; not {', '.join(unknown) or 'none'}")
    with tempfile.TemporaryDirectory(prefix="time_jobs-") as scratch:
        root = Path(scratch)
        make_dataset(root / "input", args.rows, args.files)
        hashing = hashing_alone(root / "input", args.cores)
        times = {key: [] for key in chosen}
        for r in range(args.rounds):
            for key in chosen[r % len(chosen):] + chosen[:r % len(chosen)]:  # each round starts with another job
                command = known[key][1]
                out = root / f"out-{r}-{key}"
                times[key].append(run(command, root / "input", out))
                if r == 0:
                    check_output(out, args.rows, ordered="--any-order" not in command, hashed="--baseline" not in command)
                shutil.rmtree(out)
        import libsha

        print(f"{args.rows:,} rows in {args.files} files, {args.cores} cores of {os.cpu_count()} ({cpu_name()}, "
              f"libsha's {libsha.dispatch.implementation()!r}); every digest checked against hashlib")
        print(f"sha256_many alone over the payload column, in memory, threads={args.cores}: {hashing:.2f} s (median of 5)")
        print("| job | whole command, s (median, min–max) | the job's own read-hash-write, s |")
        print("|---|---|---|")
        for key, runs in times.items():
            name = known[key][0]
            walls, owns = [w for w, _ in runs], [o for _, o in runs]
            print(f"| {name} | {statistics.median(walls):.1f} ({min(walls):.1f}–{max(walls):.1f}) "
                  f"| {statistics.median(owns):.1f} ({min(owns):.1f}–{max(owns):.1f}) |")


if __name__ == "__main__":
    main()
