"""libsha.oracle: a differential checker for anyone's SHA-256.

    python -m libsha.oracle --library libfoo.so --symbol foo_sha256 --args out,data,len
    python -m libsha.oracle --command 'sha256sum'
    python -m libsha.oracle --callable mymodule:sha256
    python -m libsha.oracle --object hashlib:sha256

After a usage check ("" and "abc": a wrong call shape is exit status 2 with a hint, usage.py), it
runs suites of inputs where implementations break (NIST vectors, every length across the padding
borders, split points, alignments, guard pages, D64 lanes, seeded random cases, gigabytes) on the
candidate in a child process, within time limits that follow its measured speed (pace.py), and
shrinks each failure to the smallest case it can find, with a pytest test that reproduces it
where it failed (reproduce.py).

The modules: cli (options), spec and shapes (what the candidate is and how it is called),
candidate (loading and calling it, in the child), runner (the child process, limits), usage,
suites, check (running and shrinking), results (what a run found), report and reproduce (the text), command_output (a
command's digest line), pace (time limits).
"""

from .cli import main

__all__ = ["main"]
