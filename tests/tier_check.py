"""Correctness checks for whatever implementation detection picks, printed as JSON.

Run as a script, often under qemu-x86_64 -cpu MODEL by test_cpu_tiers.py, to
check the tiers this machine's CPU is not. A representative subset of the
suite: the NIST short and long messages, SHA256D64 for 0..40 and 1024 blobs,
streaming with split points across block borders, and select() of every
implementation (runnable ones hash correctly, the rest are refused).
"""

import hashlib
import json

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
    for n in range(0, 200, 3):
        for cut in (0, n // 2, n):
            count += 1
            h = libsha.new(data[:cut])
            h.update(data[cut:n])
            if h.digest() != hashlib.sha256(data[:n]).digest():
                failures.append(f"{libsha.implementation()} split {n}/{cut}")
    return count


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
