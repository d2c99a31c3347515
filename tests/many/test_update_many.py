"""libsha.update_many: many hash objects updated in one call, against hashlib, on every
implementation this CPU runs; its refusals leave every hasher as it was."""

import array
import ctypes
import hashlib
import hmac
import re

import pytest

import libsha
from libsha import _native
from support.data import WIDEST_LANES, buffer_kinds, pattern251
from conftest import runnable_implementations

pytestmark = pytest.mark.binding


def _states(rng):
    """Hashers in each state a sha256 object has (fresh, holding bytes, holding a long message
    whose digest it keeps, streaming with parts, streaming with a context), with hashlib twins."""
    long_held = rng.randbytes(70_000)
    made = []
    for prefix, after in [(b"", None), (b"held", None), (long_held, "digest"), (b"a", b"bc"), (b"x" * 3000, b"y")]:
        ours, theirs = libsha.sha256(prefix), hashlib.sha256(prefix)
        if after == "digest":
            assert ours.digest() == theirs.digest()
        elif after is not None:
            ours.update(after), theirs.update(after)
        made.append((ours, theirs))
    return made


def test_random_chunks_in_every_state_against_hashlib(lanes_row, rng):
    pairs = [p for _ in range(9) for p in _states(rng)]  # 45 streams: past the widest lanes (16)
    assert len(pairs) > WIDEST_LANES
    for round_ in range(12):
        # Each round a different subset, in a shuffled order: streams end in different calls.
        chosen = rng.sample(pairs, rng.randrange(1, len(pairs) + 1))
        mode = round_ % 3
        chunks = [rng.randbytes(rng.randrange(0, 5001) if mode == 0 else 64 * rng.randrange(0, 40) if mode == 1
                                else rng.randrange(0, 200)) for _ in chosen]
        libsha.update_many([ours for ours, _ in chosen], chunks)
        for (_, theirs), chunk in zip(chosen, chunks):
            theirs.update(chunk)
        if round_ % 4 == 3:  # a stream updated alone between two calls
            ours, theirs = pairs[round_]
            ours.update(b"between"), theirs.update(b"between")
    assert [o.hexdigest() for o, _ in pairs] == [t.hexdigest() for _, t in pairs]
    copies = [o.copy() for o, _ in pairs[:3]]
    libsha.update_many(copies, [b"more"] * 3)  # copies go on alone
    for c, (_, t) in zip(copies, pairs[:3]):
        t2 = t.copy()
        t2.update(b"more")
        assert c.digest() == t2.digest()
    assert [o.digest() for o, _ in pairs[:3]] == [t.digest() for _, t in pairs[:3]]


def test_every_split_of_one_stream_beside_another():
    message, other = pattern251(200, 3), pattern251(333, 9)
    want, want_other = hashlib.sha256(message).digest(), hashlib.sha256(other).digest()
    for cut in range(len(message) + 1):
        a, b = libsha.sha256(), libsha.sha256()
        libsha.update_many([a, b], [message[:cut], other[:111]])
        libsha.update_many([b, a], [other[111:], message[cut:]])
        assert (a.digest(), b.digest()) == (want, want_other), cut


@pytest.mark.parametrize("kind,make", buffer_kinds())
def test_every_buffer_kind_read_in_place(kind, make):
    data = [pattern251(n, n) for n in (0, 1, 63, 64, 65, 1000, 4097)]
    hashers = [libsha.sha256() for _ in data]
    libsha.update_many(hashers, [make(d) for d in data])
    assert [h.digest() for h in hashers] == [hashlib.sha256(d).digest() for d in data]


def test_hmac_streams_against_the_hmac_module(rng):
    keys = [rng.randbytes(n) for n in (0, 5, 64, 65, 200)]
    ours = [libsha.HMAC(k) for k in keys]
    theirs = [hmac.new(k, digestmod="sha256") for k in keys]
    for _ in range(4):
        chunks = [rng.randbytes(rng.randrange(3000)) for _ in keys]
        libsha.update_many(ours, chunks)
        for t, c in zip(theirs, chunks):
            t.update(c)
    assert [o.digest() for o in ours] == [t.digest() for t in theirs]


def test_iterables_and_nothing():
    hashers = [libsha.sha256(), libsha.sha256()]
    libsha.update_many(iter(hashers), (c for c in [b"ab", b"cd"]))
    libsha.update_many([], [])
    assert [h.digest() for h in hashers] == [hashlib.sha256(b"ab").digest(), hashlib.sha256(b"cd").digest()]


