"""Atheris harness: libsha's Python API against hashlib on the same bytes.

The fuzz input picks an implementation, a message, how it is cut into update()
calls, which buffer type carries each piece (bytes, bytearray, memoryview at an
offset, read-only memoryview, array, ctypes array) and where digest()/copy()
happen mid-stream; whole 64-byte blobs also go through sha256d64, an HMAC
under a key cut from the message's front is checked against the stdlib, and
sha256_many hashes the message cut into pieces (each in its own buffer type), update_many feeds
streams of sha256 or HMAC objects in rounds; one input in
eight writes pieces to files for sha256_files and sha256_file, one in four checks the Merkle trees
against the pure-Python reference. decide_x86 gets CPUID readings the
input makes, some out of range. Bad input is
fuzzed too: every call either returns the right digest or raises the documented
exception (TypeError/ValueError), never anything else. A difference raises
AssertionError, which atheris reports as a finding with the input that caused it.

    python tests/fuzz/fuzz_python.py [libFuzzer flags] [corpus dir]

With LIBSHA_LIBRARY naming a libsha built with -fsanitize=address,fuzzer-no-link
and the sanitizer + libFuzzer runtime preloaded (tools/sanitize.sh does this),
the C library's edges count as coverage too and ASan checks every access.
"""

import array
import atexit
import ctypes
import hashlib
import hmac
import os
import random
import shutil
import sys
import tempfile

import atheris

with atheris.instrument_imports(include=["libsha"]):
    import libsha
    from libsha import bep52, reference, rfc6962, ssz
    from libsha.reference import bep52 as reference_bep52
    from libsha.reference import rfc6962 as reference_rfc6962
    from libsha.reference import ssz as reference_ssz

IMPLEMENTATIONS = [i.name for i in libsha.dispatch.implementations() if i.runnable]
BOUNDARIES = [0, 1, 31, 32, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129, 191, 192, 255, 256]


def carried(fdp, piece):
    """The same bytes in a buffer type the input chooses."""
    kind = fdp.ConsumeIntInRange(0, 6)
    if kind == 0:
        return piece
    if kind == 1:
        return bytearray(piece)
    if kind == 2:  # a view that does not start at its object's first byte
        offset = fdp.ConsumeIntInRange(1, 63)
        return memoryview(bytearray(offset) + piece)[offset:]
    if kind == 3:
        return memoryview(piece).toreadonly()
    if kind == 4:
        return array.array("B", piece)
    if kind == 5:
        return (ctypes.c_char * len(piece)).from_buffer_copy(piece)
    return memoryview(bytearray(piece))


def check_streaming(fdp, message):
    expected = hashlib.sha256(message).digest()
    assert libsha.sha256_digest(carried(fdp, message)) == expected, "one-shot"
    assert libsha.sha256_hexdigest(carried(fdp, message)) == expected.hex(), "hex one-shot"
    # The object starts from a first part of the message, held (bytes) or copied (other buffers).
    pos = fdp.ConsumeIntInRange(0, len(message))
    h, seen = libsha.sha256(carried(fdp, message[:pos])), []
    while pos < len(message):
        # Empty updates are allowed while input lasts; then the rest goes in at once.
        step = fdp.ConsumeIntInRange(0, 200) if fdp.remaining_bytes() else len(message) - pos
        piece = message[pos:pos + step]
        h.update(carried(fdp, piece))
        pos += len(piece)
        if fdp.ConsumeBool():  # digest mid-stream must not disturb the stream
            seen.append((pos, h.digest()))
        if fdp.ConsumeBool():  # nor must a copy, which goes on by itself
            h = h.copy()
    assert h.digest() == expected and h.hexdigest() == expected.hex(), "streamed"
    for at, digest in seen:
        assert digest == hashlib.sha256(message[:at]).digest(), f"digest after {at} bytes"


def check_d64(fdp, message):
    whole = message[:len(message) - len(message) % 64]
    got = libsha.sha256d64(carried(fdp, whole))
    expected = b"".join(hashlib.sha256(hashlib.sha256(whole[i:i + 64]).digest()).digest()
                        for i in range(0, len(whole), 64))
    assert got == expected, "sha256d64"
    if len(message) % 64:
        try:
            libsha.sha256d64(message)
        except ValueError:
            pass
        else:
            raise AssertionError(f"sha256d64 took {len(message)} bytes")


