"""How many CPUs this process may run on, and the one rule for `threads=` and `jobs=` worker counts."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The CPUs this process may use (its affinity mask, where the OS has one: a container or
    `taskset` gives fewer than os.cpu_count() says), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows
        return os.cpu_count() or 1


def worker_count(value: object, name: str) -> int:
    """The worker count a `threads=` or `jobs=` argument asks for: N, or 0 for usable_cpus().
    One rule for both: not an int (True included) is a TypeError, a negative one a ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{name} must be 0 (one per CPU this process may use) or more, not {value}")
    return value or usable_cpus()
