"""python -m libsha.oracle: the command line (fixed: users' CI scripts call it)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

from . import shapes, suites
from .pace import RULE
from .spec import ROLES, CandidateError, Spec

EPILOG = f"""\
call shapes: --args, --init-args, --update-args and --final-args list a function's arguments in
order, from data, len, out, ctx, blocks and integer constants. Examples:
  libsodium  --symbol crypto_hash_sha256 --args out,data,len
  mbedTLS    --symbol mbedtls_sha256_ret --args data,len,out,0
  libgcrypt  --symbol gcry_md_hash_buffer --args 8,out,data,len
  nettle     --stream nettle_sha256_init,nettle_sha256_update,nettle_sha256_digest --ctx-size 112
             --update-args ctx,len,data --final-args ctx,32,out
  OpenSSL    --stream SHA256_Init,SHA256_Update,SHA256_Final --ctx-size 112 --final-args out,ctx
  hashtree   --level hashtree_hash --args out,data,blocks      (a Merkle level: count 64-byte chunks)

usage check: before any suite the candidate hashes "" and "abc"; a crash, a hang or a wrong digest
there ends the run with status 2 and a hint (SHA-224 computed, byte order, out and ctx swapped, a
context larger than --ctx-size, an argument order that works), unless one of the two is right and
nothing points at usage: then the suites run and report it.

time limits: {RULE}.

large: 16 MiB, 2^29 + 1 bytes, 2^32 + 1 bytes (a streaming candidate: in one update) and 5 GiB (a
streaming candidate: in pieces across the 2^32-byte line), as zero bytes mapped without memory. At
the candidate's own speed: about 5 s at 2 GB/s, 20 s at 500 MB/s, 3.5 minutes at 50 MB/s (progress
is printed on stderr).
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m libsha.oracle",
        description="Check a SHA-256 implementation against libsha's oracle; exit 0 if every case passes, "
        "1 if a wrong digest, a crash or a hang was found, 2 on bad usage or a candidate that cannot run.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--library", metavar="PATH", help="a shared library holding the candidate")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--symbol", metavar="NAME", help="a one-shot function, by default NAME(data, len, out[32])")
    kind.add_argument("--stream", metavar="INIT,UPDATE,FINAL",
                      help="by default INIT(ctx), UPDATE(ctx, data, len), FINAL(ctx, out)")
    kind.add_argument("--d64", metavar="NAME", help="double SHA-256 of 64-byte blobs, by default NAME(out, in, blocks)")
    kind.add_argument("--level", metavar="NAME", help="SHA-256 of each 64-byte blob, a Merkle tree's level (hashtree's "
                      "hash(out, chunks, count)), by default NAME(out, in, blocks)")
    kind.add_argument("--command", metavar="'CMD ARGS'",
                      help="a program: the message on stdin, the digest on stdout as GNU (HEX  -), BSD "
                      "(SHA256 (stdin) = HEX) or OpenSSL (SHA2-256(stdin)= HEX) print it")
    kind.add_argument("--callable", metavar="MODULE:FUNCTION", help="a Python function: bytes -> 32 bytes or hex")
    kind.add_argument("--object", metavar="MODULE:FACTORY",
                      help="a hashlib-style object from FACTORY() (or FACTORY as an expression, e.g. "
                      "'cryptography.hazmat.primitives.hashes:Hash(SHA256())'): update(), then digest() or finalize()")
    parser.add_argument("--args", metavar="LIST", help="--symbol's, --d64's or --level's arguments in order "
                        "(default data,len,out; for --d64 and --level out,data,blocks)")
    parser.add_argument("--init-args", metavar="LIST", help="INIT's arguments (default ctx)")
    parser.add_argument("--update-args", metavar="LIST", help="UPDATE's arguments (default ctx,data,len)")
    parser.add_argument("--final-args", metavar="LIST", help="FINAL's arguments (default ctx,out; OpenSSL's "
                        "SHA256_Final: out,ctx)")
    parser.add_argument("--ctx-size", metavar="N", type=int, help="bytes of the streaming context (with --stream)")
    parser.add_argument("--digest-regex", metavar="RE", help="where the --command's digest is in its stdout "
                        "(the first group, or the whole match)")
    parser.add_argument("--seconds", metavar="S", type=float, help="the random phase (10; 2 with --quick)")
    parser.add_argument("--quick", action="store_true", help=f"a short run: {suites.MONTE_CHECKPOINTS_QUICK} of the "
                        f"{suites.MONTE_CHECKPOINTS} Monte Carlo checkpoints and 2 s of random cases")
    parser.add_argument("--seed", metavar="N", type=int, help="replay a run (printed every run)")
    parser.add_argument("--large", action="store_true", help="add the large-data suite (see below)")
    parser.add_argument("--json", metavar="FILE", help="also write a machine-readable report")
    parser.add_argument("--suite", metavar="NAME", action="append", choices=(*suites.NAMES, *suites.ALIASES),
                        help=f"run only these suites (repeatable): {', '.join(suites.NAMES)}")
    tree = parser.add_argument_group("trees", "--tree checks a fs-verity, dm-verity, Glacier, IPFS or Filecoin "
                                     "implementation instead of SHA-256: a --command with {file} (and {hash}) or a "
                                     "--callable")
    tree.add_argument("--tree", choices=("fsverity", "dmverity", "glacier", "ipfs", "filecoin"), help="what the "
                      "candidate computes of each case: fs-verity's file digest, dm-verity's root hash, Glacier's tree "
                      "hash, a file's IPFS CID, or a Filecoin piece commitment (these three take none of the block "
                      "sizes, salt and format below)")
    tree.add_argument("--profile", metavar="NAME", default="unixfs-v0-2015",
                      choices=("unixfs-v0-2015", "unixfs-v1-2025"), help="IPFS's import profile (unixfs-v0-2015, "
                      "what `ipfs add` does by default; or unixfs-v1-2025)")
    tree.add_argument("--block-size", metavar="N", type=int, default=4096, help="the (data) block size (4096)")
    tree.add_argument("--hash-block-size", metavar="N", type=int, default=4096, help="dm-verity's (4096)")
    tree.add_argument("--salt", metavar="HEX", default="", help="the salt the candidate uses (none)")
    tree.add_argument("--format", metavar="N", type=int, default=1, choices=(0, 1), help="dm-verity's (1)")
    parser.add_argument("--timeout", metavar="S", type=float, default=10.0,
                        help="the least time a case is allowed before it is a hang (10; see time limits)")
    return parser


