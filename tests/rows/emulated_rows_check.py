"""Every row the library holds, run on Bochs's emulated CPU (AVX-512 and SHA-NI), checked against
hashlib; printed as JSON. Run by test_rows_emulated.py in a process of its own:

    python emulated_rows_check.py LIBRARY_FILE
    python emulated_rows_check.py LIBRARY_FILE --select ROW...   (libsha_select's codes alone)

The library is loaded from a copy, so its CPU detection runs in the emulator (tests/support/bochs.py).
For each row the emulated CPU runs: libsha_select (which runs the row's self-test), then per call,
through the C API, what reaches each of its kernels: a batch of every length 0..300 (and double),
batches of one length around the block and lane borders, SHA256D64 for 0..17 and 33 blobs, many
streams at once in uneven chunks, HMAC and prefix batches, PBKDF2's chains for many keys, and
Merkle roots, rows of one width (the level call's layout). Every message's bytes differ (a 251-byte cycle at a new offset each).
All of it twice: with the CPU model table's wide window, and with a window of 100..300 bytes
(libsha_internal_set_wide_window), so that a row of two engines splits the mixed batches between them.
"""

import ctypes
import hashlib
import hmac
import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/, for support/
from support.bochs import Emulator, library_copy  # noqa: E402
from support.data import merkle_root_by_hashlib, pattern251, sha256d, sha256d64_by_hashlib  # noqa: E402

from libsha import _header, _signatures  # noqa: E402
from shabench.internal import SIGNATURES  # noqa: E402

SEED = 20261207  # fixed, printed in the report: a failure replays
TEST_WINDOW = (100, 301)  # a row of two engines: 100..300-byte messages on its wide lanes, the rest on the narrow


def addr(buffer) -> int:
    return ctypes.addressof(buffer)


class Rows:
    """The library's C calls, each run in the emulator; buffers kept alive until the call ends."""

    def __init__(self, lib, emulator):
        self.lib, self.emu = lib, emulator

    def call(self, name, *args) -> int:
        return ctypes.c_int(self.emu.call(getattr(self.lib, name), *args) & 0xFFFFFFFF).value

    def string(self, name, *args) -> str | None:
        at = self.emu.call(getattr(self.lib, name), *args)
        return ctypes.string_at(at).decode() if at else None

    def batch(self, n, flags=0, prefix=0, key=0, **fields) -> list[bytes]:
        """The digests of libsha_sha256_batch over a libsha_batch of n messages with these fields."""
        batch, out = self.emu.struct(_header.Batch), self.emu.buffer(32 * n)
        batch.n = n
        for field, value in fields.items():
            setattr(batch, field, value)
        rc = self.call("libsha_sha256_batch", addr(out), addr(batch), prefix, key, flags)
        assert rc == 0, f"libsha_sha256_batch returned {rc}"
        return [out.raw[32 * i : 32 * i + 32] for i in range(n)]

    def many(self, messages, flags=0, prefix=0, key=0) -> list[bytes]:
        bufs = [self.emu.buffer(m) for m in messages]
        return self.batch(len(bufs), flags, prefix, key, layout=_header.POINTERS,
                          msgs=addr(self.emu.array(ctypes.c_void_p, [addr(b) for b in bufs])),
                          lens=addr(self.emu.array(ctypes.c_size_t, [len(m) for m in messages])))

    def rows_layout(self, data, stride, length, n) -> list[bytes]:
        """A batch of n rows of `length` bytes, `stride` apart (the level call's layout)."""
        src = self.emu.buffer(data[: stride * n])
        return self.batch(n, layout=_header.ROWS, data=addr(src), stride=stride, len=length)

    def context(self, kind, key=b""):
        """A live SHA-256 context after `key` bytes, or an HMAC context under `key`."""
        size = self.emu.call(getattr(self.lib, f"libsha_{kind}_ctx_size"))
        ctx, data = self.emu.buffer(size), self.emu.buffer(key)
        if kind == "hmac_sha256":
            assert self.call("libsha_hmac_sha256_init", addr(ctx), addr(data), len(key)) == 0
        else:
            self.emu.call(self.lib.libsha_sha256_init, addr(ctx))
            assert self.call("libsha_sha256_update", addr(ctx), addr(data), len(key)) == 0
        return ctx


