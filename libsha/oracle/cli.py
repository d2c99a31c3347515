"""python -m libsha.oracle: the command line (fixed: users' CI scripts call it)."""

from __future__ import annotations

import argparse
import json
import random
import sys

from . import suites
from .candidate import CandidateError, Spec


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m libsha.oracle",
        description="Check a SHA-256 implementation against libsha's oracle; exit 0 if every case passes, "
        "1 if a wrong digest, a crash or a hang was found, 2 on bad usage or a candidate that cannot run.",
    )
    parser.add_argument("--library", metavar="PATH", help="a shared library holding the candidate")
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--symbol", metavar="NAME", help="NAME(const unsigned char *data, size_t len, unsigned char out[32])")
    shape.add_argument("--stream", metavar="INIT,UPDATE,FINAL", help="INIT(ctx), UPDATE(ctx, data, len), FINAL(ctx, out)")
    shape.add_argument("--d64", metavar="NAME", help="NAME(out, in, blocks): double SHA-256 of 64-byte blobs")
    shape.add_argument("--command", metavar="'CMD ARGS'", help="a program: message on stdin, hex digest first on stdout")
    shape.add_argument("--callable", metavar="MODULE:FUNCTION", help="a Python function: bytes -> 32 bytes or hex")
    parser.add_argument("--ctx-size", metavar="N", type=int, help="bytes of the streaming context (with --stream)")
    parser.add_argument("--final-args", choices=["ctx,out", "out,ctx"], default="ctx,out",
                        help="FINAL's argument order (OpenSSL's SHA256_Final: out,ctx)")
    parser.add_argument("--seconds", metavar="S", type=float, default=10.0, help="the random phase (10)")
    parser.add_argument("--seed", metavar="N", type=int, help="replay a run (printed every run)")
    parser.add_argument("--large", action="store_true", help="add the large-data suite")
    parser.add_argument("--json", metavar="FILE", help="also write a machine-readable report")
    parser.add_argument("--suite", metavar="NAME", action="append", choices=suites.NAMES,
                        help=f"run only these suites (repeatable): {', '.join(suites.NAMES)}")
    parser.add_argument("--timeout", metavar="S", type=float, default=10.0, help="per case: longer is a hang (10)")
    return parser


def suite_names(args: argparse.Namespace) -> list[str]:
    """The suites to run, in order: those named (or the default ones), and `large` with --large."""
    names = list(args.suite) if args.suite else list(suites.DEFAULT)
    if args.large:
        names.append("large")
    return list(dict.fromkeys(names))


def spec_from(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Spec:
    library_shapes = {"symbol": args.symbol, "stream": args.stream, "d64": args.d64}
    chosen = [k for k, v in {**library_shapes, "command": args.command, "callable": args.callable}.items() if v]
    if not chosen:
        parser.error("name a candidate: --library with --symbol/--stream/--d64, --command or --callable")
    kind = chosen[0]
    if kind in library_shapes and not args.library:
        parser.error(f"--{kind} needs --library PATH")
    if kind not in library_shapes and args.library:
        parser.error(f"--library goes with --symbol, --stream or --d64, not --{kind}")
    if kind == "stream":
        names = tuple(args.stream.split(","))
        if len(names) != 3 or not all(names):
            parser.error("--stream takes INIT,UPDATE,FINAL")
        if not args.ctx_size or args.ctx_size <= 0:
            parser.error("--stream needs --ctx-size N (the context's size in bytes, at least 1)")
        return Spec("stream", args.library, names, args.ctx_size, args.final_args == "out,ctx")
    if kind == "command":
        return Spec("command", command=args.command)
    if kind == "callable":
        if ":" not in args.callable:
            parser.error("--callable takes MODULE:FUNCTION")
        return Spec("callable", names=(args.callable,))
    return Spec(kind, args.library, (library_shapes[kind],))


def main(argv: list[str] | None = None) -> int:
    from .check import as_json, run
    from .report import text

    parser = build_parser()
    args = parser.parse_args(argv)
    spec = spec_from(args, parser)
    names = suite_names(args)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    try:
        report = run(spec, names, seed, args.seconds, args.timeout)
    except CandidateError as exc:
        print(f"python -m libsha.oracle: {exc}", file=sys.stderr)
        return 2
    print(text(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(as_json(report), f, indent=1)
    return 1 if report.failed else 0
