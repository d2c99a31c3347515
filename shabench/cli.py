"""The shabench command line: `shabench [options]` benchmarks, `shabench verify` checks."""

import argparse
import contextlib
import os
import re
import sys

# shabench never uses BLAS, but pyarrow's row imports numpy, whose OpenBLAS
# threads spin after loading: on a 2-core machine that halves the rows after it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import libsha
from libsha import _native

from . import aliases
from . import context as run_context
from . import report
from .benchmarks import DEFAULT_GROUPS, GROUPS, catalogue, default_benchmarks, runnable_implementations, sweep_benchmarks
from .measure import measure
from .progress import Progress
from .sizes import parse_sizes
from .verify import new_seed, verify

FORMATS = ("table", "markdown", "json", "csv", "eos")
DEFAULT_MIN_TIME_MS = 10.0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="shabench", add_help=False,
        description="Benchmark every SHA-256 implementation libsha can run here, beside hashlib "
        "(nanobench-style rows, as bench_bitcoin prints them). `shabench verify` checks them instead. "
        "bench_bitcoin's and EOS's options are taken as those tools spell them, each shown [in brackets] "
        "beside the option it stands for.",
        epilog=f"A plain run takes the groups {' and '.join(DEFAULT_GROUPS)} and one batch row (seconds); the "
        "table's foot names the groups left out.",
    )
    parser.add_argument("-h", "--help", "-help", "-?", action="help",
                        help="show this help and exit" + aliases.beside("--help"))
    parser.add_argument("command", nargs="?", choices=["run", "verify"], default="run",
                        help="run the benchmarks (default) or verify every implementation against the oracles"
                        + aliases.beside("command"))
    parser.add_argument("--group", metavar="NAME", action="append", choices=list(GROUPS),
                        help=f"run this group's rows (repeatable): {', '.join(GROUPS)}; see --list")
    parser.add_argument("--all", action="store_true", help="run every group's rows (minutes)")
    parser.add_argument("--filter", metavar="REGEX", help="only rows whose name or title matches (a search), from "
                        "every group (or those of --group)" + aliases.beside("--filter"))
    parser.add_argument("-l", "--list", action="store_true",
                        help="list the groups and their rows, and exit" + aliases.beside("--list"))
    parser.add_argument("-f", "--feature", metavar="NAME", action="append",
                        help="a group's rows (as --group NAME), or every row of that name (repeatable); EOS's table "
                        "unless --format says otherwise" + aliases.beside("--feature"))
    parser.add_argument("--impl", metavar="NAME", action="append",
                        help="only this implementation (repeatable); see --list. One --impl also runs libsha's "
                        "Python rows on it; with several they run on the active one, and shabench says so")
    parser.add_argument("--min-time", metavar="MS", type=float,
                        help=f"minimum time per epoch ({DEFAULT_MIN_TIME_MS:g})" + aliases.beside("--min-time"))
    parser.add_argument("-r", "--runs", metavar="N", type=int,
                        help="N calls an epoch, instead of as many as --min-time takes; EOS's table unless "
                        "--format says otherwise" + aliases.beside("--runs"))
    parser.add_argument("--epochs", metavar="N", type=int, default=11, help="epochs per row (11, as nanobench)")
    parser.add_argument("--format", choices=FORMATS,
                        help="output format (table; eos, EOS's table of ns per call, with -f or -r)")
    parser.add_argument("--stats", action="store_true",
                        help="add EOS's columns to the table: average, minimum and maximum ns per call over the epochs")
    parser.add_argument("--output", metavar="FILE",
                        help="write the output to FILE instead of stdout" + aliases.beside("--output"))
    parser.add_argument("--compare", metavar="BASE.json", help="a before/after table against a --format json result")
    parser.add_argument("--sizes", metavar="LIST", help="sweep SHA256 over message sizes, e.g. 16,64,1K,64K,1M")
    parser.add_argument("--plot", metavar="FILE.png", help="with --sizes: draw ns/byte against size (needs libsha[plot])")
    parser.add_argument("--model-cpu", metavar="NAME", action="append", default=[],
                        help="with --group model: also llvm-mca's model of this CPU family (repeatable), e.g. znver4, "
                        "sapphirerapids, neoverse-v2 for an ARM build")
    aliases.add_arguments(parser)
    return parser


