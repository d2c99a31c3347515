"""HMAC-SHA256: RFC 4231 through every path, every key and message length against the stdlib, bad input."""

import ctypes
import hashlib
import hmac
import pickle

import pytest

import libsha
from support.data import buffer_kinds, pattern251
from support.processes import run_threads
from libsha import _errors, _native
from libsha.reference import hmac_sha256 as reference_hmac
from libsha.reference import nist
from support.binding import ctypes_internals

pytestmark = [pytest.mark.core, pytest.mark.binding]

lib = _native.lib()
CASES = nist.hmac_cases()


def test_the_vectors_file_holds_rfc_4231_cases_1_to_7():
    assert len(CASES) == 7
    assert [len(mac) for _, _, mac in CASES] == [32, 32, 32, 32, 16, 32, 32]  # case 5 is truncated
    for key, msg, mac in CASES:
        assert hmac.new(key, msg, hashlib.sha256).digest()[: len(mac)] == mac
        assert reference_hmac(key, msg)[: len(mac)] == mac


@pytest.mark.parametrize("case", range(7), ids=[f"case{i + 1}" for i in range(7)])
def test_rfc_4231_through_every_path(one_stream_row, case):
    key, msg, mac = CASES[case]
    n = len(mac)
    out = ctypes.create_string_buffer(32)
    assert lib.libsha_hmac_sha256(key, len(key), msg, len(msg), out) == _errors.OK
    assert out.raw[:n] == mac, "C one-shot"
    for split in range(len(msg) + 1):  # the C streaming API, split at every point
        ctx = _native.HmacContext()
        assert lib.libsha_hmac_sha256_init(ctx, key, len(key)) == _errors.OK
        assert lib.libsha_hmac_sha256_update(ctx, msg[:split], split) == _errors.OK
        assert lib.libsha_hmac_sha256_update(ctx, msg[split:], len(msg) - split) == _errors.OK
        assert lib.libsha_hmac_sha256_final(ctx, out) == _errors.OK
        assert out.raw[:n] == mac, ("C streaming", split)
        h = libsha.hmac_new(key, msg[:split])  # and the Python object
        h.update(msg[split:])
        assert h.digest()[:n] == mac, ("Python object", split)
    assert libsha.hmac_sha256(key, msg)[:n] == mac, "Python one-shot"
    assert libsha.hmac_new(key, msg).hexdigest()[: 2 * n] == mac.hex()


def test_key_and_message_lengths_around_the_block(one_stream_row):
    # Every key length 0..200 with every message length 0..300 is tests/c/test_libsha.c's sweep.
    failures = []
    for keylen in (0, 1, 55, 56, 63, 64, 65, 128, 200):
        key = pattern251(keylen, keylen)
        for msglen in (0, 1, 55, 56, 63, 64, 65, 119, 120, 300):
            msg = pattern251(msglen, 3 * msglen + 1)
            if libsha.hmac_sha256(key, msg) != hmac.digest(key, msg, "sha256"):
                failures.append((keylen, msglen))
    assert failures == []


def test_the_object_at_key_lengths_around_the_block(one_stream_row):
    msg = pattern251(300, 5)
    for keylen in (0, 1, 31, 32, 55, 56, 63, 64, 65, 127, 128, 129, 200, 1000):
        key = pattern251(keylen, 11)
        expected = hmac.new(key, msg, hashlib.sha256)
        h = libsha.hmac_new(bytearray(key))
        for start in range(0, 300, 37):
            h.update(memoryview(msg)[start:start + 37])
        assert h.digest() == expected.digest(), keylen
        assert h.digest() == expected.digest(), keylen  # digest does not end the object


def test_buffers_of_every_kind():
    key, msg = pattern251(70), pattern251(500, 9)
    expected = hmac.digest(key, msg, "sha256")
    for key_kind, make_key in buffer_kinds():
        for msg_kind, make_msg in buffer_kinds():
            k, m = make_key(key), make_msg(msg)
            assert libsha.hmac_sha256(k, m) == expected, (key_kind, msg_kind)
            assert libsha.hmac_new(k, m).digest() == expected, (key_kind, msg_kind)


