"""Saved states: the layout libsha.h documents (built here from the pure-Python reference, not from
libsha), resumed under every row from states other rows made, pickling and copies, midstates, and
every malformed state refused."""

import copy
import hashlib
import hmac
import pickle
import struct

import pytest

import libsha
from conftest import runnable_implementations
from libsha import _header
from support.data import pattern251

pytestmark = [pytest.mark.core, pytest.mark.binding]

H0 = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19)
LIMIT = (1 << 61) - 1
SIZE, HMAC_SIZE = _header.STATE_SIZE, _header.HMAC_STATE_SIZE


def chaining(message, start=H0):
    """The chaining words after the message's whole blocks, by the reference's compression."""
    from libsha.reference.sha256 import compress

    state = start
    for i in range(0, len(message) - len(message) % 64, 64):
        state = compress(state, message[i : i + 64])
    return state


def layout(kind, length, words, pending, outer=None):
    """A state as libsha.h lays it out, made from its parts and checked with hashlib."""
    body = b"lsha" + bytes([1, kind, 0, 0]) + struct.pack(">Q", length) + struct.pack(">8I", *words)
    body += pending.ljust(64, b"\0")
    if outer is not None:
        body += struct.pack(">8I", *outer)
    return body + hashlib.sha256(body).digest()[:8]


def test_the_layout_is_libsha_h_s():
    assert SIZE == 120 and HMAC_SIZE == 152  # libsha.h's LIBSHA_STATE_SIZE and LIBSHA_HMAC_STATE_SIZE
    for length in (0, 1, 63, 64, 65, 200, 1000):
        message = pattern251(length)
        want = layout(1, length, chaining(message), message[length - length % 64 :])
        assert libsha.sha256(message).state() == want, length
    key, message = pattern251(20, 7), pattern251(100)
    block = key.ljust(64, b"\0")
    inner = bytes(b ^ 0x36 for b in block) + message
    outer = chaining(bytes(b ^ 0x5C for b in block))
    want = layout(2, 64 + len(message), chaining(inner), inner[128:], outer)
    assert libsha.HMAC(key, message).state() == want


