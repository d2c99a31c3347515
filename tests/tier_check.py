"""Correctness checks for whatever implementation detection picks, printed as JSON.

Run as a script, often under qemu-x86_64 -cpu MODEL by test_cpu_tiers.py, to
check the tiers this machine's CPU is not. A representative subset of the
suite: the NIST short and long messages, every length 0..1100, SHA256D64 for 0..40 and 1024 blobs,
streaming with split points across block borders, many messages at once
(every length 0..300, each in a different lane position among nine, and a
seeded batch of 0..5,000 bytes, with and without double), the Merkle root,
and select() of every implementation (runnable ones hash correctly, the
rest are refused).
"""

import hashlib
import json
import random

import libsha
from libsha.reference.nist import messages


def d64_expected(data):
    return b"".join(hashlib.sha256(hashlib.sha256(data[i : i + 64]).digest()).digest() for i in range(0, len(data), 64))


def check_active(failures):
    count = 0
    for name in ("SHA256ShortMsg.rsp", "SHA256LongMsg.rsp"):
        for message, digest in messages(name):
            count += 1
            if libsha.sha256(message) != digest:
                failures.append(f"{libsha.implementation()} {name} len {len(message)}")
    data = bytes((i * 7 + 3) % 251 for i in range(64 * 1024))  # no period a lane mix-up could hide in
    for blobs in list(range(41)) + [1024]:
        count += 1
        if libsha.sha256d64(data[: 64 * blobs]) != d64_expected(data[: 64 * blobs]):
            failures.append(f"{libsha.implementation()} d64 {blobs}")
    for n in range(1101):  # odd and even block counts, for kernels that take blocks in pairs
        count += 1
        if libsha.sha256(data[:n]) != hashlib.sha256(data[:n]).digest():
            failures.append(f"{libsha.implementation()} one-shot len {n}")
    for n in range(0, 200, 3):
        for cut in (0, n // 2, n):
            count += 1
            h = libsha.new(data[:cut])
            h.update(data[cut:n])
            if h.digest() != hashlib.sha256(data[:n]).digest():
                failures.append(f"{libsha.implementation()} split {n}/{cut}")
    for double in (False, True):
        digest = (lambda m: hashlib.sha256(hashlib.sha256(m).digest()).digest()) if double else \
            (lambda m: hashlib.sha256(m).digest())
        batches = [[data[331 * i : 331 * i + (length if i == length % 9 else (length * 7 + i * 53) % 301)]
                    for i in range(9)] for length in range(301)]
        rng = random.Random(20261130)  # fixed: the tier's failures must replay
        batches.append([data[rng.randrange(999) :][: rng.choice((0, rng.randrange(5001), 10240))] for _ in range(40)])
        for batch in batches:
            count += 1
            if libsha.sha256_many(batch, double=double) != [digest(m) for m in batch]:
                failures.append(f"{libsha.implementation()} many double={double} lengths {[len(m) for m in batch]}")
    leaves = [data[32 * i : 32 * i + 32] for i in range(600)]
    for n in (0, 1, 2, 3, 255, 256, 257, 600):
        count += 1
        if libsha.merkle_root(leaves[:n]) != merkle_expected(leaves[:n]):
            failures.append(f"{libsha.implementation()} merkle {n}")
    return count


def merkle_expected(leaves):
    from libsha.reference import merkle_root

    return merkle_root(leaves, lambda pair: hashlib.sha256(hashlib.sha256(pair).digest()).digest())


def main():
    failures = []
    detected = libsha.implementation()
    checks = check_active(failures)
    refused = []
    for impl in libsha.implementations():
        try:
            with libsha.using(impl.name):
                checks += check_active(failures)
        except ValueError:
            refused.append(impl.name)
            if impl.runnable:
                failures.append(f"{impl.name} refused but listed runnable")
    print(json.dumps({"detected": detected, "features": libsha.cpu_features(), "checks": checks,
                      "refused": refused, "failures": failures}))


if __name__ == "__main__":
    main()