def parse_args(argv):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.epochs < 1:
        parser.error("--epochs must be at least 1")
    aliases.resolve(parser, args, DEFAULT_MIN_TIME_MS)
    if args.min_time <= 0:
        parser.error("--min-time must be positive")
    if args.filter is not None:
        try:
            args.filter = re.compile(args.filter)
        except re.error as exc:
            parser.error(f"--filter: {exc}")
    if args.sizes is not None:
        try:
            args.sizes = parse_sizes(args.sizes)
        except ValueError as exc:
            parser.error(f"--sizes: {exc}")
    if args.plot and not args.sizes:
        parser.error("--plot draws a sweep: give --sizes too")
    if args.sizes and (args.group or args.all):
        parser.error("--sizes is a sweep of its own: not with --group or --all")
    if args.all and args.group:
        parser.error("--all takes every group: not with --group")
    known = {i.name: i.runnable for i in libsha.dispatch.implementations()}
    for name in args.impl or []:
        if name not in known:
            parser.error(f"--impl {name!r}: not one of {', '.join(repr(k) for k in known)}")
        if not known[name]:
            parser.error(f"--impl {name!r}: this CPU cannot run it")
    if args.compare:
        try:
            args.compare = report.load(args.compare)
        except (OSError, ValueError) as exc:
            parser.error(f"--compare: {exc}")
    return args


def select(benchmarks, pattern):
    if pattern is None:
        return benchmarks
    return [b for b in benchmarks if pattern.search(b.name) or pattern.search(b.title)]


def left_out_groups(benchmarks):
    """(reason, runners, row names) for the rows that cannot run here: one line per reason."""
    groups = {}
    for b in benchmarks:
        if b.left_out:
            runners, names = groups.setdefault(b.left_out, ([], []))
            runners += [b.runner] if b.runner not in runners else []
            names += [b.name] if b.name not in names else []
    return [(reason, runners, names) for reason, (runners, names) in groups.items()]


def options_record(args):
    groups = (sorted(args.group) if args.group else "all" if args.all else None if args.sizes or args.feature
              else "default")
    return {"groups": groups, "features": args.feature, "filter": args.filter.pattern if args.filter else None,
            "impl": args.impl, "min_time_ms": args.min_time, "runs": args.runs,
            "epochs": args.epochs, "sizes": [s for _, s in args.sizes] if args.sizes else None}


def write_file(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text if text.endswith("\n") else text + "\n")
    print(f"shabench: wrote {path}", file=sys.stderr)


def emit(text, args):
    if args.output:
        write_file(args.output, text)
    else:
        print(text)


def format_output(fmt, args, context, rows):
    header = run_context.header_lines(context)
    if fmt == "json":
        return report.to_json(context, rows)
    if fmt == "csv":
        return report.to_csv(rows).rstrip("\n")
    if fmt == "markdown":
        return report.to_markdown(header, rows, args.stats)
    if fmt == "eos":
        return "\n".join(header) + "\n\n" + report.render_eos(rows)
    return "\n".join(header) + "\n\n" + report.render(rows, args.stats)


def featured(implementations, features):
    """EOS's -f: the rows of the groups named (as --group gives them), then every other row whose name is
    one of the other names."""
    groups = set(features) & set(GROUPS)
    rows = catalogue(implementations, groups) if groups else []
    names, seen = set(features) - groups, {b.title for b in rows}
    if names:
        rows += [b for b in catalogue(implementations) if b.name in names and b.title not in seen]
    return rows


def chosen_benchmarks(args, implementations):
    """The rows this run takes: a sweep, the named groups or features, every group (--all, --list,
    --filter), or the default ones."""
    if args.sizes:
        return select(sweep_benchmarks(args.sizes, implementations), args.filter)
    if args.group:
        return select(catalogue(implementations, set(args.group)), args.filter)
    if args.feature:
        return select(featured(implementations, args.feature), args.filter)
    if args.all or args.list or args.list_titles or args.filter:
        return select(catalogue(implementations), args.filter)
    return default_benchmarks(implementations)