@pytest.mark.parametrize("where", ["every length to 300", "block boundaries to 4 MiB"])
def test_states_resume_under_every_row(rng, where):
    rows = runnable_implementations()
    lengths = range(301) if where.startswith("every") else [64 * k for k in (1, 2, 3, 16, 17, 1024, 65536)]
    message = rng.randbytes(max(lengths) + 300)
    for i, length in enumerate(lengths):
        made, resumed = rows[i % len(rows)], rows[(3 * i + 1) % len(rows)]
        with libsha.dispatch.using(made):
            h = libsha.sha256(message[: length // 2])
            h.update(message[length // 2 : length])
            state = h.state()
        with libsha.dispatch.using(resumed):
            g = libsha.sha256.from_state(state)
            assert g.digest() == hashlib.sha256(message[:length]).digest(), (length, made, resumed)
            g.update(message[length : length + 300])
            assert g.digest() == hashlib.sha256(message[: length + 300]).digest(), (length, made, resumed)
            assert libsha.sha256.from_state(state).state() == state


def test_every_row_resumes_every_row_s_state(rng):
    rows = runnable_implementations()
    message = rng.randbytes(777)
    for made in rows:
        with libsha.dispatch.using(made):
            states = [libsha.sha256(message[:n]).state() for n in (0, 63, 64, 130, 777)]
            mac = libsha.HMAC(message[:90], message[:333]).state()
        for resumed in rows:
            with libsha.dispatch.using(resumed):
                for n, state in zip((0, 63, 64, 130, 777), states):
                    assert libsha.sha256.from_state(state).digest() == hashlib.sha256(message[:n]).digest()
                assert libsha.HMAC.from_state(mac).digest() == hmac.digest(message[:90], message[:333], "sha256")


def test_pickling_and_copies_mid_stream(rng):
    message = rng.randbytes(5000)
    h = libsha.sha256()
    for i in range(0, 5000, 333):
        h.update(message[i : i + 333])
        for other in (pickle.loads(pickle.dumps(h)), copy.copy(h), copy.deepcopy(h),
                      pickle.loads(pickle.dumps(h, protocol=0))):
            assert other.digest() == hashlib.sha256(message[: i + 333]).digest()
            other.update(b"tail")
            assert other.digest() == hashlib.sha256(message[: i + 333] + b"tail").digest()
    assert h.digest() == hashlib.sha256(message).digest()
    mac = libsha.HMAC(b"key", message)
    for other in (copy.copy(mac), copy.deepcopy(mac), libsha.HMAC.from_state(mac.state())):
        other.update(b"x")
        assert other.digest() == hmac.digest(b"key", message + b"x", "sha256")
    with pytest.raises(TypeError, match="its state is as good as the key"):
        pickle.dumps(mac)


def test_a_state_is_bytes_like():
    state = libsha.sha256(b"abc").state()
    for form in (bytearray(state), memoryview(state)):
        assert libsha.sha256.from_state(form).digest() == hashlib.sha256(b"abc").digest()
    with pytest.raises(TypeError):
        libsha.sha256.from_state(state.hex())


def test_midstates(rng):
    message = rng.randbytes(256)
    for blocks in (0, 1, 4):
        h = libsha.sha256(message[: 64 * blocks])
        words, length = h.midstate()
        assert (words, length) == (struct.pack(">8I", *chaining(message[: 64 * blocks])), 64 * blocks)
        g = libsha.sha256.from_midstate(words, length)
        g.update(b"rest")
        assert g.digest() == hashlib.sha256(message[: 64 * blocks] + b"rest").digest()
    with pytest.raises(ValueError, match="does not end at a 64-byte block boundary"):
        libsha.sha256(message[:65]).midstate()
    words = bytes(32)
    for bad in (-64, 1, 63, 1 << 61):
        with pytest.raises(ValueError, match="a multiple of 64 below 2\\*\\*61"):
            libsha.sha256.from_midstate(words, bad)
    with pytest.raises(ValueError, match="32 bytes, not 31"):
        libsha.sha256.from_midstate(words[:31], 64)
    with pytest.raises(TypeError):
        libsha.sha256.from_midstate(words, 64.0)
    # BIP-340: a tag's midstate is its block of SHA-256(tag) twice, hashed.
    t = hashlib.sha256(b"BIP0340/challenge").digest()
    words, length = libsha.sha256(t + t).midstate()
    assert length == 64 and words == struct.pack(">8I", *chaining(t + t))


def _refused(state, kind=libsha.sha256):
    with pytest.raises(ValueError, match="not a libsha saved state"):
        kind.from_state(state)


def test_every_single_byte_change_and_truncation_refused():
    for kind, obj in ((libsha.sha256, libsha.sha256(pattern251(100))), (libsha.HMAC, libsha.HMAC(b"k", b"m" * 70))):
        state = obj.state()
        for i in range(len(state)):
            for value in range(256):
                if value != state[i]:
                    _refused(state[:i] + bytes([value]) + state[i + 1 :], kind)
        for n in range(len(state)):
            _refused(state[:n], kind)
        _refused(state + b"\0", kind)
    _refused(libsha.HMAC(b"k").state())  # the other kind, either way
    _refused(libsha.sha256(b"k").state(), libsha.HMAC)


def test_versions_lengths_and_pending_bytes():
    words = chaining(b"")
    _refused(layout(1, 0, words, b"")[:4] + b"\x02" + layout(1, 0, words, b"")[5:])  # a version to come
    for version in (0, 2, 255):
        body = bytearray(layout(1, 0, words, b""))[:-8]
        body[4] = version
        _refused(bytes(body) + hashlib.sha256(bytes(body)).digest()[:8])
    _refused(layout(3, 0, words, b""))  # no such kind
    at_limit = layout(1, LIMIT, words, b"\x55" * (LIMIT % 64))
    g = libsha.sha256.from_state(at_limit)  # the last byte a message may have: valid, and finishes
    assert len(g.digest()) == 32
    with pytest.raises(OverflowError):  # at the update, or (the ctypes path keeps short updates) at the digest
        g.update(b"x")
        g.digest()
    _refused(layout(1, LIMIT + 1, words, b""))
    _refused(layout(1, 1 << 63, words, b""))
    _refused(layout(1, 5, words, b"abcdef"))  # more pending bytes than the length says (fewer: zeros, valid bytes)
    _refused(layout(1, 64, words, b"a"))
    body = bytearray(layout(1, 0, words, b""))[:-8]
    body[6] = 1  # a reserved byte
    _refused(bytes(body) + hashlib.sha256(bytes(body)).digest()[:8])
    _refused(layout(2, 63, words, b"a" * 63, words), libsha.HMAC)  # an HMAC's inner hash has its key block


def test_hmac_state_is_the_key_s_equal():
    state = libsha.HMAC(b"secret key").state()
    resumed = libsha.HMAC.from_state(state)
    resumed.update(b"message")
    assert resumed.digest() == hmac.digest(b"secret key", b"message", "sha256")
    assert b"secret key" not in state
