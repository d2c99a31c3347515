"""`libsha ipfs add -n PATH...`: Kubo's `ipfs add --only-hash`, line for line: `added CID NAME` for
each file and symlink, then each directory (inner ones first; -w's wrapping one last, named ""),
-q the CIDs alone, -Q the last one, --silent nothing; with no path, standard input (named by its
CID, or --stdin-name). Kubo's spellings for its options; libsha adds --profile (IPIP-499's, which
Kubo takes from its config), --max-file-links and --threads. libsha only hashes: without -n it says
so and exits 2. Exit statuses: 2 for a bad command line, 1 for what Kubo reports as an Error."""

from __future__ import annotations

import os
import sys
import threading

from . import UsageError, parse

USAGE = """\
USAGE
  libsha ipfs add -n [<path>]... - the CIDs `ipfs add --only-hash` gives (libsha only hashes)

  libsha ipfs add [--recursive | -r] [--hidden | -H] [--wrap-with-directory | -w]
                  [--only-hash | -n] [--quiet | -q] [--quieter | -Q] [--silent]
                  [--progress | -p] [--chunker=size-<bytes> | -s] [--raw-leaves]
                  [--cid-version=<0|1>] [--stdin-name=<name>] [--profile=<name>]
                  [--max-file-links=<n>] [--threads=<n>] [--] [<path>]...

  --profile: unixfs-v0-2015 (Kubo's default) or unixfs-v1-2025 (1 MiB chunks, 1,024 links a node,
  raw leaves, CIDv1); the options after it override its parts. --threads: the threads hashing a
  file (0, the default: one per CPU this process may use).
"""
OPTIONS: dict[str, bool | None] = {
    "recursive": None, "hidden": None, "wrap-with-directory": None, "only-hash": None, "quiet": None,
    "quieter": None, "silent": None, "progress": None, "chunker": True, "raw-leaves": None, "cid-version": True,
    "stdin-name": True, "profile": True, "max-file-links": True, "threads": True, "pin": None, "hash": True,
    "trickle": None, "inline": None, "help": False,
}
SHORT = {"r": "recursive", "H": "hidden", "w": "wrap-with-directory", "n": "only-hash", "q": "quiet",
         "Q": "quieter", "p": "progress", "s": "chunker", "t": "trickle", "h": "help"}
ONLY_HASHES = ("libsha ipfs add: libsha only hashes: it prints the CIDs `ipfs add --only-hash` would, and stores "
               "nothing; give -n (--only-hash)\n")


def _settings(given: list[tuple[str, str]]) -> dict[str, str]:
    """The options as given (the last of each), each checked; what libsha cannot do is a UsageError."""
    settings = dict(given)
    if settings.get("trickle") == "true":
        raise UsageError("Error: libsha builds the balanced layout only, not --trickle")
    if settings.get("inline") == "true":
        raise UsageError("Error: libsha does not inline blocks into CIDs (--inline)")
    if settings.get("hash", "sha2-256").lower() != "sha2-256":
        raise UsageError(f"Error: libsha computes sha2-256 only, not {settings['hash']!r}")
    chunker = settings.get("chunker")
    if chunker is not None:
        size = chunker[5:] if chunker.startswith("size-") else ""
        if not size.isdigit():
            raise UsageError(f"Error: libsha chunks by size only (size-<bytes>), not {chunker!r}")
    for name in ("cid-version", "max-file-links", "threads"):
        if name in settings and not settings[name].isdigit():
            raise UsageError(f"Error: --{name} takes a number, not {settings[name]!r}")
    return settings


def _parameters(settings: dict[str, str]) -> dict[str, object]:
    """libsha.ipfs's keyword arguments for the options: Kubo's defaults, and CIDv1's raw leaves."""
    params: dict[str, object] = {"profile": settings.get("profile", "unixfs-v0-2015"),
                                 "threads": int(settings.get("threads", "0"))}
    if "chunker" in settings:
        params["chunk_size"] = int(settings["chunker"][5:])
    if "max-file-links" in settings:
        params["max_links"] = int(settings["max-file-links"])
    if "cid-version" in settings:
        params["cid_version"] = int(settings["cid-version"])
        if settings["cid-version"] == "1" and "raw-leaves" not in settings:
            params["raw_leaves"] = True  # Kubo: "Passing version 1 will cause the raw-leaves option to default to true"
    if "raw-leaves" in settings:
        params["raw_leaves"] = settings["raw-leaves"] == "true"
    return params


