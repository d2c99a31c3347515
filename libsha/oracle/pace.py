"""Time limits that follow the candidate: a case may take FACTOR times what its length predicts
at the candidate's measured speed, and never less than the floor (--timeout).

The speed is the one measured on the longest case so far (at least MEASURED bytes: shorter cases
time the call overhead, not the hashing). Before any such case, a length is assumed to go at
SLOWEST; the large suite starts with a 16 MiB case for this, so each gigabyte case has a limit
from a measured speed, and a slow but correct candidate (50 MB/s: minutes for 5 GiB) is not
called a hang while a real hang is still caught in bounded time.
"""

from __future__ import annotations

FACTOR = 5.0
MEASURED = 1 << 16
SLOWEST = 1e6  # bytes per second, assumed before anything long was timed

RULE = (f"each case may take {FACTOR:g} times what its length predicts at the candidate's measured speed "
        f"(timed on its longest case so far; the large suite first times 16 MiB), and at least --timeout")


class Pace:
    def __init__(self, floor: float) -> None:
        self.floor = floor
        self.rate = 0.0  # bytes per second; 0 until a long case was timed
        self.longest = 0

    def limit(self, length: int) -> float:
        """Seconds after which a case of this many bytes is a hang."""
        if self.rate:
            return max(self.floor, FACTOR * length / self.rate)
        return self.floor + length / SLOWEST

    def observe(self, length: int, seconds: float) -> None:
        if length >= max(MEASURED, self.longest) and seconds > 0:
            self.rate, self.longest = length / seconds, length

    def describe(self) -> str:
        return f"{self.rate / 1e6:.0f} MB/s" if self.rate else "not measured"
