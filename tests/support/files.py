"""Files for the file tests: seeded-pattern files of given sizes, their hashlib digests, a FIFO fed
from a thread, and the size up to which the library gathers small files into a batch."""

import contextlib
import hashlib
import os
import re
import threading

from .data import pattern251
from .paths import ROOT


def _small_file():
    """files.c's SMALL_FILE, read from the source: the tests keep no copy of it."""
    text = (ROOT / "libsha" / "src" / "files" / "files.c").read_text()
    factors = re.search(r"#define SMALL_FILE \(([\du *]+)\)", text)[1]
    size = 1
    for factor in factors.split("*"):
        size *= int(factor.strip().rstrip("u"))
    return size


# Files up to this size are read whole and hashed several at once; larger ones take a lane.
SMALL_FILE = _small_file()


def files_of(folder, sizes):
    """A file per size in folder (f0, f1, ...), file i holding pattern251(size, i)."""
    paths = []
    for i, size in enumerate(sizes):
        path = folder / f"f{i}"
        path.write_bytes(pattern251(size, i))
        paths.append(path)
    return paths


def digests_of(paths):
    return [hashlib.sha256(p.read_bytes()).digest() for p in paths]


@contextlib.contextmanager
def fed_fifo(path, payload):
    """A FIFO at path that a thread writes payload into once a reader opens it."""
    os.mkfifo(path)

    def writer():
        with open(path, "wb") as f:
            f.write(payload)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        yield path
    finally:
        thread.join()
