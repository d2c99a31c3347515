"""SHA-256 of files: sha256_file and sha256_files, the functions behind `libsha sum`."""

from __future__ import annotations

import io
import os
import stat
from _thread import start_new_thread

from . import _errors
from ._binding import take_accelerated
from ._cpus import usable_cpus, worker_count
from ._reads import held_lock as _held_lock, read_ahead

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Iterable, Iterator, Union

    PathOrFile = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", BinaryIO]

# Reads of this size go to C whole, the GIL released; two buffers, so the next read overlaps the hash.
CHUNK = 4 << 20


def sha256_file(file: PathOrFile, /) -> bytes:
    """SHA-256 of a file's bytes: a path, or a binary file object open for reading (read from where it is).

    A path is read and hashed in C, without the GIL; where a second core is free, a second thread
    reads ahead. A file object is read in chunks of 4 MiB, each hashed in C while the next is read.
    A file that grows or shrinks meanwhile gives the digest of the bytes that were read.
    """
    if isinstance(file, (str, bytes, os.PathLike)):
        path = _path(file)
        out, errors = hash_paths([path], files_control(read_ahead=usable_cpus() > 1))
        if errors[0]:
            raise _os_error(errors[0], path)
        return out
    if isinstance(file, (bytes, bytearray, memoryview)):
        raise TypeError("sha256_file takes a path or a binary file object; for bytes use libsha.sha256_digest")
    if not hasattr(file, "readinto") and not hasattr(file, "read"):
        raise TypeError(f"sha256_file takes a path or a binary file object, not {type(file).__name__}")
    _refuse_text(file, "sha256_file")
    return _digest(file)


def _refuse_text(file: Any, caller: str) -> None:
    """A TypeError for a file that reads str, before a byte of it is read: read(0) reads nothing."""
    text = isinstance(file, io.TextIOBase)
    if not text and not hasattr(file, "readinto"):
        try:
            text = isinstance(file.read(0), str)
        except Exception:  # its reads will say what is wrong, in its own words
            pass
    if text:
        raise TypeError(f"{caller} needs a binary file, not a text one: open it with 'rb' (or pass its .buffer)")


def _small_file(f: Any) -> int:
    """For a regular file with less than CHUNK bytes left, a read size that takes them in one go
    (and sees the end in a second read); else 0. Two 4 MiB buffers cost milliseconds to allocate."""
    try:
        st = os.fstat(f.fileno())
        left = st.st_size - f.tell()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return 0
    return left + 1 if stat.S_ISREG(st.st_mode) and 0 <= left < CHUNK else 0


def _digest(f: Any, hashed: Callable[[int], None] | None = None) -> bytes:
    """The file's digest; hashed(n), if given, after each n bytes (it may raise to stop)."""
    from ._one.sha256 import sha256

    h = sha256()
    if isinstance(f, io.BytesIO):  # in memory already: hashed in place, as hashlib.file_digest does
        start = f.tell()
        with f.getbuffer() as view:  # released on leaving: the BytesIO may be resized afterwards
            h.update(view[start:])
            end = max(start, len(view))
        f.seek(end)  # where reading it would have left it
        if hashed is not None:
            hashed(end - start)
        return h.digest()
    readinto = getattr(f, "readinto", None)
    small = _small_file(f)
    if readinto is None or small:  # plain reads: no readinto, or no need for two 4 MiB buffers
        while chunk := f.read(small or CHUNK):
            if isinstance(chunk, str):  # a reader that gives str only once it has read
                raise TypeError("sha256_file needs a binary file, not a text one: open it with 'rb'")
            h.update(chunk)
            if hashed is not None:
                hashed(len(chunk))
        return h.digest()
    for chunk in read_ahead(readinto, CHUNK):
        h.update(chunk)
        if hashed is not None:
            hashed(len(chunk))
    return h.digest()


