"""A batch's parts over threads: every batch call that splits its work (the lists and columns of
_many, PBKDF2's keys, BEP 52's leaves, RFC 6962's entries) hands it to run_parts."""

from __future__ import annotations

from ._errors import check

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

# A part of a split batch is worth a thread from about this much work: a
# message's bytes plus a block for its padding and call (1 ms at 0.5 GB/s).
PART_WORK = 512 << 10
# Parts per worker: the workers take parts as they finish, so one held back
# (a vCPU the host wakes late, another process) leaves its share to the others.
PARTS_PER_WORKER = 2


def run_parts(call: Callable[[int, int], int], n: int, workers: int, what: str = "",
              bytes_before: Callable[[int], int] | None = None) -> None:
    """call(first, stop) over [0, n) in contiguous parts of about equal work, on up to `workers` threads.

    Each part is one C call that releases the GIL; the first error is raised.
    bytes_before(i), the bytes of messages 0 .. i - 1, splits a batch by its
    bytes, not its count (without it every message counts as one block). The
    calling thread is one of the workers.
    """
    def work(i: int) -> int:
        return (bytes_before(i) if bytes_before is not None else 0) + 64 * i

    total = work(n)
    workers = max(1, min(workers, n, total // PART_WORK))  # small batches: one call, no threads
    if workers == 1:
        check(call(0, n), what)
        return
    parts = min(n, workers * PARTS_PER_WORKER, max(workers, total // PART_WORK))
    bounds = [0] + [_first_reaching(work, total * k // parts, n) for k in range(1, parts)] + [n]
    from queue import Empty, SimpleQueue

    todo: SimpleQueue[tuple[int, int]] = SimpleQueue()
    for first, stop in zip(bounds[:-1], bounds[1:]):
        if first < stop:
            todo.put((first, stop))
    codes: list[int] = []
    errors: list[BaseException] = []

    def take_parts() -> None:
        try:
            while not errors:
                codes.append(call(*todo.get_nowait()))
        except Empty:
            pass
        except BaseException as exc:  # raised in the calling thread, after every helper is done
            errors.append(exc)

    on_workers(take_parts, workers, errors, codes, what)


def on_workers(work: Callable[[], None], workers: int, errors: list[BaseException], codes: list[int],
               what: str = "") -> None:
    """work() on `workers` threads, the calling thread one of them; once all are done, the first
    exception a worker put in `errors` is raised, then each library code a worker put in `codes`
    is checked."""
    from threading import Thread

    helpers = [Thread(target=work, daemon=True) for _ in range(workers - 1)]
    for helper in helpers:
        helper.start()
    work()
    for helper in helpers:
        helper.join()
    if errors:
        raise errors[0]
    for code in codes:
        check(code, what)


def _first_reaching(work: Callable[[int], int], target: int, n: int) -> int:
    """The least i in [0, n] with work(i) >= target (work grows with i)."""
    low, high = 0, n
    while low < high:
        middle = (low + high) // 2
        if work(middle) < target:
            low = middle + 1
        else:
            high = middle
    return low
