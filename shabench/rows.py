"""A benchmark row, and what rows of every family share: how a runner is labelled, and the
Python loop that times one call per message."""

import hashlib
import ssl
from dataclasses import dataclass
from typing import Any, Callable, Optional

import libsha

MESSAGE_1M = 1_000_000


@dataclass
class Benchmark:
    name: str  # e.g. SHA256_32b
    runner: str  # the implementation, or the peer, that runs it
    unit_bytes: int  # bytes hashed per iteration
    make_run: Optional[Callable[[], Callable[[int], None]]]  # allocates, then returns run(iterations)
    peer: bool = False
    max_epochs: Optional[int] = None  # a cap for rows whose one iteration takes seconds
    left_out: Optional[str] = None  # why this row cannot run here (a peer not installed): listed, not run
    # Measured by interleaved.measurement(row, epochs, min_time_ms), not by make_run: measure.Interleaved (in
    # turn with its other rows) or openssl.PeerProcess (in a child process).
    interleaved: Optional[Any] = None
    group: str = ""  # the catalogue's group (benchmarks.GROUPS), set by the catalogue
    in_default: bool = False  # runs by default though its group does not

    @property
    def title(self):
        if self.peer:
            return f"{self.name} using {self.runner}"
        return f"{self.name} using the '{self.runner}' SHA256 implementation"


def backend(algorithm):
    """Who computes hashlib's `algorithm` here: OpenSSL or CPython's own code."""
    if type(hashlib.new(algorithm)).__module__ == "_hashlib":
        return " ".join(ssl.OPENSSL_VERSION.split(" ")[:2])  # e.g. "OpenSSL 3.0.19"
    return "CPython built-in"


def peer_label(algorithm, how="Python loop"):
    """A hashlib row's runner, e.g. 'hashlib.sha256 (OpenSSL 3.0.19, Python loop)'."""
    return f"hashlib.{algorithm} ({backend(algorithm)}, {how})"


def ours_label(call, how="Python loop", path=True):
    """A libsha Python row's runner, with the implementation active while it runs and, for the calls
    the accelerator makes C methods (path), the path they take: accelerated or ctypes."""
    binding = f"{libsha.dispatch.binding()}, " if path else ""
    return f"{call} ('{libsha.dispatch.implementation()}', {binding}{how})"


# Python loops, ours and the peers' alike: one call per message, on the same
# bytes, as a Python program makes them. They measure what a Python caller
# gets, interpreter and foreign-function call included, not the C kernels.
def python_loop(make_call, size):
    def make():
        call = make_call()
        message = bytes(i % 251 for i in range(size))

        def run(iterations):
            for _ in range(iterations):
                call(message)

        return run

    return make


def hashlib_oneshot(algorithm):
    def make_call():
        new = getattr(hashlib, algorithm)
        return lambda message: new(message).digest()
    return make_call


def timed_on(implementation, call):
    """make() for a row of one C call through ctypes an iteration (a tree of a buffer), on that
    implementation: merkle.py's and verity.py's per-implementation rows."""

    def make():
        call()  # its data made before the clock starts

        def run(iterations):
            with libsha.dispatch.using(implementation):
                for _ in range(iterations):
                    call()

        return run

    return make