def suite_names(args: argparse.Namespace) -> list[str]:
    """The suites to run, in order: those named (or the default ones), and `large` with --large."""
    names = [suites.ALIASES.get(n, n) for n in args.suite] if args.suite else list(suites.DEFAULT)
    if args.large:
        names.append("large")
    return list(dict.fromkeys(names))


SHAPE_OPTIONS = {"args": ("symbol", "d64", "level"), "init_args": ("stream",), "update_args": ("stream",),
                 "final_args": ("stream",)}


def _shapes(args: argparse.Namespace, kind: str, parser: argparse.ArgumentParser) -> tuple[tuple[str, ...], ...]:
    for option, kinds in SHAPE_OPTIONS.items():
        if getattr(args, option) and kind not in kinds:
            parser.error(f"--{option.replace('_', '-')} goes with --{' or --'.join(kinds)}, not --{kind}")
    given = {"symbol": args.args, "d64": args.args, "level": args.args, "init": args.init_args,
             "update": args.update_args, "final": args.final_args}
    try:
        return tuple(shapes.parse(role, given[role]) if given[role] else shapes.default(role) for role in ROLES[kind])
    except ValueError as exc:
        parser.error(str(exc))


def spec_from(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Spec:
    library_kinds = {"symbol": args.symbol, "stream": args.stream, "d64": args.d64, "level": args.level}
    python_kinds = {"callable": args.callable, "object": args.object}
    chosen = [k for k, v in {**library_kinds, "command": args.command, **python_kinds}.items() if v]
    if not chosen:
        parser.error("name a candidate: --library with --symbol/--stream/--d64/--level, --command, --callable or "
                     "--object")
    kind = chosen[0]
    if kind in library_kinds and not args.library:
        parser.error(f"--{kind} needs --library PATH")
    if args.library and "/" in args.library:  # a path, not a name for the loader: the reproducers run elsewhere
        args.library = os.path.abspath(args.library)
    if kind not in library_kinds and args.library:
        parser.error(f"--library goes with --symbol, --stream, --d64 or --level, not --{kind}")
    if args.digest_regex is not None and kind != "command":
        parser.error("--digest-regex goes with --command")
    if args.ctx_size is not None and kind != "stream":
        parser.error("--ctx-size goes with --stream")
    if kind in library_kinds:
        found = _shapes(args, kind, parser)
    elif any(getattr(args, option) for option in SHAPE_OPTIONS):
        parser.error(f"--args, --init-args, --update-args and --final-args go with a --library candidate, not --{kind}")
    if kind == "stream":
        names = tuple(args.stream.split(","))
        if len(names) != 3 or not all(names):
            parser.error("--stream takes INIT,UPDATE,FINAL")
        if not args.ctx_size or args.ctx_size <= 0:
            parser.error("--stream needs --ctx-size N (the context's size in bytes, at least 1)")
        return Spec("stream", args.library, names, found, args.ctx_size)
    if kind == "command":
        if args.digest_regex:
            from .command_output import compile_regex

            try:
                compile_regex(args.digest_regex)
            except ValueError as exc:
                parser.error(str(exc))
        return Spec("command", command=args.command, digest_regex=args.digest_regex or "")
    if kind in python_kinds:
        if ":" not in python_kinds[kind]:
            parser.error(f"--{kind} takes MODULE:{'FUNCTION' if kind == 'callable' else 'FACTORY'}")
        return Spec(kind, names=(python_kinds[kind],))
    return Spec(kind, args.library, (library_kinds[kind],), found)


def _progress(line: str) -> None:
    print(f"oracle: {line}", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    from .check import as_json, run
    from .report import text

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.tree:
        return _trees(args, parser)
    spec = spec_from(args, parser)
    names = suite_names(args)
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    seconds = args.seconds if args.seconds is not None else 2.0 if args.quick else 10.0
    try:
        report = run(spec, names, seed, seconds, args.timeout, args.quick, _progress)
    except CandidateError as exc:
        print(f"python -m libsha.oracle: {exc}", file=sys.stderr)
        print(f"candidate: {spec.describe()}", file=sys.stderr)
        return 2
    print(text(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(as_json(report), f, indent=1)
    return 1 if report.failed else 0


def _trees(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from . import trees

    if not (args.command or args.callable) or args.library or args.object:
        parser.error("--tree checks a --command (with {file}) or a --callable")
    lo = 1024 if args.tree == "fsverity" else 512
    for name, size in (("--block-size", args.block_size), ("--hash-block-size", args.hash_block_size)):
        if size < lo or size > 65536 or size & (size - 1):
            parser.error(f"{name} is a power of two from {lo} to 65536, not {size}")
    try:
        salt = bytes.fromhex(args.salt)
    except ValueError:
        parser.error(f"--salt is hex, not {args.salt!r}")
    if len(salt) > (32 if args.tree == "fsverity" else 256):
        parser.error(f"--salt: {args.tree} takes at most {32 if args.tree == 'fsverity' else 256} bytes")
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    try:
        candidate = (trees.command_candidate(args.command, args.tree, args.digest_regex or "", args.timeout)
                     if args.command else trees.callable_candidate(args.callable, args.tree))
        return trees.run(args.tree, candidate, args.block_size, args.hash_block_size, salt, args.format, seed,
                         args.quick, print, args.profile)
    except trees.Unusable as exc:
        print(f"python -m libsha.oracle: {exc}", file=sys.stderr)
        return 2
