"""Progress on stderr: only on a terminal, and only once a run has taken two seconds."""

import sys
import time


class Progress:
    def __init__(self, total, stream=None, delay_s=2.0):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.total, self.delay_s, self.start = total, delay_s, time.monotonic()
        self.shown = False

    def update(self, done, title):
        if self.enabled and time.monotonic() - self.start >= self.delay_s:
            self.stream.write(f"\r\x1b[2K[{done + 1}/{self.total}, {self.total - done - 1} left] {title}")
            self.stream.flush()
            self.shown = True

    def close(self):
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
