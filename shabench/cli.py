"""The shabench command line."""

import argparse
import re
import sys

import libsha

from .benchmarks import all_benchmarks
from .measure import measure
from .report import render


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="shabench",
        description="Benchmark every SHA-256 implementation libsha can run here, beside hashlib.",
    )
    parser.add_argument("--filter", metavar="REGEX", help="run only benchmarks whose name or row title matches")
    parser.add_argument("--list", action="store_true", help="list the benchmark rows and exit")
    parser.add_argument("--min-time", metavar="MS", type=float, default=10.0, help="minimum time per epoch (default 10)")
    parser.add_argument("--epochs", metavar="N", type=int, default=11, help="epochs per row (default 11)")
    args = parser.parse_args(argv)
    if args.min_time <= 0:
        parser.error("--min-time must be positive")
    if args.epochs < 1:
        parser.error("--epochs must be at least 1")
    if args.filter is not None:
        try:
            args.filter = re.compile(args.filter)
        except re.error as exc:
            parser.error(f"--filter: {exc}")
    return args


def select(benchmarks, pattern):
    if pattern is None:
        return benchmarks
    return [b for b in benchmarks if pattern.search(b.name) or pattern.search(b.title)]


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    benchmarks = select(all_benchmarks(), args.filter)
    if args.list:
        for b in benchmarks:
            print(b.title)
        return 0
    if not benchmarks:
        print("shabench: no benchmark matches the filter (see --list)", file=sys.stderr)
        return 2

    print(f"Using the '{libsha.implementation()}' SHA256 implementation")
    print()
    done = []
    try:
        for b in benchmarks:
            done.append((b.title, measure(b.make_run(), b.unit_bytes, args.epochs, args.min_time * 1e6)))
    except KeyboardInterrupt:
        print(render(done) if done else "(interrupted before the first row)")
        return 130
    print(render(done))
    return 0
