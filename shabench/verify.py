"""shabench verify: the oracle checks on every implementation this machine runs."""

import hashlib
import os
import random

from tabulate import tabulate

import libsha
from libsha import reference
from libsha.reference import nist


def _nist(name):
    def check(rng):
        return all(libsha.sha256_digest(m) == d for m, d in nist.messages(name))

    return check


def _monte(rng):
    seed, expected = nist.monte()
    return nist.monte_checkpoints(libsha.sha256_digest, seed, len(expected)) == expected


def _random_messages(rng):
    for n in list(range(0, 300)) + [rng.randrange(300, 70000) for _ in range(20)]:
        m = rng.randbytes(n)
        if libsha.sha256_digest(m) != hashlib.sha256(m).digest():
            return False
    # The reference is slow: a few lengths around block borders.
    return all(libsha.sha256_digest(m) == reference.sha256(m) for m in (rng.randbytes(n) for n in (0, 55, 56, 64, 119, 200)))


def _streaming(rng):
    data = rng.randbytes(300)
    for n in range(0, 301, 7):
        for k in range(0, n + 1, 5):
            h = libsha.sha256(data[:k])
            h.update(data[k:n])
            if h.digest() != hashlib.sha256(data[:n]).digest():
                return False
    return True


def _d64_tails(rng):
    data = rng.randbytes(64 * 1024)
    for blobs in list(range(41)) + [1024]:
        chunk = data[: 64 * blobs]
        expected = b"".join(hashlib.sha256(hashlib.sha256(chunk[i:i + 64]).digest()).digest()
                            for i in range(0, len(chunk), 64))
        if libsha.sha256d64(chunk) != expected:
            return False
    return True


CHECKS = [
    ("NIST short", _nist("SHA256ShortMsg.rsp")),
    ("NIST long", _nist("SHA256LongMsg.rsp")),
    ("NIST Monte", _monte),
    ("random vs hashlib+reference", _random_messages),
    ("streaming splits", _streaming),
    ("SHA256D64 0..40, 1024", _d64_tails),
]


def new_seed():
    """A seed for the random checks: SHABENCH_SEED if set (to replay a run), else a fresh one."""
    return int(os.environ.get("SHABENCH_SEED", random.randrange(1 << 32)))


def verify(implementations, seed):
    """Returns (table text, all passed). Every implementation gets the same random data from seed."""
    body, passed = [], True
    for name in implementations:
        with libsha.dispatch.using(name):
            results = []
            for _, check in CHECKS:
                try:
                    ok = bool(check(random.Random(seed)))
                except Exception as exc:  # a crash in a check is a failure to report, not to hide
                    ok = False
                    results.append(f"FAIL ({type(exc).__name__})")
                    continue
                results.append("OK" if ok else "FAIL")
        passed &= all(r == "OK" for r in results)
        body.append([f"`{name}`"] + results)
    text = tabulate(body, headers=["implementation"] + [c for c, _ in CHECKS], tablefmt="pipe", disable_numparse=True)
    return text, passed
