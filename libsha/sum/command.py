"""`libsha sum`: GNU sha256sum's output, messages and exit status, with the files hashed in parallel.

The files are read and hashed in C by worker threads (FileHasher), and the
results are written in argument order as they arrive; this thread only
formats lines, shows progress and watches for Ctrl-C.
"""

from __future__ import annotations

import errno
import os
import sys

from .. import _errors
from .._binding import configuration_problem
from .._files import FileHasher, sha256_file
from .lines import LineParser, check_name, checksum_lines, quote
from .options import HELP, PROG, Options, UsageError, parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable

    from .progress import Progress

FLUSH_BYTES = 64 << 10


class Output:
    """stdout in large writes, flushed before anything goes to stderr (so a terminal shows both in order).
    Either may be None (a descriptor closed when the command started). A failed write (a full
    disk, a closed descriptor) is remembered, the rest of the output dropped, and the run goes on
    as GNU's does, which finds out when it closes stdout: `write_error` then says why."""

    def __init__(self, stdout: BinaryIO | None, stderr: Any) -> None:
        self._stdout = stdout
        self._stderr = stderr
        self._pending = bytearray()
        self.progress: Progress | None = None
        self.write_error: str | None = None

    def write(self, data: bytes) -> None:
        self._pending += data
        if len(self._pending) >= FLUSH_BYTES:
            self.flush()

    def flush(self) -> None:
        if self.progress is not None and self._pending:
            self.progress.clear()
        try:
            if self.write_error is not None:
                return
            if self._stdout is None:
                raise OSError(errno.EBADF, os.strerror(errno.EBADF))
            if self._pending:
                self._stdout.write(self._pending)
            self._stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            self.write_error = exc.strerror or str(exc)
        finally:
            self._pending.clear()

    @property
    def stderr(self) -> Any:
        return self._stderr

    def stderr_is_tty(self) -> bool:
        try:
            return bool(self._stderr.isatty())
        except (AttributeError, ValueError):
            return False

    def error(self, message: str) -> None:
        self.flush()
        if self.progress is not None:
            self.progress.clear()
        self.say(message)

    def say(self, message: str) -> None:
        """A message on stderr, if there is one to write to (GNU loses them too when it is closed)."""
        if self._stderr is None:
            return
        try:
            self._stderr.write(f"{PROG}: {message}\n")
            self._stderr.flush()
        except OSError:
            pass


def _stdin_digest() -> bytes:
    with open(0, "rb", buffering=0, closefd=False) as stdin:
        return sha256_file(stdin)


def _encode(names: list[str]) -> list[bytes]:
    """File names as the bytes the OS gave (os.fsencode), all at once."""
    if not names:
        return []
    joined = "\0".join(names).encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    return joined.split(b"\0")


def _hex(digests: bytes) -> bytes:
    """Joined digests as joined lowercase hex, in one C call."""
    return digests.hex().encode("ascii")


def _hasher(names: list[bytes], options: Options) -> FileHasher:
    items: list[bytes | Callable[[], bytes]] = [_stdin_digest if n == b"-" else n for n in names]
    return FileHasher(items, options.jobs)


def _watched(hasher: FileHasher, out: Output, options: Options, names: list[bytes], each_file: bool = False) -> Any:
    """The hasher's batches (or, each_file, its (index, result) pairs) in order; while the next is
    not ready, the lines so far go out and progress is shown."""
    progress = None
    if options.progress or out.stderr_is_tty():
        from .progress import Progress  # imported only where shown: start-up is most of a small run

        progress = Progress(out.stderr, hasher.bytes_read, [n for n in names if n != b"-"],
                            0.0 if options.progress else 2.0)
        out.progress = progress

    def wait() -> None:
        out.flush()  # the lines done so far appear while a large file is hashed
        if progress is not None:
            progress.tick()

    yield from hasher.results(wait) if each_file else hasher.batches(wait)
    if progress is not None and options.progress:
        progress.finish()  # asked for: a last line with the totals, however quick the run was
    elif progress is not None:
        progress.clear()