def unknown_features(args, implementations):
    """The -f/--feature names that are neither a group nor a row's name here."""
    if not args.feature:  # the catalogue of every group is built only for -f's names
        return []
    names = {b.name for b in catalogue(implementations)} | set(GROUPS)
    return [f for f in args.feature if f not in names]


def left_out_note(args, benchmarks):
    """The table's foot on a default run: the groups it left out (or the rows of them it took), and how
    to run them."""
    if args.sizes or args.group or args.all or args.filter or args.feature:
        return ""
    parts = []
    for name in GROUPS:
        if name not in DEFAULT_GROUPS:
            taken = sum(b.group == name for b in benchmarks)
            parts.append(f"{name} (all but the {taken} rows above)" if taken else name)
    return (f"This quick run left out the groups {', '.join(parts)}: `shabench --group NAME` adds one "
            "(repeatable), `shabench --all` runs every row, `shabench --list` lists them.")


def list_rows(benchmarks):
    if any(b.group for b in benchmarks):  # not a sweep's
            print(f"Supported features are {', '.join(GROUPS)} (-f/--feature takes a group, or a row's name below)")
    for name, what in GROUPS.items():
        rows = [b for b in benchmarks if b.group == name]
        if not rows:
            continue
        print(f"{name}: {what}" + (" (default)" if name in DEFAULT_GROUPS else ""))
        for b in rows:
            default = " (default)" if b.in_default else ""
            print(f"  {b.title}{default}" + (f"  (left out: {b.left_out})" if b.left_out else ""))
    for b in benchmarks:
        if not b.group:  # a sweep's rows
            print(b.title)


LONG_ROW_S = 30  # a row that -r/--runs makes last longer is announced


def measure_row(b, epochs, min_time_ms, iterations):
    """One row's Measurement: epochs of `iterations` calls, or of as many as min_time_ms takes."""
    epochs = min(epochs, b.max_epochs or epochs)

    def foresee(seconds, rows=1):  # -r counts calls whatever they cost: say so before a batch row takes minutes
        if seconds > LONG_ROW_S:
            beside = f" (and the {rows - 1} rows timed in turn with it)" if rows > 1 else ""
            print(f"shabench: {b.title}{beside}: {epochs} epochs of {iterations:,} calls take about {seconds:,.0f} s "
                  "(Ctrl-C prints the rows done; a smaller -r, or --min-time, is quicker)", file=sys.stderr)

    if b.interleaved is not None:
        return b.interleaved.measurement(b, epochs, min_time_ms, iterations, foresee)
    return measure(b.make_run(), b.unit_bytes, epochs, min_time_ms * 1e6, iterations, foresee)


def implementation_notes(args, benchmarks):
    """What --impl does not restrict in this run, said on stderr."""
    active = libsha.dispatch.implementation()
    if args.impl and len(args.impl) > 1 and any(b.peer for b in benchmarks):
        print(f"shabench: --impl names {len(args.impl)} implementations: the C rows run on each, libsha's Python "
              f"rows on the active one, '{active}' (one --impl runs them on it)", file=sys.stderr)
    if args.impl and any(b.group == "sum" and not b.left_out for b in benchmarks):
        print("shabench: --impl does not reach the SUM rows: `libsha sum` runs in its own process, on its "
              "automatic choice (LIBSHA_IMPL restricts it)", file=sys.stderr)


def run_rows(args, benchmarks):
    """(rows measured, interrupted): each row not left out, with a progress line on a terminal."""
    rows, progress, interrupted = [], Progress(len(benchmarks)), False
    try:
        for i, b in enumerate(benchmarks):
            if b.left_out:
                continue
            progress.update(i, b.title)
            rows.append((b, measure_row(b, args.epochs, args.min_time, args.runs)))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        progress.close()
    return rows, interrupted