def main(argv: list[str]) -> int:
    try:
        paths, given = parse(argv, OPTIONS, "libsha ipfs add", SHORT)
        if ("help", "") in given:
            sys.stdout.write(USAGE)
            return 0
        settings = _settings(given)
    except UsageError as exc:
        sys.stderr.write(f"{exc}\n\n{USAGE}")
        return 2
    if settings.get("only-hash") != "true":
        sys.stderr.write(ONLY_HASHES)
        return 2
    params = _parameters(settings)
    on = {name for name, value in settings.items() if value == "true"}
    progress = _Progress(paths) if "progress" in on and not on & {"quiet", "quieter", "silent"} else None
    try:
        if paths:
            lines = _added_paths(paths, params, on, progress)
        else:
            lines = _added_stdin(settings.get("stdin-name"), params, "wrap-with-directory" in on)
    except (OSError, ValueError, TypeError) as exc:
        if progress is not None:
            progress.done()
        sys.stderr.write(f"Error: {_message(exc)}\n")
        return 1
    if progress is not None:
        progress.done()
    _print(lines, on)
    return 0


def _added_paths(paths: list[str], params: dict[str, object], on: set[str],
                 progress: _Progress | None) -> list[tuple[str, str]]:
    from .. import ipfs

    if "recursive" not in on:
        for path in paths:
            if os.path.isdir(path) and not os.path.islink(path):
                raise ValueError(f"'{os.path.normpath(path)}' is a directory, use the '-r' flag to specify directories")
    added = ipfs.add(paths, wrap="wrap-with-directory" in on, hidden="hidden" in on,
                     progress=None if progress is None else progress.hashed, **params)  # type: ignore[arg-type]
    return [(a.cid, a.name) for a in added]


def _added_stdin(name: str | None, params: dict[str, object], wrap: bool) -> list[tuple[str, str]]:
    """Standard input as one file, named by its CID as Kubo names it (or --stdin-name)."""
    from .. import ipfs
    from .._cpus import worker_count
    from .._trees.dag_pb import directory_node
    from .._trees.unixfs_file import buffer_dag

    if sys.stdin is None or sys.stdin.isatty():
        raise ValueError('argument "path" is required')
    p = ipfs._params(params["profile"], params.get("chunk_size"), params.get("max_links"),  # type: ignore[arg-type]
                     params.get("raw_leaves"), params.get("cid_version"))
    node = buffer_dag(memoryview(sys.stdin.buffer.read()), *p[:4], worker_count(params["threads"], "threads"))
    made = ipfs.CID(node.cid)
    name = name or made
    if not wrap:
        return [(made, name)]
    wrapper = directory_node({os.fsencode(name): node}, p.cid_version)
    return [(made, name), (ipfs.CID(wrapper.cid), "")]


def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.filename}: {exc.strerror}" if exc.filename else exc.strerror
    return str(exc)


def _print(lines: list[tuple[str, str]], on: set[str]) -> None:
    out = sys.stdout
    if "silent" in on:
        return
    if "quieter" in on:
        if lines:
            out.write(f"{lines[-1][0]}\n")
    elif "quiet" in on:
        out.write("".join(f"{cid}\n" for cid, _ in lines))
    else:
        out.write("".join(f"added {cid} {escaped(name)}\n" for cid, name in lines))
    out.flush()


def escaped(name: str) -> str:
    """Kubo's EscNonPrint: a name with a character that cannot be printed, written as Go quotes it
    (without the quotes); any other name as it is."""
    if name.isprintable():
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (os.fsdecode's surrogate escape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch == "\\":
            out.append("\\\\")
        elif ch.isprintable():
            out.append(ch)
        elif ch in "\a\b\f\n\r\t\v":
            out.append("\\" + "abfnrtv"["\a\b\f\n\r\t\v".index(ch)])
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out)


class _Progress:
    """libsha sum's progress line (bytes of the total, the rate), told of bytes hashed from any thread."""

    def __init__(self, paths: list[str]) -> None:
        from ..sum.progress import Progress

        self._lock = threading.Lock()
        self._bytes = 0
        self._line = Progress(sys.stderr, lambda: self._bytes, [], 0.0, total=lambda: _total(paths))

    def hashed(self, n: int) -> None:
        with self._lock:
            self._bytes += n
            self._line.tick()

    def done(self) -> None:
        with self._lock:
            self._line.finish()


def _total(paths: list[str]) -> int:
    """The bytes of the regular files under paths (a guess for the progress line: hidden ones too)."""
    total = 0
    for path in paths:
        for top, _, names in os.walk(path) if os.path.isdir(path) else [("", [], [path])]:
            for name in names:
                try:
                    total += os.stat(os.path.join(top, name)).st_size
                except OSError:
                    pass
    return total