def _compute(options: Options, out: Output) -> bool:
    names = _encode(options.files)
    hasher = _hasher(names, options)
    ok = True
    lines = {"binary": options.binary == 1, "tag": options.tag, "zero": options.zero}
    for start, digests, failed in _watched(hasher, out, options, names):
        hexes = _hex(digests)
        batch = names[start : start + len(digests) // 32]
        if not failed:
            out.write(checksum_lines(hexes, batch, **lines))
            continue
        for i, name in enumerate(batch):
            if i in failed:
                out.error(f"{quote(name)}: {failed[i].strerror}")
                ok = False
            else:
                out.write(checksum_lines(hexes[64 * i : 64 * i + 64], [name], **lines))
    return ok


class _Check:
    """GNU's counts for one checksum file."""

    def __init__(self) -> None:
        self.misformatted = self.mismatched = self.unreadable = 0
        self.properly_formatted = self.matched = False


def _read_checksum_file(name: str, out: Output) -> tuple[str, bytes] | None:
    """(name shown in messages, its bytes), or None after the message GNU gives."""
    if name == "-":
        try:
            return "standard input", sys.stdin.buffer.read()
        except OSError:
            out.error(f"{quote('standard input')}: read error")
            return None
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        out.error(f"{quote(name)}: {exc.strerror}")
        return None
    # As GNU: a file that opens but cannot be read (a directory) is a "read error".
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    except OSError:
        out.error(f"{quote(name)}: read error")
        return None
    finally:
        os.close(fd)
    return name, b"".join(chunks)


def _verify(name: str, parser: LineParser, options: Options, out: Output) -> bool:
    read = _read_checksum_file(name, out)
    if read is None:
        return False
    shown, data = read
    is_stdin = name == "-"
    counts = _Check()
    # In line order: a message about line N (a string), or a file to verify (name, expected hex).
    events: list[str | tuple[bytes, bytes]] = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if line.startswith(b"#"):
            continue
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line:
            continue
        parsed = parser.parse(line)
        if parsed is None or (is_stdin and parsed[1] == b"-"):
            counts.misformatted += 1
            if options.warn:
                events.append(f"{quote(shown)}: {number}: improperly formatted SHA256 checksum line")
            continue
        counts.properly_formatted = True
        events.append((parsed[1], parsed[0]))
    listed_files = [e[0] for e in events if isinstance(e, tuple)]
    results = _watched(_hasher(listed_files, options), out, options, listed_files, each_file=True)
    for event in events:
        if isinstance(event, str):
            out.error(event)
            continue
        listed, expected = event
        _, result = next(results)
        if isinstance(result, OSError):
            if options.ignore_missing and result.errno == errno.ENOENT:  # not there at all
                continue
            out.error(f"{quote(listed)}: {result.strerror}")
            counts.unreadable += 1
            if not options.status:
                out.write(check_name(listed) + b": FAILED open or read\n")
            continue
        match = result == bytes.fromhex(expected.decode())
        if match:
            counts.matched = True
        else:
            counts.mismatched += 1
        if not options.status and (not match or not options.quiet):
            out.write(check_name(listed) + (b": OK\n" if match else b": FAILED\n"))
    next(results, None)  # past the last file: the progress line is cleared
    return _summary(counts, shown, options, out)


def _plural(n: int, one: str, many: str) -> str:
    return (one if n == 1 else many) % n


def _summary(counts: _Check, shown: str, options: Options, out: Output) -> bool:
    if not counts.properly_formatted:
        out.error(f"{quote(shown)}: no properly formatted checksum lines found")
    elif not options.status:
        if counts.misformatted:
            out.error(_plural(counts.misformatted, "WARNING: %d line is improperly formatted",
                              "WARNING: %d lines are improperly formatted"))
        if counts.unreadable:
            out.error(_plural(counts.unreadable, "WARNING: %d listed file could not be read",
                              "WARNING: %d listed files could not be read"))
        if counts.mismatched:
            out.error(_plural(counts.mismatched, "WARNING: %d computed checksum did NOT match",
                              "WARNING: %d computed checksums did NOT match"))
        if options.ignore_missing and not counts.matched:
            out.error(f"{quote(shown)}: no file was verified")
    return (counts.properly_formatted and counts.matched and not counts.mismatched and not counts.unreadable
            and not (options.strict and counts.misformatted))


def _select(name: str, out: Output) -> bool:
    from .. import _native  # (ctypes: only where --impl is given)

    code = _native.loaded().libsha_select(name.encode("utf-8", "surrogateescape"))
    if code == _errors.OK:
        _native.allow_hashing()
        return True
    from ..dispatch import implementations

    known = ", ".join(i.name for i in implementations() if i.runnable)
    reason = {_errors.ERR_UNKNOWN_IMPL: "no such implementation", _errors.ERR_NOT_RUNNABLE: "this CPU cannot run it",
              _errors.ERR_SELFTEST: "it failed its self-test"}.get(code, f"error {code}")
    out.error(f"--impl {quote(name)}: {reason}; this machine runs: {known}")
    return False


def _die_on_broken_pipe() -> None:
    """Die of SIGPIPE as GNU's tools do, silently, when stdout's reader goes away (`| head`)."""
    try:
        import _signal  # type: ignore[import-not-found]  # not signal: it imports enum

        _signal.signal(_signal.SIGPIPE, _signal.SIG_DFL)
    except (ImportError, AttributeError, ValueError):  # Windows has no SIGPIPE; BrokenPipeError is caught below
        pass


def main(argv: list[str]) -> int:
    out = Output(sys.stdout.buffer if sys.stdout is not None else None, sys.stderr)
    status = _run(argv, out)
    if out.write_error is not None:
        out.say(f"write error: {out.write_error}")
        return 1
    return status


def _run(argv: list[str], out: Output) -> int:
    try:
        options = parse(argv)
    except UsageError as exc:
        out.error(f"{exc}\nTry '{PROG} --help' for more information.")
        return 1
    if options.help:
        out.write(HELP.encode())
        out.flush()
        return 0
    if options.version:
        from .._native import library_version

        out.write(f"{PROG} (libsha) {library_version()}\n".encode())
        out.flush()
        return 0
    if options.impl is None and (problem := configuration_problem()) is not None:
        # The automatic choice would be refused: said once, before any file is read.
        out.error(f"{problem}; fix or unset it, or name an implementation with --impl")
        return 2
    _die_on_broken_pipe()
    try:
        if options.impl is not None and not _select(options.impl, out):
            return 1
        files = options.files or ["-"]
        if options.check:
            parser = LineParser()
            ok = True
            for name in files:
                ok &= _verify(name, parser, options, out)
        else:
            options.files = files
            ok = _compute(options, out)
        out.flush()
    except KeyboardInterrupt:
        try:
            out.flush()
        except OSError:
            pass
        os._exit(130)
    except BrokenPipeError:
        os._exit(1)  # where there is no SIGPIPE; quietly, as the reader wanted no more
    return 0 if ok else 1
