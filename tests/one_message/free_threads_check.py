"""libsha's Python objects shared by threads with no GIL: run by tests/one_message/test_free_threading.py under
a free-threaded CPython (3.13t or later), with the installed package on PYTHONPATH.

Threads start together on a barrier so that they really overlap: the library's first load, the
CPU feature table, one sha256 object fed, copied and digested by many threads, HMAC objects, and
the one-shots. Every result is checked against hashlib; exits non-zero on the first wrong one.
"""

import hashlib
import hmac
import random
import sys
import threading

THREADS = 8


def together(target, count=THREADS):
    """Runs target(index) in count threads released at once; returns their results in order."""
    barrier = threading.Barrier(count)
    results = [None] * count
    errors = []

    def run(index):
        barrier.wait()
        try:
            results[index] = target(index)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def main():
    assert not sys._is_gil_enabled(), "this interpreter runs with the GIL: not a free-threaded check"
    seed = random.randrange(1 << 32)
    print(f"seed {seed}")
    rng = random.Random(seed)
    import libsha
    from libsha import dispatch
    from libsha._one import sha256 as _hash

    assert _hash.FREE_THREADED, "libsha did not see that the GIL is off"
    # The first use of the library, from every thread at once.
    messages = [rng.randbytes(rng.randrange(3000)) for _ in range(THREADS)]
    got = together(lambda i: libsha.sha256_digest(messages[i]))
    assert got == [hashlib.sha256(m).digest() for m in messages], "first-use one-shots"
    tables = together(lambda i: dict(dispatch.CPU_FEATURES))
    assert all(t == tables[0] and t for t in tables), "CPU feature tables"
    assert not sys._is_gil_enabled(), "importing libsha switched the GIL back on"

    # One object, fed the same pieces by every thread. Each piece repeats one 13-byte unit (short
    # ones kept in Python, long ones sent to C), so any order of whole updates gives one digest,
    # and a torn or lost update does not.
    unit = rng.randbytes(13)
    pieces = [unit * rng.choice((rng.randrange(1, 5), rng.randrange(40), rng.randrange(400))) for _ in range(60)]
    for start in (b"", rng.randbytes(100), rng.randbytes(70000)):
        shared = libsha.sha256(start)
        seen = []

        def feed(index, shared=shared, seen=seen):
            for n, piece in enumerate(pieces):
                shared.update(piece if n % 3 else bytearray(piece))
                if n % 7 == index % 7:
                    seen.append(len(shared.copy().digest()) + len(shared.hexdigest()))
            return True

        together(feed)
        assert set(seen) == {96}, "a digest or copy during updates"
        assert shared.digest() == hashlib.sha256(start + b"".join(pieces) * THREADS).digest(), "shared object"
        assert shared.digest() == hashlib.sha256(start + b"".join(pieces) * THREADS).digest(), "again"

    # Many objects at once, each in its own thread, through every state the object has.
    def private(index):
        r = random.Random(seed + 1000 + index)
        first = r.randbytes(r.choice((0, 100, 1000, 70000)))
        ours, theirs = libsha.sha256(first), hashlib.sha256(first)
        for _ in range(200):
            piece = r.randbytes(r.choice((r.randrange(64), r.randrange(700), r.randrange(5000))))
            ours.update(piece)
            theirs.update(piece)
            if r.randrange(5) == 0 and ours.digest() != theirs.digest():
                return False
        return ours.copy().hexdigest() == theirs.hexdigest()

    assert all(together(private)), "private objects"

    # update_many over shared objects: every thread passes the same five, each in its own order
    # (their locks are taken in one order, or this deadlocks), odd threads also update one alone.
    group = [libsha.sha256(rng.randbytes(n)) for n in (0, 10, 100, 1000, 70000)]
    firsts = [g._held for g in group]

    def many(index):
        r = random.Random(seed + 2000 + index)
        order = list(range(len(group)))
        for n, piece in enumerate(pieces):
            r.shuffle(order)
            libsha.update_many([group[k] for k in order], [piece] * len(group))
            if index % 2:
                group[n % len(group)].update(unit)
        return True

    together(many)
    alone = [sum(1 for n in range(len(pieces)) if n % len(group) == k) * (THREADS // 2) for k in range(len(group))]
    for k, g in enumerate(group):
        want = hashlib.sha256(firsts[k] + b"".join(pieces) * THREADS + unit * alone[k]).digest()
        assert g.digest() == want, f"update_many on shared objects ({k})"

    # HMAC: one object shared, then the one-shot from every thread.
    key = rng.randbytes(100)
    mac = libsha.hmac_new(key)
    together(lambda i: [mac.update(p) for p in pieces[:20]])
    assert mac.digest() == hmac.new(key, b"".join(pieces[:20]) * THREADS, "sha256").digest(), "shared HMAC"
    macs = together(lambda i: libsha.hmac_sha256(key, messages[i]))
    assert macs == [hmac.digest(key, m, "sha256") for m in messages], "HMAC one-shots"
    print(f"free-threaded: {THREADS} threads at once on {dispatch.implementation()}, every digest right")


if __name__ == "__main__":
    main()