def check_row(rows, failures, name) -> int:
    data, rng, count = pattern251(1 << 17, 5), random.Random(SEED), 0

    def expect(what, got, wanted):
        nonlocal count
        count += 1
        if got != wanted:
            failures.append(f"{name}: {what}")

    def sha(m):
        return hashlib.sha256(m).digest()

    mixed = [data[331 * n :][:n] for n in range(301)]
    expect("many 0..300", rows.many(mixed), [sha(m) for m in mixed])
    expect("many 0..300 double", rows.many(mixed, _header.DOUBLE), [sha256d(m) for m in mixed])
    for length in (0, 1, 55, 56, 63, 64, 65, 119, 128, 300, 1024, 4099):
        same = [data[97 * i + length :][:length] for i in range(37)]
        expect(f"many of {length} bytes", rows.many(same), [sha(m) for m in same])
    pairs = [data[64 * i + 3 :][:64] for i in range(45)]
    expect("many of 64 bytes double", rows.many(pairs, _header.DOUBLE), [sha256d(m) for m in pairs])
    for stride, length in ((64, 64), (100, 64), (100, 100)):  # the level call's pairs; rows of one width
        got = rows.rows_layout(data[13:], stride, length, 45)
        expect(f"rows of {length} bytes, {stride} apart", got, [sha(data[13 + stride * i :][:length]) for i in range(45)])
    long = [data[rng.randrange(999) :][: rng.choice((0, rng.randrange(5001), 10240))] for _ in range(40)]
    expect(f"many, seeded lengths {[len(m) for m in long]}", rows.many(long), [sha(m) for m in long])
    for start in (data[5:69], data[7:107]):
        prefix = rows.context("sha256", start)
        expect(f"after a {len(start)}-byte prefix", rows.many(mixed[::7], prefix=addr(prefix)),
               [sha(start + m) for m in mixed[::7]])
        key = rows.context("hmac_sha256", start)
        expect(f"HMAC under a {len(start)}-byte key", rows.many(mixed[::7], key=addr(key)),
               [hmac.digest(start, m, "sha256") for m in mixed[::7]])
    for blobs in list(range(18)) + [33]:
        src, out = rows.emu.buffer(data[11:][: 64 * blobs]), rows.emu.buffer(32 * blobs)
        rows.emu.call(rows.lib.libsha_sha256d64, addr(out), addr(src), blobs)
        expect(f"d64 {blobs}", out.raw[: 32 * blobs], sha256d64_by_hashlib(data[11:][: 64 * blobs]))
    streams = [rows.context("sha256") for _ in range(20)]  # past the widest lanes, uneven chunks
    theirs = [hashlib.sha256() for _ in streams]
    for _ in range(4):
        chunks = [data[rng.randrange(999) :][: rng.choice((64, 64 * rng.randrange(40), rng.randrange(3000)))]
                  for _ in streams]
        bufs = [rows.emu.buffer(c) for c in chunks]
        ctxs = rows.emu.array(ctypes.c_void_p, [addr(c) for c in streams])
        ptrs = rows.emu.array(ctypes.c_void_p, [addr(b) for b in bufs])
        lens = rows.emu.array(ctypes.c_size_t, [len(c) for c in chunks])
        assert rows.call("libsha_sha256_update_many", addr(ctxs), addr(ptrs), addr(lens), len(bufs)) == 0
        for h, c in zip(theirs, chunks):
            h.update(c)
    out = rows.emu.buffer(32 * len(streams))
    assert rows.call("libsha_sha256_final_many", addr(out), addr(ctxs), len(streams)) == 0
    expect("update_many", out.raw, b"".join(h.digest() for h in theirs))
    for n, dklen in ((1, 32), (3, 64), (19, 40)):  # PBKDF2: one chain, a key's blocks, many keys' chains
        passwords = [data[i : i + 7 + 13 * i] for i in range(n)]
        emu = rows.emu
        bufs, salt = [emu.buffer(p) for p in passwords], emu.buffer(data[:20])
        ptrs, lens = emu.array(ctypes.c_void_p, [addr(b) for b in bufs]), emu.array(ctypes.c_size_t, map(len, passwords))
        salts, salt_lens = emu.array(ctypes.c_void_p, [addr(salt)] * n), emu.array(ctypes.c_size_t, [20] * n)
        out = emu.buffer(dklen * n)
        assert rows.call("libsha_pbkdf2_hmac_sha256_many", addr(out), dklen, addr(ptrs), addr(lens),
                         addr(salts), addr(salt_lens), n, 30) == 0
        expect(f"pbkdf2 {n} keys of {dklen} bytes", out.raw,
               b"".join(hashlib.pbkdf2_hmac("sha256", p, data[:20], 30, dklen) for p in passwords))
    leaves = [data[32 * i + 1 :][:32] for i in range(600)]
    for n in (1, 2, 3, 255, 256, 257, 600):
        src, out = rows.emu.buffer(b"".join(leaves[:n])), rows.emu.buffer(32)
        assert rows.call("libsha_merkle_root", addr(out), addr(src), n, 0) == 0
        expect(f"merkle {n}", out.raw, merkle_root_by_hashlib(leaves[:n])[0])
    return count


def select_codes(rows, names):
    """libsha_select's return for each row named, in the emulator (its self-test's verdict)."""
    codes = {}
    for name in names:
        spelled = rows.emu.buffer(name.encode() + b"\0")
        codes[name] = rows.call("libsha_select", addr(spelled))
    return codes


def main():
    library = sys.argv[1]
    failures, report = [], {}
    with tempfile.TemporaryDirectory() as folder:
        lib = library_copy(library, folder)
        _signatures.declare(lib, {"libsha_internal_set_wide_window": SIGNATURES["libsha_internal_set_wide_window"]})
        rows = Rows(lib, Emulator())
        if sys.argv[2:3] == ["--select"]:
            print(json.dumps(select_codes(rows, sys.argv[3:])))
            return
        features = rows.emu.call(lib.libsha_cpu_features)
        index, runnable = 0, rows.emu.array(ctypes.c_int, [0])
        names = []
        while (name := rows.string("libsha_implementation_at", index, addr(runnable))) is not None:
            names.append((name, bool(runnable[0])))
            index += 1
        for name, can_run in names:
            if not can_run:
                report[name] = {"runnable": False}
                continue
            rows.emu.reset()
            spelled = rows.emu.buffer(name.encode() + b"\0")
            selected = rows.call("libsha_select", addr(spelled))
            if selected != 0:
                failures.append(f"{name}: libsha_select returned {selected} on the emulated CPU")
                continue
            checks = check_row(rows, failures, name)
            lib.libsha_internal_set_wide_window(*TEST_WINDOW)  # a host call: the emulator reads the same memory
            try:
                checks += check_row(rows, failures, f"{name} (window {TEST_WINDOW[0]}..{TEST_WINDOW[1] - 1})")
            finally:
                lib.libsha_internal_set_wide_window(0, 0)
            report[name] = {"runnable": True, "checks": checks}
    print(json.dumps({"features": features, "seed": SEED, "rows": report, "failures": failures}))


if __name__ == "__main__":
    main()
