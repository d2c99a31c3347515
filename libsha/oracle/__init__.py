"""libsha.oracle: a differential checker for anyone's SHA-256.

    python -m libsha.oracle --library libfoo.so --symbol foo_sha256
    python -m libsha.oracle --command 'sha256sum'
    python -m libsha.oracle --callable mymodule:sha256

It runs suites of inputs where implementations break (NIST vectors, every length across the
padding borders, split points, alignments, guard pages, D64 lanes, seeded random cases) on the
candidate in a child process, compares each digest with the expected one, and shrinks each
suite's first failure to the smallest case it can find, with a pytest snippet that reproduces it.
"""

from .cli import main

__all__ = ["main"]