def check_hmac(fdp, message):
    """HMAC-SHA256 under a key cut from the message's front, against the stdlib's hmac."""
    cut = min(fdp.ConsumeIntInRange(0, 150), len(message))
    key, rest = message[:cut], message[cut:]
    expected = hmac.digest(key, rest, "sha256")
    assert libsha.hmac_sha256(carried(fdp, key), carried(fdp, rest)) == expected, "hmac one-shot"
    h = libsha.hmac_new(carried(fdp, key))
    split = fdp.ConsumeIntInRange(0, len(rest))
    h.update(carried(fdp, rest[:split]))
    if fdp.ConsumeBool():
        h = h.copy()
    h.update(carried(fdp, rest[split:]))
    assert h.digest() == expected and h.hexdigest() == expected.hex(), "hmac object"


def check_many(fdp, message):
    """sha256_many over the message cut into pieces the input chooses, each in its own buffer type."""
    pieces, pos = [], 0
    while pos < len(message) and len(pieces) < 40:
        step = fdp.ConsumeIntInRange(0, 300) if fdp.remaining_bytes() else len(message) - pos
        pieces.append(message[pos:pos + step])
        pos += len(pieces[-1])
    double = fdp.ConsumeBool()
    threads = fdp.ConsumeIntInRange(1, 3)
    expected = [hashlib.sha256(p).digest() for p in pieces]
    if double:
        expected = [hashlib.sha256(d).digest() for d in expected]
    got = libsha.sha256_many([carried(fdp, p) for p in pieces], double=double, threads=threads)
    assert got == expected, "sha256_many"
    # out=: the digests into a buffer of the right size (a byte more or less: refused, untouched).
    size = max(32 * len(pieces) + fdp.ConsumeIntInRange(-1, 1) * fdp.ConsumeBool(), 0)
    out = bytearray(b"\xa5" * size)
    try:
        result = libsha.sha256_many([carried(fdp, p) for p in pieces], double=double, threads=threads, out=out)
    except ValueError:
        assert size != 32 * len(pieces) and out == bytearray(b"\xa5" * size), "out= refused, yet written"
    else:
        assert result is out and size == 32 * len(pieces) and bytes(out) == b"".join(expected), "sha256_many out="


def check_update_many(fdp, message):
    """update_many over 1..20 sha256 or HMAC streams fed the message's pieces in rounds, beside hashlib's
    and hmac's separate updates; now and then a stream updated alone between rounds."""
    count, use_hmac = fdp.ConsumeIntInRange(1, 20), fdp.ConsumeBool()
    if use_hmac:
        ours = [libsha.HMAC(message[:i]) for i in range(count)]
        theirs = [hmac.new(message[:i], digestmod="sha256") for i in range(count)]
    else:
        ours, theirs = [libsha.sha256() for _ in range(count)], [hashlib.sha256() for _ in range(count)]
    pos = 0
    for _ in range(fdp.ConsumeIntInRange(1, 4)):
        chunks = []
        for _ in range(count):
            step = fdp.ConsumeIntInRange(0, 700) if fdp.remaining_bytes() else 0
            chunks.append(message[pos:pos + step])
            pos = (pos + step) % (len(message) + 1)
        libsha.update_many(ours, [carried(fdp, c) for c in chunks])
        for h, c in zip(theirs, chunks):
            h.update(c)
        if fdp.ConsumeBool():
            ours[0].update(message[:9])
            theirs[0].update(message[:9])
    assert [h.digest() for h in ours] == [h.digest() for h in theirs], "update_many"


FOLDER = tempfile.mkdtemp(prefix="libsha-fuzz-")
atexit.register(shutil.rmtree, FOLDER, True)


def check_files(fdp, message):
    """The message cut into files (one missing among them): sha256_files in order, sha256_file alike."""
    paths, expected, pos = [], [], 0
    for i in range(fdp.ConsumeIntInRange(1, 4)):
        step = fdp.ConsumeIntInRange(0, len(message) - pos) if i < 3 else len(message) - pos
        path = os.path.join(FOLDER, f"piece{i}")
        with open(path, "wb") as f:
            f.write(message[pos:pos + step])
        paths.append(path)
        expected.append(hashlib.sha256(message[pos:pos + step]).digest())
        pos += step
    missing = fdp.ConsumeIntInRange(0, len(paths))
    paths.insert(missing, os.path.join(FOLDER, "missing"))
    got = libsha.sha256_files(paths, jobs=fdp.ConsumeIntInRange(0, 3))
    assert isinstance(got.pop(missing), FileNotFoundError), "sha256_files: the missing file"
    assert got == expected, "sha256_files"
    paths.pop(missing)
    assert libsha.sha256_file(paths[0]) == expected[0], "sha256_file"