def sha256_files(paths: Iterable[PathOrFile], *, jobs: int = 0) -> list[bytes | OSError]:
    """SHA-256 of each file, in order, `jobs` files at a time (0: one per CPU this process may use).

    Paths are read and hashed in C, a batch of files per call, without the GIL;
    binary file objects are read as sha256_file reads them. A file that cannot
    be read gives its OSError in its place; the others are still hashed.
    """
    count = worker_count(jobs, "jobs")
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("sha256_files takes a collection of paths; for one file use libsha.sha256_file")
    items: list[bytes | Callable[[], bytes]] = []
    for item in paths:
        if isinstance(item, (str, bytes, os.PathLike)):
            items.append(_path(item))
        elif hasattr(item, "readinto") or hasattr(item, "read"):
            _refuse_text(item, "sha256_files")  # before any file is hashed
            items.append(_reader(item))
        else:
            raise TypeError(f"sha256_files takes paths or binary file objects, not {type(item).__name__}")
    return [digest for _, digest in FileHasher(items, count).results()]


def _path(item: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> bytes:
    """The path as the bytes C opens (os.fsencode); a ValueError for an embedded null byte."""
    path = os.fsencode(item)
    if b"\0" in path:  # C would see the name cut there: another file, or none
        raise ValueError(f"embedded null byte in path {item!r}")
    return path


def files_control(read_ahead: bool = False) -> Any:
    """A libsha_files_control, zeroed, that a call and the threads around it share: .bytes read so
    far, .cancel = 1 stops the call at its next read (the ctypes path's; the accelerator has its own)."""
    from ._header import FilesControl  # imported here: the accelerated path's `libsha sum` needs no ctypes

    return FilesControl(read_ahead=read_ahead)


def files_call(paths: list[bytes], control: Any) -> tuple[int, bytes, list[int]]:
    """One libsha_sha256_files call (the ctypes path's): its code, the digests joined, the os_errors."""
    import ctypes

    from . import _native

    n = len(paths)
    out = ctypes.create_string_buffer(32 * n)
    errors = (ctypes.c_int * n)()
    code = _native.lib().libsha_sha256_files(out, errors, (ctypes.c_char_p * n)(*paths), n, ctypes.byref(control))
    return code, out.raw, list(errors)


def hash_paths(paths: list[bytes], control: Any) -> tuple[bytes, list[int]]:
    """One libsha_sha256_files call: the digests joined, and the os_errors (0, or an errno value)."""
    code, out, errors = files_call(paths, control)
    if code == _errors.ERR_CANCELLED:
        raise KeyboardInterrupt
    if code not in (_errors.OK, _errors.ERR_IO):
        _errors.check(code)
    return out, errors


take_accelerated(globals(), files_control="FilesControl", files_call="sha256_files")


def _reader(file: BinaryIO) -> Callable[[], bytes]:
    return lambda: sha256_file(file)


class FileHasher:
    """Hashes files in worker threads, a batch of paths per C call, and hands the results back in order.

    An item is a path (bytes, as os.fsencode gives it) or a function that
    returns a digest (the CLI's standard input). batches() yields, in order,
    (first index, the batch's digests joined, {index in batch: OSError});
    results() yields (index, digest or OSError). bytes_read() grows as the
    files are read, from any thread; cancel() stops the C calls at their next read.
    """

    def __init__(self, items: list[bytes | Callable[[], bytes]], jobs: int = 0) -> None:
        cpus = usable_cpus()
        workers = jobs or cpus
        self._items: list[Any] = items  # paths (bytes) and functions
        self._batches: list[tuple[int, int]] = []
        start = 0
        for special in [i for i, item in enumerate(items) if callable(item)] + [len(items)]:
            b = start
            while b < special:
                end = min(b + _batch_size(len(items) - b, len(items), workers), special)
                self._batches.append((b, end))
                b = end
            if special < len(items):
                self._batches.append((special, special + 1))
            start = special + 1
        self._done = [_held_lock() for _ in self._batches]
        # Functions (standard input) run one after another in order: `- -` reads stdin, then its end.
        # Each waits for the one before it: batch -> (the previous function's batch, or None).
        functions = [b for b, (start, _) in enumerate(self._batches) if callable(items[start])]
        self._after = dict(zip(functions, [None, *functions]))
        self._finished = {b: _held_lock() for b in functions}  # released once, acquired by the next only
        self._results: list[Any] = [None] * len(self._batches)
        self._next = iter(range(len(self._batches)))
        self._workers = min(workers, len(self._batches))
        # Where the workers leave a core free (fewer asked for, or fewer batches: one large file), C reads
        # large files in a second thread meanwhile. (Asking for it mid-call, once a worker had run out of
        # batches, measured no faster.)
        self._control = files_control(read_ahead=self._workers < cpus)
        self._started = False

    def bytes_read(self) -> int:
        return int(self._control.bytes)

    def cancel(self) -> None:
        self._control.cancel = 1

    def _work(self) -> None:
        for batch in self._next:  # next() on a range iterator is atomic under the GIL
            try:
                self._results[batch] = self._run(batch)
            except BaseException as exc:  # handed to the thread that reads the results
                self._results[batch] = exc
            self._done[batch].release()

    def _call(self, batch: int, function: Callable[[], bytes]) -> tuple[bytes, dict[int, OSError]]:
        previous = self._after[batch]
        if previous is not None:
            self._finished[previous].acquire()  # until the one before has finished
        try:
            return function(), {}
        except OSError as exc:
            return bytes(32), {0: exc}
        finally:
            self._finished[batch].release()

    def _run(self, batch: int) -> tuple[bytes, dict[int, OSError]]:
        start, end = self._batches[batch]
        item = self._items[start]
        if callable(item):
            return self._call(batch, item)
        paths: list[bytes] = self._items[start:end]
        out, errors = hash_paths(paths, self._control)
        return out, {i: _os_error(e, paths[i]) for i, e in enumerate(errors) if e}

    def batches(self, wait: Callable[[], None] | None = None) -> Iterator[tuple[int, bytes, dict[int, OSError]]]:
        """The batches in order; `wait` runs every 0.1 s while the next is not ready."""
        if not self._started:
            self._started = True
            for _ in range(self._workers):
                start_new_thread(self._work, ())
        try:
            for batch, (start, _) in enumerate(self._batches):
                lock = self._done[batch]
                # A timeout, so that Ctrl-C and `wait` get their turn on every platform.
                while not lock.acquire(timeout=0.1):
                    if wait is not None:
                        wait()
                result = self._results[batch]
                self._results[batch] = None
                if isinstance(result, BaseException):
                    raise result
                yield (start, *result)
        finally:
            self.cancel()  # whatever is still running stops at its next read

    def results(self, wait: Callable[[], None] | None = None) -> Iterator[tuple[int, bytes | OSError]]:
        for start, digests, failed in self.batches(wait):
            for i in range(len(digests) // 32):
                yield start + i, failed[i] if i in failed else digests[32 * i : 32 * i + 32]


def _batch_size(left: int, total: int, workers: int) -> int:
    """The next batch's size, with `left` of `total` files from its start on. Large enough that a
    call's large files share the lanes (measured on a tree of 38,763 files, 2 GB, Sapphire Rapids,
    two workers: batches of 64 files took 0.80 s, of 512 0.78 s, of 4,096 0.67 s); shrinking
    towards the end (a quarter of what is left per worker), so the workers finish together; but a
    lane set each (16 files) or an even share of a short list, which no shrinking splits further."""
    return max(1, min(BATCH, left // (4 * workers)), min(MIN_BATCH, total // workers))


def _os_error(errno: int, path: bytes) -> OSError:
    return OSError(errno, os.strerror(errno), os.fsdecode(path))


BATCH = 4096
MIN_BATCH = 16  # a worker's batch holds at least this many files (one per lane of the widest kernel)
