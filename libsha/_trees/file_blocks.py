"""A file's blocks for the trees over files (BEP 52's, fs-verity's, dm-verity's): read, never
mapped, so a file cut short by another process meanwhile gives the tree of the bytes read or an
error, never SIGBUS. One thread reads as sha256_file reads a file object (large reads, the next
one on a second thread while this one is hashed); several each read a chunk of their own at its
offset and hash it while it is still in their core's cache."""

from __future__ import annotations

import ctypes
import os
import stat

from .._errors import check
from .._reads import fill_view, read_ahead
from .._threads import on_workers

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

# One thread's read: 4 MiB keeps both buffers in the caches. Several threads' chunks: 1 MiB, so a
# chunk is hashed from the core's own cache where the read left it; but at least LANE_BLOCKS blocks,
# so that large blocks (Glacier's 1 MiB) still fill the lanes of one call.
CHUNK = 4 << 20
THREAD_CHUNK = 1 << 20
LANE_BLOCKS = 4


def file_leaves(path: Any, block: int, leaves_of: Callable[[int, int, int], int], workers: int, what: str,
                *, partial: bool = True, limit: int | None = None) -> tuple[bytes, int]:
    """(the leaves end to end, the bytes read) of the file at path, at most `limit` bytes of it:
    leaves_of(out, data, nbytes) writes the digests of nbytes at address data to address out and
    returns libsha's code; nbytes is whole blocks but for the file's end, whose short block has a leaf
    where `partial` (fs-verity's, BEP 52's) and none where not (dm-verity's). A file that shrinks or
    grows meanwhile gives the leaves of its bytes up to the first read that came back short. A
    directory, a vanished file or a failed read raise OSError naming the file."""
    with open(path, "rb", buffering=0) as f:
        try:
            st = os.fstat(f.fileno())
            expect = st.st_size if stat.S_ISREG(st.st_mode) else None  # (a block device's size reads as 0)
            small = expect is not None and expect < THREAD_CHUNK
            seekable = stat.S_ISREG(st.st_mode) or stat.S_ISBLK(st.st_mode)
            if workers > 1 and hasattr(os, "preadv") and seekable and not small:
                return _in_parallel(f.fileno(), block, leaves_of, workers, what, partial, limit)
            if expect is not None and expect < block:
                once = _at_once(f.readinto, expect, leaves_of, what, partial, limit, block)
                if once is not None:
                    return once
                f.seek(0)  # it grew past its block meanwhile: read it as a large file
            return _in_turn(f.readinto, block, leaves_of, what, partial, limit, expect)
        except OSError as exc:
            if exc.filename is None:  # a read's error names no file: this one
                raise OSError(exc.errno, exc.strerror, os.fsdecode(path)) from exc
            raise


def _blocks(nbytes: int, block: int, partial: bool) -> int:
    return -(-nbytes // block) if partial else nbytes // block


def _whole_blocks(size: int, block: int, least: int = 1) -> int:
    """A read of about `size` bytes as whole blocks, at least `least` of them: a block that is no
    power of two (an IPFS chunk's size may be any) never straddles two reads."""
    return max(size // block, least) * block


def _at_once(readinto: Any, expect: int, leaves_of: Callable[[int, int, int], int], what: str, partial: bool,
             limit: int | None, block: int) -> tuple[bytes, int] | None:
    """A file of less than one block in one read of its size (a directory of many small files pays
    no large buffers); None if it grew to fill the read, and so may be larger than a block now."""
    buffer = bytearray(expect + 1)
    nbytes = fill_view(readinto, memoryview(buffer))
    if nbytes > expect:
        return None
    nbytes = nbytes if limit is None else min(nbytes, limit)
    room = ctypes.create_string_buffer(32)
    check(leaves_of(ctypes.addressof(room), ctypes.addressof(ctypes.c_char.from_buffer(buffer)), nbytes), what)
    return room.raw[: 32 * _blocks(nbytes, block, partial)], nbytes


def _in_turn(readinto: Any, block: int, leaves_of: Callable[[int, int, int], int], what: str, partial: bool,
             limit: int | None, expect: int | None = None) -> tuple[bytes, int]:
    # reads of the file's size if it is smaller than CHUNK (whole blocks): a file that grows meanwhile
    # is still read to its end, a read at a time
    chunk = _whole_blocks(CHUNK if expect is None else min(CHUNK, expect + 1), block)
    room = ctypes.create_string_buffer(32 * (chunk // block))
    out = ctypes.addressof(room)
    parts: list[bytes] = []
    total = 0
    for view in read_ahead(readinto, chunk):
        nbytes = len(view) if limit is None else min(len(view), limit - total)
        check(leaves_of(out, ctypes.addressof(ctypes.c_char.from_buffer(view)), nbytes), what)
        parts.append(room.raw[: 32 * _blocks(nbytes, block, partial)])
        total += nbytes
        if limit is not None and total >= limit:
            break
    return b"".join(parts), total


def _in_parallel(fd: int, block: int, leaves_of: Callable[[int, int, int], int], workers: int, what: str,
                 partial: bool, limit: int | None) -> tuple[bytes, int]:
    """Chunk i is bytes [i * chunk, ...) read with preadv by whichever worker takes it; the chunks
    are taken in order, so the first short one (the file's end) bounds those still taken."""
    from threading import Lock

    chunk = _whole_blocks(THREAD_CHUNK, block, LANE_BLOCKS)
    taken = Lock()
    state = {"next": 0, "end": -1}  # the next chunk to take; the first short chunk's index, once read
    done: dict[int, tuple[bytes, int]] = {}

    codes: list[int] = []
    errors: list[BaseException] = []

    def work() -> None:  # each worker with its own buffers, taking chunks until the end
        try:
            codes.append(take_chunks(memoryview(bytearray(chunk)), ctypes.create_string_buffer(32 * (chunk // block))))
        except BaseException as exc:  # raised in the calling thread, once every worker is done
            with taken:
                state["end"] = 0  # the other workers stop at their next chunk
            errors.append(exc)

    def take_chunks(view: memoryview, room: Any) -> int:
        data = ctypes.addressof(ctypes.c_char.from_buffer(view))
        while True:
            with taken:
                i = state["next"]
                if 0 <= state["end"] < i:
                    return 0
                state["next"] = i + 1
            at = i * chunk
            want = chunk if limit is None else max(0, min(chunk, limit - at))
            nbytes = 0
            while nbytes < want:
                got = os.preadv(fd, [view[nbytes:want]], at + nbytes)
                if not got:
                    break
                nbytes += got
            code: int = leaves_of(ctypes.addressof(room), data, nbytes)
            if code:
                with taken:
                    state["end"] = 0
                return code
            done[i] = (room.raw[: 32 * _blocks(nbytes, block, partial)], nbytes)
            if nbytes < chunk:
                with taken:
                    state["end"] = i if state["end"] < 0 else min(state["end"], i)
                return 0

    on_workers(work, workers, errors, codes, what)
    parts, total = [], 0
    for i in range(state["end"] + 1):
        leaves, nbytes = done[i]
        parts.append(leaves)
        total += nbytes
    return b"".join(parts), total