def test_hmac_object_interface():
    h = libsha.hmac_new(b"key")
    assert (h.name, h.digest_size, h.block_size) == ("hmac-sha256", 32, 64)
    assert isinstance(h, libsha.HMAC)
    c = h.copy()
    h.update(b"one")
    c.update(b"two")
    assert h.digest() == hmac.digest(b"key", b"one", "sha256")
    assert c.digest() == hmac.digest(b"key", b"two", "sha256")
    assert libsha.hmac_new(b"key", None).digest() == hmac.digest(b"key", b"", "sha256")
    assert "libsha.hmac-sha256" in repr(h)
    with pytest.raises(TypeError):
        pickle.dumps(h)


def test_one_hmac_object_shared_by_threads():
    h = libsha.hmac_new(b"k" * 80)
    chunk = pattern251(4096)

    def feed():
        for _ in range(100):
            h.update(chunk)

    run_threads(*[feed] * 4)
    assert h.digest() == hmac.digest(b"k" * 80, chunk * 400, "sha256")


# Every way a key or a message reaches libsha's HMAC.
TAKES_KEY = [lambda v: libsha.hmac_sha256(v, b"m"), libsha.hmac_new]
TAKES_MESSAGE = [lambda v: libsha.hmac_sha256(b"k", v), lambda v: libsha.hmac_new(b"k", v),
                 lambda v: libsha.hmac_new(b"k").update(v)]


@pytest.mark.parametrize("bad", ["key", ""])
def test_str_key_or_message_is_a_type_error_as_in_hmac(bad):
    with pytest.raises(TypeError):
        hmac.new(bad, b"m", "sha256")  # what the stdlib does
    for call in TAKES_KEY + TAKES_MESSAGE:
        with pytest.raises(TypeError):
            call(bad)


@pytest.mark.parametrize("bad", [None, 1, 1.5, object(), [1, 2]])
def test_non_buffers_are_type_errors(bad):
    messages = [c for c in TAKES_MESSAGE if bad is not None or c is not TAKES_MESSAGE[1]]  # hmac_new(k, None) is fine
    for call in TAKES_KEY + messages:
        with pytest.raises(TypeError):
            call(bad)


def test_non_contiguous_buffers_are_refused():
    strided = memoryview(bytes(64))[::2]
    for call in TAKES_KEY + TAKES_MESSAGE:
        with pytest.raises(libsha.NonContiguousError):
            call(strided)


def test_c_errors_write_nothing():
    out = ctypes.create_string_buffer(b"\x5a" * 32, 32)
    assert lib.libsha_hmac_sha256(None, 3, b"m", 1, out) == _errors.ERR_NULL
    assert lib.libsha_hmac_sha256(b"k", 1, None, 3, out) == _errors.ERR_NULL
    assert out.raw == b"\x5a" * 32
    assert lib.libsha_hmac_sha256(None, 0, None, 0, out) == _errors.OK  # NULL with length 0 is empty
    assert out.raw == hmac.digest(b"", b"", "sha256")


def test_context_is_wiped_by_final_and_by_wipe():
    ctx = _native.HmacContext()
    lib.libsha_hmac_sha256_init(ctx, b"secret key", 10)
    assert ctx.raw != bytes(len(ctx))
    lib.libsha_hmac_sha256_final(ctx, ctypes.create_string_buffer(32))
    assert ctx.raw == bytes(len(ctx))
    lib.libsha_hmac_sha256_init(ctx, b"secret key", 10)
    lib.libsha_hmac_sha256_wipe(ctx)
    assert ctx.raw == bytes(len(ctx))
    assert lib.libsha_hmac_sha256_ctx_size() == 2 * lib.libsha_sha256_ctx_size()


@ctypes_internals
def test_python_contexts_are_wiped_when_freed():
    # The objects own their contexts and wipe them when freed; held here, the memory stays to look at.
    import gc

    mac = libsha.hmac_new(b"secret key", b"message")
    ctx = mac._ctx
    assert ctx.raw != bytes(len(ctx))
    del mac
    gc.collect()
    assert ctx.raw == bytes(len(ctx))
    h = libsha.sha256()
    h.update(bytes(5000))  # long enough for a C context
    ctx = h._ctx
    assert ctx.raw != bytes(len(ctx))
    del h
    gc.collect()
    assert ctx.raw == bytes(len(ctx))
