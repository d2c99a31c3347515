"""SHA-256 of files: sha256_file and sha256_files, the functions behind `libsha sum`."""

from __future__ import annotations

import os
import threading

from ._hash import SHA256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Iterable, Union

    PathOrFile = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", BinaryIO]

# Reads of this size go to C whole, the GIL released; two buffers, so the next read overlaps the hash.
CHUNK = 4 << 20


def sha256_file(file: PathOrFile, /) -> bytes:
    """SHA-256 of a file's bytes: a path, or a binary file object open for reading (read from where it is).

    The file is read in chunks of 4 MiB, each hashed in C without the GIL while the next is read.
    A file that grows or shrinks meanwhile gives the digest of the bytes that were read.
    """
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "rb", buffering=0) as f:
            return _digest(f)
    if isinstance(file, (bytes, bytearray, memoryview)):
        raise TypeError("sha256_file takes a path or a binary file object; for bytes use libsha.sha256")
    if not hasattr(file, "readinto") and not hasattr(file, "read"):
        raise TypeError(f"sha256_file takes a path or a binary file object, not {type(file).__name__}")
    return _digest(file)


def _digest(f: Any) -> bytes:
    h = SHA256()
    readinto = getattr(f, "readinto", None)
    if readinto is None:  # a file object without readinto: plain reads
        while chunk := f.read(CHUNK):
            if isinstance(chunk, str):
                raise TypeError("sha256_file needs a binary file (open it with 'rb')")
            h.update(chunk)
        return h.digest()
    buffers = [bytearray(CHUNK), bytearray(CHUNK)]
    views = [memoryview(b) for b in buffers]
    # The reader fills one buffer while the hash of the other runs (both release the GIL).
    filled: list[Any] = [None]
    done = threading.Event()

    def read(index: int) -> None:
        try:
            filled[0] = readinto(views[index])
        except BaseException as exc:  # handed to the caller's thread below
            filled[0] = exc
        done.set()

    n = readinto(views[0])
    index = 0
    while n:
        done.clear()
        reader = threading.Thread(target=read, args=(1 - index,))
        reader.start()
        h.update(views[index][:n])
        reader.join()
        if isinstance(filled[0], BaseException):
            raise filled[0]
        n, index = filled[0], 1 - index
    return h.digest()


def sha256_files(paths: Iterable[PathOrFile], *, jobs: int = 0) -> list[bytes | OSError]:
    """SHA-256 of each file, in order, `jobs` files at a time (0: one per CPU).

    A file that cannot be read gives its OSError in its place; the others are still hashed.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ValueError(f"jobs must be 0 (one per CPU) or more, not {jobs!r}")
    items = list(paths)
    workers = min(jobs or os.cpu_count() or 1, max(len(items), 1))

    def one(item: PathOrFile) -> bytes | OSError:
        try:
            return sha256_file(item)
        except OSError as exc:
            return exc

    if workers == 1:
        return [one(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, items))
