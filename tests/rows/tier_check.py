"""Correctness checks for whatever implementation detection picks, printed as JSON.

Run as a script, often under qemu-x86_64 -cpu MODEL by test_cpu_tiers.py, to check the tiers this
machine's CPU is not: what detection picks there, that the rest are refused, and that every row
the model runs reaches each of its kernels without an instruction the model lacks. The kernels'
sweeps are tests/c/test_libsha.c's (the same code on this CPU); here, per row, what reaches every
kernel: the NIST short and long messages, every length 0..300, SHA256D64 for 0..17 and 33 blobs,
streaming split across block borders, many messages (17 at once in every lane position at lengths
around a block, of one length, and a seeded mixed batch, with and without double), many streams at
once (update_many), Merkle roots, batches after a prefix and under an HMAC key, saved states.
"""

import hashlib
import hmac
import os
import json
import random
import sys

import libsha

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/, for support/
from support.data import pattern251  # noqa: E402
from libsha.reference.nist import messages


def d64_expected(data):
    return b"".join(hashlib.sha256(hashlib.sha256(data[i : i + 64]).digest()).digest() for i in range(0, len(data), 64))


def check_active(failures):
    count = 0
    for name in ("SHA256ShortMsg.rsp", "SHA256LongMsg.rsp"):
        for message, digest in messages(name):
            count += 1
            if libsha.sha256_digest(message) != digest:
                failures.append(f"{libsha.dispatch.implementation()} {name} len {len(message)}")
    data = pattern251(64 * 1024, 3)
    for blobs in list(range(18)) + [33]:
        count += 1
        if libsha.sha256d64(data[: 64 * blobs]) != d64_expected(data[: 64 * blobs]):
            failures.append(f"{libsha.dispatch.implementation()} d64 {blobs}")
    for n in range(301):
        count += 1
        if libsha.sha256_digest(data[:n]) != hashlib.sha256(data[:n]).digest():
            failures.append(f"{libsha.dispatch.implementation()} one-shot len {n}")
    for n in range(0, 200, 3):
        for cut in (0, n // 2, n):
            count += 1
            h = libsha.sha256(data[:cut])
            h.update(data[cut:n])
            if h.digest() != hashlib.sha256(data[:n]).digest():
                failures.append(f"{libsha.dispatch.implementation()} split {n}/{cut}")
    for double in (False, True):
        digest = (lambda m: hashlib.sha256(hashlib.sha256(m).digest()).digest()) if double else \
            (lambda m: hashlib.sha256(m).digest())
        batches = [[data[331 * i : 331 * i + (length if i == position else (length * 7 + i * 53) % 301)]
                    for i in range(17)] for length in (0, 1, 55, 56, 64, 65, 119, 300) for position in (0, 7, 16)]
        batches += [[data[i : i + length] for i in range(17)] for length in (0, 64, 100)]  # one length
        rng = random.Random(20261130)  # fixed: the tier's failures must replay
        batches.append([data[rng.randrange(999) :][: rng.choice((0, rng.randrange(5001), 10240))] for _ in range(40)])
        for batch in batches:
            count += 1
            if libsha.sha256_many(batch, double=double) != [digest(m) for m in batch]:
                failures.append(f"{libsha.dispatch.implementation()} many double={double} lengths {[len(m) for m in batch]}")
    rng = random.Random(20261201)  # many streams at once: 20 (past the widest lanes), uneven chunks
    ours, theirs = [libsha.sha256() for _ in range(20)], [hashlib.sha256() for _ in range(20)]
    for round_ in range(6):
        chunks = [data[rng.randrange(999) :][: rng.choice((64, 64 * rng.randrange(40), rng.randrange(3000)))]
                  for _ in ours]
        libsha.update_many(ours, chunks)
        for h, chunk in zip(theirs, chunks):
            h.update(chunk)
    count += 1
    if [h.digest() for h in ours] != [h.digest() for h in theirs]:
        failures.append(f"{libsha.dispatch.implementation()} update_many")
    for prefix in (b"", data[5:69], data[7:107]):  # batches from a context: block-aligned and not; HMAC keys
        key = prefix[:90]
        for batch in batches[:-1]:
            count += 2
            if libsha.sha256_many(batch, prefix=prefix) != [hashlib.sha256(prefix + m).digest() for m in batch]:
                failures.append(f"{libsha.dispatch.implementation()} after a {len(prefix)}-byte prefix {[len(m) for m in batch]}")
            if libsha.hmac_sha256_many(key, batch) != [hmac.digest(key, m, "sha256") for m in batch]:
                failures.append(f"{libsha.dispatch.implementation()} HMAC batch key {len(key)} {[len(m) for m in batch]}")
    for n in (0, 63, 64, 65, 300):  # saved states, resumed
        count += 1
        if libsha.sha256.from_state(libsha.sha256(data[:n]).state()).digest() != hashlib.sha256(data[:n]).digest():
            failures.append(f"{libsha.dispatch.implementation()} state {n}")
    for n, dklen in ((1, 32), (1, 100), (3, 64), (19, 40)):  # key derivation: one chain, a key's blocks, many keys
        count += 1
        passwords = [data[i : i + 7 + 13 * i] for i in range(n)]
        if libsha.pbkdf2_hmac_many("sha256", passwords, data[:20], 30, dklen) != \
                [hashlib.pbkdf2_hmac("sha256", p, data[:20], 30, dklen) for p in passwords]:
            failures.append(f"{libsha.dispatch.implementation()} pbkdf2 {n} keys of {dklen} bytes")
    count += 1
    if libsha.hkdf(data[:40], 100, data[40:60], data[60:70]) != libsha.reference.hkdf(data[:40], data[40:60], data[60:70], 100):
        failures.append(f"{libsha.dispatch.implementation()} hkdf")
    leaves = [data[32 * i : 32 * i + 32] for i in range(600)]
    for n in (0, 1, 2, 3, 255, 256, 257, 600):
        count += 1
        if libsha.merkle_root(leaves[:n]) != merkle_expected(leaves[:n]):
            failures.append(f"{libsha.dispatch.implementation()} merkle {n}")
    return count


def merkle_expected(leaves):
    from libsha.reference import merkle_root

    return merkle_root(leaves, lambda pair: hashlib.sha256(hashlib.sha256(pair).digest()).digest())


def main():
    failures = []
    detected = libsha.dispatch.implementation()
    checks = check_active(failures)
    refused = []
    for impl in libsha.dispatch.implementations():
        try:
            with libsha.dispatch.using(impl.name):
                checks += check_active(failures)
        except ValueError:
            refused.append(impl.name)
            if impl.runnable:
                failures.append(f"{impl.name} refused but listed runnable")
    # The pure decision on what detection read there: the row it names is the one first use took.
    decided = libsha.dispatch.implementation_for(libsha.dispatch.cpu_features(), libsha.dispatch.cpu_tuning())
    print(json.dumps({"detected": detected, "decided": decided, "features": libsha.dispatch.cpu_features(),
                      "model": libsha.dispatch.cpu_model(), "checks": checks, "refused": refused,
                      "failures": failures}))


if __name__ == "__main__":
    main()
