"""sha256_many(threads=) over a list, an Arrow column and numpy rows, against hashlib.

Run as a script by tools/sanitize.sh with a libsha built with -fsanitize=thread
(LIBSHA_LIBRARY) and the TSan runtime preloaded: the worker threads hash parts
of one batch into one output at once, which TSan checks for races. Exits
non-zero on a wrong digest; TSan aborts on a report (halt_on_error=1).
"""

import hashlib
import random

import libsha


def main():
    rng = random.Random(20261130)
    messages = [rng.randbytes(rng.choice((0, rng.randrange(64), rng.randrange(1500)))) for _ in range(20000)]
    expected = [hashlib.sha256(m).digest() for m in messages]
    doubled = [hashlib.sha256(d).digest() for d in expected]
    checks = 0
    for threads in (2, 3):
        assert libsha.sha256_many(messages, threads=threads) == expected, f"list, threads={threads}"
        assert libsha.sha256_many(messages, threads=threads, double=True) == doubled, f"list double, threads={threads}"
        checks += 2
    try:
        import numpy
        import pyarrow
    except ImportError:
        print("numpy or pyarrow missing: the list only")
    else:
        column = pyarrow.array(messages, pyarrow.large_binary())
        assert libsha.sha256_many(column, threads=2).to_pylist() == expected, "arrow"
        rows = numpy.frombuffer(rng.randbytes(5000 * 40), numpy.uint8).reshape(5000, 40)
        got = libsha.sha256_many(rows, threads=2)
        assert [bytes(r) for r in got] == [hashlib.sha256(bytes(r)).digest() for r in rows], "numpy"
        checks += 2
    print(f"sha256_many with threads: {checks} batches right on {libsha.implementation()}")


if __name__ == "__main__":
    main()
