"""`libsha sum`'s command line, parsed as GNU getopt_long parses sha256sum's.

Short options cluster (-bc), long ones may be shortened to any unique prefix,
options and files may come in any order, `--` ends the options, and a bad
option is reported as GNU reports it, with exit status 1. Not argparse: it
answers differently, and importing it costs more than hashing a small file.
"""

from __future__ import annotations

PROG = "libsha sum"

HELP = f"""\
Usage: {PROG} [OPTION]... [FILE]...
Print or check SHA-256 checksums, as GNU sha256sum does (the same output and
exit status), with the files hashed in parallel.

With no FILE, or when FILE is -, read standard input.
  -b, --binary          mark the files as read in binary mode ('*' before the name)
  -c, --check           read checksum lines from the FILEs and verify them
      --tag             write BSD-style lines: SHA256 (NAME) = HEX
  -t, --text            mark the files as read in text mode (the default)
  -z, --zero            end each line with NUL instead of a newline, and
                          never escape file names

Only when verifying checksums (-c):
      --ignore-missing  say nothing of listed files that do not exist
      --quiet           print nothing for a file that matched
      --status          print nothing; the exit status tells the result
      --strict          fail on checksum lines that are not properly formatted
  -w, --warn            warn of each line that is not properly formatted

Added by libsha:
  -j, --jobs=N          hash N files at a time (0, the default: the CPUs this
                          process may use)
      --impl=NAME       use that SHA-256 implementation (python -c "import
                          libsha; print(libsha.dispatch.implementations())" lists them)
      --progress        show progress on stderr: a line every 2 seconds (in
                          place on a terminal) and a last one with the totals
                          (shown anyway on a terminal once hashing has taken 2 seconds)

      --help            display this help and exit
      --version         output version information and exit

Binary and text mode read the same bytes: the mode only changes the mark.
Exit status: 0 if every file was read (and, with -c, matched); 1 otherwise;
130 when interrupted.
"""

# long name: (short letter or "", takes an argument)
LONG = {
    "binary": ("b", False),
    "check": ("c", False),
    "tag": ("", False),
    "text": ("t", False),
    "zero": ("z", False),
    "ignore-missing": ("", False),
    "quiet": ("", False),
    "status": ("", False),
    "strict": ("", False),
    "warn": ("w", False),
    "jobs": ("j", True),
    "impl": ("", True),
    "progress": ("", False),
    "help": ("", False),
    "version": ("", False),
}
SHORT = {short: (name, argument) for name, (short, argument) in LONG.items() if short}


class UsageError(Exception):
    """A bad command line: the message GNU would print before 'Try ... --help'."""


class Options:
    __slots__ = (
        "binary", "check", "tag", "zero", "ignore_missing", "quiet", "status", "strict", "warn",
        "jobs", "impl", "progress", "help", "version", "files",
    )

    def __init__(self) -> None:
        self.binary: int = -1  # -1: not said; 0: text; 1: binary
        self.check = self.zero = self.ignore_missing = self.strict = False
        self.quiet = self.status = self.warn = False
        self.tag = False
        self.jobs = 0
        self.impl: str | None = None
        self.progress = self.help = self.version = False
        self.files: list[str] = []


def _set(options: Options, name: str, value: str | None) -> None:
    if name == "binary":
        options.binary = 1
    elif name == "text":
        options.binary = 0
    elif name == "tag":
        options.tag = True
        options.binary = 1
    elif name in ("status", "warn", "quiet"):
        # As GNU: the last of the three wins.
        options.status, options.warn, options.quiet = name == "status", name == "warn", name == "quiet"
    elif name == "jobs":
        assert value is not None
        if not value.isdigit() or not 0 <= int(value) <= 1024:  # 0: one per CPU, as jobs=0 in Python
            raise UsageError(f"invalid number of jobs: {value!r} (0 to 1024; 0: the CPUs this process may use)")
        options.jobs = int(value)
    elif name == "impl":
        options.impl = value
    else:
        setattr(options, name.replace("-", "_"), True)


def _long(options: Options, word: str, rest: list[str]) -> None:
    body = word[2:]
    name, equals, value = body.partition("=")
    if name in LONG:
        matches = [name]
    else:
        matches = [n for n in LONG if n.startswith(name)]
    if not matches:
        raise UsageError(f"unrecognized option '--{name}'")
    if len(matches) > 1:
        listed = " ".join(f"'--{m}'" for m in matches)
        raise UsageError(f"option '--{name}' is ambiguous; possibilities: {listed}")
    full = matches[0]
    takes = LONG[full][1]
    if equals and not takes:
        raise UsageError(f"option '--{full}' doesn't allow an argument")
    if takes and not equals:
        if not rest:
            raise UsageError(f"option '--{full}' requires an argument")
        value = rest.pop()
    _set(options, full, value if takes else None)


def _short(options: Options, word: str, rest: list[str]) -> None:
    i = 1
    while i < len(word):
        letter = word[i]
        if letter not in SHORT:
            raise UsageError(f"invalid option -- '{letter}'")
        name, takes = SHORT[letter]
        if takes:
            value = word[i + 1 :]
            if not value:
                if not rest:
                    raise UsageError(f"option requires an argument -- '{letter}'")
                value = rest.pop()
            _set(options, name, value)
            return
        _set(options, name, None)
        i += 1


def parse(argv: list[str]) -> Options:
    options = Options()
    rest = argv[::-1]  # popped from the end: the next word is rest[-1]
    files = options.files
    while rest:
        word = rest.pop()
        if word[:1] != "-" or word == "-":
            files.append(word)
        elif word == "--":
            files.extend(reversed(rest))
            break
        elif word.startswith("--"):
            _long(options, word, rest)
        else:
            _short(options, word, rest)
    if options.help or options.version:
        return options
    _check_combinations(options)
    return options


def _check_combinations(options: Options) -> None:
    """GNU's refusals, in GNU's order."""
    if options.tag and options.binary == 0:
        raise UsageError("--tag does not support --text mode")
    if options.zero and options.check:
        raise UsageError("the --zero option is not supported when verifying checksums")
    if options.tag and options.check:
        raise UsageError("the --tag option is meaningless when verifying checksums")
    if options.binary >= 0 and options.check:
        raise UsageError("the --binary and --text options are meaningless when verifying checksums")
    for flag, name in ((options.ignore_missing, "ignore-missing"), (options.status, "status"),
                       (options.warn, "warn"), (options.quiet, "quiet"), (options.strict, "strict")):
        if flag and not options.check:
            raise UsageError(f"the --{name} option is meaningful only when verifying checksums")