def check_bad_input(fdp):
    """Wrong types and values: the documented exception, nothing else."""
    choice = fdp.ConsumeIntInRange(0, 5)
    if choice == 0:
        makers = [lambda: fdp.ConsumeUnicode(8), lambda: fdp.ConsumeInt(9), fdp.ConsumeFloat,
                  lambda: None, lambda: [1, 2], lambda: {"a": 1}, object]
        value = makers[fdp.ConsumeIntInRange(0, len(makers) - 1)]()  # only the chosen one consumes input
        for call in (libsha.sha256_digest, libsha.sha256_hexdigest, libsha.sha256, libsha.sha256d64,
                     libsha.sha256().update, libsha.hmac_new,
                     lambda v: libsha.hmac_sha256(v, b""), lambda v: libsha.hmac_sha256(b"", v)):
            try:
                call(value)
            except TypeError:
                continue
            raise AssertionError(f"{call} accepted {type(value).__name__}")
    elif choice == 1:
        mask = fdp.ConsumeInt(fdp.ConsumeIntInRange(1, 80))
        try:
            name = libsha.dispatch.autodetect(mask)
        except ValueError:
            assert mask < 0 or mask & ~libsha.dispatch.USE_ALL, f"mask {mask} refused"
        else:
            assert 0 <= mask <= libsha.dispatch.USE_ALL and name == libsha.dispatch.implementation()
    elif choice == 2:
        name = fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 40))
        try:
            libsha.dispatch.select(name)
        except ValueError:
            assert name not in IMPLEMENTATIONS, f"{name!r} refused"
        else:
            assert name in IMPLEMENTATIONS and libsha.dispatch.implementation() == name
    elif choice == 3:
        view = memoryview(bytearray(fdp.ConsumeBytes(100)))
        step = fdp.ConsumeIntInRange(2, 5)
        try:
            libsha.sha256_digest(view[::step])
        except ValueError:  # NonContiguousError is a ValueError
            pass
        else:
            assert len(view[::step]) <= 1, "a strided view was hashed"
    elif choice == 4:
        check_decision(fdp)
    else:
        view = memoryview(fdp.ConsumeBytes(64))
        view.release()
        try:
            libsha.sha256_digest(view)
        except ValueError:
            pass
        else:
            raise AssertionError("a released memoryview was hashed")


def check_kdf(fdp, message):
    """PBKDF2 (one key, and a few at once) against hashlib, HKDF (through the accelerator's method
    where it loads) against the pure-Python reference, both on pieces of the message."""
    cut = min(fdp.ConsumeIntInRange(0, 150), len(message))
    password, salt = message[:cut], message[cut:cut + fdp.ConsumeIntInRange(0, 100)]
    iterations, dklen = fdp.ConsumeIntInRange(1, 8), fdp.ConsumeIntInRange(1, 200)
    expected = hashlib.pbkdf2_hmac("sha256", password, salt, iterations, dklen)
    assert libsha.pbkdf2_hmac("sha256", carried(fdp, password), carried(fdp, salt), iterations, dklen) == expected, \
        "pbkdf2_hmac"
    count = fdp.ConsumeIntInRange(1, 18)
    passwords = [message[i:i + cut] for i in range(count)]
    assert libsha.pbkdf2_hmac_many("sha256", passwords, salt, iterations, dklen) == \
        [hashlib.pbkdf2_hmac("sha256", p, salt, iterations, dklen) for p in passwords], "pbkdf2_hmac_many"
    length, info = fdp.ConsumeIntInRange(0, 200), message[-fdp.ConsumeIntInRange(0, 60):] if message else b""
    assert libsha.hkdf(carried(fdp, password), length, salt or None, info) == \
        reference.hkdf(password, salt, info, length), "hkdf"


def _sha(data):
    return hashlib.sha256(data).digest()


