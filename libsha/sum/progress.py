"""`libsha sum`'s progress line on stderr: bytes hashed of the total, and the rate."""

from __future__ import annotations

import os
from time import monotonic

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


class Progress:
    """Shown from `start` seconds on: redrawn in place on a terminal (5 times a second), a line
    every 2 seconds elsewhere; finish() writes the last one. The total is the size of the named
    files (or what `total` gives), looked up only when the line is first shown (a run that ends
    sooner never pays for it)."""

    def __init__(self, stderr: Any, bytes_read: Callable[[], int], paths: list[bytes], start: float,
                 clock: Callable[[], float] = monotonic, total: Callable[[], int] | None = None) -> None:
        self._stderr = stderr
        self._bytes_read = bytes_read
        self._paths = paths
        self._of_total = total
        self._clock = clock
        self._begin = clock()
        self._start = start
        self._total: int | None = None
        self._shown = False
        self._last = float("-inf")
        try:
            self._tty = bool(stderr.isatty())
        except (AttributeError, ValueError):
            self._tty = False

    def tick(self) -> None:
        now = self._clock()
        elapsed = now - self._begin
        if elapsed < self._start or now - self._last < (0.2 if self._tty else 2.0):
            return
        self._last = now
        self._stderr.write("\r\033[K" + self._line(elapsed) if self._tty else self._line(elapsed) + "\n")
        self._stderr.flush()
        self._shown = True

    def finish(self) -> None:
        """The last line, with the totals, whether or not one was shown before (--progress asked)."""
        line = self._line(self._clock() - self._begin)
        self._stderr.write(("\r\033[K" if self._tty else "") + line + "\n")
        self._stderr.flush()
        self._shown = False

    def _line(self, elapsed: float) -> str:
        if self._total is None:
            self._total = self._of_total() if self._of_total else sum(_size(p) for p in self._paths)
        done = self._bytes_read()
        text = _amount(done)
        if self._total:
            text += f" of {_amount(self._total)} ({min(100.0, 100.0 * done / self._total):.0f}%)"
        if elapsed > 0:
            text += f", {_amount(done / elapsed)}/s"
        return text

    def clear(self) -> None:
        """Erases the line on a terminal, before other output."""
        if self._shown and self._tty:
            self._stderr.write("\r\033[K")
            self._stderr.flush()
        self._shown = False


def _size(path: bytes) -> int:
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0


def _amount(n: float) -> str:
    if n < 1024:
        return f"{n:.0f} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024
        if n < 1024 or unit == "GiB":
            break
    return f"{n:.1f} {unit}"
