"""libsha's Python objects and calls shared by threads with no GIL: run by
tests/one_message/test_free_threading.py under a free-threaded CPython, in its own process, on the
binding path LIBSHA_BINDING names.

Threads start together on a barrier so that they really overlap: the library's first load, the CPU
feature table, one sha256 object fed, copied and digested by many threads, HMAC objects, the one-shots,
update_many on shared objects. Then, for LIBSHA_STRESS_SECONDS (default 10), THREADS threads run a
mix of all of it at once (batches with threads=, HMAC, tagged hashes, hmac.new over libsha.sha256)
while one more switches the implementation back and forth. Every result is checked against hashlib;
the first wrong one, or any exception, exits non-zero.
"""

import hashlib
import hmac
import os
import random
import sys
import threading
import time

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


def tagged(tag, message):
    block = hashlib.sha256(tag).digest() * 2
    return hashlib.sha256(block + message).digest()


def shared_objects(libsha, rng):
    """One object fed the same pieces by every thread, copied and digested meanwhile. Each piece
    repeats one 13-byte unit, so any order of whole updates gives one digest, and a torn or lost
    update does not."""
    unit = rng.randbytes(13)
    pieces = [unit * rng.choice((rng.randrange(1, 5), rng.randrange(40), rng.randrange(400))) for _ in range(60)]
    for start in (b"", rng.randbytes(100), rng.randbytes(70000)):
        shared = libsha.sha256(start)
        seen = []

        def feed(index, shared=shared, seen=seen):
            for n, piece in enumerate(pieces):
                shared.update(piece if n % 3 else bytearray(piece))
                if n % 7 == index % 7:
                    seen.append(len(shared.copy().digest()) + len(shared.hexdigest()) + len(shared.state()))
            return True

        together(feed)
        assert len(set(seen)) == 1, "a digest, copy or state during updates"
        want = hashlib.sha256(start + b"".join(pieces) * THREADS).digest()
        assert shared.digest() == want and shared.digest() == want, "shared object"
    return unit, pieces


def shared_streams(libsha, rng, unit, pieces):
    """update_many over shared objects: every thread passes the same five, each in its own order
    (their locks are taken in one order, or this deadlocks), odd threads also update one alone."""
    seed = rng.randrange(1 << 32)
    group = [libsha.sha256(rng.randbytes(n)) for n in (0, 10, 100, 1000, 70000)]
    firsts = [g.copy() for g in group]

    def many(index):
        r = random.Random(seed + index)
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
        firsts[k].update(b"".join(pieces) * THREADS + unit * alone[k])
        assert g.digest() == firsts[k].digest(), f"update_many on shared objects ({k})"