def run_benchmarks(args):
    implementations = args.impl or runnable_implementations()
    unknown = unknown_features(args, implementations)
    if unknown:
        print(f"shabench: -f/--feature {unknown[0]!r} is not supported: neither a group nor a row's name here "
              "(shabench -l lists both)", file=sys.stderr)
        return 2
    benchmarks = chosen_benchmarks(args, implementations)
    if args.list_titles:  # bench_bitcoin's -list: the names alone
        for b in benchmarks:
            print(b.title)
        return 0
    if args.list:
        list_rows(benchmarks)
        return 0
    if not benchmarks:
        print("shabench: no benchmark matches (see --list)", file=sys.stderr)
        return 2

    context = run_context.collect(options_record(args))
    for note in run_context.warnings(context):
        print(note, file=sys.stderr)
    for reason, runners, names in left_out_groups(benchmarks):
        print(f"shabench: left out, {reason}: {', '.join(runners)} in {', '.join(names)}", file=sys.stderr)
    implementation_notes(args, benchmarks)
    rows, interrupted = run_rows(args, benchmarks)
    if not rows and not interrupted:
        print("shabench: every matching row was left out (see above)", file=sys.stderr)
        return 2
    if not rows:
        print("shabench: interrupted before the first row", file=sys.stderr)
        return 130
    foot = left_out_note(args, benchmarks)
    emit(format_output(args.format, args, context, rows)
         + (f"\n\n{foot}" if foot and args.format in ("table", "markdown", "eos") else ""), args)
    for fmt, path in args.also_write:  # bench_bitcoin's -output-json= and -output-csv=
        write_file(path, format_output(fmt, args, context, rows))
    if args.compare:
        text, _ = report.compare(args.compare, rows)
        print("\n" + text)
    if (args.all or "model" in (args.group or [])) and args.format in (None, "table", "markdown"):
        from .cycle_models import model_table

        text = model_table(rows, args.model_cpu)
        if text:
            print("\n" + text)
    if args.plot:
        from .plot import plot_sweep

        plot_sweep(rows, args.plot, context)
        print(f"shabench: wrote {args.plot}", file=sys.stderr)
    if interrupted:
        print(f"shabench: interrupted after {len(rows)} of {len(benchmarks)} rows", file=sys.stderr)
        return 130
    return 0


def run_verify(args):
    implementations = args.impl or runnable_implementations()
    seed = new_seed()
    print(f"Verifying {len(implementations)} implementation(s) against NIST CAVP, hashlib and libsha.reference "
          f"(random data: seed {seed}; SHABENCH_SEED={seed} replays it)")
    text, passed = verify(implementations, seed)
    print(text)
    print("all OK" if passed else "FAILED: do not trust the implementations marked FAIL on this machine")
    return 0 if passed else 1


def run_sanity_check(args):
    """bench_bitcoin's -sanity-check: `verify`, then every chosen row once (one call, one epoch), no table."""
    status = run_verify(args)
    benchmarks = chosen_benchmarks(args, args.impl or runnable_implementations())
    ran, failed = 0, []
    for b in benchmarks:
        if b.left_out:
            continue
        try:
            measure_row(b, 1, args.min_time, 1)
            ran += 1
        except Exception as exc:  # noqa: BLE001 - every row's failure is reported, then the status says it
            failed.append(f"{b.title}: {type(exc).__name__}: {exc}")
    left_out = sum(1 for b in benchmarks if b.left_out)
    print(f"sanity check: {ran} row(s) ran once each" + (f", {left_out} left out" if left_out else "")
          + (f", {len(failed)} FAILED" if failed else ""))
    for line in failed:
        print(f"FAILED: {line}")
    return 1 if failed or status else 0


def main(argv=None):
    try:
        return _main(argv)
    except BrokenPipeError:  # `shabench -list | head`: the reader wanted no more; quietly, as a GNU tool
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush cannot fail again
        return 141


def _main(argv):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    problem = _native.configuration_problem()
    if problem is not None:  # its tables start from the automatic choice, which LIBSHA_IMPL restricts
        print(f"shabench: {problem}; fix or unset it", file=sys.stderr)
        return 2
    if args.command == "verify":
        return run_verify(args)
    with restricted(args):
        if args.command == "sanity-check":
            return run_sanity_check(args)
        return run_benchmarks(args)


def restricted(args):
    """One --impl: the run happens on it, so libsha's Python rows run on it too (and the header names it);
    the active implementation is restored after."""
    if args.impl and len(args.impl) == 1:
        return libsha.dispatch.using(args.impl[0])
    return contextlib.nullcontext()
