"""How many CPUs this process may run on: what `threads=0` and `jobs=0` mean."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The CPUs this process may use (its affinity mask, where the OS has one: a container or
    `taskset` gives fewer than os.cpu_count() says), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows
        return os.cpu_count() or 1
