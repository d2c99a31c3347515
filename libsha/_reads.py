"""Reading a file object in large chunks while the last one is worked on: sha256_file's reads of a
file object and every tree over a file (_trees/file_blocks.py) go through read_ahead."""

from __future__ import annotations

from _thread import allocate_lock, start_new_thread

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator


def held_lock() -> Any:
    """A lock already taken: its release tells a waiter that something is done."""
    lock = allocate_lock()
    lock.acquire()
    return lock


def read_ahead(readinto: Callable[[Any], int | None], size: int) -> Iterator[memoryview]:
    """The file's bytes in chunks of `size` (the last one shorter, possibly empty: never yielded), the
    next one read on a second thread while the caller works on this one (both release the GIL).

    Each chunk is read until it is full or a read gives nothing, so a short chunk is the end: a file
    that grows meanwhile gives the bytes read up to there, never a chunk cut short in its middle.
    A chunk's view is valid until the next one is asked for; reading stops with the generator."""
    views = [memoryview(bytearray(size))]  # the second once the first is full: a small file needs one
    filled: list[Any] = [None]
    done = held_lock()

    def read(index: int) -> None:
        try:
            filled[0] = fill_view(readinto, views[index])
        except BaseException as exc:  # handed to the caller's thread below
            filled[0] = exc
        done.release()

    n, index = fill_view(readinto, views[0]), 0
    while n:
        more = n == size
        if more:
            if len(views) == 1:
                views.append(memoryview(bytearray(size)))
            start_new_thread(read, (1 - index,))
        try:
            yield views[index][:n]
        finally:
            if more:
                done.acquire()  # no read left running into a file its caller may close
        if not more:
            return
        if isinstance(filled[0], BaseException):
            raise filled[0]
        n, index = filled[0], 1 - index


def fill_view(readinto: Callable[[Any], int | None], view: memoryview) -> int:
    """Reads into view until it is full or a read gives nothing (None: a non-blocking file with no
    data yet counts as nothing, as sha256_file always took it); the bytes read."""
    n = 0
    while n < len(view):
        got = readinto(view[n:])
        if not got:
            break
        n += got
    return n

