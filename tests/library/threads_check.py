"""sha256_many(threads=) over a list, an Arrow column and numpy rows, sha256_files(jobs=)
over small, mid-sized and deferred large files (these k at a time through update_many, a reader
thread beside each worker), and update_many from threads that each own their hashers, against hashlib.

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
    checks += files(rng)
    checks += streams(rng)
    print(f"sha256_many and sha256_files with threads: {checks} batches right on {libsha.dispatch.implementation()}")


def files(rng):
    """Workers hash batches of files at once, counting bytes into one control struct."""
    import os
    import tempfile

    from libsha import _files

    _files.usable_cpus = lambda: 8  # the workers leave CPUs free: C reads large files ahead in a helper thread
    with tempfile.TemporaryDirectory() as folder:
        paths, expected = [], []
        for i in range(300):
            data = rng.randbytes(rng.choice((rng.randrange(5000), rng.randrange(40000), 1_500_000 + i)))
            path = os.path.join(folder, f"f{i}")
            with open(path, "wb") as f:
                f.write(data)
            paths.append(path)
            expected.append(hashlib.sha256(data).digest())
        for jobs in (1, 2, 3):
            assert libsha.sha256_files(paths, jobs=jobs) == expected, f"files, jobs={jobs}"
    return 3


def streams(rng):
    """Three threads, each updating its own 20 hashers together, round after round."""
    import threading

    chunks = [[rng.randbytes(rng.randrange(3000)) for _ in range(20)] for _ in range(3)]
    wrong = []

    def work(mine):
        hashers = [libsha.sha256() for _ in mine]
        for _ in range(50):
            libsha.update_many(hashers, mine)
        wrong.extend(h.digest() != hashlib.sha256(c * 50).digest() for h, c in zip(hashers, mine))

    threads = [threading.Thread(target=work, args=(c,)) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong and not any(wrong), "update_many from threads"
    return 1


if __name__ == "__main__":
    main()
