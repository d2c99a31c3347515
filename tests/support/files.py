"""Files for the file tests: seeded-pattern files of given sizes, their hashlib digests, and a FIFO
fed from a thread."""

import contextlib
import hashlib
import os
import threading

from .data import pattern251


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