def _refused(hashers, chunks, error, match):
    before = [h.copy() for h in hashers if isinstance(h, (libsha.sha256, libsha.HMAC))]
    with pytest.raises(error, match=match):
        libsha.update_many(hashers, chunks)
    after = [h for h in hashers if isinstance(h, (libsha.sha256, libsha.HMAC))]
    assert [h.digest() for h in after] == [b.digest() for b in before]  # nothing updated


def test_bad_arguments_change_nothing():
    a, b = libsha.sha256(b"a"), libsha.sha256()
    b.update(b"streaming")
    h = libsha.HMAC(b"key")
    _refused([a, b], [b"x"], ValueError, "one chunk per hasher: 2 hashers, 1 chunks")
    _refused([a, b, a], [b"x", b"y", b"z"], ValueError, "hasher 2 is hasher 0 again")
    _refused([a, h], [b"x", b"y"], TypeError, "hasher 1 is a HMAC; update_many takes libsha.sha256")
    _refused([h, a], [b"x", b"y"], TypeError, "hasher 1 is a sha256; update_many takes libsha.HMAC")
    _refused([a, hashlib.sha256()], [b"x", b"y"], TypeError, "hasher 1 is a .*sha256")
    _refused([a, b], [b"x", "text"], TypeError, "chunk 1 is a str")
    _refused([a, b], [b"x", 5], TypeError, "chunk 1 is an int")
    strided = memoryview(bytearray(100))[::2]
    _refused([a, b], [b"x", strided], libsha.NonContiguousError, "chunk 1")


def test_a_chunk_cannot_be_released_or_resized_while_hashed():
    # The chunk is borrowed for the call: a bytearray is pinned, and is free again afterwards.
    data = bytearray(pattern251(5000))
    h = libsha.sha256()
    libsha.update_many([h], [data])
    data.extend(b"grow")  # no export left behind
    assert h.digest() == hashlib.sha256(pattern251(5000)).digest()


def test_the_c_contract_refuses_with_nothing_changed():
    lib = _native.lib()
    ctxs = [_native.Context() for _ in range(3)]
    for c in ctxs:
        lib.libsha_sha256_init(c)
    before = [c.raw for c in ctxs]
    addresses = [ctypes.addressof(c) for c in ctxs]
    chunk = ctypes.create_string_buffer(b"x" * 100)

    def call(ptrs, datas, lens):
        n = len(ptrs)
        return lib.libsha_sha256_update_many((ctypes.c_void_p * n)(*ptrs), (ctypes.c_void_p * n)(*datas),
                                             (ctypes.c_size_t * n)(*lens), n)

    x = ctypes.addressof(chunk)
    assert call([addresses[0], addresses[0]], [x, x], [10, 10]) == -6  # LIBSHA_ERR_ARGUMENT: twice
    assert call([addresses[0], None], [x, x], [10, 10]) == -1  # LIBSHA_ERR_NULL
    assert call([addresses[0], addresses[1]], [x, None], [10, 10]) == -1
    assert call([addresses[0], addresses[1]], [x, addresses[1] + 8], [10, 10]) == -6  # a chunk over a context
    assert [c.raw for c in ctxs] == before
    out = ctypes.create_string_buffer(96)
    pointers = (ctypes.c_void_p * 3)(*addresses)
    assert lib.libsha_sha256_final_many(addresses[1], pointers, 3) == -6  # out over a context
    assert lib.libsha_sha256_final_many(out, (ctypes.c_void_p * 2)(addresses[2], addresses[2]), 2) == -6
    assert [c.raw for c in ctxs] == before and out.raw == bytes(96)
    assert lib.libsha_sha256_final_many(out, pointers, 3) == 0
    assert out.raw == hashlib.sha256(b"").digest() * 3


def test_lanes_is_one_of_the_rows_lane_kernels():
    # The widest many-message kernel: the widest the name lists, except where a row's widest kernels
    # serve SHA256D64 and PBKDF2 alone (SHA-NI's row of four lanes: messages on two).
    for impl in runnable_implementations():
        with libsha.dispatch.using(impl):
            lanes = libsha.dispatch.lanes()
            widths = [int(w) for w in re.findall(r"(\d+)way", impl)]
            multi = [w for w in widths if w > 1]
            assert lanes in multi if multi else lanes == 1, impl


def test_array_chunks_of_wider_items_are_their_bytes():
    data = array.array("I", range(1000))
    h = libsha.sha256()
    libsha.update_many([h], [data])
    assert h.digest() == hashlib.sha256(data.tobytes()).digest()