def check_trees(fdp, message):
    """The Merkle trees against the pure-Python reference (its schemes over hashlib's SHA-256): the
    level call, SSZ under a limit the input picks (below the count: ValueError from both), RFC 6962's
    root and proofs at an index and an old size the input picks (each verifying, a damaged one not),
    and BEP 52 of a file the message seeds, up to five 16 KiB blocks, under a piece length it picks."""
    whole = message[:len(message) - len(message) % 64]
    assert libsha.sha256_64(carried(fdp, whole)) == b"".join(_sha(whole[i:i + 64]) for i in range(0, len(whole), 64)), \
        "sha256_64"
    chunks = [message[i:i + 32] for i in range(0, len(message) - len(message) % 32, 32)]
    limit = fdp.PickValueInList([None, len(chunks), len(chunks) + fdp.ConsumeIntInRange(0, 300),
                                 max(len(chunks) - 1, 0)])
    try:
        want = reference_ssz.merkleize(chunks, limit, sha256=_sha)
    except ValueError:
        want = None
    try:
        got = ssz.merkleize(carried(fdp, b"".join(chunks)), limit)
    except ValueError:
        got = None
    assert got == want, f"ssz.merkleize of {len(chunks)} chunks under {limit}"
    if want is not None:
        length = fdp.ConsumeIntInRange(0, 1 << 40)
        assert ssz.mix_in_length(want, length) == reference_ssz.mix_in_length(want, length, sha256=_sha), \
            "mix_in_length"
    if chunks:
        root = reference_rfc6962.mth(chunks, sha256=_sha)
        tree = rfc6962.Tree(carried(fdp, b"".join(chunks)))
        assert rfc6962.root(b"".join(chunks)) == tree.root() == root, "rfc6962 root"
        index, old = fdp.ConsumeIntInRange(0, len(chunks) - 1), fdp.ConsumeIntInRange(1, len(chunks))
        proof = tree.inclusion_proof(index)
        assert proof == reference_rfc6962.inclusion_proof(chunks, index, sha256=_sha), "inclusion proof"
        assert rfc6962.verify_inclusion(chunks[index], index, len(chunks), proof, root), "inclusion verifies"
        consistency = tree.consistency_proof(old)
        assert consistency == reference_rfc6962.consistency_proof(chunks, old, sha256=_sha), "consistency proof"
        assert rfc6962.verify_consistency(old, len(chunks), consistency, tree.root(old), root), "consistency verifies"
        if proof:
            damaged = [bytes(proof[0][:-1]) + bytes([proof[0][-1] ^ 1])] + proof[1:]
            assert not rfc6962.verify_inclusion(chunks[index], index, len(chunks), damaged, root), "a damaged proof"
    data = random.Random(message).randbytes(fdp.ConsumeIntInRange(0, 5 * bep52.BLOCK_SIZE + 100))
    piece_length = bep52.BLOCK_SIZE << fdp.ConsumeIntInRange(0, 3)
    assert bep52.tree(carried(fdp, data), piece_length) == reference_bep52.tree(data, piece_length, sha256=_sha), \
        f"bep52 of {len(data)} bytes, pieces of {piece_length}"


def check_decision(fdp):
    """decide_x86 on readings the input makes, some no CPU gives: a Decision naming a compiled-in row
    and known features, or ValueError for a reading out of range, never anything else."""
    vendor = fdp.PickValueInList(["GenuineIntel", "AuthenticAMD", fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 14))])
    registers = [fdp.ConsumeInt(fdp.PickValueInList([4, 5])) for _ in range(8)]  # some past 32 bits or negative
    xcr0 = fdp.ConsumeInt(fdp.PickValueInList([1, 9]))
    valid = len(vendor) == 12 and vendor.isascii() and all(0 <= r < 1 << 32 for r in registers) and 0 <= xcr0 < 1 << 64
    try:
        decision = libsha.dispatch.decide_x86(vendor, registers[:4], registers[4:], xcr0, max_leaf=fdp.ConsumeIntInRange(0, 20))
    except ValueError:
        assert not valid, "valid readings refused"
    else:
        assert valid, "readings out of range accepted"
        assert decision.implementation in {i.name for i in libsha.dispatch.implementations()}
        assert set(decision.features) <= set(libsha.dispatch.CPU_FEATURES)
        assert decision.tuning == (dict(libsha.dispatch.cpu_models())[decision.model] if decision.model else [])


def test_one_input(data):
    fdp = atheris.FuzzedDataProvider(data)
    libsha.dispatch.select(IMPLEMENTATIONS[fdp.ConsumeIntInRange(0, len(IMPLEMENTATIONS) - 1)])
    if fdp.ConsumeIntInRange(0, 7) == 0:
        check_bad_input(fdp)
        return
    # Lengths near block borders are where padding bugs live: steer some there.
    length = fdp.PickValueInList(BOUNDARIES) + fdp.ConsumeIntInRange(0, 2) if fdp.ConsumeBool() \
        else fdp.ConsumeIntInRange(0, 4096)
    message = fdp.ConsumeBytes(length)
    message += bytes(length - len(message))  # input ran out: pad with zeros, keep the length
    check_streaming(fdp, message)
    check_d64(fdp, message)
    check_hmac(fdp, message)
    check_many(fdp, message)
    check_update_many(fdp, message)
    if fdp.ConsumeIntInRange(0, 3) == 0:
        check_kdf(fdp, message)
    if fdp.ConsumeIntInRange(0, 3) == 0:
        check_trees(fdp, message)
    if fdp.ConsumeIntInRange(0, 7) == 0:
        check_files(fdp, message)


def main():
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
