"""The command lines of the two benchmark tools shabench answers to, Bitcoin Core's bench_bitcoin and
EOS's benchmark: their spellings, what each stands for here, and the ones refused. ALIASES is the one
list: --help prints each beside the option it stands for, and docs/shabench.md's table is checked
against it."""

import argparse
import os
import re
from dataclasses import dataclass

BENCH_BITCOIN = "bench_bitcoin"
EOS = "EOS"


@dataclass(frozen=True)
class Alias:
    spelling: str  # as the other tool's help writes it
    tool: str
    beside: str  # the shabench option it stands for, whose --help line names it
    differs: str = ""  # what a user of the other tool must know, if it does not do just what `beside` does


ALIASES = (
    Alias("-filter=REGEX", BENCH_BITCOIN, "--filter",
          r"the whole name or title must match, as std::regex_match: --filter '\A(?:REGEX)\Z'"),
    Alias("-min-time=MS", BENCH_BITCOIN, "--min-time",
          "MS for a whole row, its epochs together, as nanobench's minEpochTime: --min-time MS/epochs"),
    Alias("-list", BENCH_BITCOIN, "--list", "the same rows, their titles alone, one a line"),
    Alias("-output-json=FILE", BENCH_BITCOIN, "--output",
          "the table on stdout, and FILE as --format json --output FILE writes it"),
    Alias("-output-csv=FILE", BENCH_BITCOIN, "--output",
          "the table on stdout, and FILE as --format csv --output FILE writes it"),
    Alias("-sanity-check", BENCH_BITCOIN, "command", "verify, then every chosen row once (one call), no table"),
    Alias("-help, -?", BENCH_BITCOIN, "--help"),
    Alias("-l, --list", EOS, "--list", "its features are the groups"),
    Alias("-f NAME, --feature NAME", EOS, "--feature"),
    Alias("-r N, --runs N", EOS, "--runs"),
    Alias("-h, --help", EOS, "--help"),
)

# bench_bitcoin's options with no meaning here: (the nearest shabench option, why).
REFUSED = {
    "-priority-level": ("--group NAME", "shabench's rows have no priority levels; groups choose them (see --list)"),
    "-asymptote": ("--sizes LIST", "shabench fits no complexity; it sweeps message sizes, e.g. --sizes 16,1K,1M"),
}


def beside(option):
    """The other tools' spellings of `option`, for its --help line."""
    notes = [f"{a.tool}'s {a.spelling}" + (f": {a.differs}" if a.differs else "") for a in ALIASES if a.beside == option]
    return f" [{'; '.join(notes)}]" if notes else ""


class _Refuse(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        nearest, why = REFUSED[option_string]
        parser.error(f"{option_string} (bench_bitcoin's) has no meaning here: {why}; the nearest is {nearest}")


def add_arguments(parser):
    """bench_bitcoin's single-dash spellings, hidden from --help's list (beside() names them there)."""
    hidden = argparse.SUPPRESS
    parser.add_argument("-filter", dest="whole_filter", metavar="REGEX", help=hidden)
    parser.add_argument("-min-time", dest="row_min_time", metavar="MS", type=float, help=hidden)
    parser.add_argument("-list", dest="list_titles", action="store_true", help=hidden)
    parser.add_argument("-output-json", dest="output_json", metavar="FILE", help=hidden)
    parser.add_argument("-output-csv", dest="output_csv", metavar="FILE", help=hidden)
    parser.add_argument("-sanity-check", dest="sanity_check", action="store_true", help=hidden)
    for option in REFUSED:
        parser.add_argument(option, nargs="?", action=_Refuse, help=hidden)


def resolve(parser, args, default_min_time):
    """Turns the other tools' spellings into shabench's options, refusing a pair that says one thing twice."""
    def both(ours, theirs):
        parser.error(f"{theirs} and {ours} both given: they set the same thing; give one")

    if args.whole_filter is not None:
        if args.filter is not None:
            both("--filter", "-filter=")
        try:
            re.compile(args.whole_filter)
        except re.error as exc:
            parser.error(f"-filter={args.whole_filter}: {exc}")
        args.filter = rf"\A(?:{args.whole_filter})\Z"
    if args.row_min_time is not None:
        if args.min_time is not None:
            both("--min-time", "-min-time=")
        if args.row_min_time <= 0:
            parser.error("-min-time must be positive")
        args.min_time = args.row_min_time / args.epochs
    if args.runs is not None:
        if args.runs < 1:
            parser.error("-r/--runs must be at least 1")
        if args.min_time is not None:
            parser.error("-r/--runs counts an epoch's calls and --min-time (or -min-time=) times them: give one")
    if args.min_time is None:
        args.min_time = default_min_time
    if args.list_titles and args.list:
        parser.error("-list (bench_bitcoin's: the titles alone) and -l/--list (the groups and their rows) both "
                     "given: give one")
    if args.feature:
        if args.group or args.all or args.sizes:
            parser.error("-f/--feature chooses the rows: not with --group, --all or --sizes")
    if args.format is None:
        args.format = "eos" if args.feature or args.runs else "table"
    args.also_write = [(fmt, path) for fmt, path in (("json", args.output_json), ("csv", args.output_csv)) if path]
    written = [os.path.abspath(path) for _, path in args.also_write] + ([os.path.abspath(args.output)] if args.output else [])
    if len(set(written)) < len(written):
        parser.error("-output-json=, -output-csv= and --output must name different files")
    if args.sanity_check:
        args.command = "sanity-check"