def mixed(libsha, seed, deadline, counts):
    """Each thread's loop until the deadline: every call kind on fresh data, checked at once. Two
    objects are shared by all of them, fed runs of one unit (so any order of whole updates gives
    one digest), and checked at the end."""
    r0 = random.Random(seed)
    key, unit = r0.randbytes(100), r0.randbytes(11)
    sha_shared, mac_shared = libsha.sha256(), libsha.hmac_new(key)
    fed = {"sha": [], "mac": []}  # units each update gave them (list.append is atomic)
    # A tree's nodes that some threads grow and shrink while others read them a slice at a time.
    shared_nodes = [r0.randbytes(32) for _ in range(10_000)]
    from libsha import rfc6962, ssz

    def loop(index):
        r = random.Random(seed + 1 + index)
        done = 0
        while time.monotonic() < deadline:
            kind = r.randrange(11)
            m = r.randbytes(r.choice((r.randrange(64), r.randrange(1100), r.randrange(9000))))
            if kind == 0:
                assert libsha.sha256_digest(m) == hashlib.sha256(m).digest(), "sha256_digest"
            elif kind == 1:
                h, g = libsha.sha256(), hashlib.sha256()
                for part in (m[: len(m) // 3], m[len(m) // 3 :]):
                    h.update(part)
                    g.update(part)
                    assert h.copy().digest() == g.digest(), "copy mid-update"
                assert h.hexdigest() == g.hexdigest(), "object"
            elif kind == 2:
                msgs = [r.randbytes(r.randrange(1200)) for _ in range(r.choice((3, 300, 5000)))]
                got = libsha.sha256_many(msgs, threads=r.choice((1, 2, 3)))
                assert got == [hashlib.sha256(x).digest() for x in msgs], "sha256_many(threads=)"
            elif kind == 3:
                msgs = [r.randbytes(r.randrange(300)) for _ in range(r.choice((5, 700)))]
                got = libsha.hmac_sha256_many(key, msgs, threads=2)
                assert got == [hmac.digest(key, x, "sha256") for x in msgs], "hmac_sha256_many"
            elif kind == 4:
                assert libsha.hmac_sha256(key, m) == hmac.digest(key, m, "sha256"), "hmac_sha256"
                assert hmac.new(key, m, libsha.sha256).digest() == hmac.digest(key, m, "sha256"), "hmac.new"
            elif kind == 5:
                tag = b"BIP0340/challenge" if r.randrange(2) else r.randbytes(8)
                msgs = [r.randbytes(32) for _ in range(r.choice((2, 4100)))]
                assert libsha.tagged_hash_many(tag, msgs) == [tagged(tag, x) for x in msgs], "tagged_hash_many"
            elif kind == 6:
                units = r.choice((1, 30, 400))  # 400 units: past the size that releases the GIL
                sha_shared.update(unit * units)
                fed["sha"].append(units)
                assert len(sha_shared.copy().digest()) == 32 and len(sha_shared.state()) > 32
            elif kind == 7:
                units = r.choice((1, 30, 400))
                mac_shared.update(unit * units)
                fed["mac"].append(units)
                assert len(mac_shared.copy().hexdigest()) == 64
            elif kind == 9:
                chunks = [r.randbytes(32) for _ in range(r.choice((5, 4100, 9000)))]
                joined = b"".join(chunks)
                assert ssz.merkleize(chunks) == ssz.merkleize(joined), "ssz.merkleize(list)"
                assert libsha.merkle_root(chunks) == libsha.merkle_root(joined), "merkle_root(list)"
            elif kind == 10:
                if r.randrange(2):
                    for _ in range(200):
                        shared_nodes.append(r.randbytes(32))
                    for _ in range(200):
                        shared_nodes.pop()
                else:  # a root of some state of the list: no crash, and its size
                    assert len(rfc6962.root(shared_nodes)) == 32 and len(libsha.merkle_root(shared_nodes)[0]) == 32
            else:
                a, b = libsha.sha256(m[:7]), libsha.sha256(m[:9])
                libsha.update_many([a, b], [m, m])
                assert a.digest() == hashlib.sha256(m[:7] + m).digest(), "update_many"
                assert b.digest() == hashlib.sha256(m[:9] + m).digest(), "update_many"
            done += 1
        return done

    counts["calls"] = sum(together(loop))
    assert sha_shared.digest() == hashlib.sha256(unit * sum(fed["sha"])).digest(), "the shared object"
    assert mac_shared.digest() == hmac.digest(key, unit * sum(fed["mac"]), "sha256"), "the shared HMAC"


def switcher(dispatch, deadline, counts):
    """Switches the implementation back and forth among the runnable ones until the deadline."""
    names = [i.name for i in dispatch.implementations() if i.runnable]
    n = 0
    while time.monotonic() < deadline:
        with dispatch.using(names[n % len(names)]):
            time.sleep(0.002)
        n += 1
    counts["switches"] = n


def main():
    assert not sys._is_gil_enabled(), "this interpreter runs with the GIL: not a free-threaded check"
    seed = int(os.environ.get("LIBSHA_STRESS_SEED") or random.randrange(1 << 32))
    seconds = float(os.environ.get("LIBSHA_STRESS_SECONDS", "10"))
    print(f"seed {seed} (LIBSHA_STRESS_SEED repeats it)", flush=True)
    rng = random.Random(seed)
    import libsha
    from libsha import dispatch

    # The first use of the library, from every thread at once.
    messages = [rng.randbytes(rng.randrange(3000)) for _ in range(THREADS)]
    got = together(lambda i: libsha.sha256_digest(messages[i]))
    assert got == [hashlib.sha256(m).digest() for m in messages], "first-use one-shots"
    tables = together(lambda i: dict(dispatch.CPU_FEATURES))
    assert all(t == tables[0] and t for t in tables), "CPU feature tables"
    assert not sys._is_gil_enabled(), "importing libsha switched the GIL back on"

    unit, pieces = shared_objects(libsha, rng)
    shared_streams(libsha, rng, unit, pieces)

    # HMAC: one object shared, then the one-shot from every thread.
    key = rng.randbytes(100)
    mac = libsha.hmac_new(key)
    together(lambda i: [mac.update(p) for p in pieces[:20]])
    assert mac.digest() == hmac.new(key, b"".join(pieces[:20]) * THREADS, "sha256").digest(), "shared HMAC"
    macs = together(lambda i: libsha.hmac_sha256(key, messages[i]))
    assert macs == [hmac.digest(key, m, "sha256") for m in messages], "HMAC one-shots"

    # Everything at once for a while, with the implementation switching under it.
    counts = {}
    deadline = time.monotonic() + seconds
    switching = threading.Thread(target=switcher, args=(dispatch, deadline, counts))
    switching.start()
    mixed(libsha, seed, deadline, counts)
    switching.join()
    assert not sys._is_gil_enabled(), "the GIL came back on"
    print(f"free-threaded: {THREADS} threads for {seconds:g} s on {dispatch.binding(build=True)}, "
          f"{counts['calls']} calls checked, {counts['switches']} implementation switches: every digest right")


if __name__ == "__main__":
    main()
