"""Time the same job, a sha256 column added to a Parquet dataset, three ways on this machine:
one plain pyarrow process (examples/arrow), Dask (examples/dask) and Spark (examples/spark).

    python examples/spark/time_jobs.py [--rows 2000000] [--files 8] [--rounds 3] [--cores 2]

Makes the dataset (seeded; payloads of 6..211 bytes), runs each job in turn, round after round
(the machine may be shared: the jobs see the same noise), checks every digest of every output
against hashlib, and prints each job's wall time (the whole command: Python, JVM or cluster
start included) and the time the job reports for its own read-hash-write. Needs
`pip install 'libsha[dask,spark]'` and Java 17 or newer.
"""

import argparse
import hashlib
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
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
    python = sys.executable
    return {
        "pyarrow, one process": [python, EXAMPLES / "arrow" / "hash_parquet.py", "--threads", str(cores)],
        f"Dask, {cores} workers": [python, EXAMPLES / "dask" / "hash_parquet.py", "--workers", str(cores)],
        f"Spark local[{cores}], input order": [python, EXAMPLES / "spark" / "hash_parquet.py", "--cores", str(cores)],
        f"Spark local[{cores}], --any-order": [python, EXAMPLES / "spark" / "hash_parquet.py", "--cores", str(cores),
                                              "--any-order"],
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
    own = re.search(r"hashed into .* in ([\d.]+) s", result.stderr)
    return wall, float(own.group(1)) if own else float("nan")


def check_output(out, rows, ordered):
    """Every row once, every digest hashlib's; in the input's order where the job keeps it."""
    import pyarrow.parquet

    names = sorted((p for p in out.glob("*.parquet")), key=lambda p: [int(x) if x.isdigit() else x
                                                                     for x in re.split(r"(\d+)", p.name)])
    ids, wrong = [], 0
    for name in names:
        table = pyarrow.parquet.read_table(name, columns=["id", "payload", "sha256"])
        ids += table.column("id").to_pylist()
        wrong += sum(hashlib.sha256(p).digest() != d for p, d in zip(table.column("payload").to_pylist(),
                                                                     table.column("sha256").to_pylist()))
    if wrong or sorted(ids) != list(range(rows)) or (ordered and ids != list(range(rows))):
        raise SystemExit(f"time_jobs: {out}: {wrong} wrong digests, {len(ids)} rows of {rows}, "
                         f"{'in' if ids == list(range(rows)) else 'not in'} order")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--files", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    if min(args.rows, args.files, args.rounds, args.cores) < 1:
        parser.error("--rows, --files, --rounds and --cores must be at least 1")
    with tempfile.TemporaryDirectory(prefix="time_jobs-") as scratch:
        root = Path(scratch)
        make_dataset(root / "input", args.rows, args.files)
        hashing = hashing_alone(root / "input", args.cores)
        times = {name: [] for name in jobs(args.cores)}
        for r in range(args.rounds):
            names = list(times)
            for name in names[r % len(names):] + names[:r % len(names)]:  # each round starts with another job
                out = root / f"out-{r}-{len(times[name])}-{re.sub(r'[^a-z0-9]+', '_', name.lower())}"
                times[name].append(run(jobs(args.cores)[name], root / "input", out))
                if r == 0:
                    check_output(out, args.rows, ordered="any-order" not in name)
                subprocess.run(["rm", "-rf", str(out)], check=True)
        import libsha

        print(f"{args.rows:,} rows in {args.files} files, {args.cores} cores of {os.cpu_count()} ({cpu_name()}, "
              f"libsha's {libsha.dispatch.implementation()!r}); every digest checked against hashlib")
        print(f"sha256_many alone over the payload column, in memory, threads={args.cores}: {hashing:.2f} s (median of 5)")
        print("| job | whole command, s (median, min–max) | the job's own read-hash-write, s |")
        print("|---|---|---|")
        for name, runs in times.items():
            walls, owns = [w for w, _ in runs], [o for _, o in runs]
            print(f"| {name} | {statistics.median(walls):.1f} ({min(walls):.1f}–{max(walls):.1f}) "
                  f"| {statistics.median(owns):.1f} ({min(owns):.1f}–{max(owns):.1f}) |")


if __name__ == "__main__":
    main()
